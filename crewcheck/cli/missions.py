"""``crewcheck missions`` (the logbook as a table), ``crewcheck mission N`` (a seeded deal),
``crewcheck deepsea`` (a seeded *Mission Deep Sea* mission) and ``crewcheck draw DEAL``
(mission 12's random draw: :mod:`crewcheck.analysis.chance`).

The logbook is :mod:`crewcheck.missions.logbook`' data file. ``mission N`` writes the deal file of
one seeded game of mission N; rules the deal cannot express are named on stderr and in the
deal's ``comment``. ``deepsea`` draws task cards to a difficulty as the game does
(:mod:`crewcheck.missions.deepsea`) and writes the deal file, or with ``--decide`` says
whether some way of taking the cards wins.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any

from crewcheck.cli import EXIT_NO, EXIT_OK, EXIT_UNKNOWN, EXIT_USAGE, output_arg, parse_whole, report, seconds_arg
from crewcheck.errors import InvalidInputError
from crewcheck.runtime.progress import Progress
from crewcheck.missions.logbook import ASSIGNMENTS, DISTRESS, PLAYERS, READINGS, Mission, deal_mission, logbook, \
    missions, not_modelled

__all__ = ["add_parsers", "format_table"]


def add_parsers(sub: Any) -> None:
    ls = sub.add_parser(
        "missions", help="list the 50 logbook missions",
        description="List the 50 missions of The Quest for Planet Nine: tasks, tokens, assignment, "
                    "communication and special rule. '*' marks a rule that deals leave partly out "
                    "(see `crewcheck mission N`).")
    ls.add_argument("--json", action="store_true", help="print the logbook file (one JSON object)")
    ls.set_defaults(func=run_missions)

    one = sub.add_parser(
        "mission", help="deal a seeded game of a logbook mission as a deal file",
        description="Deal a seeded random game of logbook mission N and write it as a deal file: "
                    "hands, the commander's lead, the task cards with their tokens, the assignment and "
                    "the special rule's conditions. The same seed and player count give the same hands "
                    "in every mission.")
    one.add_argument("number", metavar="N", help="mission number, 1..50")
    one.add_argument("--players", default="4", metavar="P",
                     help=f"number of players: {', '.join(map(str, PLAYERS))} (default: 4); 2 is the "
                          "two-player game with JARVIS, a third seat whose columns are the deal's covered cards")
    one.add_argument("--seed", default="0", metavar="S", help="random seed, an integer (default: 0)")
    one.add_argument("--assignment", metavar="A",
                     help=f"hand the tasks out another way: {', '.join(ASSIGNMENTS)} (default: the mission's; "
                          "'fixed' gives the commander the first task card, the next seat the second, ...)")
    one.add_argument("--challenge", action="store_true",
                     help="Challenge for Three: no green cards and no R1, 10 cards each (2 or 3 players)")
    one.add_argument("--distress", metavar="D",
                     help=f"add the distress signal: {', '.join(DISTRESS)} (default: none)")
    one.add_argument("--reading", metavar="R", default="reference",
                     help=f"how the special rule is read: {', '.join(READINGS)} (default: reference, as Board Game "
                          "Arena plays it; 'literal': the rulebook's words, which differ in mission 46 with 3 players)")
    one.add_argument("--no-crew-choices", action="store_true",
                     help="leave out the token swap or move (missions 23, 40) and the five-player hand-over")
    one.add_argument("-o", "--output", type=output_arg, metavar="DEAL.json", help="output file (default: standard output)")
    one.set_defaults(func=run_mission)

    draw = sub.add_parser(
        "draw", help="mission 12: can a deal be won for every draw, for some draw, and how likely",
        description="Mission 12's random card after the first trick (each seat draws one from the seat on "
                    "its right) as a chance node: for the best task seats and first trick, whether the deal "
                    "is won for every draw, for some draw, and the exact chance of a win. 'For every draw' is "
                    "answered first (a first trick that wins every draw, or a losing draw after each), the "
                    "chance after it. Exit 0 when won for every draw, 1 when not (also when the time limit ran "
                    "out after that was known), 3 when the time limit ran out before that.")
    draw.add_argument("deal", metavar="DEAL.json", help="a deal before its first card, with tasks only ('-': stdin)")
    draw.add_argument("--time-limit", type=seconds_arg, default=None, metavar="SECONDS",
                      help="stop after this many seconds, or 'none' (default: none)")
    draw.add_argument("--backend", default=None, help="back-end for the positions after a draw (default: auto)")
    draw.add_argument("--shield", action="store_true",
                      help="the crew also chooses the card each seat places on its communication token, which the "
                           "reference never draws (exact answers; every draw of every first trick is decided)")
    draw.add_argument("--families", action="store_true",
                      help="prove lost draws in families: a draw the search loses is widened, by one SAT formula per "
                           "first trick with the draw as variables, into a family of lost draws (the same answers)")
    draw.add_argument("--every-only", action="store_true",
                      help="stop once 'for every draw' is known: when no first trick wins every draw, the chance "
                           "is not counted (that count can take hours; the answer gives the lower bound found)")
    draw.add_argument("--json", action="store_true", help="print one JSON object")
    draw.add_argument("--no-progress", action="store_true",
                      help="no progress on stderr (positions searched so far, now and then)")
    draw.set_defaults(func=run_draw)
    ds = sub.add_parser(
        "deepsea", help="deal a seeded Mission Deep Sea mission as a deal file",
        description="Deal a seeded Mission Deep Sea mission: the 40 cards dealt (the same hands as "
                    "`crewcheck mission` for the same seed and players), task cards turned up until their "
                    "difficulties add up to D (a card that would overshoot is set aside), the crew taking them "
                    "one each from the captain. Writes the deal file with the cards' conditions, or with "
                    "--decide decides every way of taking the cards (many at once in one SAT formula) and says "
                    "whether one wins.")
    ds.add_argument("--difficulty", required=True, metavar="D", help="the mission's difficulty, an integer from 1")
    ds.add_argument("--players", default="4", metavar="P", help="number of players: 3, 4, 5 (default: 4)")
    ds.add_argument("--seed", default="0", metavar="S", help="random seed, an integer (default: 0)")
    ds.add_argument("--take", metavar="SEATS",
                    help="the seat of each drawn card, comma-separated in draw order (default: the captain "
                         "takes the first card, the next seat the second, ...)")
    ds.add_argument("--decide", action="store_true",
                    help="decide every way of taking the cards (exit 0 winnable, 1 unwinnable, 3 unknown)")
    ds.add_argument("--time-limit", type=seconds_arg, default=60.0, metavar="SECONDS",
                    help="with --decide: seconds per way of taking the cards decided alone, or 'none'; the "
                         "formula deciding many ways at once gets at most 5 (default: 60)")
    ds.add_argument("--budget", type=seconds_arg, default=None, metavar="SECONDS",
                    help="with --decide: seconds for the whole mission, or 'none'; when they run out before a "
                         "winning way is found the answer is unknown (exit 3) (default: none)")
    ds.add_argument("--no-progress", action="store_true",
                    help="with --decide: no progress on stderr (default: the ways decided, now and then)")
    ds.add_argument("-o", "--output", type=output_arg, metavar="DEAL.json", help="output file (default: standard output)")
    ds.set_defaults(func=run_deepsea)


def _error(message: str, args: argparse.Namespace | None = None) -> int:
    """A usage error: one line (and a JSON error object with ``--json``), exit 2."""
    return report(args, message, EXIT_USAGE)


_FLAGS = {"players": "--players", "seed": "--seed", "assignment": "--assignment", "challenge": "--challenge",
          "distress": "--distress", "reading": "--reading", "difficulty": "--difficulty", "take": "--take"}


def _int(text: str, what: str) -> int:
    try:
        return parse_whole(text)
    except ValueError:
        expected = "a mission number 1..50" if what == "mission" else "an integer"
        raise InvalidInputError(f"expected {expected}, got {text!r}", field=what) from None


def _row(m: Mission) -> list[str]:
    rule = m.special_rule or ""
    if m.unsupported:
        rule = "* " + rule
    return [str(m.number), str(m.tasks), " ".join(m.tokens) or "-", m.assignment or "-",
            m.describe_communication() or "-", rule or "-"]


def format_table(rows: list[Mission]) -> str:
    """The missions as a text table, one line each."""
    head = ["#", "tasks", "tokens", "assignment", "communication", "special rule"]
    body = [_row(m) for m in rows]
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head) - 1)]
    lines = []
    for r in [head, *body]:
        cells = [r[0].rjust(widths[0]), r[1].rjust(widths[1])] + [c.ljust(w) for c, w in zip(r[2:-1], widths[2:])]
        lines.append("  ".join([*cells, r[-1]]).rstrip())
    return "\n".join(lines)


def run_missions(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps(logbook(), ensure_ascii=False))
        return EXIT_OK
    print(format_table(list(missions())))
    print("\n* part of the rule is not in deal files (mission 12's random draw: `crewcheck draw DEAL` answers it).\n"
          "  With 5 players, missions 25-50 with task cards let one seat hand a task over: deal files\n"
          "  carry it as a choice (\"handover\"). Communication limits do not change whether a deal\n"
          "  can be won with every hand known.")
    return EXIT_OK


def run_draw(args: argparse.Namespace) -> int:
    from crewcheck.analysis.chance import SHIELD_CAVEAT, analyse_draw
    from crewcheck.errors import CrewcheckError
    from crewcheck.formats import deal_json
    from crewcheck.runtime.progress import Progress
    from crewcheck.solvers.base import Budget

    if args.every_only and args.shield:
        return _error("--every-only does not apply with --shield: the shields are chosen by counting every draw", args)
    bar = Progress("draw, searched", unit="position", enabled=not args.no_progress)

    def searched(n: int) -> None:
        bar.update(n - bar.done)

    try:
        instance = deal_json.load(args.deal)
        answer = analyse_draw(instance, backend=args.backend, budget=Budget(seconds=args.time_limit),
                              progress=searched, shield=args.shield, families=args.families,
                              count=not args.every_only)
    except CrewcheckError as e:
        return _error(f"{args.deal}: {e}", args)
    finally:
        bar.close()
    if args.json:
        prob = answer.probability
        print(json.dumps({"every": answer.every, "some": answer.some, "complete": answer.complete,
                          "probability": None if prob is None else str(prob),
                          "probability_float": None if prob is None else float(prob),
                          "lower_bound": str(answer.lower), "decisions": answer.decisions,
                          "draws": {"searched": answer.counts.searched, "isomorphic": answer.counts.isomorphic,
                                    "carried_over": answer.counts.carried},
                          "formula": None if answer.formula is None else dataclasses.asdict(answer.formula),
                          "seconds": round(answer.seconds, 3),
                          "every_seconds": None if answer.every_seconds is None else round(answer.every_seconds, 3),
                          "first_tricks_lost": answer.tricks_lost,
                          "chance_counted": answer.counted,
                          "first_trick": None if answer.first_trick is None else
                          [str(instance.deck.card(c)) for c in answer.first_trick],
                          "choice": None if answer.choice is None else answer.choice.describe(instance),
                          "task_seats": None if answer.task_seats is None else
                          {str(instance.deck.card(t.card)): s for t, s in zip(instance.tasks, answer.task_seats)},
                          "shields": None if answer.shields is None else
                          [None if c is None else str(instance.deck.card(c)) for c in answer.shields],
                          "caveat": None if answer.shielded else SHIELD_CAVEAT}))
    else:
        print(answer.describe(instance))
    if answer.every is None:
        return EXIT_UNKNOWN
    return EXIT_OK if answer.every else EXIT_NO


def run_mission(args: argparse.Namespace) -> int:
    try:
        number = _int(args.number, "mission")
        players = _int(args.players, "players")
        seed = _int(args.seed, "seed")
        deal = deal_mission(number, players, seed, args.assignment, challenge=args.challenge,
                            distress=args.distress, reading=args.reading, crew_choices=not args.no_crew_choices)
    except InvalidInputError as e:
        return _input_error(e, args)
    code = _write_deal(deal, args.output)
    if code == EXIT_OK:  # a failed write says one line, the error's
        for line in not_modelled(missions()[number - 1], players, crew_choices=not args.no_crew_choices):
            print(f"crewcheck: note: mission {number}: not modelled: {line}", file=sys.stderr)
    return code


def _input_error(e: InvalidInputError, args: argparse.Namespace) -> int:
    """Exit 2 with ``e``'s one line, named by the command-line flag of its field."""
    flag = _FLAGS.get(e.field)
    return _error(f"{flag}: {e.reason}" if flag else e.reason, args)


def _write_deal(deal: dict[str, Any], output: str | None) -> int:
    """Write a deal file to ``output`` (standard output when ``None``)."""
    text = json.dumps(deal, indent=2) + "\n"
    if output:
        try:
            with open(output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            return _error(f"{output}: cannot write: {e.strerror}")
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _seats(text: str) -> tuple[int, ...]:
    try:
        return tuple(parse_whole(x) for x in text.split(","))
    except ValueError:
        raise InvalidInputError(f"expected seat numbers separated by commas, got {text!r}", field="take") from None


def _advance(bar: Progress, done: int, total: int) -> None:
    """One more way of taking the cards decided, of ``total``."""
    bar.total = total
    bar.update(done - bar.done)


def run_deepsea(args: argparse.Namespace) -> int:
    from crewcheck.experiments.deepsea_missions import decide_mission
    from crewcheck.missions.deepsea import deal_deepsea_mission, draw_mission

    try:
        difficulty = _int(args.difficulty, "difficulty")
        players = _int(args.players, "players")
        seed = _int(args.seed, "seed")
        take = _seats(args.take) if args.take else None
        deal = deal_deepsea_mission(difficulty, players, seed, take)
    except InvalidInputError as e:
        return _input_error(e, args)
    if args.decide:
        mission = draw_mission(difficulty, players, seed)
        bar = Progress("deepsea", unit="taking", enabled=not args.no_progress)
        try:
            r = decide_mission(mission, timeout=args.time_limit, budget=args.budget,
                               progress=lambda done, total: _advance(bar, done, total))
        except InvalidInputError as e:
            return _input_error(e, args)
        finally:
            bar.close()
        print(f"{r.verdict.value}  ({r.tried} of {r.takings} ways of taking the cards decided, {r.seconds:.2f} s)")
        print(f"captain: seat {mission.captain}; cards: {', '.join(mission.cards)}")
        if r.winning is not None:
            print("winning taking: " + ", ".join(f"{c} seat {s}" for c, s in zip(mission.cards, r.winning)))
        return {"winnable": EXIT_OK, "unwinnable": EXIT_NO}.get(r.verdict.value, EXIT_UNKNOWN)
    return _write_deal(deal, args.output)
