"""``crewcheck serve``: the local web page."""

from __future__ import annotations

import argparse
import importlib.util
import sys
import threading
from pathlib import Path
from typing import Any

from crewcheck.cli import EXIT_BACKEND, EXIT_OK, EXIT_USAGE, int_arg, seconds_arg

__all__ = ["add_parsers"]


def add_parsers(sub: Any) -> None:
    p = sub.add_parser(
        "serve", help="a local web page: play a deal card by card with every card's verdict",
        description="Serve a web page at http://HOST:PORT/: a board to play a deal on (a logbook mission, "
                    "a random Classic or Deep Sea deal, or a deal file pasted or uploaded), card by card, "
                    "with every legal card's verdict (still winnable after it, or not), undo and redo, "
                    "a winning line from any point, a review of the game, and the position in the "
                    "page's address. Needs Flask: pip install \"crewcheck[web]\". Stop with Ctrl-C.")
    p.add_argument("--port", type=int_arg(0, 65535), default=8765, help="port (default: 8765; 0 picks a free one)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default: 127.0.0.1, this machine only; anything else "
                        "lets other machines use your processors)")
    p.add_argument("--workers", type=int_arg(1, 64), default=1, metavar="N",
                   help="decisions run at once across all pages (default: 1); one per page at most")
    p.add_argument("--timeout", type=seconds_arg, metavar="S",
                   help="seconds per decision; then 'unknown' (default: until decided or cancelled)")
    p.add_argument("--examples", metavar="DIR", help="directory of example deal files offered on the page "
                   "(default: models/deals of the source tree)")
    p.set_defaults(func=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("flask") is None:
        print("crewcheck: error: serve needs Flask: pip install \"crewcheck[web]\"", file=sys.stderr)
        return EXIT_BACKEND
    if not 0 <= args.port <= 65535 or args.workers < 1:
        print("crewcheck: error: --port must be 0..65535 and --workers at least 1", file=sys.stderr)
        return EXIT_USAGE
    examples = Path(args.examples) if args.examples else None
    if examples is not None and not examples.is_dir():
        print(f"crewcheck: error: --examples: {args.examples!r} is not a directory", file=sys.stderr)
        return EXIT_USAGE
    from crewcheck.web import LOOPBACK, make_server

    try:
        server = make_server(args.host, args.port, workers=args.workers, timeout=args.timeout,
                             examples=examples)
    except OSError as e:
        print(f"crewcheck: error: cannot listen on {args.host}:{args.port}: {e.strerror}", file=sys.stderr)
        return EXIT_USAGE
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"crewcheck: serving http://{host}:{server.server_port}/ (Ctrl-C stops)", file=sys.stderr)
    if args.host not in LOOPBACK:
        print("crewcheck: warning: listening beyond this machine; anyone who can reach it can run "
              "decisions here", file=sys.stderr)
    from crewcheck.solvers.search import load_compiled

    threading.Thread(target=load_compiled, name="crewcheck-warm", daemon=True).start()
    try:
        server.serve_forever()  # werkzeug's ends quietly on Ctrl-C
    except KeyboardInterrupt:
        pass
    finally:
        server.app.extensions["crewcheck_jobs"].shutdown()  # cancels running decisions
        server.server_close()
    print("crewcheck: stopped", file=sys.stderr)
    return EXIT_OK
