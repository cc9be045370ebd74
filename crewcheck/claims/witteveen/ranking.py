"""Witteveen §5, Figures 5-7 (seed ``000``): the ranking of the agents over the whole grid.

The sentences judged, each read as "one pair of agents wins more games than another on
the same deals" (:data:`RANKINGS`):

* Figure 5: "the MCTS-UCT agent showed the best results overall, followed by the PMC agent.
  However, the difference between the two is only truly apparent, when the 'smart' scoring
  function is used", and its caption: "With the smart-scoring MCTS function both agent types
  perform better than with the regular scoring function". Pure players (one agent in both
  phases): MCTS-UCT above PMC with smart scoring, both above the pure Random player, smart
  above standard scoring for each. MCTS-UCT against PMC with standard scoring is shown but
  not judged (the thesis says the difference is not apparent there, which no test confirms).
* Figure 6: Tactical task-taking above Random task-taking, with smart-scoring PMC and with
  smart-scoring MCTS-UCT in the play phase.
* Figure 7: RandomSmart play above Random play, with smart-scoring MCTS-UCT taking the tasks.

The games come from the grid job (:mod:`crewcheck.claims.witteveen.ranking_job`): every pair
on the same seeded deals, so each ranking is a paired test (McNemar's, on the deals only one
of the two pairs won; :func:`crewcheck.claims.stats.paired_wins`), Holm-corrected over the
rankings of a reading. Readings of "overall" (the thesis pools nothing explicitly): all task
counts 1..20 pooled, and the rulebook's 1..10 tasks pooled (Figure 6's caption stresses
them). A reading reproduces the row when every ranking is significant in the stated
direction; the row is contradicted when, in every reading, some ranking is significant the
other way. Until every chunk of the grid is recorded the row is OPEN and says what is
covered and what the partial data shows.

References
----------
.. [1] E. Witteveen, "The Crew, a Strategy Analysis", seed ``000``, §5 and Appendix A.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from crewcheck.claims.claim import Computation, Mode, Readings, Value
from crewcheck.claims.execution import run_job
from crewcheck.claims.stats import ALPHA, PairedWins, holm, paired_wins
from crewcheck.claims.witteveen.ranking_job import (BUDGET, DESIGNS, NAMESPACE, PAIRS, Design, chunks,
                                                    ranking_chunk)

__all__ = ["Ranking", "RANKINGS", "SHOWN", "READINGS", "Grid", "grid", "paired_tests", "judge_grid",
           "witteveen_5_ranking"]

Pair = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Ranking:
    """``better`` wins more games than ``worse`` (each a ``(task agent, play agent)`` pair)."""

    label: str
    better: Pair
    worse: Pair


RANKINGS: tuple[Ranking, ...] = (
    Ranking("Fig. 5: MCTS-UCT above PMC, smart scoring", ("mcts-smart", "mcts-smart"), ("pmc-smart", "pmc-smart")),
    Ranking("Fig. 5: PMC above Random, smart scoring", ("pmc-smart", "pmc-smart"), ("random", "random")),
    Ranking("Fig. 5: MCTS-UCT above Random, standard scoring", ("mcts", "mcts"), ("random", "random")),
    Ranking("Fig. 5: PMC above Random, standard scoring", ("pmc", "pmc"), ("random", "random")),
    Ranking("Fig. 5: smart above standard scoring, MCTS-UCT", ("mcts-smart", "mcts-smart"), ("mcts", "mcts")),
    Ranking("Fig. 5: smart above standard scoring, PMC", ("pmc-smart", "pmc-smart"), ("pmc", "pmc")),
    Ranking("Fig. 6: Tactical above Random task-taking, PMC play", ("tactical", "pmc-smart"),
            ("random", "pmc-smart")),
    Ranking("Fig. 6: Tactical above Random task-taking, MCTS-UCT play", ("tactical", "mcts-smart"),
            ("random", "mcts-smart")),
    Ranking("Fig. 7: RandomSmart above Random play", ("mcts-smart", "randomsmart"), ("mcts-smart", "random")),
)
"""The rankings the row judges (every one must hold)."""

SHOWN: tuple[Ranking, ...] = (
    Ranking("Fig. 5: MCTS-UCT against PMC, standard scoring (not judged)", ("mcts", "mcts"), ("pmc", "pmc")),
)
"""Comparisons reported but not judged."""

READINGS: dict[str, tuple[int, ...]] = {
    "all task counts 1..20 pooled": tuple(range(1, 21)),
    "the rulebook's 1..10 tasks pooled": tuple(range(1, 11)),
}
"""The readings of "overall": the task counts pooled."""

Grid = dict[int, list[int]]
"""``{task count: [win bits of each deal recorded]}`` (:func:`~.ranking_job.won`)."""


def grid(mode: Mode) -> tuple[Grid, Design]:
    """Run (or read) the grid job; a chunk not recorded under ``--records-only`` is left out."""
    out: Grid = {}
    params = chunks(mode)
    for p, value in zip(params, run_job(NAMESPACE, ranking_chunk, params, label="Witteveen §5 grid", partial=True)):
        if value is not None:
            out.setdefault(int(p["tasks"]), []).extend(int(w) for w in value["wins"])
    return out, DESIGNS[mode]


@dataclass(frozen=True, slots=True)
class Tested:
    """One ranking's paired test in one reading."""

    ranking: Ranking
    test: PairedWins
    adjusted: float
    """Holm-adjusted over the reading's rankings."""

    @property
    def sign(self) -> int:
        """+1 (``better`` significantly above ``worse``), -1 (significantly below) or 0."""
        if not self.adjusted < ALPHA:
            return 0
        return 1 if self.test.difference > 0 else -1

    def text(self) -> str:
        t = self.test
        word = {1: "holds", 0: "not significant", -1: "reversed"}[self.sign]
        return (f"{self.ranking.label}: {t.difference:+.3f} [{t.interval[0]:+.3f}, {t.interval[1]:+.3f}] "
                f"({t.only_a} vs {t.only_b} discordant of {t.deals:,} deals, Holm p {self.adjusted:.3g}) — {word}")


def _index(pair: Pair) -> int:
    return PAIRS.index(pair)


def paired_tests(deals: Sequence[int], rankings: Sequence[Ranking] = RANKINGS) -> list[Tested]:
    """The paired test of every ranking on ``deals`` (win bits), Holm-corrected together."""
    tests = []
    for r in rankings:
        a, b = _index(r.better), _index(r.worse)
        only_a = sum(1 for w in deals if w >> a & 1 and not w >> b & 1)
        only_b = sum(1 for w in deals if w >> b & 1 and not w >> a & 1)
        tests.append(paired_wins(only_a, only_b, len(deals)))
    adjusted = holm([t.p_value for t in tests])
    return [Tested(r, t, q) for r, t, q in zip(rankings, tests, adjusted)]


def _coverage(g: Grid, design: Design) -> str:
    """Deals recorded per task count, as runs of equal counts."""
    parts: list[str] = []
    runs: list[tuple[int, int, int]] = []
    for t in design.counts:
        n = len(g.get(t, []))
        if runs and runs[-1][2] == n and runs[-1][1] == t - 1:
            runs[-1] = (runs[-1][0], t, n)
        else:
            runs.append((t, t, n))
    for lo, hi, n in runs:
        counts = f"{lo}" if lo == hi else f"{lo}..{hi}"
        parts.append(f"{n} of {design.deals} deals at {counts} tasks" if n else f"none at {counts} tasks")
    return "; ".join(parts)


def _wins_by_pair(g: Grid, counts: Sequence[int]) -> dict[str, str]:
    deals = [w for t in counts for w in g.get(t, [])]
    return {f"{ta} / {pa}": f"{sum(w >> k & 1 for w in deals)}/{len(deals)}" for k, (ta, pa) in enumerate(PAIRS)}


def _figure_pairs_by_count(g: Grid, design: Design) -> dict[str, str]:
    """Per task count recorded, the wins of every pair the rankings compare (the figures' points)."""
    pairs = list(dict.fromkeys(p for r in RANKINGS + SHOWN for p in (r.better, r.worse)))
    return {f"{t} tasks, {len(g[t])} deals": ", ".join(f"{ta}/{pa} {sum(w >> _index((ta, pa)) & 1 for w in g[t])}"
                                                      for ta, pa in pairs)
            for t in design.counts if g.get(t)}


NOTES: tuple[str, ...] = (
    f"The thesis gives no iteration budget; the grid uses {BUDGET} iterations per move for every tree search "
    "(as crewcheck bench agents).",
)
NOT_TRIED: tuple[str, ...] = (
    f"iteration budgets other than {BUDGET} per move: the thesis gives none, and a ranking of search agents "
    "can change with the budget, so a ranking reversed at this one budget does not refute the sentences",
)
"""Readings not tried: a failing grid is NOT REPRODUCED, never REFUTED, until they are."""


def judge_grid(g: Grid, design: Design) -> Computation:
    """The row's computation from the deals recorded (``g``) of ``design``: OPEN until every
    deal of the design is, then the paired tests of every reading."""
    covered = _coverage(g, design)
    complete = all(len(g.get(t, [])) == design.deals for t in design.counts)
    tested = {name: paired_tests([w for t in counts if t in design.counts for w in g.get(t, [])])
              for name, counts in READINGS.items() if any(g.get(t) for t in counts)}
    shown = {name: "; ".join(x.text() for x in xs) for name, xs in tested.items()}
    unjudged = {name: paired_tests([w for t in counts for w in g.get(t, [])], SHOWN)[0].text()
                for name, counts in READINGS.items() if name in tested}
    values = (
        Value("coverage", covered, f"deals recorded per task count (seed {design.seed}, 3 players, "
              f"the 36 pairs on each deal)"),
        Value("rankings_by_reading", shown, "per reading: each ranking's difference of win rates on the same "
              "deals, its 95 % paired interval, the discordant deals and McNemar's test, Holm-corrected over "
              f"the rankings of the reading (significant below {ALPHA})"),
        Value("not_judged", unjudged, "shown, not judged: the thesis says no clear difference"),
        Value("wins_by_pair", _wins_by_pair(g, design.counts), "games won / deals recorded per task / play "
              f"agent pair, all task counts pooled ({BUDGET} iterations per move)"),
        Value("wins_by_task_count", _figure_pairs_by_count(g, design), "per task count: games won by each "
              "task/play pair the rankings compare, of the deals recorded (Figures 5-7 plot these)"),
    )
    if not complete or not tested:
        first = next(iter(tested.values()), [])
        summary = ", ".join(f"{x.ranking.label.split(': ', 1)[1]} {x.test.difference:+.3f} "
                            f"[{x.test.interval[0]:+.3f}, {x.test.interval[1]:+.3f}]" for x in first)
        n = sum(len(g.get(t, [])) for t in design.counts)
        return Computation(values + (Value("reproduced", False, "not judged: the grid is incomplete"),),
                           holds=None, notes=NOTES, open_reason=(
            f"the committed record of the grid is incomplete ({covered}; the design: {design.deals} deals per task "
            f"count {design.counts[0]}..{design.counts[-1]}, 36 pairs each); the partial data, not judged, on the "
            f"{n:,} deals recorded, difference of win rates with its 95 % paired interval: "
            f"{summary or 'no deal recorded'}"))
    signs = {name: [x.sign for x in xs] for name, xs in tested.items()}
    reproducing = tuple(name for name, s in signs.items() if all(x == 1 for x in s))
    contradicted = all(any(x == -1 for x in s) for s in signs.values())
    tried = tuple(f"{name}: {sum(x == 1 for x in s)} of {len(s)} rankings hold, {sum(x == -1 for x in s)} "
                  f"reversed" for name, s in signs.items())
    evidence = (f"every ranking holds under: {', '.join(reproducing)}" if reproducing else "; ".join(tried))
    return Computation(values + (Value("reproduced", bool(reproducing), "some reading has every ranking "
                                       "significant in the stated direction"),),
                       holds=None, notes=NOTES, evidence=evidence,
                       readings=Readings(tried=tried, not_tried=NOT_TRIED, reproducing=reproducing,
                                         contradicted=contradicted))


def witteveen_5_ranking(mode: Mode) -> Computation:
    """Witteveen §5, Figures 5-7: the agents' ranking over the whole task x play grid."""
    g, design = grid(mode)
    return judge_grid(g, design)
