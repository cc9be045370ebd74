"""Witteveen §5 (seed ``000``): pure MCTS-UCT wins more than 90 % of the 10-task games.

The thesis plays 3-player games of its 36-card deck (no rockets, random commander) with
every combination of its task and play agents, 1000 seeded deals per task count 1..20,
and states: "the maximum number of tasks specified by the *The Crew* rulebook is 10 and
the pure MCTS-UCT player is capable of winning > 90% of these games". Its figures' points
are not in the text, and it gives no iteration budget (1000 per move here, as in
``crewcheck bench agents``).

The job: MCTS-UCT in both phases (the "pure" player, as the thesis calls the both-phase
Random player "pure"), 1000 iterations per move, on the deals ``crewcheck bench agents``
deals (key ``seed:3p:plain:Tt:i``, play phase reseeded as in §5), in chunks of
:data:`CHUNK` deals; a chunk's record keeps, per deal, the win and the tasks completed.
Readings (the thesis does not say which scoring the sentence is about, nor whether
"these games" are the 10-task ones or all games up to 10 tasks):

* ``smart`` or ``standard`` scoring (``mcts-smart`` / ``mcts``);
* the 10-task games (three seeds of 1000 deals) or the games with 1..10 tasks pooled
  (seeds 0 and 1, smart scoring, 1000 deals per count; a seed enters the reading only once
  every chunk of it is recorded, else it is listed as not tried with what is recorded).

The test: the printed bound is a number, not an estimate, so each seed's rate is compared
with 0.9 by a one-sided score test (the Wilson interval), Holm-corrected over the seeds of
a reading. A reading *reproduces* the sentence when every seed's rate is significantly
above 0.9, *contradicts* it when every seed's is significantly below. The agents' ranking
(the rest of §5) needs the whole grid: :mod:`crewcheck.claims.witteveen.ranking`.

References
----------
.. [1] E. Witteveen, "The Crew, a Strategy Analysis", seed ``000``, §4.2.3 and §5.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from crewcheck.claims.claim import Computation, Mode, Readings, Value
from crewcheck.claims.execution import run_job
from crewcheck.claims.stats import ALPHA, holm, wilson

__all__ = ["NAMESPACE", "BOUND", "BUDGET", "CHUNK", "AGENTS", "Design", "DESIGNS", "chunks", "mcts_chunk",
           "BoundTest", "bound_test", "chunks_below", "games", "judge_table", "witteveen_5_mcts"]

NAMESPACE = "witteveen-5/mcts/v1"
"""The job's namespace (its committed record: ``witteveen-5__mcts__v1.json``)."""

BOUND = 0.90
"""The thesis's bound ("> 90%"), for the comparison only."""

BUDGET = 1000
"""MCTS iterations per move (the thesis gives none)."""

CHUNK = 100
"""Deals per chunk."""

AGENTS: dict[str, str] = {"smart": "mcts-smart", "standard": "mcts"}
"""Scoring reading -> the agent playing both phases."""


@dataclass(frozen=True, slots=True)
class Design:
    """Seeds at 10 tasks (every scoring), seeds and agents at 1..9 tasks, deals per task count."""

    seeds_10: tuple[int, ...]
    seeds_below: tuple[int, ...]
    below_agents: tuple[str, ...]
    deals: int


DESIGNS: dict[str, Design] = {
    "full": Design(seeds_10=(0, 1, 2), seeds_below=(0, 1), below_agents=("mcts-smart",), deals=1000),
    "quick": Design(seeds_10=(0,), seeds_below=(), below_agents=(), deals=20),
}
"""Full: the thesis's 1000 deals per task count, three seeds at 10 tasks, seeds 0 and 1 with smart
scoring at 1..9 (the pooled reading); quick: 20 deals at 10 tasks, one seed."""


def _chunk(s: int, t: int, a: str, i: int, deals: int) -> dict[str, Any]:
    return {"seed": s, "tasks": t, "agent": a, "first": i, "deals": min(CHUNK, deals - i), "budget": BUDGET}


def chunks(mode: Mode) -> list[dict[str, Any]]:
    """The chunk parameters of ``mode``'s 10-task games."""
    d = DESIGNS[mode]
    return [_chunk(s, 10, a, i, d.deals) for s in d.seeds_10 for a in AGENTS.values() for i in range(0, d.deals, CHUNK)]


def chunks_below(mode: Mode) -> list[dict[str, Any]]:
    """The chunk parameters of ``mode``'s games with 1..9 tasks (the pooled reading)."""
    d = DESIGNS[mode]
    return [_chunk(s, t, a, i, d.deals) for s in d.seeds_below for t in range(1, 10) for a in d.below_agents
            for i in range(0, d.deals, CHUNK)]


def mcts_chunk(params: Mapping[str, Any]) -> dict[str, Any]:
    """Play deals ``first .. first + deals - 1`` of one seed and task count with ``agent`` in
    both phases. Returns ``{"games": [[deal, won, tasks completed], ...]}``."""
    from crewcheck.agents import make_agent
    from crewcheck.agents.simulate import deal, play_game

    seed, t, agent, budget = int(params["seed"]), int(params["tasks"]), str(params["agent"]), str(params["budget"])
    out: list[list[Any]] = []
    for i in range(int(params["first"]), int(params["first"]) + int(params["deals"])):
        key = f"{seed}:3p:plain:{t}t:{i}"
        rec = play_game(deal(3, t, seed=key, deck="plain"), make_agent(agent, budget), make_agent(agent, budget),
                        seed=key)
        out.append([i, rec.won, rec.tasks_done])
    return {"games": out}


Table = dict[tuple[str, int, int], tuple[int, int]]
"""``{(agent, seed, tasks): (wins, games)}``."""


def _add(out: Table, params: Mapping[str, Any], value: Mapping[str, Any]) -> None:
    key = (str(params["agent"]), int(params["seed"]), int(params["tasks"]))
    wins, n = out.get(key, (0, 0))
    out[key] = (wins + sum(1 for g in value["games"] if g[1]), n + len(value["games"]))


def games(mode: Mode) -> tuple[Table, dict[int, int]]:
    """Run (or read) the job: the games table and, per seed of the pooled reading, the number
    of its 1..9-task chunks missing.

    The 10-task chunks are required (a missing one makes the row OPEN); the 1..9-task chunks
    of the pooled reading are read as far as they are recorded, and a seed enters the
    reading only when all of its chunks are.
    """
    out: Table = {}
    params = chunks(mode)
    for p, value in zip(params, run_job(NAMESPACE, mcts_chunk, params, label="Witteveen §5 MCTS-UCT")):
        _add(out, p, value)
    below = chunks_below(mode)
    missing = {s: 0 for s in DESIGNS[mode].seeds_below}
    if below:
        for p, maybe in zip(below, run_job(NAMESPACE, mcts_chunk, below, label="Witteveen §5 MCTS-UCT, 1..9 tasks",
                                           partial=True)):
            if maybe is None:
                missing[int(p["seed"])] += 1
            else:
                _add(out, p, maybe)
    return out, missing


@dataclass(frozen=True, slots=True)
class BoundTest:
    """One seed's win rate against the bound."""

    label: str
    wins: int
    games: int
    interval: tuple[float, float]
    """95 % Wilson interval of the rate."""
    p_above: float
    """One-sided p-value of "rate <= bound" (score test)."""
    p_below: float
    """One-sided p-value of "rate >= bound"."""


def bound_test(label: str, wins: int, n: int, bound: float = BOUND) -> BoundTest:
    """The score test of ``wins / n`` against the fixed ``bound``."""
    se = math.sqrt(bound * (1 - bound) / n)
    z = (wins / n - bound) / se
    upper = 0.5 * math.erfc(z / math.sqrt(2.0))
    return BoundTest(label, wins, n, wilson(wins, n), upper, 1.0 - upper)


def _judge(tests: list[BoundTest]) -> str:
    """``reproduces`` (every seed above, Holm), ``contradicts`` (every seed below) or ``inconclusive``."""
    above = holm([t.p_above for t in tests])
    below = holm([t.p_below for t in tests])
    if all(p < ALPHA for p in above):
        return "reproduces"
    if all(p < ALPHA for p in below):
        return "contradicts"
    return "inconclusive"


def _readings(table: Table, design: Design, missing: Mapping[int, int]) -> tuple[dict[str, list[BoundTest]], list[str]]:
    """The tests of every reading, and the readings (or seeds) left untried because their chunks
    are missing (``missing``: per seed of the pooled reading; a seed absent from it counts as
    complete)."""
    out: dict[str, list[BoundTest]] = {}
    untried: list[str] = []
    per_seed = 9 * (design.deals // CHUNK) * len(design.below_agents)
    for scoring, agent in AGENTS.items():
        out[f"{scoring} scoring, 10 tasks"] = [bound_test(f"seed {s}", *table[(agent, s, 10)]) for s in design.seeds_10]
        name = f"{scoring} scoring, 1..10 tasks pooled"
        if agent not in design.below_agents or not design.seeds_below:
            untried.append(f"{name}: not in the design ({_POOLED_COST})")
            continue
        complete = [s for s in design.seeds_below if not missing.get(s, 0)]
        untried += [f"{name}, seed {s}: incomplete, {per_seed - missing[s]} of {per_seed} chunks of {CHUNK} deals "
                    f"recorded ({_POOLED_COST})" for s in design.seeds_below if missing.get(s, 0)]
        pooled = []
        for s in complete:
            cells = [table[(agent, s, t)] for t in range(1, 11)]
            pooled.append(bound_test(f"seed {s}", sum(c[0] for c in cells), sum(c[1] for c in cells)))
        if pooled:
            out[name] = pooled
    return out, untried


_POOLED_COST = ("\"these games\" read as every rulebook game, 1..10 tasks: 9 more task counts x 1000 deals, "
                "about 0.07 s of CPU a game for smart scoring here")

NOT_TRIED: tuple[str, ...] = (
    "other iteration budgets: the thesis gives none (1000 iterations per move here)",
    "their deals and their MCTS implementation's unstated details (tie-breaking beyond a random child, the "
    "playout policy of the task phase)",
)
"""Reasonable readings no run here covers (besides the pooled readings not run)."""


def witteveen_5_mcts(mode: Mode) -> Computation:
    """Witteveen §5: pure MCTS-UCT wins more than 90 % of the games with (up to) 10 tasks."""
    table, missing = games(mode)
    return judge_table(table, mode, missing)


def judge_table(table: Table, mode: Mode, missing: Mapping[int, int] | None = None) -> Computation:
    """The row's computation from the games of ``mode``'s design (``missing``: per seed, the
    1..9-task chunks not recorded)."""
    design = DESIGNS[mode]
    readings, untried = _readings(table, design, missing or {})
    outcome = {name: _judge(tests) for name, tests in readings.items()}
    shown = {name: "; ".join(f"{t.label}: {t.wins}/{t.games} = {t.wins / t.games:.3f} "
                             f"[{t.interval[0]:.3f}, {t.interval[1]:.3f}]" for t in tests) + f" — {outcome[name]}"
             for name, tests in readings.items()}
    per_count = {str(t): ", ".join(f"{scoring} {table[(a, 0, t)][0]}/{table[(a, 0, t)][1]}"
                                   for scoring, a in AGENTS.items() if (a, 0, t) in table)
                 for t in range(1, 11) if any((a, 0, t) in table for a in AGENTS.values())}
    reproducing = [name for name, o in outcome.items() if o == "reproduces"]
    tried = [f"{name}: {text}" for name, text in shown.items()]
    values = (
        Value("bound_percent", round(100 * BOUND), "the thesis's printed bound, for the comparison only"),
        Value("win_rate_by_reading", shown, "per reading and seed: wins / games of MCTS-UCT in both phases "
              f"({BUDGET} iterations per move), the 95 % Wilson interval and the outcome of the one-sided score "
              f"tests against {BOUND} (Holm over the seeds, {ALPHA:.0%})"),
        Value("wins_by_task_count", per_count, "seed 0: wins / games per task count recorded, by scoring"),
        Value("reproduced", bool(reproducing), "some reading has every seed's rate significantly above 0.9"),
    )
    r = Readings(tried=tuple(tried), not_tried=tuple(untried) + NOT_TRIED, reproducing=tuple(reproducing),
                 contradicted=all(o == "contradicts" for o in outcome.values()))
    evidence = (f"reproduced under: {', '.join(reproducing)}" if reproducing else
                "no reading has every seed significantly above 90 %: " + "; ".join(
                    f"{n}: {o}" for n, o in outcome.items()))
    return Computation(values, holds=None, readings=r, evidence=evidence)
