"""Claims from Harvill & Vivek (seed ``004``): Table 1 of their Mission Deep Sea experiment.

Table 1 gives, per N = 3..6 cards per player, the win rate of four stochastic agents,
of the MCTS agent in self-play (after 102,400 training rollouts), their ratio and the
agent's Robustness to Teammate Unreliability (RTU), each over 10,000 games. The paper
leaves its simulator and its MCTS under-specified, so these are *empirical* claims,
judged by the written rules (:data:`crewcheck.claims.claim.VERDICT_RULES`):

* every reading of the set-up we ran is a :class:`ReadingRun`: the game and agents as
  built (:mod:`crewcheck.agents.deepsea`, ``crewcheck bench deepsea``, :mod:`crewcheck.experiments.deepsea_bench`), trained with three
  seeds, run here chunk by chunk (:func:`table_chunk`, one chunk per N and seed, records
  committed), plus every reading of the readings study committed in
  ``crewcheck/claims/data/records/deepsea-readings.json`` (online-planning MCTS, feasible
  tasks, other abstractions, the lead without R4, ...);
* each published rate is compared with ours by a two-sample test (their rate is a
  10,000-game estimate: :func:`crewcheck.claims.stats.two_sample`), the four N of one column
  Holm-corrected together; a reading *reproduces* a column when no N differs for any of its
  training seeds, and *contradicts* it when some N differs for every seed;
* a column is CONFIRMED when some reading reproduces it, REFUTED only if every reading
  contradicts it and no reasonable reading is left untried (never, here: the paper's
  simulator is not published), NOT REPRODUCED otherwise. ``--quick`` (1,000 games, 6,400
  rollouts, the as-built reading only) never changes these verdicts: where it disagrees it
  says so and is OPEN.

References
----------
.. [1] Harvill & Vivek, "Designing a Reliable Crew Member", Stanford CS238, seed ``004``,
   §3-4, Table 1.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from crewcheck.experiments.deepsea_bench import DeepSeaConfig, open_store, published, run_deepsea, summarise
from crewcheck.claims.claim import Computation, Mode, Readings, Value
from crewcheck.claims.execution import run_job
from crewcheck.claims.stats import ALPHA, holm, ratio_test, two_sample, wilson
from crewcheck.runtime.paths import user_cache_dir

__all__ = ["QUICK", "FULL", "SEEDS", "PUBLISHED_GAMES", "READINGS_RECORD", "NOT_TRIED", "ReadingRun",
           "config", "table_chunk", "runs", "stochastic_rates", "mcts_rates", "ratios", "rtu_values"]

FULL = DeepSeaConfig(games=10_000, training=102_400, oracle=False, rtu=("teammates",))
"""The paper's sizes (the exact oracle of the bench is not needed here)."""

QUICK = DeepSeaConfig(games=1_000, training=6_400, oracle=False, rtu=("teammates",))
"""The reduced run of ``--quick``: a tenth of the games, a sixteenth of the training."""

SEEDS: dict[str, tuple[int, ...]] = {"quick": (0,), "full": (0, 1, 2)}
"""Training seeds of the as-built reading (the RTU sweep runs with the first only)."""

PUBLISHED_GAMES = 10_000
"""Games behind each published rate (Table 1: "out of 10,000 games of self-play")."""

READINGS_RECORD = "deepsea-readings.json"
"""The committed readings study, in ``crewcheck/claims/data/records/``."""

NOT_TRIED: tuple[str, ...] = (
    "their simulator itself: not published; its differences from the rules as written are unknown "
    "(the shape of each reading's stochastic curve: row harvill-vivek-5.1-stochastic-peak)",
    "their MCTS implementation details beyond §3.3 (tie-breaking, what exactly a state holds, how "
    "training and evaluation deals relate)",
)
"""Reasonable readings no run here covers (the study's record may add more)."""


def config(mode: Mode, seed: int = 0) -> DeepSeaConfig:
    """The bench configuration of ``mode`` for one training seed (the RTU sweep: seed 0 only)."""
    base = QUICK if mode == "quick" else FULL
    return DeepSeaConfig(games=base.games, training=base.training, oracle=False, seed=seed,
                         rtu=base.rtu if seed == 0 else ())


def table_chunk(params: Mapping[str, Any]) -> dict[str, Any]:
    """Run the as-built bench for one N and one training seed; return its compact row.

    The bench keeps its own store in the user cache folder (``bench-deepsea``), so a chunk
    interrupted mid-way resumes there; the row returned is what the committed record holds.
    """
    base = config(params["mode"], int(params["seed"]))
    cfg = DeepSeaConfig(cards=(int(params["cards"]),), games=base.games, training=base.training, seed=base.seed,
                        oracle=False, rtu=base.rtu)
    out = user_cache_dir("bench-deepsea")
    out.mkdir(parents=True, exist_ok=True)
    store = open_store(out)
    run_deepsea(cfg, str(out), store, workers=1, progress=False)
    (row,) = summarise(cfg, store)
    st, mc = row["settings"]["stochastic"], row["settings"]["mcts"]
    curve = row["curves"].get("teammates")
    return {"cards": row["cards"], "seed": cfg.seed, "games": cfg.games, "training": cfg.training,
            "stochastic": [st["wins"], st["games"]], "mcts": [mc["wins"], mc["games"]],
            "curve": None if curve is None else {
                "r": curve["r"], "wins": curve["wins"], "games": curve["games"], "rtu": curve["rtu"],
                "rtu_ci": list(curve["rtu_ci"]), "denominator_significant": curve["denominator_significant"]}}


@dataclass(frozen=True, slots=True)
class ReadingRun:
    """One reading of the set-up, one agent, one training seed: wins and games per N."""

    name: str
    """The reading's name (the same for every seed and agent of it)."""
    description: str
    """What the reading changes, in words."""
    agent: str
    """``stochastic`` or the kind of MCTS (``mcts-table``, ``mcts-online``, ...)."""
    seed: int | None
    """Training seed (``None``: nothing trained)."""
    per_n: dict[int, tuple[int, int]]
    """``{N: (wins, games)}``."""
    size: str
    """Games and training, in words."""
    setup: tuple[tuple[str, str], ...] = ()
    """The set-up readings (who leads without R4, HV5, the captain and HV1, the task draw),
    which pair an agent's run with the stochastic run of the same set-up for the ratio."""


AS_BUILT_SETUP: tuple[tuple[str, str], ...] = (("captain_hv1", "allow"), ("hv5", "separate"),
                                               ("r4_absent", "seat0"), ("tasks", "drawn"))
"""The set-up of the game as built (:class:`crewcheck.agents.deepsea.DeepSeaRules` defaults)."""

_SETUP_KEYS = ("captain_hv1", "hv5", "r4_absent", "tasks")


def _as_built(mode: Mode) -> tuple[list[ReadingRun], list[dict[str, Any]]]:
    chunks = [{"mode": mode, "cards": n, "seed": s} for s in SEEDS[mode] for n in (3, 4, 5, 6)]
    rows: list[dict[str, Any]] = run_job("harvill-vivek/table1/v2", table_chunk, chunks, label="Deep Sea Table 1")
    cfg = config(mode)
    size = f"{cfg.games:,} games per N, {cfg.training:,} training rollouts"
    out: list[ReadingRun] = []
    desc = ("the game and agents as built (R4 absent: seat 0 leads; HV5 in any tricks; the captain may "
            "take HV1; a task whose cards are out of play loses at once; MCTS a table over the visible "
            "state with the exact hand, trained offline by self-play with UCB-1)")
    out.append(ReadingRun("as built", desc, "stochastic", None,
                          {r["cards"]: tuple(r["stochastic"]) for r in rows if r["seed"] == SEEDS[mode][0]}, size,
                          AS_BUILT_SETUP))
    for s in SEEDS[mode]:
        out.append(ReadingRun("as built", desc, "mcts-table", s,
                              {r["cards"]: tuple(r["mcts"]) for r in rows if r["seed"] == s}, size, AS_BUILT_SETUP))
    return out, rows


def _study() -> tuple[list[ReadingRun], list[str]]:
    """The committed readings study (empty when it is not in the package)."""
    entry = resources.files("crewcheck.claims").joinpath("data", "records", READINGS_RECORD)
    if not entry.is_file():
        return [], []
    data = json.loads(entry.read_text(encoding="utf-8"))
    out = []
    for r in data.get("readings", ()):
        per_n = {int(n): (int(v["wins"]), int(v["games"])) for n, v in r["per_n"].items() if int(v["games"]) > 0}
        if not per_n:
            continue
        budget = r.get("rollouts_per_decision") or r.get("training_rollouts")
        size = f"{min(g for _, g in per_n.values()):,} games per N" + (f", budget {budget}" if budget else "")
        options = r.get("options", {})
        setup = tuple((k, str(options[k])) for k in _SETUP_KEYS if k in options)
        out.append(ReadingRun(str(r["name"]), str(r.get("description", "")), str(r["agent"]),
                              r.get("seed"), per_n, size, setup))
    not_tried = [f"{x['name']}: {x['why']}" for x in data.get("not_tried", ())]
    return out, not_tried


def runs(mode: Mode) -> tuple[list[ReadingRun], list[str], list[dict[str, Any]]]:
    """Every reading run of ``mode`` (full: as built + the study), the readings not tried,
    and the as-built rows."""
    built, rows = _as_built(mode)
    if mode == "quick":
        return built, list(NOT_TRIED), rows
    study, not_tried = _study()
    return built + study, list(NOT_TRIED) + not_tried, rows


def _fmt_rate(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k / n:.3f} [{lo:.3f}, {hi:.3f}]"


def _classify(label: str, significant: Sequence[set[int]], detail: str) -> tuple[str, str]:
    """One reading's outcome over its training seeds (the N at which each seed differs
    significantly): ``reproduces`` (no seed differs), ``contradicts`` (some N differs for
    every seed) or ``mixed``, with the line the row prints."""
    if all(not sig for sig in significant):
        return "reproduces", f"{label}: reproduces every N {detail}"
    always = set.intersection(*significant)
    if always:
        return "contradicts", f"{label}: differs at N = {', '.join(map(str, sorted(always)))} for every seed {detail}"
    return "mixed", f"{label}: differs for some seeds only {detail}"


def _result(values: list[Value], tried: list[str], not_tried: list[str], reproducing: list[str],
            contradicting: int, readings_run: int, failure: str) -> Computation:
    """The computation of an empirical row: reproduced when some reading reproduces it."""
    readings = Readings(tried=tuple(tried), not_tried=tuple(not_tried), reproducing=tuple(reproducing),
                        contradicted=readings_run > 0 and contradicting == readings_run)
    values.append(Value("reproduced", bool(reproducing), "some reading reproduces every N"))
    evidence = f"reproduced under: {', '.join(reproducing)}" if reproducing else failure
    return Computation(tuple(values), holds=None, readings=readings, evidence=evidence)


def _column(mode: Mode, column: str, what: str) -> Computation:
    """Judge one rate column (``stochastic`` or ``mcts``) against every reading."""
    pub = published()
    all_runs, not_tried, _ = runs(mode)
    wanted = [r for r in all_runs if (r.agent == "stochastic") == (column == "stochastic")]
    by_reading: dict[tuple[str, str], list[ReadingRun]] = {}
    for r in wanted:
        by_reading.setdefault((r.name, r.agent), []).append(r)
    table: dict[str, Any] = {}
    tried: list[str] = []
    reproducing: list[str] = []
    contradicting = 0
    for (name, agent), seeds in by_reading.items():
        label = name if column == "stochastic" else f"{name} ({agent})"
        significant_per_seed = []
        cells: dict[str, Any] = {}
        for run in seeds:
            ns = sorted(n for n in run.per_n if n in pub)
            comps = [two_sample(*run.per_n[n], pub[n][column], PUBLISHED_GAMES) for n in ns]
            adjusted = holm([c.p_value for c in comps])
            sig = {n for n, p in zip(ns, adjusted) if p < ALPHA}
            significant_per_seed.append(sig)
            tag = "" if run.seed is None else f" seed {run.seed}"
            for n, c, p in zip(ns, comps, adjusted):
                cells.setdefault(f"N={n}", []).append(
                    f"{_fmt_rate(*run.per_n[n])}{tag}: diff {c.difference:+.3f} "
                    f"[{c.interval[0]:+.3f}, {c.interval[1]:+.3f}], Holm p {p:.3g}")
        table[label] = {k: "; ".join(v) for k, v in sorted(cells.items())}
        verdict, text = _classify(label, significant_per_seed, f"({len(seeds)} seed(s), {seeds[0].size}) — "
                                  f"{seeds[0].description}")
        tried.append(text)
        reproducing += [label] if verdict == "reproduces" else []
        contradicting += verdict == "contradicts"
    values = [Value(f"{column}_by_reading", table,
                    f"per reading: our rate [95 % Wilson], its difference from the published {what} "
                    f"[95 % Newcombe interval] and the Holm-adjusted two-sample p-value over N = 3..6 "
                    f"(published rates taken as {PUBLISHED_GAMES:,}-game estimates)"),
              Value("published", {str(n): pub[n][column] for n in sorted(pub)},
                    "Table 1 (crewcheck/missions/data/deepsea_table1.json), for the comparison only"),
              Value("reproducing_readings", reproducing, f"readings under which no N differs (Holm, {ALPHA:.0%})")]
    return _result(values, tried, not_tried, reproducing, contradicting, len(by_reading),
                   f"no reading of {len(by_reading)} tried reproduces the published {what} at every N")


def stochastic_rates(mode: Mode) -> Computation:
    """Table 1, stochastic column: .047/.058/.047/.043 for N = 3..6."""
    return _column(mode, "stochastic", "stochastic win rate")


def mcts_rates(mode: Mode) -> Computation:
    """Table 1, MCTS column: .220/.166/.078/.053 for N = 3..6."""
    return _column(mode, "mcts", "MCTS win rate")


def ratios(mode: Mode) -> Computation:
    """Table 1, ratio column (MCTS / stochastic: 4.68/2.87/1.67/1.24), per reading and seed."""
    pub = published()
    all_runs, not_tried, _ = runs(mode)
    stoch: dict[tuple[tuple[str, str], ...], ReadingRun] = {}
    for r in all_runs:  # per set-up, the stochastic run with the most games
        if r.agent == "stochastic" and r.setup and (
                r.setup not in stoch or min(g for _, g in r.per_n.values())
                > min(g for _, g in stoch[r.setup].per_n.values())):
            stoch[r.setup] = r
    table: dict[str, Any] = {}
    tried: list[str] = []
    reproducing: list[str] = []
    groups: dict[tuple[str, str], list[ReadingRun]] = {}
    for r in all_runs:
        if r.agent != "stochastic" and r.setup in stoch:
            groups.setdefault((r.name, r.agent), []).append(r)
    contradicting = 0
    for (name, agent), seeds in groups.items():
        st = stoch[seeds[0].setup]
        label = f"{name} ({agent}) / {st.name}"
        sig_sets = []
        cells: dict[str, list[str]] = {}
        for run in seeds:
            ns = sorted(n for n in run.per_n if n in pub and n in st.per_n)
            comps = [ratio_test(run.per_n[n][0], run.per_n[n][1], st.per_n[n][0], st.per_n[n][1], pub[n]["mcts"],
                                pub[n]["stochastic"], PUBLISHED_GAMES) for n in ns]
            kept = [(n, c) for n, c in zip(ns, comps) if c is not None]
            adjusted = holm([c.p_value for _, c in kept])
            sig_sets.append({n for (n, _), p in zip(kept, adjusted) if p < ALPHA})
            for (n, c), p in zip(kept, adjusted):
                cells.setdefault(f"N={n}", []).append(
                    f"{c.ours:.2f}" + ("" if run.seed is None else f" seed {run.seed}")
                    + f": log-ratio diff {c.difference:+.2f} [{c.interval[0]:+.2f}, {c.interval[1]:+.2f}], "
                    f"Holm p {p:.3g}")
        if not sig_sets or not cells:
            continue
        table[label] = {k: "; ".join(v) for k, v in sorted(cells.items())}
        verdict, text = _classify(label, sig_sets, f"({len(seeds)} seed(s))")
        tried.append(text)
        reproducing += [label] if verdict == "reproduces" else []
        contradicting += verdict == "contradicts"
    values = [Value("ratio_by_reading", table, "per reading: the agent's rate / the stochastic rate of the same "
                    "set-up, the "
                    "difference of its log from the published log ratio [95 %, delta method, both sides' "
                    "binomial noise] and the Holm-adjusted p-value over N = 3..6"),
              Value("published", {str(n): pub[n]["ratio"] for n in sorted(pub)},
                    "Table 1 (crewcheck/missions/data/deepsea_table1.json), for the comparison only"),
              Value("reproducing_readings", reproducing, f"readings under which no N differs (Holm, {ALPHA:.0%})")]
    return _result(values, tried, not_tried, reproducing, contradicting, len(groups),
                   "no reading tried reproduces the published ratio at every N")


def rtu_values(mode: Mode) -> Computation:
    """Table 1, RTU column: .48/.57/.60/.79 (reading: the agent in one seat, three teammates
    of reliability r; the as-built agent, training seed 0)."""
    pub = published()
    _, not_tried, rows = runs(mode)
    value: dict[str, float | None] = {}
    interval: dict[str, list[float] | None] = {}
    undefined: list[str] = []
    outside: list[str] = []
    for r in sorted((r for r in rows if r["curve"] is not None), key=lambda r: r["cards"]):
        n = str(r["cards"])
        cv = r["curve"]
        defined = bool(cv["denominator_significant"]) and not math.isnan(cv["rtu"])
        value[n] = None if math.isnan(cv["rtu"]) else round(cv["rtu"], 3)
        interval[n] = [round(x, 3) for x in cv["rtu_ci"]] if defined else None
        if not defined:
            undefined.append(n)
        elif not cv["rtu_ci"][0] <= pub[r["cards"]]["rtu"] <= cv["rtu_ci"][1]:
            outside.append(n)
    values = [Value("rtu", value, "(trapezoidal integral of the win rate over r = 0, 0.1, ..., 1 minus the "
                    "stochastic rate) / (self-play minus stochastic rate); the as-built agent in one seat "
                    "(game i mod 4), three teammates choosing its action with probability r"),
              Value("rtu_interval", interval, "95 % parametric bootstrap interval (null: the self-play gain is "
                    "not distinguishable from 0, so RTU is undefined)"),
              Value("published", {str(n): pub[n]["rtu"] for n in sorted(pub)},
                    "Table 1 (crewcheck/missions/data/deepsea_table1.json), for the comparison only")]
    tried = (f"as built, seed 0: RTU defined at N = {', '.join(sorted(set(value) - set(undefined))) or 'none'}, "
             f"undefined at N = {', '.join(undefined) or 'none'} (no significant self-play gain)",)
    readings = Readings(tried=tried, not_tried=tuple(not_tried) + (
        "RTU under the other readings: it needs a reading whose MCTS gain over the stochastic agent "
        "matches theirs, and none does (the MCTS row)",))
    values.append(Value("reproduced", not (undefined or outside), "our RTU is defined at every N and its "
                        "interval holds the published value"))
    if undefined or outside:
        why = ([f"undefined at N = {', '.join(undefined)}"] if undefined else []) + (
            [f"published outside our bootstrap interval at N = {', '.join(outside)}"] if outside else [])
        return Computation(tuple(values), holds=None, readings=readings, evidence="; ".join(why))
    return Computation(tuple(values), holds=None, readings=readings,
                       evidence="every published RTU lies in our bootstrap interval")


def shape(per_n: Mapping[int, tuple[int, int]]) -> tuple[int, bool]:
    """The N with the highest stochastic win rate, and whether it is significantly above
    the rate at every other N (two-sample test, Holm-corrected, at :data:`ALPHA`)."""
    rates = {n: k / g for n, (k, g) in per_n.items()}
    top = max(rates, key=lambda n: (rates[n], -n))
    others = [n for n in sorted(per_n) if n != top]
    p = holm([two_sample(*per_n[top], rates[n], per_n[n][1]).p_value for n in others])
    return top, all(q < ALPHA for q in p)


def stochastic_peak(mode: Mode) -> Computation:
    """§5.1: "the stochastic win rate is highest for the 4 cards per player game", judged on
    the shape of each reading's stochastic curve (no published rate is compared here)."""
    all_runs, not_tried, _ = runs(mode)
    stochastic = [r for r in all_runs if r.agent == "stochastic"]
    tried: list[str] = []
    reproducing: list[str] = []
    point: list[str] = []
    table: dict[str, str] = {}
    for run in stochastic:
        top, clear = shape(run.per_n)
        rates = ", ".join(f"{run.per_n[n][0] / run.per_n[n][1]:.3f}" for n in sorted(run.per_n))
        falls = all(run.per_n[a][0] / run.per_n[a][1] > run.per_n[b][0] / run.per_n[b][1]
                    for a, b in zip(sorted(run.per_n), sorted(run.per_n)[1:]))
        table[run.name] = f"N = {min(run.per_n)}..{max(run.per_n)}: {rates}; highest at N = {top}" + (
            " (significantly above every other N)" if clear else " (not significantly above every other N)") + (
            "; falls with N" if falls else "")
        tried.append(f"{run.name}: {table[run.name]}")
        point += [run.name] if top == 4 else []
        if top == 4 and clear:
            reproducing.append(run.name)
    values = (Value("stochastic_shape_by_reading", table, "per reading: the stochastic agent's win rates over N, the N "
                    f"where it is highest and whether that rate is above each other N's (two-sample test, Holm, "
                    f"{ALPHA:.0%})"),
              Value("peaking_at_4", reproducing, "readings whose stochastic rate is significantly highest at N = 4"))
    readings = Readings(tried=tuple(tried), not_tried=tuple(not_tried[:1]), reproducing=tuple(reproducing),
                        contradicted=not reproducing)
    evidence = (f"highest at N = 4 under: {', '.join(reproducing)}" if reproducing
                else f"no reading of {len(stochastic)} has its highest stochastic rate significantly at N = 4 "
                f"(point estimate highest at N = 4 under: {', '.join(point) or 'none'})")
    return Computation(values, holds=bool(reproducing), readings=readings, evidence=evidence)


def rtu_above_half(mode: Mode) -> Computation:
    """§5.1: "an RTU score greater than 0.5 when 4 or more cards per player are used", judged
    on the RTU row's computation: at N = 4, 5, 6 our RTU is defined and its 95 % interval lies
    above 0.5."""
    comp = rtu_values(mode)
    if comp.open_reason is not None:
        return comp
    rtu, intervals = comp.value("rtu"), comp.value("rtu_interval")
    above: dict[str, str] = {}
    for n in ("4", "5", "6"):
        interval = intervals.get(n)
        above[n] = ("undefined (no significant self-play gain)" if interval is None
                    else f"{rtu[n]:.3f} [{interval[0]:.3f}, {interval[1]:.3f}]: "
                    + ("above 0.5" if interval[0] > 0.5 else "not above 0.5"))
    holds = all(text.endswith(": above 0.5") for text in above.values())
    values = (Value("rtu_from_4", above, "our RTU at N = 4, 5, 6 with its 95 % interval (the RTU row's computation)"),)
    r = comp.readings
    readings = None if r is None else Readings(tried=r.tried, not_tried=r.not_tried,
                                               reproducing=r.reproducing if holds else ())
    evidence = "; ".join(f"N = {n}: {t}" for n, t in above.items())
    return Computation(values, holds=holds, readings=readings, evidence=evidence)
