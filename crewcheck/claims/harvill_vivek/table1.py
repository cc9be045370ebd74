"""Claims from Harvill & Vivek (seed ``004``): Table 1 of their Mission Deep Sea experiment.

Table 1 gives, per N = 3..6 cards per player, the win rate of four stochastic agents,
of the MCTS agent in self-play (after 102,400 training rollouts), their ratio and the
agent's Robustness to Teammate Unreliability (RTU), each over 10,000 games. The game,
the agents and the experiment are :mod:`crewcheck.agents.deepsea` and
:mod:`crewcheck.experiments.deepsea_bench` (``crewcheck bench deepsea``); these claims run the
bench's jobs (without the exact oracle) and read its summary, so a full run shares its
records with ``crewcheck bench deepsea`` in the user cache folder.

A published rate is *reproduced* when it lies in our 95 % interval (Wilson for a rate, the
delta method on the log ratio for a ratio, the bench's parametric bootstrap for RTU). Our
rates and intervals never read the paper's numbers; only that last comparison reads
Table 1 (``crewcheck/missions/data/deepsea_table1.json``). The quick mode plays 1,000 games per N
with 6,400 training rollouts: it can confirm, but a published number outside its interval
leaves the claim OPEN (fewer games, a weaker agent), never REFUTED.

References
----------
.. [1] Harvill & Vivek, "Designing a Reliable Crew Member", Stanford CS238, seed ``004``,
   §3-4, Table 1.
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path
from typing import Any

from crewcheck.experiments.deepsea_bench import DeepSeaConfig, open_store, published, run_deepsea, summarise
from crewcheck.claims.claim import Computation, Mode, Value
from crewcheck.runtime.paths import user_cache_dir

__all__ = ["QUICK", "FULL", "config", "out_dir", "table", "stochastic_rates", "mcts_rates", "ratios",
           "rtu_values"]

FULL = DeepSeaConfig(games=10_000, training=102_400, oracle=False, rtu=("teammates",))
"""The paper's sizes (the exact oracle of the bench is not needed here)."""

QUICK = DeepSeaConfig(games=1_000, training=6_400, oracle=False, rtu=("teammates",))
"""The reduced run of ``--quick``: a tenth of the games, a sixteenth of the training."""


def config(mode: Mode) -> DeepSeaConfig:
    """The bench configuration of ``mode``."""
    return QUICK if mode == "quick" else FULL


def out_dir() -> Path:
    """Where the MCTS tables and the results store go: the bench's folder in the user cache."""
    return user_cache_dir("bench-deepsea")


@lru_cache(maxsize=2)
def table(mode: Mode) -> tuple[dict[str, Any], ...]:
    """Run what the store lacks for ``mode`` and return the bench's summary rows (one per N)."""
    cfg = config(mode)
    out = out_dir()
    out.mkdir(parents=True, exist_ok=True)
    store = open_store(out)
    run_deepsea(cfg, str(out), store, workers=2 if mode == "full" else 1, progress=False)
    return tuple(summarise(cfg, store))


def _size(mode: Mode) -> str:
    cfg = config(mode)
    return f"{cfg.games:,} seeded games per N, MCTS trained on {cfg.training:,} self-play rollouts"


def _judge(mode: Mode, values: list[Value], within: dict[str, bool | None], what: str) -> Computation:
    """Published inside every interval: CONFIRMED; outside one: REFUTED in full mode, OPEN in
    quick mode; undefined somewhere (and no contradiction): OPEN."""
    values.append(Value("within_interval", within, f"the published {what} lies in our 95 % interval "
                        "(null: ours undefined)"))
    outside = [n for n, ok in within.items() if ok is False]
    undefined = [n for n, ok in within.items() if ok is None]
    if outside and mode == "quick":
        return Computation(tuple(values), holds=None, open_reason=(
            f"quick mode ({_size(mode)}) puts the published {what} outside our interval at N = "
            f"{', '.join(outside)}; a reduced run cannot refute: `crewcheck prove --full` decides"))
    if undefined and not outside:
        return Computation(tuple(values), holds=None, open_reason=(
            f"our {what} is undefined at N = {', '.join(undefined)}: the self-play gain it divides by "
            "is not distinguishable from 0 (95 %)"))
    evidence = (f"published outside our 95 % interval at N = {', '.join(outside)}" if outside
                else "every published value lies in our 95 % interval")
    return Computation(tuple(values), holds=None, evidence=evidence)


def _rates(mode: Mode, setting: str, name: str) -> Computation:
    rows = table(mode)
    pub = published()
    rate: dict[str, float] = {}
    interval: dict[str, list[float]] = {}
    within: dict[str, bool | None] = {}
    for r in rows:
        n = str(r["cards"])
        e = r["settings"][setting]
        rate[n] = round(e["rate"], 4)
        lo, hi = e["ci"]
        interval[n] = [round(lo, 4), round(hi, 4)]
        within[n] = bool(lo <= pub[r["cards"]][setting] <= hi)
    agents = ("four stochastic agents (uniformly random valid actions)" if setting == "stochastic"
              else "the greedy MCTS agent in every seat (self-play)")
    values = [Value(f"{setting}_rate", rate, f"wins / games of {agents}, {_size(mode)}, "
                    "crewcheck.experiments.deepsea_bench"),
              Value(f"{setting}_interval", interval, "95 % Wilson score interval of the rate"),
              Value("published", {str(n): pub[n][setting] for n in sorted(pub)},
                    "Table 1 (crewcheck/missions/data/deepsea_table1.json), for the comparison only")]
    return _judge(mode, values, within, name)


def stochastic_rates(mode: Mode) -> Computation:
    """Table 1, stochastic column: .047/.058/.047/.043 for N = 3..6."""
    return _rates(mode, "stochastic", "stochastic win rate")


def mcts_rates(mode: Mode) -> Computation:
    """Table 1, MCTS column: .220/.166/.078/.053 for N = 3..6."""
    return _rates(mode, "mcts", "MCTS win rate")


def _ratio_interval(st: dict[str, Any], mc: dict[str, Any]) -> tuple[float, float] | None:
    """95 % interval of mcts rate / stochastic rate (delta method on the log ratio)."""
    if st["wins"] == 0 or mc["wins"] == 0:
        return None
    ratio = mc["rate"] / st["rate"]
    se = math.sqrt((1 - mc["rate"]) / mc["wins"] + (1 - st["rate"]) / st["wins"])
    return (ratio * math.exp(-1.96 * se), ratio * math.exp(1.96 * se))


def ratios(mode: Mode) -> Computation:
    """Table 1, ratio column: MCTS beats the stochastic agent at every N (4.68/2.87/1.67/1.24)."""
    rows = table(mode)
    pub = published()
    ratio: dict[str, float | None] = {}
    interval: dict[str, list[float] | None] = {}
    beats: dict[str, bool] = {}
    within: dict[str, bool | None] = {}
    for r in rows:
        n = str(r["cards"])
        st, mc = r["settings"]["stochastic"], r["settings"]["mcts"]
        ci = _ratio_interval(st, mc)
        ratio[n] = None if r.get("ratio") is None else round(r["ratio"], 3)
        interval[n] = None if ci is None else [round(ci[0], 3), round(ci[1], 3)]
        beats[n] = ci is not None and ci[0] > 1
        within[n] = None if ci is None else bool(ci[0] <= pub[r["cards"]]["ratio"] <= ci[1])
    values = [Value("ratio", ratio, f"MCTS self-play win rate / stochastic win rate on the same deals, {_size(mode)}"),
              Value("ratio_interval", interval, "95 % interval (delta method on the log of the ratio of two "
                    "binomial rates)"),
              Value("mcts_beats_significantly", beats, "the ratio's interval lies above 1"),
              Value("published", {str(n): pub[n]["ratio"] for n in sorted(pub)},
                    "Table 1 (crewcheck/missions/data/deepsea_table1.json), for the comparison only")]
    return _judge(mode, values, within, "ratio")


def rtu_values(mode: Mode) -> Computation:
    """Table 1, RTU column: .48/.57/.60/.79 (reading: the agent in one seat, three teammates
    of reliability r)."""
    rows = table(mode)
    pub = published()
    value: dict[str, float | None] = {}
    interval: dict[str, list[float] | None] = {}
    within: dict[str, bool | None] = {}
    for r in rows:
        n = str(r["cards"])
        cv = r["curves"]["teammates"]
        defined = bool(cv["denominator_significant"]) and not math.isnan(cv["rtu"])
        value[n] = round(cv["rtu"], 3) if not math.isnan(cv["rtu"]) else None
        lo, hi = cv["rtu_ci"]
        interval[n] = [round(lo, 3), round(hi, 3)] if defined else None
        within[n] = bool(lo <= pub[r["cards"]]["rtu"] <= hi) if defined else None
    values = [Value("rtu", value, f"(trapezoidal integral of the win rate over r = 0, 0.1, ..., 1 minus the "
                    "stochastic rate) / (self-play minus stochastic rate); the agent in one seat (game i mod 4), "
                    f"three teammates choosing its action with probability r; {_size(mode)}"),
              Value("rtu_interval", interval, "95 % parametric bootstrap interval (null: the self-play gain is "
                    "not distinguishable from 0, so RTU is undefined)"),
              Value("published", {str(n): pub[n]["rtu"] for n in sorted(pub)},
                    "Table 1 (crewcheck/missions/data/deepsea_table1.json), for the comparison only")]
    return _judge(mode, values, within, "RTU")
