"""``crewcheck deals``: seeded random deals as JSONL, ready for ``decide --batch``."""

from __future__ import annotations

import argparse
import contextlib
import sys
import textwrap
from collections.abc import Iterator
from typing import IO, Any

from crewcheck.cli import EXIT_OK, EXIT_USAGE, int_arg, one_line, output_arg
from crewcheck.errors import InvalidInputError

__all__ = ["add_parsers", "run_deals", "parse_counts"]

MAX_COUNTS = 1000
"""Most task counts one ``--tasks`` range may name."""

_EXAMPLES = """\
examples:
  crewcheck deals --players 4 --tasks 10 --count 10000 > k10.jsonl
  crewcheck deals --players 3 --tasks 1..12 --assignment free --count 1000 --seed 7 -o free.jsonl
  crewcheck deals --cell 4p-fixed-k10 --seed 20261123 --count 100    # benchmarks/corpus/4p-fixed-k10.jsonl
  crewcheck deals --cell 4p-fixed-k10 --seed 20261123 --start 41 --count 1   # its deal 41 alone
  crewcheck deals --mission 12 --players 5 --count 500 | crewcheck decide --batch - --out m12.jsonl

Each line is one deal file with two more keys: "id" ("<cell>/<n>", n counted from 0) and
"seed" (the --seed that made it; with --mission, the seed of `crewcheck mission N --seed S`).
A cell's deals are one stream seeded by a hash of --seed and the cell's name, so deal n is
the same whatever --start, --count or the other cells are, on every machine.
"""


def add_parsers(sub: Any) -> None:
    p = sub.add_parser(
        "deals", help="generate seeded random deals as JSONL (for decide --batch)",
        description=textwrap.fill("Generate seeded random Classic deals, one JSON deal per line, with an id and "
                    "the seed that makes it. The deal: the 40-card deck shuffled and dealt one card at "
                    "a time from seat 0, the holder of R4 (the commander) leads, K task cards drawn "
                    "from the 36 colour cards and drafted round-robin from the commander (fixed) or "
                    "left to the crew with the same per-seat counts (free). With --mission, deals of a "
                    "logbook mission as `crewcheck mission` deals them."),
        epilog=_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--players", type=int_arg(2, 5), default=4, metavar="P",
                   help="seats, 3..5 (2: two hands for small studies; with --mission, the game "
                        "with JARVIS) (default: 4)")
    p.add_argument("--tasks", default="10", metavar="K",
                   help="task cards, 0..36, or several counts: 1..12 or 1,4,8 (one cell each, in that "
                        "order) (default: 10)")
    p.add_argument("--assignment", choices=("fixed", "free"), default=None,
                   help="fixed (drafted round-robin from the commander) or free (default: fixed; with "
                        "--mission, the mission's)")
    p.add_argument("--tokens", action="store_true",
                   help="draw 1-3 order tokens per deal (absolute, relative or mixed; fixed assignment)")
    p.add_argument("--cell", action="append", metavar="NAME",
                   help="a cell by name, e.g. 4p-fixed-k10 or 4p-fixed-k08-tokens, instead of "
                        "--players/--tasks/--assignment/--tokens; repeat for several")
    p.add_argument("--mission", type=int_arg(1, 50), metavar="N",
                   help="deals of logbook mission N (its tasks, tokens, assignment and conditions; "
                        "--assignment overrides the mission's)")
    p.add_argument("--count", type=int_arg(0), default=100, metavar="N", help="deals per cell (default: 100)")
    p.add_argument("--start", type=int_arg(0), default=0, metavar="N",
                   help="number of the first deal written (the earlier ones are drawn and skipped) "
                        "(default: 0)")
    p.add_argument("--seed", type=int_arg(0), default=0, metavar="S", help="base seed, a whole number (default: 0)")
    p.add_argument("-o", "--out", type=output_arg, metavar="FILE", help="output file (default: standard output)")
    p.set_defaults(func=run_deals)


def parse_counts(text: str) -> tuple[int, ...]:
    """``"10"``, ``"1..12"``, ``"1,4,8..10"`` -> the task counts, each 0..36;
    :class:`InvalidInputError` (field ``--tasks``) for anything else."""
    out: list[int] = []
    try:
        for part in text.split(","):
            lo, sep, hi = part.strip().partition("..")
            a = int(lo) if lo.strip().isdigit() else -1
            b = (int(hi) if hi.strip().isdigit() else -1) if sep else a
            if a < 0 or b < a or b > 36:
                raise ValueError(part)
            out.extend(range(a, b + 1))
            if len(out) > MAX_COUNTS:
                raise ValueError(part)
    except ValueError:
        raise InvalidInputError(f"expected task counts 0..36 such as 10, 1..12 or 1,4,8, got {text!r}",
                                field="--tasks") from None
    return tuple(out)


def _lines(args: argparse.Namespace) -> Iterator[str]:
    """The JSONL lines asked for, lazily (arguments are checked before the first one)."""
    from crewcheck.formats.deal_json import to_line
    from crewcheck.model.dealing import Cell, generate

    if args.mission is not None:
        from crewcheck.missions.logbook import deal_mission

        assignment = args.assignment
        deal_mission(args.mission, args.players, args.seed, assignment)  # bad arguments fail before any output
        name = f"mission-{args.mission:02d}-{args.players}p"
        for n in range(args.start, args.start + args.count):
            yield to_line(deal_mission(args.mission, args.players, args.seed + n, assignment), ident=f"{name}/{n}", seed=args.seed + n)
        return
    if args.cell:
        cells = [Cell.parse(name) for name in args.cell]
    else:
        cells = [Cell(args.players, args.assignment or "fixed", k, args.tokens) for k in parse_counts(args.tasks)]
    for cell in cells:
        for n, instance in enumerate(generate(cell, args.count, seed=args.seed, start=args.start), args.start):
            yield to_line(instance, ident=f"{cell.name}/{n}", seed=args.seed)


def run_deals(args: argparse.Namespace) -> int:
    lines = _lines(args)
    try:
        first = next(lines, None)
    except InvalidInputError as e:
        field = {"players": "--players", "tasks": "--tasks", "assignment": "--assignment", "tokens": "--tokens",
                 "cell": "--cell"}.get(e.field, e.field)
        print(f"crewcheck: error: {one_line(f'{field}: {e.reason}' if field else e.reason)}", file=sys.stderr)
        return EXIT_USAGE
    try:
        out: contextlib.AbstractContextManager[IO[str]] = (
            open(args.out, "w", encoding="utf-8") if args.out else contextlib.nullcontext(sys.stdout))
        with out as f:
            if first is not None:
                f.write(first + "\n")
            for line in lines:
                f.write(line + "\n")
    except OSError as e:
        print(f"crewcheck: error: {args.out}: cannot write: {e.strerror}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK
