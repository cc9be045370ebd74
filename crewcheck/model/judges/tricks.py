"""The checker's judges of the kinds that judge which tricks a seat wins
(:mod:`crewcheck.model.conditions.tricks` says what each means; this module shares no code
with it)."""

from __future__ import annotations

from typing import Any

from crewcheck.model.judges.game import Game, Judge, compare


def wins_no_tricks(g: Game, c: dict[str, Any]) -> bool:
    return g.over and c["seat"] not in g.winners


def wins_tricks(g: Game, c: dict[str, Any]) -> bool:
    n, want = g.winners.count(c["seat"]), int(c["count"])
    if c["cmp"] == ">=":
        return n >= want
    if c["cmp"] == "<=":
        return n + g.remaining <= want
    return g.over and n == want


def wins_fewer_tricks_than(g: Game, c: dict[str, Any]) -> bool:
    return g.winners.count(c["seat"]) + g.remaining < g.winners.count(c["other"])


def wins_as_many_tricks_as(g: Game, c: dict[str, Any]) -> bool:
    wins = [t.winner for t in g.tricks]
    return g.over and wins.count(c["seat"]) == wins.count(c["other"])


def wins_more_than_the_rest(g: Game, c: dict[str, Any]) -> bool:
    mine = sum(1 for t in g.tricks if t.winner == c["seat"])
    return mine > len(g.tricks) + g.remaining - mine


def wins_tricks_at(g: Game, c: dict[str, Any]) -> bool:
    listed = c["tricks"]
    last_number = len(g.tricks) if g.over else None
    for number, (w, b) in enumerate(zip(g.winners, g.best), start=1):
        if number in listed or (number == last_number and "last" in listed):
            if w != c["seat"] or (c["not_with_trump"] and b.suit == g.trump):
                return False
        elif c["only"] and w == c["seat"]:
            return False
    if g.over:
        return True
    return not c["only"] and "last" not in listed and all(n <= len(g.tricks) for n in listed)


def wins_no_tricks_at(g: Game, c: dict[str, Any]) -> bool:
    listed = c["tricks"]
    for number, t in enumerate(g.tricks, start=1):
        is_last = g.over and number == len(g.tricks)
        if (number in listed or (is_last and "last" in listed)) and t.winner == c["seat"]:
            return False
    return g.over or ("last" not in listed and all(n <= len(g.tricks) for n in listed))


def _runs(g: Game, seat: int) -> list[int]:
    """The lengths of the runs of tricks ``seat`` won in a row."""
    out: list[int] = []
    previous = False
    for t in g.tricks:
        if t.winner == seat:
            if previous:
                out[-1] += 1
            else:
                out.append(1)
        previous = t.winner == seat
    return out


def wins_consecutive_tricks(g: Game, c: dict[str, Any]) -> bool:
    runs = _runs(g, c["seat"])
    longest = max(runs, default=0)
    if c["cmp"] == ">=" and not c["only"]:
        return longest >= int(c["count"])
    return g.over and compare(longest, c["cmp"], int(c["count"])) and (not c["only"] or len(runs) <= 1)


def balanced_tricks(g: Game, c: dict[str, Any]) -> bool:
    counts = [0] * len(g.instance.hands)
    for w in g.winners:
        counts[w] += 1
        if max(counts) - min(counts) >= c["margin"]:
            return False
    return g.over


JUDGES: dict[str, Judge] = {
    "wins_no_tricks": wins_no_tricks,
    "wins_tricks": wins_tricks,
    "wins_fewer_tricks_than": wins_fewer_tricks_than,
    "wins_as_many_tricks_as": wins_as_many_tricks_as,
    "wins_more_than_the_rest": wins_more_than_the_rest,
    "wins_tricks_at": wins_tricks_at,
    "wins_no_tricks_at": wins_no_tricks_at,
    "wins_consecutive_tricks": wins_consecutive_tricks,
    "balanced_tricks": balanced_tricks,
}
"""The judge of each kind of this module, by JSON name."""
