"""The sweep behind ``crewcheck bench deepsea``: Harvill & Vivek's Table 1 and Figures 2-5,
and the exact column they did not have.

Per N (cards per player) the run

1. trains the MCTS table (:func:`~crewcheck.agents.deepsea.train_mcts`, ``training``
   rollouts; saved as ``DIR/mcts-...npz`` and reused);
2. plays ``games`` seeded games per *setting*: ``stochastic`` (four stochastic agents),
   ``mcts`` (self-play, the greedy MCTS agent in every seat) and the reliability sweep
   for r = 0, step, ..., 1 under two readings of "Teammates(r)": ``teammates@r`` (the
   agent in one seat, ``i mod 4`` for game ``i``, three teammates of reliability r) and
   ``all@r`` (all four seats of reliability r; r = 0 is the stochastic setting, r = 1
   self-play). Game ``i`` of every setting has the same deal and the same random seed.
   One more setting, ``mcts-seen``, is self-play on the *training* deals (game ``i`` is
   rollout ``i``'s deal): the reading in which the paper evaluated on the deals it
   trained on;
3. decides, for every deal, every assignment the task phase can produce with
   ``crewcheck.decide`` (exact), so every game of every setting has a verdict for the
   assignment it was played with, and every deal one for the best assignment.

Work is cut into chunks of games; each chunk is one keyed record of the results store
(``DIR/results.sqlite`` namespace ``bench-deepsea/v1``, or ``DIR/results.jsonl``), so a
run resumes where it stopped and ``--games`` can be raised later.
"""

from __future__ import annotations

import csv
import json
import math
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from crewcheck.agents.deepsea import (PLAYERS, DeepSeaAgent, DeepSeaRules, MCTSAgent, NoisyAgent, QTable,
                                      assignments, build_instance, deal_deepsea, play_deepsea, rtu, train_mcts)
from crewcheck.agents.deepsea_readings import make_deepsea_agent
from crewcheck.experiments.results import ResultsStore, SharedStore
from crewcheck.experiments.bench import progress_bar

__all__ = ["coverage", "DeepSeaConfig", "NAMESPACE", "open_store", "run_deepsea", "summarise", "published", "wilson",
           "rtu_interval", "plot", "write_tables", "iter_rows_text", "settings", "reliabilities"]

NAMESPACE = "bench-deepsea/v1"
READINGS = ("teammates", "all")


@dataclass(frozen=True)
class DeepSeaConfig:
    cards: tuple[int, ...] = (3, 4, 5, 6)
    games: int = 10_000
    training: int = 102_400
    seed: int = 0
    rtu: tuple[str, ...] = READINGS
    """Readings of Teammates(r) to sweep; empty: no sweep."""
    r_step: float = 0.1
    rules: DeepSeaRules = field(default_factory=DeepSeaRules)
    oracle: bool = True
    oracle_timeout: float = 10.0
    chunk: int = 500
    mcts: bool = True
    """False: the stochastic agent only (no training, no sweep): a cheap way to compare
    readings of the set-up."""

    def chunks(self) -> range:
        return range((self.games + self.chunk - 1) // self.chunk)

    def chunk_range(self, c: int) -> range:
        return range(c * self.chunk, min(self.games, (c + 1) * self.chunk))

    def deal_key(self, n: int, i: int) -> str:
        return f"{self.seed}:{n}:{i}"

    def table_path(self, out: str | os.PathLike[str], n: int) -> Path:
        return Path(out) / f"mcts-N{n}-{self.rules.tag}-T{self.training}-s{self.seed}.npz"

    def record_key(self, kind: str, n: int, setting: str, c: int) -> str:
        trained = "" if setting == "stochastic" or kind == "oracle" else f"|T{self.training}"
        return f"{kind}|{self.rules.tag}|s{self.seed}|N{n}|{setting}{trained}|c{c}x{self.chunk}"


def reliabilities(step: float) -> tuple[float, ...]:
    """0, step, ..., 1 (step must divide 1)."""
    k = round(1 / step)
    if k < 1 or abs(k * step - 1) > 1e-9:
        raise ValueError(f"the step {step} does not divide 1")
    return tuple(round(j / k, 10) for j in range(k + 1))


def settings(cfg: DeepSeaConfig) -> list[str]:
    """Every setting played: ``stochastic``, ``mcts`` and the sweep's interior points."""
    if not cfg.mcts:
        return ["stochastic"]
    out = ["stochastic", "mcts", "mcts-seen"]
    rs = reliabilities(cfg.r_step)
    for reading in cfg.rtu:
        for r in rs:
            if r == 1.0 or (reading == "all" and r == 0.0):
                continue  # self-play / the stochastic setting
            out.append(f"{reading}@{r:g}")
    return out


def curve_settings(reading: str, rs: Sequence[float]) -> list[str]:
    """The setting whose games give each point of a reading's curve."""
    out = []
    for r in rs:
        if r == 1.0:
            out.append("mcts")
        elif reading == "all" and r == 0.0:
            out.append("stochastic")
        else:
            out.append(f"{reading}@{r:g}")
    return out


def open_store(directory: str | os.PathLike[str]) -> ResultsStore | SharedStore:
    """``DIR/results.sqlite`` (namespace ``bench-deepsea/v1``) if :mod:`crewcheck.runtime.store` is
    installed, else ``DIR/results.jsonl``."""
    try:
        from crewcheck.runtime.store import ResultStore
    except ImportError:
        return ResultsStore(Path(directory) / "results.jsonl")
    return SharedStore(ResultStore(Path(directory) / "results.sqlite"), NAMESPACE)


# -- jobs ----------------------------------------------------------------------------------

@lru_cache(maxsize=2)
def _table(path: str) -> QTable:
    return QTable.load(path)


def _one_seat(best: DeepSeaAgent, r: float, i: int) -> tuple[DeepSeaAgent, ...]:
    """The agent in seat ``i mod 4``, three teammates of reliability ``r``."""
    seats: list[DeepSeaAgent] = [NoisyAgent(best, r)] * PLAYERS
    seats[i % PLAYERS] = best
    return tuple(seats)


SEATINGS: dict[str, tuple[str, Callable[[DeepSeaAgent, float, int], tuple[DeepSeaAgent, ...]]]] = {
    "stochastic": ("stochastic", lambda agent, r, i: (agent,) * PLAYERS),
    "mcts": ("mcts", lambda agent, r, i: (agent,) * PLAYERS),
    "mcts-seen": ("mcts", lambda agent, r, i: (agent,) * PLAYERS),
    "teammates": ("mcts", _one_seat),
    "all": ("mcts", lambda agent, r, i: (NoisyAgent(agent, r),) * PLAYERS),
}
"""Each setting (``reading@r`` for the sweep) -> the agent of
:data:`~crewcheck.agents.deepsea_readings.DEEPSEA_AGENTS` it plays and the seats of game ``i``
(from the agent, ``r`` and ``i``)."""


def _agents(setting: str, table: QTable | None, i: int) -> tuple[DeepSeaAgent, ...]:
    name, _, r = setting.partition("@")
    agent, seat = SEATINGS[name]
    return seat(make_deepsea_agent(agent, table=table), float(r or 1), i)


def train_job(cfg: DeepSeaConfig, out: str, n: int) -> dict[str, Any]:
    path = cfg.table_path(out, n)
    start = time.perf_counter()
    if not path.exists():
        table = train_mcts(n, cfg.training, seed=cfg.seed, rules=cfg.rules)
        table.save(path)
        size = len(table)
    else:
        size = len(_table(str(path)))
    return {"key": f"train|{path.name}", "kind": "train", "n": n, "entries": size,
            "seconds": round(time.perf_counter() - start, 2)}


def games_job(cfg: DeepSeaConfig, out: str, n: int, setting: str, c: int) -> dict[str, Any]:
    table = None if setting == "stochastic" else _table(str(cfg.table_path(out, n)))
    start = time.perf_counter()
    wins, imp, owners = [], [], []
    for i in cfg.chunk_range(c):
        key = f"train:{cfg.seed}:{n}:{i}" if setting == "mcts-seen" else cfg.deal_key(n, i)
        rec = play_deepsea(deal_deepsea(n, key, cfg.rules), _agents(setting, table, i), seed=key, rules=cfg.rules)
        wins.append("1" if rec.won else "0")
        imp.append("1" if rec.impossible else "0")
        owners.append("".join(map(str, rec.owners)))
    return {"key": cfg.record_key("games", n, setting, c), "kind": "games", "n": n, "setting": setting,
            "chunk": c, "wins": "".join(wins), "impossible": "".join(imp), "owners": " ".join(owners),
            "seconds": round(time.perf_counter() - start, 3)}


def oracle_job(cfg: DeepSeaConfig, n: int, c: int) -> dict[str, Any]:
    """Every assignment of every deal of the chunk: ``w`` winnable, ``u`` unwinnable
    (decided), ``x`` unwinnable because a task needs cards out of play, ``?`` unknown."""
    from crewcheck.api import decide

    start = time.perf_counter()
    verdicts: list[str] = []
    for i in cfg.chunk_range(c):
        d = deal_deepsea(n, cfg.deal_key(n, i), cfg.rules)
        parts = []
        for owners in assignments(d, cfg.rules):
            b = build_instance(d, owners, cfg.rules)
            if b.impossible is not None:
                code = "x"
            else:
                v = decide(b.instance, timeout=cfg.oracle_timeout).verdict.value
                code = {"winnable": "w", "unwinnable": "u"}.get(v, "?")
            parts.append("".join(map(str, owners)) + ":" + code)
        verdicts.append(",".join(parts))
    return {"key": cfg.record_key("oracle", n, "all-assignments", c), "kind": "oracle", "n": n, "chunk": c,
            "verdicts": verdicts, "seconds": round(time.perf_counter() - start, 3)}


def coverage(cfg: DeepSeaConfig, out: str, n: int, games: int) -> dict[str, float]:
    """How often the trained greedy agent's table tells its valid actions apart, over
    ``games`` self-play games of the evaluation deals (a diagnostic of the visible-state
    abstraction: where it does not, the agent picks at random like the stochastic one)."""
    agent = MCTSAgent(_table(str(cfg.table_path(out, n))))
    wins = 0
    for i in range(games):
        key = cfg.deal_key(n, i)
        wins += play_deepsea(deal_deepsea(n, key, cfg.rules), agent, seed=key, rules=cfg.rules).won
    return {"cards": n, "games": games, "entries": len(agent.table), "decisions": agent.decisions,
            "informed": agent.informed / agent.decisions if agent.decisions else math.nan, "rate": wins / games}


def _call(job: tuple[Any, ...]) -> dict[str, Any]:
    fn = {"train": train_job, "games": games_job, "oracle": oracle_job}[job[0]]
    return fn(*job[1:])  # type: ignore[no-any-return, operator]


def _execute(jobs: list[tuple[Any, ...]], store: ResultsStore | SharedStore, workers: int, scheduler: str | None,
             bar: Callable[[int], None]) -> None:
    if not jobs:
        return
    from crewcheck.runtime.fanout import Workers, values

    for _, record, _ in values(_call, jobs, Workers(workers if workers > 1 or scheduler else 0, scheduler)):
        store.add_many([record])
        bar(1)


def run_deepsea(cfg: DeepSeaConfig, out: str, store: ResultsStore | SharedStore, *, workers: int = 1,
                scheduler: str | None = None, progress: bool = True) -> None:
    """Run what ``store`` lacks: training and the stochastic games and the oracle first,
    then the games that need the trained tables."""
    Path(out).mkdir(parents=True, exist_ok=True)
    sets = settings(cfg)
    first: list[tuple[Any, ...]] = []
    second: list[tuple[Any, ...]] = []
    for n in cfg.cards:
        if cfg.mcts and not cfg.table_path(out, n).exists():
            first.append(("train", cfg, out, n))
        for c in cfg.chunks():
            for s in sets:
                if cfg.record_key("games", n, s, c) not in store:
                    (first if s == "stochastic" else second).append(("games", cfg, out, n, s, c))
            if cfg.oracle and cfg.record_key("oracle", n, "all-assignments", c) not in store:
                first.append(("oracle", cfg, n, c))
    # long jobs first, so that parallel workers finish together
    first.sort(key=lambda j: {"train": 0, "oracle": 1, "games": 2}[j[0]])
    bar = progress_bar(len(first) + len(second), progress, unit="job", desc="bench deepsea")
    _execute(first, store, workers, scheduler, bar)
    _execute(second, store, workers, scheduler, bar)
    bar(0, close=True)


# -- statistics ----------------------------------------------------------------------------

def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def rtu_interval(rs: Sequence[float], wins: Sequence[int], games: Sequence[int], stoch_wins: int, stoch_games: int,
                 *, draws: int = 4000, seed: int = 0) -> tuple[float, float]:
    """A 95 % parametric bootstrap interval for :func:`~crewcheck.agents.deepsea.rtu`:
    every point redrawn from its binomial (points taken as independent; the games of
    one deal are in fact paired across points). Draws with a zero denominator are
    dropped."""
    import numpy as np

    rng = np.random.default_rng(seed)
    pts = np.array([rng.binomial(g, k / g, draws) / g for k, g in zip(wins, games)])
    st = rng.binomial(stoch_games, stoch_wins / stoch_games, draws) / stoch_games
    dx = np.diff(np.asarray(rs))
    area = ((pts[1:] + pts[:-1]) / 2 * dx[:, None]).sum(axis=0)
    den = pts[-1] - st
    ok = den != 0
    vals = (area[ok] - st[ok]) / den[ok]
    if vals.size == 0:
        return (math.nan, math.nan)
    lo, hi = np.percentile(vals, [2.5, 97.5])
    return (float(lo), float(hi))


@lru_cache(maxsize=1)
def published() -> dict[int, dict[str, float]]:
    """Harvill & Vivek's Table 1 by N (``crewcheck/missions/data/deepsea_table1.json``)."""
    text = resources.files("crewcheck.missions").joinpath("data", "deepsea_table1.json").read_text(encoding="utf-8")
    return {r["cards"]: r for r in json.loads(text)["rows"]}


def _collect(cfg: DeepSeaConfig, store: ResultsStore | SharedStore, n: int, setting: str
             ) -> tuple[str, str, list[str]] | None:
    wins, imp, owners = [], [], []
    for c in cfg.chunks():
        rec = store.get(cfg.record_key("games", n, setting, c))
        if rec is None:
            return None
        wins.append(rec["wins"])
        imp.append(rec["impossible"])
        owners.extend(rec["owners"].split(" "))
    return "".join(wins), "".join(imp), owners


def _verdicts(cfg: DeepSeaConfig, store: ResultsStore | SharedStore, n: int) -> list[dict[str, str]] | None:
    out: list[dict[str, str]] = []
    for c in cfg.chunks():
        rec = store.get(cfg.record_key("oracle", n, "all-assignments", c))
        if rec is None:
            return None
        for line in rec["verdicts"]:
            out.append(dict(part.split(":") for part in line.split(",")))
    return out


def summarise(cfg: DeepSeaConfig, store: ResultsStore | SharedStore) -> list[dict[str, Any]]:
    """One row per N: Table 1's columns with intervals, the curves, the exact columns."""
    rows = []
    rs = reliabilities(cfg.r_step)
    pub = published()
    for n in cfg.cards:
        row: dict[str, Any] = {"cards": n, "games": cfg.games, "paper": pub.get(n)}
        verdicts = _verdicts(cfg, store, n) if cfg.oracle else None
        if verdicts is not None:
            best = [("w" in v.values()) for v in verdicts]
            unknown_best = sum(1 for v, b in zip(verdicts, best) if not b and "?" in v.values())
            row["winnable_best"] = sum(best)
            row["unknown_best"] = unknown_best
        data: dict[str, Any] = {}
        for s in settings(cfg):
            got = _collect(cfg, store, n, s)
            if got is None:
                continue
            wins, imp, owners = got
            k = wins.count("1")
            entry: dict[str, Any] = {"wins": k, "games": len(wins), "rate": k / len(wins),
                                     "ci": wilson(k, len(wins)), "lost_at_start": imp.count("1")}
            if verdicts is not None and s != "mcts-seen":  # other deals: no verdicts
                chosen = [v.get(o, "?") for v, o in zip(verdicts, owners)]
                entry["winnable"] = chosen.count("w")
                entry["unknown"] = chosen.count("?")
                entry["contradictions"] = sum(1 for w, v in zip(wins, chosen) if w == "1" and v != "w")
                entry["efficiency"] = k / entry["winnable"] if entry["winnable"] else None
                entry["efficiency_best"] = k / row["winnable_best"] if row.get("winnable_best") else None
            data[s] = entry
        row["settings"] = data
        st, mc = data.get("stochastic"), data.get("mcts")
        if st and mc:
            row["ratio"] = mc["rate"] / st["rate"] if st["rate"] else None
        curves = {}
        for reading in cfg.rtu if cfg.mcts else ():
            names = curve_settings(reading, rs)
            if st is None or not all(x in data for x in names):
                continue
            pts = [data[x] for x in names]
            value = rtu(rs, [p["rate"] for p in pts], st["rate"])
            ci = rtu_interval(rs, [p["wins"] for p in pts], [p["games"] for p in pts], st["wins"], st["games"],
                              seed=cfg.seed)
            top = pts[-1]
            se = math.sqrt(top["rate"] * (1 - top["rate"]) / top["games"]
                           + st["rate"] * (1 - st["rate"]) / st["games"])
            curves[reading] = {"r": list(rs), "rate": [p["rate"] for p in pts], "wins": [p["wins"] for p in pts],
                               "games": [p["games"] for p in pts], "rtu": value, "rtu_ci": ci,
                               # RTU divides by self-play minus stochastic: meaningless when that is noise
                               "denominator_significant": abs(top["rate"] - st["rate"]) > 1.96 * se,
                               "winnable": [p.get("winnable") for p in pts]}
        row["curves"] = curves
        rows.append(row)
    return rows


def write_tables(rows: Sequence[dict[str, Any]], cfg: DeepSeaConfig, csv_path: str, json_path: str) -> None:
    fields = ("cards", "games", "stochastic", "stochastic_lo", "stochastic_hi", "mcts", "mcts_lo", "mcts_hi",
              "ratio", "rtu_teammates", "rtu_teammates_lo", "rtu_teammates_hi", "rtu_all", "rtu_all_lo",
              "rtu_all_hi", "winnable_stochastic", "winnable_mcts", "winnable_best", "efficiency_stochastic",
              "efficiency_mcts", "lost_at_start", "paper_stochastic", "paper_mcts", "paper_rtu")
    with open(csv_path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in rows:
            w.writerow({k: ("" if v is None else v) for k, v in flat(r).items() if k in fields})
    with open(json_path, "w", encoding="utf-8") as f:
        cfg_d = asdict(cfg)
        json.dump({"schema": "crewcheck.bench.deepsea/1", "config": cfg_d, "rows": list(rows)}, f, indent=1)


def flat(r: dict[str, Any]) -> dict[str, Any]:
    """The row's headline numbers as flat fields."""
    s = r["settings"]
    out: dict[str, Any] = {"cards": r["cards"], "games": r["games"], "ratio": r.get("ratio"),
                           "winnable_best": r.get("winnable_best")}
    for name in ("stochastic", "mcts"):
        e = s.get(name)
        if e:
            out[name], (out[f"{name}_lo"], out[f"{name}_hi"]) = e["rate"], e["ci"]
            out[f"winnable_{name}"] = e.get("winnable")
            out[f"efficiency_{name}"] = e.get("efficiency")
    if "stochastic" in s:
        out["lost_at_start"] = s["stochastic"]["lost_at_start"]
    for reading, cv in r["curves"].items():
        out[f"rtu_{reading}"] = cv["rtu"]
        out[f"rtu_{reading}_lo"], out[f"rtu_{reading}_hi"] = cv["rtu_ci"]
    p = r.get("paper") or {}
    out["paper_stochastic"], out["paper_mcts"], out["paper_rtu"] = p.get("stochastic"), p.get("mcts"), p.get("rtu")
    return out


def _fmt(x: Any, nd: int = 3) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:.{nd}f}" if isinstance(x, float) else str(x)


def iter_rows_text(rows: Iterable[dict[str, Any]]) -> Iterable[str]:
    """The summary as aligned text lines (ours, then the paper's in brackets). An RTU
    marked ``*`` divides by a self-play gain not distinguishable from 0 (95 %)."""
    yield (f"{'N':>2} {'games':>6}  {'stochastic (95% CI)':<24} {'mcts (95% CI)':<24} {'ratio':>5}  "
           f"{'RTU teammates':<20} {'RTU all':<20} {'winnable st/mcts/best':<22} {'eff st/mcts':<12}")
    for r in rows:
        f = flat(r)
        p = r.get("paper") or {}

        def rate(name: str) -> str:
            if name not in f:
                return "-"
            return f"{f[name]:.3f} [{f[name + '_lo']:.3f},{f[name + '_hi']:.3f}] ({_fmt(p.get(name))})"

        def rt(reading: str) -> str:
            k = f"rtu_{reading}"
            if k not in f:
                return "-"
            mark = "" if r["curves"][reading]["denominator_significant"] else "*"
            return f"{_fmt(f[k], 2)}{mark} [{_fmt(f[k + '_lo'], 2)},{_fmt(f[k + '_hi'], 2)}]"

        g = r["games"]
        win = "/".join(_fmt(f.get(k)) if f.get(k) is None else f"{f[k] / g:.3f}"
                       for k in ("winnable_stochastic", "winnable_mcts", "winnable_best"))
        eff = "/".join(_fmt(f.get(k)) for k in ("efficiency_stochastic", "efficiency_mcts"))
        yield (f"{r['cards']:>2} {g:>6}  {rate('stochastic'):<24} {rate('mcts'):<24} {_fmt(f.get('ratio'), 2):>5}  "
               f"{rt('teammates') + ' (' + _fmt(p.get('rtu'), 2) + ')':<20} {rt('all'):<20} {win:<22} {eff:<12}")


# -- figures -------------------------------------------------------------------------------

def plot(rows: Sequence[dict[str, Any]], prefix: str, title: str = "") -> list[str]:
    """``prefix-rtu.png`` (their Figures 2-5: win rate against teammate reliability, one
    panel per N, the area above the stochastic rate shaded) and ``prefix-winnable.png``
    (win rates, the paper's, and the exact winnable fractions against N)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    k = len(rows)
    cols = 2 if k > 1 else 1
    nrows = (k + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(5.2 * cols, 3.8 * nrows), squeeze=False)
    for ax, r in zip(axes.flat, rows):
        st = r["settings"].get("stochastic")
        p = r.get("paper") or {}
        for reading, style in (("teammates", "-o"), ("all", "--s")):
            cv = r["curves"].get(reading)
            if not cv:
                continue
            ax.plot(cv["r"], cv["rate"], style, ms=3, label=f"{reading}: RTU {_fmt(cv['rtu'], 2)}")
            if reading == "teammates" and st:
                ax.fill_between(cv["r"], [st["rate"]] * len(cv["r"]), cv["rate"], alpha=0.2)
        if st:
            ax.axhline(st["rate"], color="grey", lw=1, label=f"stochastic {st['rate']:.3f}")
        if p:
            ax.axhline(p["mcts"], color="C3", lw=0.8, ls=":", label=f"paper: MCTS {p['mcts']}, RTU {p['rtu']}")
            ax.axhline(p["stochastic"], color="k", lw=0.8, ls=":", label=f"paper: stochastic {p['stochastic']}")
        ax.set_title(f"{r['cards']} cards per player ({r['games']} games per point)", fontsize=9)
        ax.set_xlabel("teammate reliability r")
        ax.set_ylabel("win rate")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6)
    for ax in list(axes.flat)[k:]:
        ax.axis("off")
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    path = f"{prefix}-rtu.png"
    fig.savefig(path, dpi=120)
    written.append(path)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4.5))
    ns = [r["cards"] for r in rows]
    for name, color in (("stochastic", "C0"), ("mcts", "C1")):
        pts = [(r["cards"], r["settings"][name]) for r in rows if name in r["settings"]]
        if not pts:
            continue
        x = [q[0] for q in pts]
        y = [q[1]["rate"] for q in pts]
        err = [[q[1]["rate"] - q[1]["ci"][0] for q in pts], [q[1]["ci"][1] - q[1]["rate"] for q in pts]]
        ax.errorbar(x, y, yerr=err, fmt="-o", ms=4, color=color, capsize=3, label=f"{name}: wins (ours)")
        ax.plot([r["cards"] for r in rows if r.get("paper")], [r["paper"][name] for r in rows if r.get("paper")],
                "x:", color=color, label=f"{name}: wins (paper)")
        if all("winnable" in q[1] for q in pts):
            ax.plot(x, [q[1]["winnable"] / q[1]["games"] for q in pts], "--", color=color,
                    label=f"{name}: winnable with its assignment")
    best = [(r["cards"], r["winnable_best"] / r["games"]) for r in rows if r.get("winnable_best") is not None]
    if best:
        ax.plot([b[0] for b in best], [b[1] for b in best], "-", color="black", label="winnable, best assignment")
    ax.set_xticks(ns)
    ax.set_xlabel("cards per player N")
    ax.set_ylabel("fraction of games")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title(title or "Deep Sea: wins against winnable deals", fontsize=10)
    fig.tight_layout()
    path = f"{prefix}-winnable.png"
    fig.savefig(path, dpi=120)
    written.append(path)
    plt.close(fig)
    return written
