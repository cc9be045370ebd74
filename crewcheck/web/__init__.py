"""``crewcheck serve``: a local web page, a board to play a deal on card by card with every
legal card's verdict, undo and redo, a winning line from any point, the review of the
game, and the position in the page's address.

The page calls the same library functions as the command line (:func:`crewcheck.decide`,
:func:`crewcheck.analysis.analyse.analyse`, :func:`crewcheck.analysis.review.review`) and receives
their JSON as the command line writes it (:mod:`crewcheck.reports.results`), with the
same one-line error messages. Needs Flask (``pip install "crewcheck[web]"``);
:mod:`crewcheck.web.app` is the application, :mod:`.jobs` runs the decisions (progress,
cancel, one at a time per page), :mod:`.games` deals the games the page offers and
:mod:`.forms` turns the page's inputs into a deal and a position into what the page draws.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["make_server", "LOOPBACK"]

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def make_server(host: str = "127.0.0.1", port: int = 8765, *, workers: int = 1, timeout: float | None = None,
                examples: Path | None = None) -> Any:
    """A threaded WSGI server (werkzeug's) for the page, not yet serving: call its
    ``serve_forever()``, and ``shutdown()`` from another thread to stop it. Port 0 picks a
    free port (``server.server_port``). The job runner is ``server.app.extensions["crewcheck_jobs"]``."""
    import logging

    from werkzeug.serving import make_server as werkzeug_server

    from crewcheck.web.app import create_app
    from crewcheck.web.jobs import Jobs

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # not a line per poll of the page
    jobs = Jobs(workers)
    app = create_app(jobs=jobs, examples=examples, timeout=timeout)
    server = werkzeug_server(host, port, app, threaded=True)
    if host in LOOPBACK:
        # the Host header must name this machine's loopback at the real port (port 0 is
        # only known now)
        from crewcheck.web.app import loopback_hosts

        loopback_hosts(app, server.server_port)
    return server
