"""Time per decision of each special-case decider against the exhaustive oracle (and the
``search`` back-end when it is installed), on random deals of the decider's class.

Usage::

    PYTHONPATH=. python benchmarks/scripts/run_special.py [--deals 40] [--seed 1] [--markdown]

Prints one row per decider: deals, mean seconds per decision for the special decider,
the oracle and search, and the ratios oracle/special and search/special. All timings
come from this one run on this machine (2 shared cores: compare ratios, not seconds).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from crewcheck.model.cards import Deck  # noqa: E402
from crewcheck.model.instance import Instance  # noqa: E402
from crewcheck.model.tasks import Task  # noqa: E402
from crewcheck.solvers import registry  # noqa: E402
from crewcheck.solvers.base import Budget, Verdict  # noqa: E402
from crewcheck.solvers.exhaustive import ExhaustiveSolver  # noqa: E402


def _deal(rng: random.Random, deck: Deck, players: int) -> tuple[int, ...]:
    cards = list(range(deck.size))
    rng.shuffle(cards)
    cuts = sorted(rng.sample(range(1, deck.size), players - 1))
    bounds = [0, *cuts, deck.size]
    return tuple(sum(1 << c for c in cards[a:b]) for a, b in zip(bounds, bounds[1:]))


def single_value(rng: random.Random) -> Instance:
    deck = Deck.from_cards(Deck.from_sizes({chr(65 + i): 1 for i in range(10)}).cards)
    hands = _deal(rng, deck, 3)
    owner = rng.randrange(3)
    tasks = tuple(Task(c, owner) for c in rng.sample(range(10), 3))
    return Instance(deck, hands, tasks, None, "any")


def single_suit(rng: random.Random, owned: bool) -> Instance:
    deck = Deck.from_sizes({"B": 12})
    hands = _deal(rng, deck, 3)
    tasks = []
    for c in rng.sample(range(12), 3):
        seat = next(s for s, h in enumerate(hands) if h >> c & 1) if owned else rng.randrange(3)
        tasks.append(Task(c, seat))
    return Instance(deck, hands, tuple(tasks), None, "any")


def two_player(rng: random.Random) -> Instance:
    deck = Deck.from_sizes({"B": 4, "G": 4, "P": 4, "Y": 4})
    cards = list(range(16))
    rng.shuffle(cards)
    one = sum(1 << c for c in cards[:8])
    return Instance(deck, (one, deck.full_mask & ~one), (Task(rng.randrange(16), 0),), None, 0)


def two_player_standard(rng: random.Random) -> Instance:
    deck = Deck.from_sizes({"B": 9, "G": 9, "P": 9, "Y": 9})
    cards = list(range(36))
    rng.shuffle(cards)
    one = sum(1 << c for c in cards[:18])
    return Instance(deck, (one, deck.full_mask & ~one), (Task(rng.randrange(36), 0),), None, 0)


def hampath(rng: random.Random) -> Instance:
    import networkx as nx

    from crewcheck.solvers.special.hampath import reduce_hampath

    g = nx.gnp_random_graph(4, 0.5, seed=rng.randrange(10**6))
    return reduce_hampath(g)


SAMPLES = {
    "single_value": "10 one-card suits, 3 seats, 3 tasks of one seat",
    "single_suit_owned": "1 suit x 12, 3 seats, 3 owned tasks",
    "single_suit": "1 suit x 12, 3 seats, 3 tasks",
    "two_player_one_task": "4 suits x 4, 2 seats, 1 task",
    "hampath": "figure reduction of G(4, 0.5)",
    "two_player_one_task/4x9": "4 suits x 9 (Witteveen's deck), 2 seats, 1 task; no oracle",
}

CLASSES: dict[str, Callable[[random.Random], Instance]] = {
    "single_value": single_value,
    "single_suit_owned": lambda r: single_suit(r, True),
    "single_suit": lambda r: single_suit(r, False),
    "two_player_one_task": two_player,
    "hampath": hampath,
    "two_player_one_task/4x9": two_player_standard,
}


def _time(fn: Callable[[], object], repeat: int = 1) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--oracle-seconds", type=float, default=60.0)
    ap.add_argument("--only", nargs="*", help="rows to run (default: all)")
    args = ap.parse_args()
    has_search = registry.available().get("search") is None
    oracle = ExhaustiveSolver()
    print("| decider | class sample | deals | special s/decision | oracle s/decision | oracle/special |"
          + (" search s/decision | search/special |" if has_search else ""))
    print("|---|---|---|---|---|---|" + ("---|---|" if has_search else ""))
    for name, make in CLASSES.items():
        if args.only and name not in args.only:
            continue
        rng = random.Random(args.seed)
        solver = registry.get(name.split("/")[0])
        use_oracle = not name.endswith("4x9")
        deals = [make(rng) for _ in range(args.deals)]
        deals = [d for d in deals if d.tasks and solver.supports(d) is None]
        sp, orc, srch, unknown = [], [], [], 0
        for d in deals:
            sp.append(_time(lambda: solver.decide(d, budget=Budget()), repeat=3))
            if use_oracle:
                t = time.perf_counter()
                v = oracle.decide(d, budget=Budget(seconds=args.oracle_seconds)).verdict
                orc.append(time.perf_counter() - t)
                unknown += v is Verdict.UNKNOWN
            if has_search:
                s = registry.get("search")
                srch.append(_time(lambda: s.decide(d, budget=Budget(seconds=args.oracle_seconds))))
        ms = statistics.mean(sp)
        sample = SAMPLES[name]
        if orc:
            mo = statistics.mean(orc)
            row = (f"| {name} | {sample} | {len(deals)} | {ms:.2e} | {mo:.2e}"
                   f"{' (' + str(unknown) + ' timeouts)' if unknown else ''} | {mo / ms:,.0f}x |")
        else:
            row = f"| {name} | {sample} | {len(deals)} | {ms:.2e} | - | - |"
        if has_search:
            mse = statistics.mean(srch)
            row += f" {mse:.2e} | {mse / ms:,.0f}x |"
        print(row, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
