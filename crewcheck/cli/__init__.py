"""crewcheck: can this deal of The Crew be won? Exact deciders, witness checking and the
published claims re-derived.

Exit codes: 0 winnable / success, 1 unwinnable / a claim refuted, 2 bad input or usage,
3 unknown (budget exhausted) / a claim left open, 4 back-end unavailable or failed.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from crewcheck import __version__

__all__ = ["main", "SUBCOMMANDS", "EXIT_OK", "EXIT_NO", "EXIT_USAGE", "EXIT_UNKNOWN", "EXIT_BACKEND",
           "UsageError", "seconds_arg", "int_arg", "fraction_arg", "scheduler_arg", "output_arg", "time_left", "report", "parse_whole", "json_error", "one_line"]

EXIT_OK, EXIT_NO, EXIT_USAGE, EXIT_UNKNOWN, EXIT_BACKEND = 0, 1, 2, 3, 4

SUBCOMMANDS: tuple[str, ...] = (
    "crewcheck.cli.decide",     # decide, validate, show, backends
    "crewcheck.cli.deals",      # deals
    "crewcheck.cli.encode",     # encode, decode (logic back-ends)
    "crewcheck.cli.check",      # check (certificates)
    "crewcheck.cli.reduce",     # reduce hampath
    "crewcheck.cli.prove",      # prove
    "crewcheck.cli.bench",      # bench, simulate
    "crewcheck.cli.missions",   # missions, mission, draw
    "crewcheck.cli.analyse",    # analyse
    "crewcheck.cli.review",     # review
    "crewcheck.cli.serve",      # serve (the web page)
)
"""Modules that contribute subcommands: each has ``add_parsers(subparsers)``; every
parser it adds sets ``func=run_function(args) -> int`` with ``set_defaults``."""


class UsageError(Exception):
    """A command line argparse refuses: reported by :func:`main` as one line, exit 2."""

    input_error = True
    """Bad input (exit 2), as :func:`crewcheck.reports.errors.error_to_dict` reports it."""

    def __init__(self, prog: str, message: str) -> None:
        super().__init__(message)
        self.prog = prog
        self.message = message


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors raised (one line in :func:`main`) instead of printing
    the usage block and exiting; subparsers inherit the class."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(self.prog, message)


def seconds_arg(text: str) -> float | None:
    """argparse type of a time limit: a positive finite number of seconds, or ``none``
    (the rule of :func:`crewcheck.solvers.base.time_limit`, which the API applies too)."""
    from crewcheck.errors import InvalidInputError
    from crewcheck.solvers.base import time_limit

    if text.strip().lower() == "none":
        return None
    try:
        if not text.isascii():  # float() reads Arabic-Indic and other Unicode digits
            raise ValueError(text)
        return time_limit(float(text))
    except (ValueError, InvalidInputError):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds or 'none', got {text!r}") from None


def int_arg(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """argparse type of a whole number within ``low..high`` (``1.5`` and ``-1`` refused)."""

    def parse(text: str) -> int:
        try:
            value = parse_whole(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = (f"from {low}" if high is None else f"{low}..{high}") if low is not None else f"up to {high}"
            raise argparse.ArgumentTypeError(f"expected a whole number {bounds}, got {text!r}")
        return value

    parse.__name__ = "whole number"
    return parse


def fraction_arg(text: str) -> float:
    """argparse type of a number in ``(0, 1]`` written in ASCII (``0.1``)."""
    try:
        if not text.isascii():
            raise ValueError(text)
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1], got {text!r}") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1], got {text!r}")
    return value


def scheduler_arg(text: str) -> str:
    """argparse type of ``--scheduler``: ``local`` or a Dask scheduler's address."""
    from crewcheck.runtime.fanout import scheduler_problem

    problem = scheduler_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return text


def output_arg(text: str) -> str:
    """argparse type of an output file (``-o``, ``--out``): a non-empty path."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a file name, got an empty one")
    return text


def time_left(timeout: float | None, since: float) -> float | None:
    """What is left of a ``--timeout`` once reading and checking the deal (its conditions
    included) took the time since ``since`` (a :func:`time.perf_counter` reading): the
    budget covers them too. A spent budget leaves a millisecond (the answer: unknown)."""
    if timeout is None:
        return None
    return max(timeout - (time.perf_counter() - since), 1e-3)


def parse_whole(text: str) -> int:
    """``text`` as a whole number written in ASCII digits (``int()`` alone also reads
    ``"٣"`` and other Unicode digits, and ``"1_000"``); :class:`ValueError` otherwise."""
    body = text.strip()
    digits = body[1:] if body[:1] in "+-" else body
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 30:
        raise ValueError(f"not a whole number: {text!r}")
    return int(body, 10)


def json_error(error_type: str, message: str, field: str = "", *, input_error: bool = True) -> str:
    """``{"error": {...}}`` of ``--json`` mode as one line, the error object written by
    :func:`crewcheck.reports.errors.error_object`."""
    from crewcheck.reports.errors import error_object

    return json.dumps({"error": error_object(error_type, message, field=field, input_error=input_error)})


def report(args: argparse.Namespace | None, error: BaseException | str, code: int | None = None, *,
           where: str = "", envelope: dict[str, Any] | None = None) -> int:
    """Report a command's error and return its exit code: one line on stderr, and with
    ``--json`` the JSON object ``{**envelope, "error": {...}}`` on stdout, the error object
    written by :func:`crewcheck.reports.errors.error_to_dict` (every command reports
    through here). A message alone is a usage error; ``code`` defaults to 2 for bad input,
    else 4; ``where`` (a file) prefixes the line unless it already starts with it."""
    from crewcheck.reports.errors import error_to_dict

    if isinstance(error, str):
        error = UsageError("crewcheck", error)
    if code is None:
        code = EXIT_USAGE if error_to_dict(error)["input_error"] else EXIT_BACKEND
    if getattr(args, "json", False):
        print(json.dumps({**(envelope or {}), "error": error_to_dict(error)}))
    prefix = f"{where}: " if where and not str(error).startswith(where) else ""
    print(f"crewcheck: error: {one_line(f'{prefix}{error}')}", file=sys.stderr)
    return code


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="crewcheck", description=__doc__,
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
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        args = parser.parse_args(words)
        if not getattr(args, "func", None):
            commands: Any = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
            names = ", ".join(sorted(commands))
            raise UsageError("crewcheck", f"missing command: one of {names}")
    except UsageError as e:
        return _usage(e, words)
    try:
        return int(args.func(args))
    except UsageError as e:  # a command group given without its subcommand
        return _usage(e, words)
    except KeyboardInterrupt:
        print("crewcheck: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug, not bad input: one line, the traceback on request
        if os.environ.get("CREWCHECK_DEBUG"):
            raise
        message = one_line(f"{type(e).__name__}: {e}")
        if getattr(args, "json", False):
            print(json_error("InternalError", f"internal error: {message}", input_error=False))
        print(f"crewcheck: internal error: {message} (set CREWCHECK_DEBUG=1 for the traceback)", file=sys.stderr)
        return EXIT_BACKEND


def _usage(error: UsageError, words: list[str]) -> int:
    """Report a usage error: one line and where to look (a JSON object too with ``--json``)."""
    if "--json" in words:
        print(json_error("UsageError", one_line(error.message)))
    print(f"{error.prog}: error: {one_line(error.message)} (see '{error.prog} --help')", file=sys.stderr)
    return EXIT_USAGE


def one_line(text: str, limit: int = 300) -> str:
    """``text`` on one line, cut to about ``limit`` characters (an error message quoting
    a 5,000-character token stays readable)."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[:limit - 3] + "..."
