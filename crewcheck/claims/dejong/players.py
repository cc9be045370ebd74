"""de Jong §5.3 (seed ``001``, Figures 9-10): cheating, ignorant and smart Monte Carlo players.

The thesis plays 50 random 4-player CLASSIC deals with fixed objectives three times, once
with four players of each type, at 100 playouts per playable card (Figure 9; Figure 10 is
the same with 0.5 s per card), no hints, and plots the percentage of objectives completed.
It prints no point of either figure, only the shape: "on average, the smart Monte Carlo
player performs worse than both other types of players" and "the cheating Monte Carlo
player did perform best". This row judges that shape (nothing quantitative is printed,
so a holding statement is CONSISTENT, never CONFIRMED).

The job: for every seed, task count 1..10 and deal, the three players of
:mod:`crewcheck.agents.montecarlo` play the same deal (dealt as ``crewcheck bench agents``
deals it, key ``seed:4p:classic:Tt:i``; the objectives drafted by the ``random`` task
agent, i.e. a uniformly random fixed assignment with the draft's per-seat counts, de Jong's
fixed objectives), at 100 playouts per card. A chunk is :data:`CHUNK` deals of one seed
and task count; its record keeps, per deal and player, the objectives completed, the win
and the tricks played, so the record is the data and the verdict is recomputed from it.

The test (:func:`compare`): per seed, the per-deal difference of the fraction of objectives
completed between two players on the same deal (paired), its mean with a 95 % interval
(normal, over the seed's deals) and a two-sided p-value, Holm-corrected over the three
pairs of the seed. The shape is reproduced by a seed when smart is significantly below
both ignorant and cheating and cheating significantly above ignorant; the statement holds
when every seed reproduces it, and is contradicted when every seed has some pair
significantly the other way (e.g. smart above ignorant). The quick mode runs a few deals of one seed and, by the
ledger's rule, never changes the full run's verdict.

References
----------
.. [1] A. de Jong, "An Analysis of the Cooperative Card Game The Crew", seed ``001``,
   §5.1-5.3, Figures 9 and 10.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from crewcheck.claims.claim import Computation, Mode, Readings, Value
from crewcheck.claims.execution import run_job
from crewcheck.claims.stats import ALPHA, holm

__all__ = ["NAMESPACE", "PLAYERS", "PLAYOUTS", "CHUNK", "Design", "DESIGNS", "chunks", "players_chunk",
           "PairTest", "paired", "compare", "games", "judge_table", "dejong_5_3"]

NAMESPACE = "dejong-5.3/players/v1"
"""The job's namespace (its committed record: ``dejong-5.3__players__v1.json``)."""

PLAYERS: tuple[str, ...] = ("mc-cheating", "mc-ignorant", "mc-smart")
"""The three players, by their :func:`crewcheck.agents.make_agent` names."""

PLAYOUTS = 100
"""Playouts per playable card (Figure 9)."""

CHUNK = 10
"""Deals per chunk."""


@dataclass(frozen=True, slots=True)
class Design:
    """The seeds, task counts and deals per task count of one mode."""

    seeds: tuple[int, ...]
    counts: tuple[int, ...]
    deals: int


DESIGNS: dict[str, Design] = {
    "full": Design(seeds=(0, 1, 2), counts=tuple(range(1, 11)), deals=50),
    "quick": Design(seeds=(0,), counts=(1, 4), deals=2),
}
"""Full: 50 deals per task count 1..10 (the thesis's 50 games, read as 50 per count), three
seeds; quick: two deals at two counts, one seed."""


def chunks(mode: Mode) -> list[dict[str, Any]]:
    """The chunk parameters of ``mode``'s design, seed by seed."""
    d = DESIGNS[mode]
    return [{"seed": s, "tasks": t, "first": i, "deals": min(CHUNK, d.deals - i), "playouts": PLAYOUTS}
            for s in d.seeds for t in d.counts for i in range(0, d.deals, CHUNK)]


def players_chunk(params: Mapping[str, Any]) -> dict[str, Any]:
    """Play deals ``first .. first + deals - 1`` of one seed and task count with each player.

    Returns ``{"games": [[deal, player, objectives completed, won, tricks], ...]}``.
    """
    from crewcheck.agents import make_agent
    from crewcheck.agents.simulate import deal, play_game

    seed, t, budget = int(params["seed"]), int(params["tasks"]), str(params["playouts"])
    out: list[list[Any]] = []
    for i in range(int(params["first"]), int(params["first"]) + int(params["deals"])):
        key = f"{seed}:4p:classic:{t}t:{i}"
        setup = deal(4, t, seed=key, deck="classic")
        for player in PLAYERS:
            rec = play_game(setup, make_agent("random", budget), make_agent(player, budget), seed=key)
            out.append([i, player, rec.tasks_done, rec.won, rec.tricks])
    return {"games": out}


def games(mode: Mode) -> dict[tuple[int, int, int], dict[str, tuple[int, bool]]]:
    """Run (or read) the job: ``{(seed, tasks, deal): {player: (objectives completed, won)}}``."""
    params = chunks(mode)
    results = run_job(NAMESPACE, players_chunk, params, label="de Jong §5.3 players")
    table: dict[tuple[int, int, int], dict[str, tuple[int, bool]]] = {}
    for p, value in zip(params, results):
        for i, player, done, won, _ in value["games"]:
            table.setdefault((int(p["seed"]), int(p["tasks"]), int(i)), {})[player] = (int(done), bool(won))
    return table


@dataclass(frozen=True, slots=True)
class PairTest:
    """Player ``a`` against player ``b`` on the same deals of one seed."""

    a: str
    b: str
    deals: int
    mean: float
    """Mean over deals of (fraction completed by ``a``) - (fraction completed by ``b``)."""
    interval: tuple[float, float]
    """95 % interval of the mean (normal approximation over the deals)."""
    p_value: float
    """Two-sided, before correction."""
    adjusted: float = math.nan
    """Holm-adjusted over the seed's pairs."""

    @property
    def sign(self) -> int:
        """+1 (``a`` significantly above ``b``), -1 (below) or 0 (no significant difference)."""
        if not self.adjusted < ALPHA:
            return 0
        return 1 if self.mean > 0 else -1


def paired(a: str, b: str, diffs: Sequence[float]) -> PairTest:
    """The paired test of the per-deal differences ``diffs`` (a z test on their mean)."""
    n = len(diffs)
    mean = statistics.fmean(diffs) if n else 0.0
    sd = statistics.stdev(diffs) if n > 1 else 0.0
    se = sd / math.sqrt(n) if n else 0.0
    if se == 0:
        p = 1.0 if mean == 0 else 0.0
        return PairTest(a, b, n, mean, (mean, mean), p)
    z = mean / se
    return PairTest(a, b, n, mean, (mean - 1.959963984540054 * se, mean + 1.959963984540054 * se),
                    math.erfc(abs(z) / math.sqrt(2.0)))


PAIRS: tuple[tuple[str, str], ...] = (("mc-smart", "mc-ignorant"), ("mc-smart", "mc-cheating"),
                                      ("mc-cheating", "mc-ignorant"))
"""The pairs compared (the statement: the first two negative, the third positive)."""

WANTED: tuple[int, ...] = (-1, -1, 1)
"""The sign of each pair's difference the statement asserts."""


def compare(table: Mapping[tuple[int, int, int], Mapping[str, tuple[int, bool]]]) -> dict[int, list[PairTest]]:
    """Per seed, the Holm-corrected paired tests of :data:`PAIRS` on the fraction of
    objectives completed (every deal weighs the same, so every task count does too)."""
    out: dict[int, list[PairTest]] = {}
    for seed in sorted({k[0] for k in table}):
        rows = [(k[1], v) for k, v in sorted(table.items()) if k[0] == seed]
        tests = [paired(a, b, [(v[a][0] - v[b][0]) / t for t, v in rows]) for a, b in PAIRS]
        adjusted = holm([x.p_value for x in tests])
        out[seed] = [PairTest(x.a, x.b, x.deals, x.mean, x.interval, x.p_value, q) for x, q in zip(tests, adjusted)]
    return out


def _per_count(table: Mapping[tuple[int, int, int], Mapping[str, tuple[int, bool]]]) -> dict[str, str]:
    """Per task count, each player's percentage of objectives completed and wins (all seeds)."""
    out: dict[str, str] = {}
    for t in sorted({k[1] for k in table}):
        rows = [v for k, v in table.items() if k[1] == t]
        cells = []
        for player in PLAYERS:
            done = sum(v[player][0] for v in rows)
            wins = sum(v[player][1] for v in rows)
            cells.append(f"{player[3:]} {100 * done / (t * len(rows)):.1f} % ({wins} won)")
        out[f"{t} tasks, {len(rows)} deals"] = "; ".join(cells)
    return out


def _fmt(x: PairTest) -> str:
    return (f"{x.a[3:]} - {x.b[3:]}: {100 * x.mean:+.1f} points [{100 * x.interval[0]:+.1f}, "
            f"{100 * x.interval[1]:+.1f}], Holm p {x.adjusted:.3g}")


NOT_TRIED: tuple[str, ...] = (
    "Figure 10 (0.5 s of thinking time per card): a wall-clock budget, not reproducible on a shared "
    "machine, and the row's sentence is about Figure 9",
    "their deals and task counts: the thesis says 50 games in all and prints neither the task counts of "
    "the figure's axis nor how the 50 were spread over them (read here as 50 deals per count 1..10)",
    "their playout and tie rules beyond §5 (the random playout policy, how the first lead and the "
    "objective draft were randomised)",
)
"""Reasonable readings no run here covers."""


def dejong_5_3(mode: Mode) -> Computation:
    """de Jong §5.3: the smart (determinizing) player does worse than the ignorant one on
    average, and the cheating one is best (Figure 9, 100 playouts per card)."""
    return judge_table(games(mode), mode)


def judge_table(table: Mapping[tuple[int, int, int], Mapping[str, tuple[int, bool]]], mode: Mode) -> Computation:
    """The row's computation from the games of ``mode``'s design (:func:`games`)."""
    design = DESIGNS[mode]
    tests = compare(table)
    per_seed = {f"seed {s}": "; ".join(_fmt(x) for x in xs) for s, xs in tests.items()}
    signs = {s: tuple(x.sign for x in xs) for s, xs in tests.items()}
    holds = bool(signs) and all(sg == WANTED for sg in signs.values())
    words = {-1: "significantly below", 0: "not significantly different from", 1: "significantly above"}
    outcome = "; ".join(f"seed {s}: smart {words[sg[0]]} ignorant and {words[sg[1]]} cheating, cheating "
                        f"{words[sg[2]]} ignorant" for s, sg in signs.items())
    what = (f"{'quick, ' if mode == 'quick' else ''}{design.deals} deals per task count "
            f"{design.counts[0]}..{design.counts[-1]}, seeds {', '.join(map(str, design.seeds))}, {PLAYOUTS} "
            "playouts per card, random fixed objectives, no hints")
    tried = (f"{what}: {outcome}",)
    opposite = bool(signs) and all(any(x == -w for x, w in zip(sg, WANTED)) for sg in signs.values())
    readings = Readings(tried=tried, not_tried=NOT_TRIED, reproducing=tried if holds else (), contradicted=opposite)
    values = (
        Value("games", 3 * len(table), f"games played: {len(table)} deals x 3 players ({what})"),
        Value("objectives_completed", _per_count(table), "per task count: each player's percentage of "
              "objectives completed (Figure 9's measure) and games won, all seeds pooled"),
        Value("paired_differences", per_seed, "per seed: the mean per-deal difference of the fraction of "
              "objectives completed between two players on the same deals, in percentage points, its 95 % "
              "interval (normal, over the deals) and the Holm-adjusted two-sided p-value over the three pairs "
              f"(significant below {ALPHA})"),
        Value("shape_reproduced", {f"seed {s}": sg == WANTED for s, sg in signs.items()},
              "smart significantly below ignorant and cheating, cheating significantly above ignorant"),
    )
    evidence = "every seed: smart below ignorant and cheating, cheating best" if holds else outcome
    return Computation(values, holds=holds, readings=readings, evidence=evidence)
