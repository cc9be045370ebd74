"""Measure ``crewcheck analyse`` and ``crewcheck review`` on corpus deals; print the figures.

``analyse``: every legal first card of the corpus deals (default: the 4-player Classic
cell with 8 fixed tasks, ``4p-fixed-k08``), at the first card of the game. The target is
a median under 1 s.

``review``: games played on those deals, made by :func:`make_game` and kept in
``benchmarks/corpus/games/<cell>.jsonl`` (made on the first run; ``--regenerate`` makes them
again): the game follows a winning line, then at a random card of a random trick (1-6)
one seat plays a card that loses the deal, and after it every seat plays a random legal
card, preferring cards that do not end the game, until 10 tricks are played or the game
ends. The target is under 5 s for a game of 10 tricks.

The compiled search kernel is loaded before timing (as ``crewcheck decide --batch``
does), so the figures are the analysis alone, not the process start-up.

Run: ``PYTHONPATH=$PWD python benchmarks/scripts/run_analysis.py [--cell 4p-fixed-k08] [--deals 100]``;
``--compare`` also runs each analysis with the refutation table not shared (a new table
per decision) and prints both.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from crewcheck import decide  # noqa: E402
from crewcheck.formats.deal_json import from_dict, to_dict  # noqa: E402
from crewcheck.model.instance import Instance  # noqa: E402
from crewcheck.model.state import State  # noqa: E402
from crewcheck.analysis.analyse import analyse  # noqa: E402
from crewcheck.analysis.review import review  # noqa: E402
from crewcheck.solvers.base import Verdict  # noqa: E402
from crewcheck.solvers.search import load_compiled  # noqa: E402

CORPUS = ROOT / "benchmarks" / "corpus"
GAMES = ROOT / "benchmarks" / "corpus" / "games"


def load_deals(cell: str, n: int) -> list[tuple[str, Instance]]:
    out = []
    with open(CORPUS / f"{cell}.jsonl", encoding="utf-8") as f:
        for line in f:
            data = json.loads(line)
            ident = data.pop("id")
            out.append((ident, from_dict(data)))
            if len(out) == n:
                break
    return out


def make_game(inst: Instance, rng: random.Random, tricks: int = 10) -> Instance | None:
    """A game on ``inst`` that is lost by one card (see the module docstring); ``None``
    when the deal cannot be won or no losing card was found."""
    r = decide(inst)
    if r.verdict is not Verdict.WINNABLE or r.witness is None:
        return None
    line = r.witness.plays
    p = inst.players
    k = min(len(line) - 1, (rng.randrange(6)) * p + rng.randrange(p))
    history = list(line[:k])
    state = inst.with_history(history).state()
    cards = [c for c in range(inst.deck.size) if state.legal_mask() >> c & 1]
    rng.shuffle(cards)
    for c in cards:
        child = inst.with_history((*history, c))
        if decide(child).verdict is Verdict.UNWINNABLE:
            history.append(c)
            break
    else:
        return None
    state = inst.with_history(history).state()
    rest = _late_end(state, rng, tricks)
    if rest is None:  # no way to last ``tricks`` tricks: random cards that keep the game going
        rest = []
        while state.end is None and state.tricks_played < tricks:
            legal = [c for c in range(inst.deck.size) if state.legal_mask() >> c & 1]
            rng.shuffle(legal)
            going_on = [c for c in legal if state.apply(c).end is None]
            c = (going_on or legal)[0]
            rest.append(c)
            state = state.apply(c)
    history.extend(rest)
    return inst.with_history(history)


def _late_end(state: State, rng: random.Random, tricks: int, nodes: int = 20000) -> list[int] | None:
    """Random cards from ``state`` (a lost position) such that the game goes on until
    trick ``tricks`` (depth-first, random order, at most ``nodes`` positions), or ``None``."""
    budget = [nodes]

    def go(s: State) -> list[int] | None:
        if s.tricks_played >= tricks or (s.end is not None and s.tricks_played == tricks):
            return []
        if s.end is not None or budget[0] <= 0:
            return None
        budget[0] -= 1
        legal = [c for c in range(s.instance.deck.size) if s.legal_mask() >> c & 1]
        rng.shuffle(legal)
        for c in legal:
            after = s.apply(c)
            if after.end is not None and after.tricks_played < tricks:
                continue
            got = go(after)
            if got is not None:
                return [c, *got]
        return None

    return go(state)


def load_games(cell: str, deals: list[tuple[str, Instance]], regenerate: bool) -> list[tuple[str, Instance]]:
    path = GAMES / f"{cell}.jsonl"
    if path.exists() and not regenerate:
        out = []
        with open(path, encoding="utf-8") as f:
            for line in f:
                data = json.loads(line)
                out.append((data.pop("id"), from_dict(data)))
        return out
    rng = random.Random(15)
    out = []
    for ident, inst in deals:
        game = make_game(inst, rng)
        if game is not None:
            out.append((ident, game))
    GAMES.mkdir(exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        for ident, game in out:
            f.write(json.dumps({"id": ident, **to_dict(game)}) + "\n")
    return out


@contextlib.contextmanager
def table_not_shared() -> Iterator[None]:
    """Run :mod:`crewcheck.analysis.review` with a new refutation table per decision (the
    comparison's baseline)."""
    import crewcheck.analysis.review as review_module

    saved = review_module.shared
    review_module.shared = contextlib.nullcontext  # type: ignore[assignment]
    try:
        yield
    finally:
        review_module.shared = saved


def summary(name: str, xs: list[float]) -> str:
    xs = sorted(xs)
    p90 = xs[min(len(xs) - 1, round(0.9 * (len(xs) - 1)))]
    return (f"{name}: {len(xs)} runs, median {statistics.median(xs):.3f} s, p90 {p90:.3f} s, "
            f"max {xs[-1]:.3f} s, mean {statistics.mean(xs):.3f} s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cell", default="4p-fixed-k08")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--games", type=int, default=None, help="review at most this many games (default: all)")
    ap.add_argument("--regenerate", action="store_true", help="make the games again")
    ap.add_argument("--compare", action="store_true", help="also run with the table not shared")
    ap.add_argument("--skip-analyse", action="store_true")
    ap.add_argument("--skip-review", action="store_true")
    args = ap.parse_args(argv)

    load = load_compiled()
    print(f"# {args.cell}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; "
          f"kernel loaded in {load or 0:.2f} s (not timed)")
    deals = load_deals(args.cell, args.deals)
    modes = [("shared table", contextlib.nullcontext)] + ([("table per decision", table_not_shared)]
                                                          if args.compare else [])
    if not args.skip_analyse:
        for label, ctx in modes:
            times, nodes, decisions = [], [], []
            with ctx():
                for _, inst in deals:
                    a = analyse(inst)
                    times.append(a.seconds)
                    nodes.append(a.nodes)
                    decisions.append(a.decisions)
            print(summary(f"analyse at the first card ({label})", times))
            print(f"  decisions per deal median {statistics.median(decisions):.0f}, "
                  f"nodes median {statistics.median(nodes):.0f}, total {sum(nodes)}")
    if not args.skip_review:
        games = load_games(args.cell, deals, args.regenerate)[: args.games]
        for label, ctx in modes:
            times, ten = [], []
            decisions = []
            with ctx():
                for ident, game in games:
                    t0 = time.perf_counter()
                    r = review(game)
                    dt = time.perf_counter() - t0
                    times.append(dt)
                    decisions.append(r.decisions)
                    if len(game.history) >= 10 * game.players:
                        ten.append(dt)
            print(summary(f"review ({label})", times))
            if ten:
                print(summary(f"review of 10-trick games ({label})", ten))
            print(f"  decisions per game median {statistics.median(decisions):.0f}, max {max(decisions)}; "
                  f"cards per game median {statistics.median(len(g.history) for _, g in games):.0f}")
    print(f"# load average at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
