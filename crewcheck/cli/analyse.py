"""``crewcheck analyse``: every legal card's verdict at the position after a deal's history."""

from __future__ import annotations

import argparse
import json
from typing import Any

from crewcheck.cli import EXIT_NO, EXIT_OK, EXIT_UNKNOWN, report, seconds_arg
from crewcheck.errors import CrewcheckError, InvalidDealError, InvalidInputError
from crewcheck.formats import deal_json
from crewcheck.formats.deal_json import history_index
from crewcheck.formats.reading import decode, parse_json, read_bytes
from crewcheck.model.instance import Instance
from crewcheck.analysis.analyse import analyse
from crewcheck.reports.results import RESULT_SCHEMA, analysis_lines, analysis_to_dict, describe_deal, position_text
from crewcheck.solvers import registry
from crewcheck.solvers.base import Verdict

__all__ = ["add_parsers", "load_game", "loads_game", "fail", "load_kernel", "loading", "EXIT_FOR"]

EXIT_FOR = {Verdict.WINNABLE: EXIT_OK, Verdict.UNWINNABLE: EXIT_NO, Verdict.UNKNOWN: EXIT_UNKNOWN}


def add_parsers(sub: Any) -> None:
    names = ", ".join(["auto", *sorted(registry.BACKENDS)])
    p = sub.add_parser(
        "analyse", aliases=["analyze"], help="every legal card's verdict at the position after the history",
        description="For every legal card of the seat to play (after the deal's 'played' and 'current' "
                    "cards): can the deal still be won after it, with a winning line for the cards that "
                    "keep it winnable. Equivalent cards are grouped ('B3 = B4': one seat's cards of one "
                    "suit with no card still in play between them, no task card). Under free assignment "
                    "also: which seats can still take each open task. Exit code: 0 the position is "
                    "winnable, 1 it is not, 2 bad input or usage, 3 some verdict unknown (timeout), "
                    "4 back-end failure.")
    p.add_argument("deal", help="deal JSON file, or - for standard input")
    p.add_argument("--backend", default="auto", metavar="NAME",
                   help=f"back-end for each decision: {names} (default: auto)")
    p.add_argument("--timeout", type=seconds_arg, metavar="S",
                   help="seconds per decision; then that verdict is 'unknown' (default: no limit)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(func=run_analyse)


# -- shared with `review` -------------------------------------------------------------
def load_game(path: str) -> Instance:
    """Load a deal file; an illegal card in its history is reported with its index in
    the game (``... (card 10 of the game)``) and the error's ``index`` attribute."""
    return loads_game(decode(read_bytes(path), path))


def loads_game(text: str) -> Instance:
    """:func:`crewcheck.formats.deal_json.loads`, with the index of an illegal card of the history."""
    try:
        return deal_json.loads(text)
    except InvalidDealError as e:
        try:
            index = history_index(parse_json(text), e.field)
        except ValueError:
            index = None
        if index is None:
            raise
        error = InvalidDealError(f"{e.reason} (card {index + 1} of the game)", field=e.field, status=e.status)
        error.index = index  # type: ignore[attr-defined]
        raise error from None


def fail(args: argparse.Namespace, error: Exception) -> int:
    """Report ``error`` as ``decide`` does (one line on stderr; JSON too with ``--json``)."""
    where = args.deal if isinstance(error, InvalidInputError) else ""
    return report(args, error, where=where, envelope={"schema": RESULT_SCHEMA})


def load_kernel(backend: str) -> float | None:
    """Load the compiled search kernel before timing (as ``decide --batch`` does): an
    analysis makes many decisions, and its reported time is theirs. The seconds it took,
    or ``None`` if it was not needed."""
    if backend.lower() not in ("auto", "engine", "portfolio", "search"):
        return None
    from crewcheck.solvers.search import load_compiled

    return load_compiled()


def loading(seconds: float | None) -> str:
    return f"; +{seconds:.2g} s loading the search kernel" if seconds else ""


def run_analyse(args: argparse.Namespace) -> int:
    try:
        instance = load_game(args.deal)
        loaded = load_kernel(args.backend)
        a = analyse(instance, backend=args.backend, timeout=args.timeout)
    except CrewcheckError as e:
        return fail(args, e)
    code = EXIT_FOR[a.position.verdict]
    if code == EXIT_OK and any(v.verdict is Verdict.UNKNOWN for v in a.cards):
        code = EXIT_UNKNOWN
    if args.json:
        print(json.dumps({**analysis_to_dict(a), "kernel_load_seconds": loaded}))
        return code
    pos = a.position
    print(f"{pos.verdict.value}  ({pos.backend}, {a.seconds:.3g} s, {a.decisions} decisions, {a.nodes} nodes"
          f"{loading(loaded)})")
    print(f"rules: {instance.rules}; {describe_deal(instance)}")
    if pos.explanation:
        print(f"why: {pos.explanation}")
    kept = len(a.winning)
    total = sum(len(v.cards) for v in a.cards)
    print(f"{position_text(instance)}: " + (f"{sum(len(v.cards) for v in a.winning)} of {total} cards keep the deal "
                                        f"winnable" if total else "no card to play") + (
        f" ({kept} of {len(a.cards)} classes)" if len(a.cards) != total else ""))
    for line in analysis_lines(a):
        print(line)
    if a.tasks is not None and a.tasks:
        print("who can still take each open task (free assignment):")
        for t in a.tasks:
            card = instance.card(instance.tasks[t.task].card)
            seats = ", ".join(f"seat {s}" for s in t.seats) or "no seat"
            unknown = f" (undecided: {', '.join(f'seat {s}' for s in t.unknown)})" if t.unknown else ""
            print(f"  {card}: {seats}{unknown}")
    return code
