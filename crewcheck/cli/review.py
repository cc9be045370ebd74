"""``crewcheck review``: the card that turned a winnable game into a lost one."""

from __future__ import annotations

import argparse
import json
from typing import Any

from crewcheck.cli import EXIT_NO, EXIT_OK, EXIT_UNKNOWN, seconds_arg
from crewcheck.cli.analyse import fail, load_game, load_kernel, loading
from crewcheck.errors import CrewcheckError
from crewcheck.analysis.review import review
from crewcheck.reports.results import analysis_lines, describe_deal, review_lines, review_to_dict, summary
from crewcheck.solvers import registry
from crewcheck.solvers.base import Verdict

__all__ = ["add_parsers"]


def add_parsers(sub: Any) -> None:
    names = ", ".join(["auto", *sorted(registry.BACKENDS)])
    p = sub.add_parser(
        "review", help="find the card after which a played game could no longer be won",
        description="Review a game (a deal with its 'played' tricks and 'current' trick): the verdict "
                    "before each card, the first card after which the deal could no longer be won, and "
                    "the cards that would have kept it winnable there. A deal that was never winnable is "
                    "said so, with why. Exit code: 0 never lost (won or still winnable), 1 lost or never "
                    "winnable, 2 bad input or usage, 3 undecided (timeout), 4 back-end failure.")
    p.add_argument("deal", metavar="GAME", help="deal JSON file with its history, or - for standard input")
    p.add_argument("--backend", default="auto", metavar="NAME",
                   help=f"back-end for each decision: {names} (default: auto)")
    p.add_argument("--timeout", type=seconds_arg, metavar="S",
                   help="seconds per decision; then that verdict is 'unknown' (default: no limit)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(func=run_review)


def run_review(args: argparse.Namespace) -> int:
    try:
        instance = load_game(args.deal)
        loaded = load_kernel(args.backend)
        r = review(instance, backend=args.backend, timeout=args.timeout)
    except CrewcheckError as e:
        return fail(args, e)
    if r.losing is not None or r.start is Verdict.UNWINNABLE or r.gap is not None:
        code = EXIT_NO
    elif r.end is Verdict.WINNABLE:
        code = EXIT_OK
    else:
        code = EXIT_UNKNOWN
    if args.json:
        print(json.dumps({**review_to_dict(r), "kernel_load_seconds": loaded}))
        return code
    print(f"{summary(r)}  ({r.backend or 'no decision'}, {r.seconds:.3g} s, {r.decisions} decisions, "
          f"{r.nodes} nodes{loading(loaded)})")
    print(f"rules: {instance.rules}; {describe_deal(instance)}")
    for line in review_lines(r):
        print(line)
    if r.alternatives is not None:
        print(f"before card {r.losing + 1 if r.losing is not None else '?'} of the game:")
        for line in analysis_lines(r.alternatives, indent="      "):
            print(line)
    return code
