"""Agents against the exact oracle: the sweep behind ``crewcheck bench agents``.

For every task count and every seeded deal, each agent combination (task agent, play
agent) plays the game, and the oracle decides (a) whether the deal was winnable under
the assignment the task agents chose, and (b) whether it was winnable under the best
assignment (free assignment, the draft's per-seat counts). Per task count the summary
gives wins, both winnable counts and the efficiencies wins / winnable.

Sound shortcuts, so the oracle runs less: a won game is a witness that its assignment is
winnable; a winnable chosen assignment makes the free deal winnable (it is one of the
free assignments).

Oracle: ``"auto"`` uses the ``search`` back-end when it is installed (:data:`ORACLE_ORDER`,
through :func:`crewcheck.api.choose_backend`), otherwise
``exhaustive`` where it accepts the deal, otherwise ``exhaustive`` under the time budget,
which can prove a win (its witness is replayed by :func:`crewcheck.check_witness`) but
reports ``unknown`` when time runs out. ``"none"`` skips the oracle.

Resuming: a record's key holds everything that changes it (seed, seats, deck, task count,
deal number, agents and their budget; for an oracle record the assignment). A decided
oracle verdict is a fact about the deal and is kept; an ``unknown`` records the oracle and
its time limit (``oracle``, ``oracle_limit``) and is tried again by a run whose limit is
larger (or unlimited) or whose oracle differs.

Workers: ``workers > 1`` runs deals in local processes that die with this one, even after
``kill -9``, and ``scheduler`` on a Dask cluster (:func:`crewcheck.runtime.fanout.fan_out`,
the fan-out of every parallel run).
"""

from __future__ import annotations

import csv
import json
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from crewcheck.agents import make_agent
from crewcheck.experiments.results import ResultsStore, SharedStore
from crewcheck.agents.simulate import deal, play_game, setup_instance
from crewcheck.api import check_witness, choose_backend, decide
from crewcheck.errors import BackendUnavailableError, NotApplicableError
from crewcheck.model.instance import Instance
from crewcheck.runtime.fanout import Workers, values
from crewcheck.runtime.progress import Progress
from crewcheck.solvers.base import Budget, Verdict
from crewcheck.solvers.exhaustive import ExhaustiveSolver

__all__ = ["BenchConfig", "run_deal", "oracle", "run_bench", "summarise", "SUMMARY_FIELDS", "plot"]


@dataclass(frozen=True)
class BenchConfig:
    players: int = 3
    tasks: tuple[int, ...] = (1,)
    deals: int = 10
    task_agents: tuple[str, ...] = ("random",)
    play_agents: tuple[str, ...] = ("random",)
    budget: str | None = None
    seed: int = 0
    deck: str = "plain"
    oracle: str = "auto"
    oracle_timeout: float | None = 10.0
    """Seconds per oracle call; ``None``: no limit."""

    def combos(self) -> list[tuple[str, str]]:
        return [(a, b) for a in self.task_agents for b in self.play_agents]

    def deal_key(self, t: int, i: int) -> str:
        return f"{self.seed}:{self.players}p:{self.deck}:{t}t:{i}"


ORACLE_ORDER = ("search", "exhaustive")
"""The oracle's back-ends for ``"auto"``, preferred first (the records name the one used)."""


def oracle(instance: Instance, backend: str = "auto", timeout: float | None = 10.0) -> tuple[str, str]:
    """(verdict value, back-end used) for ``instance``; ``"unknown"`` when undecided."""
    if backend == "none":
        return "unknown", "none"
    name = choose_backend(among=ORACLE_ORDER) if backend == "auto" else backend
    try:
        return decide(instance, backend=name, timeout=timeout).verdict.value, name
    except NotApplicableError:
        if name != "exhaustive":
            return "unknown", name
    except BackendUnavailableError:
        return "unknown", name
    answer = ExhaustiveSolver().decide(instance, budget=Budget(seconds=timeout))
    if answer.verdict is Verdict.WINNABLE:
        assert answer.plays is not None
        check_witness(instance, instance.history + tuple(answer.plays), answer.assignment, "exhaustive")
        return "winnable", "exhaustive*"
    return answer.verdict.value, "exhaustive*"


def run_deal(cfg: BenchConfig, t: int, i: int, skip: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """Play every combination on deal ``(t, i)`` and decide the oracle columns.

    Returns the records not in ``skip`` (keys already stored): one ``game`` record per
    combination, one ``oracle`` record per assignment decided and one for free assignment.
    """
    key = cfg.deal_key(t, i)
    setup = deal(cfg.players, t, seed=key, deck=cfg.deck)
    out: list[dict[str, Any]] = []
    games: dict[tuple[str, str], dict[str, Any]] = {}
    for ta, pa in cfg.combos():
        gkey = f"game|{key}|{ta}|{pa}|{cfg.budget}"
        start = time.perf_counter()
        rec = play_game(setup, make_agent(ta, cfg.budget),
                        make_agent(pa, cfg.budget), seed=key)
        g: dict[str, Any] = {"key": gkey, "kind": "game", "deal": key, "tasks": t, "index": i, "task_agent": ta,
             "play_agent": pa, "budget": cfg.budget, "won": rec.won, "tasks_done": rec.tasks_done,
             "tricks": rec.tricks, "owners": list(rec.owners), "seconds": round(time.perf_counter() - start, 4)}
        games[(ta, pa)] = g
        if gkey not in skip:
            out.append(g)
    # oracle under each chosen assignment
    chosen: dict[tuple[int, ...], str] = {}
    for g in games.values():
        owners = tuple(g["owners"])
        if g["won"]:
            chosen[owners] = "winnable"
    any_winnable = False
    assignments: set[tuple[int, ...]] = {tuple(g["owners"]) for g in games.values()}
    for owners in sorted(assignments):
        okey = f"oracle|{key}|{','.join(map(str, owners))}"
        if owners in chosen:
            verdict, backend = "winnable", "game"
        else:
            verdict, backend = oracle(setup_instance(setup, owners), cfg.oracle, cfg.oracle_timeout)
        chosen[owners] = verdict
        any_winnable |= verdict == "winnable"
        if okey not in skip:
            out.append({"key": okey, "kind": "oracle", "deal": key, "tasks": t, "index": i,
                        "assignment": list(owners), "verdict": verdict, "backend": backend,
                        "oracle": cfg.oracle, "oracle_limit": cfg.oracle_timeout})
    fkey = f"oracle|{key}|free"
    if fkey not in skip:
        if any_winnable:
            verdict, backend = "winnable", "chosen"
        else:
            verdict, backend = oracle(setup_instance(setup, None), cfg.oracle, cfg.oracle_timeout)
        out.append({"key": fkey, "kind": "oracle", "deal": key, "tasks": t, "index": i,
                    "assignment": None, "verdict": verdict, "backend": backend,
                    "oracle": cfg.oracle, "oracle_limit": cfg.oracle_timeout})
    return out


def settled(record: dict[str, Any] | None, cfg: BenchConfig) -> bool:
    """Whether a stored record stands for ``cfg``: any game record, a decided oracle
    verdict, or an ``unknown`` that this run's oracle would not improve on (same oracle,
    a time limit no larger). Records from before the limit was recorded count as limit 0."""
    if record is None:
        return False
    if record.get("kind") != "oracle" or record.get("verdict") != "unknown":
        return True
    if record.get("oracle", "auto") != cfg.oracle:
        return cfg.oracle == "none"
    if cfg.oracle == "none":
        return True
    stored = record.get("oracle_limit", 0.0)
    if cfg.oracle_timeout is None:
        return stored is None
    return stored is None or stored >= cfg.oracle_timeout


def _needed(cfg: BenchConfig, store: ResultsStore | SharedStore, t: int, i: int) -> bool:
    key = cfg.deal_key(t, i)
    if not settled(store.get(f"oracle|{key}|free"), cfg):
        return True
    for ta, pa in cfg.combos():
        g = store.get(f"game|{key}|{ta}|{pa}|{cfg.budget}")
        if g is None or not settled(store.get(f"oracle|{key}|{','.join(map(str, g['owners']))}"), cfg):
            return True
    return False


def _job(args: tuple[BenchConfig, int, int, frozenset[str]]) -> list[dict[str, Any]]:
    return run_deal(*args)


def run_bench(cfg: BenchConfig, store: SharedStore, *, workers: int = 1, scheduler: str | None = None,
              progress: bool = True) -> None:
    """Run every (task count, deal) not yet complete in ``store``, in parallel if asked."""
    todo = [(t, i) for t in cfg.tasks for i in range(cfg.deals) if _needed(cfg, store, t, i)]
    skip = frozenset(r["key"] for r in store if settled(r, cfg))
    jobs = [(cfg, t, i, frozenset(k for k in skip if f"|{cfg.deal_key(t, i)}|" in k)) for t, i in todo]
    bar = progress_bar(len(jobs), progress)
    pool = Workers(workers if workers > 1 or scheduler else 0, scheduler)
    for _, records, _ in values(_job, jobs, pool):
        store.add_many(records)
        bar(1)
    bar(0, close=True)


def progress_bar(total: int, enabled: bool, *, unit: str = "deal", desc: str = "bench agents") -> Callable[..., None]:
    """Progress on stderr (:class:`crewcheck.runtime.progress.Progress`) as
    ``step(n, close=False)`` (a no-op when disabled)."""
    if not enabled or total == 0:
        return lambda n, close=False: None
    bar = Progress(desc, total=total, unit=unit)

    def step(n: int, close: bool = False) -> None:
        bar.update(n)
        if close:
            bar.close()

    return step


SUMMARY_FIELDS = ("task_agent", "play_agent", "tasks", "games", "wins", "tasks_done_mean",
                  "winnable_chosen", "unknown_chosen", "winnable_best", "unknown_best",
                  "efficiency_chosen", "efficiency_best", "seconds_per_game")


def summarise(cfg: BenchConfig, store: SharedStore) -> list[dict[str, Any]]:
    """One row per (combination, task count) over the deals of ``cfg`` present in ``store``."""
    rows = []
    for ta, pa in cfg.combos():
        for t in cfg.tasks:
            games = wins = done = wc = uc = wb = ub = 0
            secs = 0.0
            for i in range(cfg.deals):
                key = cfg.deal_key(t, i)
                g = store.get(f"game|{key}|{ta}|{pa}|{cfg.budget}")
                if g is None:
                    continue
                games += 1
                wins += g["won"]
                done += g["tasks_done"]
                secs += g["seconds"]
                oc = store.get(f"oracle|{key}|{','.join(map(str, g['owners']))}")
                ob = store.get(f"oracle|{key}|free")
                vc = oc["verdict"] if oc else "unknown"
                vb = ob["verdict"] if ob else "unknown"
                wc += vc == "winnable"
                uc += vc == "unknown"
                wb += vb == "winnable"
                ub += vb == "unknown"
            rows.append({
                "task_agent": ta, "play_agent": pa, "tasks": t, "games": games, "wins": wins,
                "tasks_done_mean": round(done / games, 4) if games else None,
                "winnable_chosen": wc, "unknown_chosen": uc, "winnable_best": wb, "unknown_best": ub,
                "efficiency_chosen": round(wins / wc, 4) if wc and not uc else None,
                "efficiency_best": round(wins / wb, 4) if wb and not ub else None,
                "seconds_per_game": round(secs / games, 4) if games else None,
            })
    return rows


def write_tables(rows: Sequence[dict[str, Any]], cfg: BenchConfig, csv_path: str | None, json_path: str | None) -> None:
    if csv_path:
        with open(csv_path, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=SUMMARY_FIELDS)
            w.writeheader()
            for r in rows:
                w.writerow({k: ("" if r[k] is None else r[k]) for k in SUMMARY_FIELDS})
    if json_path:
        with open(json_path, "w", encoding="utf-8") as f:
            json.dump({"schema": "crewcheck.bench.agents/1", "config": asdict(cfg), "rows": list(rows)}, f, indent=1)


def plot(rows: Sequence[dict[str, Any]], prefix: str, title: str = "") -> list[str]:
    """Wins and oracle curves, and efficiency curves, as ``prefix-wins.{png,svg}`` and
    ``prefix-efficiency.{png,svg}``; returns the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    by_combo: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_combo[f"{r['task_agent']} / {r['play_agent']}"].append(r)
    written: list[str] = []
    fig, ax = plt.subplots(figsize=(8, 5))
    best_drawn = False
    for i, (label, rs) in enumerate(by_combo.items()):
        rs = sorted(rs, key=lambda r: r["tasks"])
        x = [r["tasks"] for r in rs]
        color = f"C{i % 10}"
        ax.plot(x, [100 * r["wins"] / max(r["games"], 1) for r in rs], "-o", color=color, ms=3, label=f"{label}: wins")
        ax.plot(x, [100 * r["winnable_chosen"] / max(r["games"], 1) for r in rs], ":", color=color,
                label=f"{label}: winnable (chosen tasks)")
        if not best_drawn:
            ax.plot(x, [100 * r["winnable_best"] / max(r["games"], 1) for r in rs], "--", color="black",
                    label="winnable (best assignment)")
            best_drawn = True
    ax.set_xlabel("tasks")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("% of deals")
    ax.set_ylim(-2, 102)
    ax.set_title(title or "agents vs the exact oracle")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    for ext in ("png", "svg"):
        path = f"{prefix}-wins.{ext}"
        fig.savefig(path, dpi=120, bbox_inches="tight")
        written.append(path)
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(8, 5))
    for i, (label, rs) in enumerate(by_combo.items()):
        rs = sorted(rs, key=lambda r: r["tasks"])
        color = f"C{i % 10}"
        pts = [(r["tasks"], r["efficiency_chosen"]) for r in rs if r["efficiency_chosen"] is not None]
        if pts:
            ax.plot([p[0] for p in pts], [100 * p[1] for p in pts], "-o", ms=3, color=color,
                    label=f"{label}: wins / winnable (chosen)")
        pts = [(r["tasks"], r["efficiency_best"]) for r in rs if r["efficiency_best"] is not None]
        if pts:
            ax.plot([p[0] for p in pts], [100 * p[1] for p in pts], "--", color=color,
                    label=f"{label}: wins / winnable (best)")
    ax.set_xlabel("tasks")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("efficiency, %")
    ax.set_ylim(-2, 102)
    ax.set_title((title + ": " if title else "") + "efficiency")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    for ext in ("png", "svg"):
        path = f"{prefix}-efficiency.{ext}"
        fig.savefig(path, dpi=120, bbox_inches="tight")
        written.append(path)
    plt.close(fig)
    return written


MAX_RANGE = 10_000
"""Most numbers a range given to :func:`parse_range` may hold."""


def parse_range(text: str) -> tuple[int, ...]:
    """``"1..20"``, ``"3"``, ``"1,2,5..7"`` -> the integers; :class:`ValueError` for
    anything else or more than :data:`MAX_RANGE` numbers."""
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if ".." in part:
            a, b = (int(x) for x in part.split("..", 1))
            if b - a >= MAX_RANGE or len(out) + max(0, b - a + 1) > MAX_RANGE:
                raise ValueError(f"range {part!r} holds more than {MAX_RANGE} numbers")
            out.extend(range(a, b + 1))
        elif part:
            out.append(int(part))
    return tuple(out)


def iter_rows_text(rows: Iterable[dict[str, Any]]) -> Iterable[str]:
    """The summary as aligned text lines."""
    yield (f"{'task agent':<11} {'play agent':<20} {'tasks':>5} {'games':>5} {'wins':>5} "
           f"{'winC':>5} {'?C':>3} {'winB':>5} {'?B':>3} {'effC':>6} {'effB':>6}")
    for r in rows:
        ec = "-" if r["efficiency_chosen"] is None else f"{r['efficiency_chosen']:.3f}"
        eb = "-" if r["efficiency_best"] is None else f"{r['efficiency_best']:.3f}"
        yield (f"{r['task_agent']:<11} {r['play_agent']:<20} {r['tasks']:>5} {r['games']:>5} {r['wins']:>5} "
               f"{r['winnable_chosen']:>5} {r['unknown_chosen']:>3} {r['winnable_best']:>5} {r['unknown_best']:>3} "
               f"{ec:>6} {eb:>6}")

