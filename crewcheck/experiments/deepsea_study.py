"""The Deep Sea readings study: every reading of :mod:`crewcheck.agents.deepsea_readings`
per N = 3..6, written to one compact record.

``python -m crewcheck.experiments.deepsea_study [--out DIR] [--record PATH] [--workers W]
[--only NAME,...] [--scale F]`` plays what the chunk store ``DIR/chunks.jsonl`` lacks (a
chunk is one line, appended when it finishes: kill and rerun to resume), then writes the
record (schema ``crewcheck.deepsea-readings/1``, default
``crewcheck/claims/data/records/deepsea-readings.json``) after every chunk, so a stopped run
leaves a valid partial record (``"complete": false`` on the readings it did not finish).

Every reading plays the same evaluation deals (``0:{N}:{i}``, those of ``crewcheck bench
deepsea``) with the same game seeds, so readings are paired. Trained readings train one
table per training seed and N (``DIR/tables/``) and are recorded once per seed. The
published Table 1 is copied into the record from ``crewcheck/missions/data/deepsea_table1.json``
when the record is written.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crewcheck.agents.deepsea import DeepSeaAgent, play_deepsea
from crewcheck.experiments.deepsea_bench import published
from crewcheck.agents.deepsea_readings import (DEEPSEA_AGENTS, ReadingOptions, Table, make_deepsea_agent,
                                               reading_deal, rollouts_per_decision, train_table)
from crewcheck.errors import InvalidInputError

__all__ = ["SCHEMA", "Reading", "READINGS", "NOT_TRIED", "CARDS", "default_record_path", "run_study", "build_record", "readings_table",
           "main"]

SCHEMA = "crewcheck.deepsea-readings/1"
CARDS: tuple[int, ...] = (3, 4, 5, 6)
TRAINING_SEEDS: tuple[int, ...] = (0, 1, 2)


def _trained(o: ReadingOptions) -> bool:
    """Whether the reading's agent plays from a table the study trains."""
    return DEEPSEA_AGENTS[o.agent].table == "table"


def _plans(o: ReadingOptions) -> bool:
    """Whether the reading's agent plans online (spends a rollout budget)."""
    return "budget" in DEEPSEA_AGENTS[o.agent].options


@dataclass(frozen=True)
class Reading:
    """One reading: its options, the games per N (per training seed for trained agents)
    and the chunk size."""

    name: str
    description: str
    options: ReadingOptions
    games: int
    chunk: int
    seeds: tuple[int, ...] = (0,)
    """Training seeds of ``mcts-table``; the evaluation deals are the same for every seed."""

    @property
    def agent(self) -> str:
        return self.options.agent


def _r(name: str, description: str, games: int, chunk: int, **options: Any) -> Reading:
    opts = ReadingOptions(**options)
    return Reading(name, description, opts, games, chunk, TRAINING_SEEDS if _trained(opts) else (0,))


_FEAS = {"tasks": "feasible"}
_ALL = {"tasks": "feasible", "r4_absent": "highest-sub", "captain_hv1": "forbid", "hv5": "together"}
READINGS: tuple[Reading, ...] = (
    _r("stochastic", "uniformly random valid actions; published set-up (seat 0 leads without R4, HV5 in any "
       "tricks, the captain may take HV1, tasks as drawn)", 10_000, 2_500),
    _r("stochastic/hv5-together", "HV5: G7 and B8 in one trick", 10_000, 2_500, hv5="together"),
    _r("stochastic/captain-forbid", "the captain may not take HV1 (card DS05)", 10_000, 2_500, captain_hv1="forbid"),
    _r("stochastic/r4-redeal", "deal again until R4 is in play", 10_000, 2_500, r4_absent="redeal"),
    _r("stochastic/r4-highest-sub", "without R4 the highest submarine in play leads", 10_000, 2_500,
       r4_absent="highest-sub"),
    _r("stochastic/feasible", "a task whose cards are out of play is redrawn", 10_000, 2_500, **_FEAS),
    _r("stochastic/feasible+highest-sub", "feasible tasks, highest submarine leads", 10_000, 2_500,
       tasks="feasible", r4_absent="highest-sub"),
    _r("stochastic/all", "feasible tasks, highest submarine leads, captain may not take HV1, HV5 in one trick",
       10_000, 2_500, **_ALL),
    _r("online/game-102400", "MCTS as online planning, 102,400 rollouts per game spread over its 4 + 4N "
       "decisions; published set-up", 1_000, 50, agent="mcts-online"),
    _r("online/decision-10", "online planning, 10 rollouts per decision; published set-up", 1_000, 250,
       agent="mcts-online", budget="decision:10"),
    _r("online/decision-50", "online planning, 50 rollouts per decision; published set-up", 1_000, 250,
       agent="mcts-online", budget="decision:50"),
    _r("online/decision-200", "online planning, 200 rollouts per decision; published set-up", 1_000, 250,
       agent="mcts-online", budget="decision:200"),
    _r("online/game-102400+feasible+highest-sub", "online planning, 102,400 rollouts per game; feasible tasks, "
       "highest submarine leads", 1_000, 50, agent="mcts-online", tasks="feasible", r4_absent="highest-sub"),
    _r("online/decision-1000+all", "online planning, 1,000 rollouts per decision; feasible tasks, highest "
       "submarine leads, captain may not take HV1, HV5 in one trick", 1_000, 100, agent="mcts-online",
       budget="decision:1000", **_ALL),
    _r("table/exact-hand", "the published agent: Q-table over the visible state with the exact hand, 102,400 "
       "self-play training games (UCB-1, c = sqrt 2), greedy play; published set-up", 3_000, 1_000,
       agent="mcts-table"),
    _r("table/suit-counts", "Q-table over a hand-free visible state (cards per suit; holds a non-trump 9, G7, "
       "B8), 102,400 training games; published set-up", 3_000, 1_000, agent="mcts-table",
       abstraction="suit-counts"),
    _r("table/exact-hand+feasible+highest-sub", "published agent; feasible tasks, highest submarine leads",
       3_000, 1_000, agent="mcts-table", tasks="feasible", r4_absent="highest-sub"),
    _r("table/suit-counts+feasible+highest-sub", "hand-free Q-table; feasible tasks, highest submarine leads",
       3_000, 1_000, agent="mcts-table", abstraction="suit-counts", tasks="feasible", r4_absent="highest-sub"),
    _r("table/exact-hand+feasible", "published agent; feasible tasks", 3_000, 1_000, agent="mcts-table", **_FEAS),
    _r("table/exact-hand+highest-sub", "published agent; highest submarine leads", 3_000, 1_000, agent="mcts-table",
       r4_absent="highest-sub"),
    _r("table/exact-hand+all", "published agent; feasible tasks, highest submarine leads, captain may not take "
       "HV1, HV5 in one trick", 3_000, 1_000, agent="mcts-table", **_ALL),
    _r("online/game-102400+hv5-together", "online planning, 102,400 rollouts per game; HV5: G7 and B8 in one "
       "trick (the one set-up reading that makes the game harder)", 1_000, 50, agent="mcts-online", hv5="together"),
)
"""Every reading of the study, in the order they run (the record keeps this order)."""

NOT_TRIED: tuple[dict[str, str], ...] = (
    {"name": "determinization using public information",
     "why": "the captain is known to hold R4 and a seat that did not follow suit holds none of it; the paper "
            "assumes every card outside one's hand equally likely, so the planner deals uniformly"},
    {"name": "each single set-up reading with each MCTS agent",
     "why": "CPU budget: the set-up readings are crossed with the stochastic agent one by one, and with the "
            "MCTS agents only as listed (the online planner with HV5 in one trick, the one reading that lowers the "
            "stochastic rate; the others only make the game easier)"},
    {"name": "RTU (Teammates(r)) for the new agents",
     "why": "this record holds the two win-rate columns of Table 1; RTU of the published agent is in the bench"},
    {"name": "evaluation on the training deals",
     "why": "tried by crewcheck bench deepsea (setting mcts-seen, 0.080/0.066/0.063/0.066), not repeated here"},
    {"name": "HV2 as one colour (the catalogue's alternative reading)",
     "why": "the paper lists 'I will win no yellow/green cards' as one of its five tasks"},
    {"name": "POMCP over full histories",
     "why": "the paper replaces histories by its visible state (§3.3); the online planner keeps the seat's "
            "actions at the root only"},
)


def default_record_path() -> Path:
    """``crewcheck/claims/data/records/deepsea-readings.json`` in the package."""
    return Path(__file__).resolve().parent.parent / "claims" / "data" / "records" / "deepsea-readings.json"


def _reading(name: str) -> Reading:
    for r in READINGS:
        if r.name == name:
            return r
    raise InvalidInputError(f"reading: no reading named {name!r}")


def _games(reading: Reading, scale: float) -> int:
    return max(1, round(reading.games * scale))


def _table_path(out: str, reading: Reading, seed: int, n: int) -> Path:
    safe = reading.name.replace("/", "_").replace("+", "_")
    return Path(out) / "tables" / f"{safe}-N{n}-s{seed}-T{reading.options.training}.npz"


def _key(reading: Reading, seed: int, n: int, chunk: int, games: int) -> str:
    """A chunk's store key: the reading, the training seed, N and the range of games."""
    start = chunk * reading.chunk
    return f"{reading.name}|s{seed}|N{n}|{start}-{min(games, start + reading.chunk)}"


def _agent(reading: Reading, out: str, seed: int, n: int) -> DeepSeaAgent:
    o = reading.options
    table = Table.load(str(_table_path(out, reading, seed, n))) if _trained(o) else None
    return make_deepsea_agent(o.agent, o, n, table)



def table_job(reading: Reading, out: str, seed: int, n: int) -> dict[str, Any]:
    path = _table_path(out, reading, seed, n)
    start = time.perf_counter()
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        table = train_table(n, reading.options, seed)
        table.save(str(path))
    else:
        table = Table.load(str(path))
    return {"key": f"table|{path.name}", "kind": "table", "reading": reading.name, "seed": seed, "n": n,
            "entries": len(table.visits), "training_won": table.won, "seconds": round(time.perf_counter() - start, 2)}


def games_job(reading: Reading, out: str, seed: int, n: int, chunk: int, games: int) -> dict[str, Any]:
    start = time.perf_counter()
    size = reading.chunk
    agent = _agent(reading, out, seed, n)
    wins = lost = played = 0
    for i in range(chunk * size, min(games, (chunk + 1) * size)):
        key = f"0:{n}:{i}"
        rec = play_deepsea(reading_deal(n, key, reading.options), agent, seed=key, rules=reading.options.rules)
        wins += rec.won
        lost += rec.impossible is not None
        played += 1
    return {"key": _key(reading, seed, n, chunk, games), "kind": "games", "reading": reading.name, "seed": seed, "n": n,
            "chunk": chunk, "games": played, "wins": wins, "lost_at_start": lost,
            "rollouts": getattr(agent, "rollouts", None) if _plans(reading.options) else None,
            "seconds": round(time.perf_counter() - start, 3)}


def _call(job: tuple[Any, ...]) -> dict[str, Any]:
    if job[0] == "table":
        return table_job(*job[1:])
    return games_job(*job[1:])


def _load(path: Path) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut by a kill: its chunk runs again
                out[rec["key"]] = rec
    return out


def build_record(store: dict[str, dict[str, Any]], readings: Sequence[Reading], scale: float = 1.0
                 ) -> dict[str, Any]:
    """The compact record (schema ``crewcheck.deepsea-readings/1``) from the chunk store."""
    entries = []
    for reading in readings:
        games = _games(reading, scale)
        nchunks = (games + reading.chunk - 1) // reading.chunk
        for seed in reading.seeds:
            per_n: dict[str, dict[str, Any]] = {}
            seconds = 0.0
            complete = True
            for n in CARDS:
                got = [store.get(_key(reading, seed, n, c, games)) for c in range(nchunks)]
                done = [g for g in got if g is not None]
                complete = complete and len(done) == nchunks
                if _trained(reading.options):
                    t = store.get(f"table|{_table_path('.', reading, seed, n).name}")
                    complete = complete and t is not None
                    seconds += t["seconds"] if t else 0.0
                if not done:
                    continue
                cell = {"games": sum(g["games"] for g in done), "wins": sum(g["wins"] for g in done),
                        "lost_at_start": sum(g["lost_at_start"] for g in done)}
                if _plans(reading.options):
                    cell["rollouts_per_game"] = round(sum(g["rollouts"] for g in done) / cell["games"], 1)
                per_n[str(n)] = cell
                seconds += sum(g["seconds"] for g in done)
            o = reading.options
            entry: dict[str, Any] = {
                "name": reading.name, "description": reading.description, "options": o.to_json(),
                "agent": o.agent, "seed": seed,
                "training_rollouts": o.training if _trained(o) else None,
                "rollouts_per_decision": ({str(n): rollouts_per_decision(o, n) for n in CARDS}
                                          if _plans(o) else None),
                "budget": o.budget if _plans(o) else None,
                "games_planned": games, "per_n": per_n, "seconds": round(seconds, 1), "complete": complete}
            entries.append(entry)
    pub = published()
    return {"schema": SCHEMA,
            "published": {str(n): {"stochastic": pub[n]["stochastic"], "mcts": pub[n]["mcts"]} for n in sorted(pub)},
            "evaluation": "every reading plays the deals 0:{N}:{i} (i < games) of deal_deepsea with its options, "
                          "games judged by play_deepsea (crewcheck.State)",
            "readings": entries, "not_tried": list(NOT_TRIED)}


def write_record(record: dict[str, Any], path: Path) -> None:
    """Write ``record`` compactly (one reading per line) and atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["{", f' "schema": {json.dumps(record["schema"])},', f' "published": {json.dumps(record["published"])},',
             f' "evaluation": {json.dumps(record["evaluation"])},', ' "readings": [']
    rs = record["readings"]
    lines += [f"  {json.dumps(r)}" + ("," if i < len(rs) - 1 else "") for i, r in enumerate(rs)]
    lines += [" ],", ' "not_tried": [']
    nt = record["not_tried"]
    lines += [f"  {json.dumps(r)}" + ("," if i < len(nt) - 1 else "") for i, r in enumerate(nt)]
    lines += [" ]", "}"]
    tmp = path.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _jobs(readings: Sequence[Reading], out: str, store: dict[str, dict[str, Any]], scale: float
          ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Two phases in the order of ``readings``: the trainings and the games that need no
    table, then the games of the trained readings."""
    first: list[tuple[Any, ...]] = []
    second: list[tuple[Any, ...]] = []
    for reading in readings:
        tables = first
        games = second if _trained(reading.options) else first
        g = _games(reading, scale)
        nchunks = (g + reading.chunk - 1) // reading.chunk
        for seed in reading.seeds:
            if _trained(reading.options):
                for n in CARDS:
                    if f"table|{_table_path(out, reading, seed, n).name}" not in store:
                        tables.append(("table", reading, out, seed, n))
            for c in range(nchunks):  # chunk-major: every N gets results early
                for n in CARDS:
                    if _key(reading, seed, n, c, g) not in store:
                        games.append(("games", reading, out, seed, n, c, g))
    return first, second


def run_study(out: str, record_path: Path, readings: Sequence[Reading] = READINGS, *, workers: int = 1,
              scale: float = 1.0, progress: Callable[[str], None] | None = None,
              record_readings: Sequence[Reading] | None = None) -> dict[str, Any]:
    """Run what ``out/chunks.jsonl`` lacks, rewriting the record after every job. The
    record lists ``record_readings`` (default: every reading of the study and those run)."""
    Path(out).mkdir(parents=True, exist_ok=True)
    chunks = Path(out) / "chunks.jsonl"
    store = _load(chunks)
    if chunks.exists() and not chunks.read_bytes().endswith(b"\n") and chunks.stat().st_size:
        with open(chunks, "a", encoding="utf-8") as f:
            f.write("\n")  # a line cut by a kill stays alone on its line
    first, second = _jobs(readings, out, store, scale)
    if record_readings is None:
        record_readings = list(READINGS) + [r for r in readings if r not in READINGS]
    todo = len(first) + len(second)
    done = 0

    def finish(rec: dict[str, Any]) -> None:
        nonlocal done
        store[rec["key"]] = rec
        with open(chunks, "a", encoding="utf-8") as f:
            f.write(json.dumps(rec) + "\n")
        write_record(build_record(store, record_readings, scale), record_path)
        done += 1
        if progress is not None:
            progress(f"[{done}/{todo}] {rec['key']} {rec['seconds']}s")

    pending = first + second
    tables_done = {k for k in store if k.startswith("table|")}

    def ready(job: tuple[Any, ...]) -> bool:
        if job[0] != "games" or not _trained(job[1].options):
            return True
        _, reading, _, seed, n = job[:5]
        return f"table|{_table_path(out, reading, seed, n).name}" in tables_done

    def next_job() -> tuple[Any, ...] | None:
        for i, j in enumerate(pending):
            if ready(j):
                return pending.pop(i)
        return None

    if workers == 1:
        while pending:
            job = next_job()
            assert job is not None  # a table job always precedes its games
            rec = _call(job)
            if rec["kind"] == "table":
                tables_done.add(rec["key"])
            finish(rec)
    else:
        from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

        with ProcessPoolExecutor(workers) as pool:
            running: set[Future[dict[str, Any]]] = set()
            while pending or running:
                while len(running) < workers:
                    job = next_job()
                    if job is None:
                        break
                    running.add(pool.submit(_call, job))
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                for fut in finished:
                    rec = fut.result()
                    if rec["kind"] == "table":
                        tables_done.add(rec["key"])
                    finish(rec)
    record = build_record(store, record_readings, scale)
    write_record(record, record_path)
    return record


def readings_table(record: dict[str, Any]) -> list[str]:
    """The record as a Markdown table: Table 1's two columns, then every reading's win rate
    per N with its 95 % Wilson interval (trained readings pooled over their seeds, each
    seed's rate after it); ``*`` marks a reading not complete."""
    from crewcheck.experiments.deepsea_bench import wilson

    ns = sorted(record["published"], key=int)
    out = ["| reading | agent | " + " | ".join(f"N = {n}" for n in ns) + " |",
           "| --- | --- | " + " | ".join("---" for _ in ns) + " |"]
    for col in ("stochastic", "mcts"):
        out.append(f"| **Table 1** | {col} | " + " | ".join(f"**{record['published'][n][col]:.3f}**" for n in ns)
                   + " |")
    names: list[str] = []
    for e in record["readings"]:
        if e["name"] not in names:
            names.append(e["name"])
    for name in names:
        es = [e for e in record["readings"] if e["name"] == name]
        cells = []
        for n in ns:
            cs = [e["per_n"].get(n) for e in es]
            got = [c for c in cs if c]
            if not got:
                cells.append("-")
                continue
            k, g = sum(c["wins"] for c in got), sum(c["games"] for c in got)
            lo, hi = wilson(k, g)
            cell = f"{k / g:.3f} [{lo:.3f}, {hi:.3f}]"
            if len(es) > 1:
                cell += " (" + "/".join("-" if not c else f"{c['wins'] / c['games']:.3f}" for c in cs) + ")"
            cells.append(cell)
        mark = "" if all(e["complete"] for e in es) else " *"
        games = "/".join(sorted({str(c["games"]) for e in es for c in e["per_n"].values()}))
        seeds = f", {len(es)} seeds" if len(es) > 1 else ""
        out.append(f"| `{name}`{mark} ({games} games{seeds}) | {es[0]['agent']} | " + " | ".join(cells) + " |")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m crewcheck.experiments.deepsea_study", description=__doc__.split("\n")[0])
    p.add_argument("--out", default="runs/deepsea-readings", help="chunk store and tables (default %(default)s)")
    p.add_argument("--record", default=None, help="record path (default: the package's records folder)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--only", default="", help="comma-separated reading names (default: all)")
    p.add_argument("--scale", type=float, default=1.0, help="multiply every reading's games (default 1)")
    p.add_argument("--list", action="store_true", help="list the readings and exit")
    p.add_argument("--table", action="store_true", help="print the record as a Markdown table and exit")
    a = p.parse_args(argv)
    try:
        if a.workers < 1:
            raise InvalidInputError(f"--workers: expected a positive int, got {a.workers}")
        if not a.scale > 0:
            raise InvalidInputError(f"--scale: expected a positive number, got {a.scale}")
        readings = [_reading(x.strip()) for x in a.only.split(",") if x.strip()] or list(READINGS)
    except InvalidInputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if a.list:
        for r in READINGS:
            print(f"{r.name:45} {r.games:>6} games/N x {len(r.seeds)} seed(s)  {r.description}")
        return 0
    path = Path(a.record) if a.record else default_record_path()
    if a.table:
        if not path.exists():
            print(f"error: --record: no record at {path}", file=sys.stderr)
            return 2
        print("\n".join(readings_table(json.loads(path.read_text(encoding="utf-8")))))
        return 0
    run_study(a.out, path, readings, workers=a.workers, scale=a.scale,
              progress=lambda s: print(s, file=sys.stderr, flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
