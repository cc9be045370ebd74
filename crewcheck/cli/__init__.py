"""crewcheck: can this deal of The Crew be won? Exact deciders, witness checking and the
published claims re-derived.

Exit codes: 0 winnable / success, 1 unwinnable / a claim refuted, 2 bad input or usage,
3 unknown (budget exhausted) / a claim left open, 4 back-end unavailable or failed.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from collections.abc import Sequence

from crewcheck import __version__

__all__ = ["main", "SUBCOMMANDS", "EXIT_OK", "EXIT_NO", "EXIT_USAGE", "EXIT_UNKNOWN", "EXIT_BACKEND"]

EXIT_OK, EXIT_NO, EXIT_USAGE, EXIT_UNKNOWN, EXIT_BACKEND = 0, 1, 2, 3, 4

SUBCOMMANDS: tuple[str, ...] = (
    "crewcheck.cli.decide",     # decide, validate, show, backends
    "crewcheck.cli.encode",     # encode, decode (logic back-ends)
    "crewcheck.cli.reduce",     # reduce hampath
    "crewcheck.cli.prove",      # prove
    "crewcheck.cli.bench",      # bench, simulate
    "crewcheck.cli.missions",   # missions, mission
    "crewcheck.cli.analyse",    # analyse
    "crewcheck.cli.review",     # review
    "crewcheck.cli.serve",      # serve (the web page)
)
"""Modules that contribute subcommands: each has ``add_parsers(subparsers)``; every
parser it adds sets ``func=run_function(args) -> int`` with ``set_defaults``."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="crewcheck", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"crewcheck {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(name).add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (never raises for bad input)."""
    if hasattr(signal, "SIGPIPE"):  # `crewcheck decide d.json | head` ends quietly
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        print("crewcheck: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug, not bad input: one line, the traceback on request
        if os.environ.get("CREWCHECK_DEBUG"):
            raise
        print(f"crewcheck: internal error: {type(e).__name__}: {e} "
              "(set CREWCHECK_DEBUG=1 for the traceback)", file=sys.stderr)
        return EXIT_BACKEND
