"""How hard is the logbook, really? The winnable fraction of each mission under perfect
information, for 3, 4 and 5 players (``--players 2``: the two-player game with JARVIS).

For every mission 1-50 and player count, seeded deals (``crewcheck mission N --players P
--seed S``, seeds 0, 1, ...) are decided by the default back-end. Deals are taken in
rounds of ``--round`` seeds across *all* cells, so a run stopped early still has the same
number of deals in every cell. Results go to a JSONL file, a row per deal with its verdict,
seconds, the engine's ``stage`` (the side that answered) and the search's ``nodes``
(resumable: finished (mission, players, seed) triples are skipped); ``--report`` prints the
table (fraction winnable with a Wilson 95 % interval, unknowns, median seconds) and writes
the plot.

    python -m benchmarks.scripts.run_missions --deals 200 --workers 2 --out benchmarks/results/missions.jsonl
    python -m benchmarks.scripts.run_missions --missions 29,34 --deals 200 --out benchmarks/results/missions.jsonl
    python -m benchmarks.scripts.run_missions --report --out benchmarks/results/missions.jsonl --plot docs/missions.png

Deals are made with the default reading of the special rules (Board Game Arena's) and the
crew's choices before play (token swap or move, five-player hand-over); ``--reading
literal`` and ``--no-crew-choices`` give the deals of the rulebook's words without them.

``--recheck OLD.jsonl`` re-decides, under today's rules, the deals OLD did not find
winnable and copies its winnable ones (marked ``"carried"``): sound when every change
since OLD only gives the crew more (a weaker condition, an extra choice), as the reference
readings and the crew's choices do. The rows whose verdict changed are printed.
``--distress`` adds to every row not winnable as dealt the verdict with the distress
signal allowed (either direction, the crew's choice; the signal is optional, so a deal
winnable as dealt is winnable with it allowed); ``--report`` then adds that column.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from crewcheck import decide
from crewcheck.formats.deal_json import from_dict
from crewcheck.experiments.deepsea_bench import wilson
from crewcheck.missions.logbook import deal_mission, missions

PLAYERS = (3, 4, 5)


def run_one(job: tuple[int, int, int, float, bool, str, bool, str | None]) -> dict[str, object]:
    number, players, seed, timeout, challenge, reading, choices, distress = job
    deal = deal_mission(number, players, seed=seed, challenge=challenge, reading=reading, crew_choices=choices,
                        distress=distress)
    inst = from_dict({k: v for k, v in deal.items() if k != "comment"})
    start = time.perf_counter()
    r = decide(inst, timeout=timeout)
    return {"mission": number, "players": players, "seed": seed, "challenge": challenge, "verdict": r.verdict.value,
            "backend": r.backend, "seconds": round(time.perf_counter() - start, 4), "reading": reading,
            "crew_choices": choices, "choice": r.stats.extra.get("choice"), "stage": r.stats.extra.get("stage"),
            "nodes": r.stats.nodes}


def recheck(args: argparse.Namespace) -> None:
    """Re-decide OLD's deals that were not winnable; carry its winnable ones."""
    old = load(args.recheck)
    todo = [r for r in old if r["verdict"] != "winnable"]
    jobs = [(int(r["mission"]), int(r["players"]), int(r["seed"]), args.timeout, bool(r.get("challenge")),  # type: ignore[call-overload]
             args.reading, not args.no_crew_choices, None) for r in todo]
    with ProcessPoolExecutor(args.workers) as pool:
        fresh = {(r["mission"], r["players"], r["seed"]): r for r in pool.map(run_one, jobs, chunksize=1)}
    with args.out.open("w") as out:
        for r in old:
            key = (r["mission"], r["players"], r["seed"])
            row = fresh.get(key) or {**r, "carried": True, "reading": args.reading,
                                     "crew_choices": not args.no_crew_choices}
            out.write(json.dumps(row) + "\n")
            if key in fresh and fresh[key]["verdict"] != r["verdict"]:
                print(f"mission {key[0]}, {key[1]} players, seed {key[2]}: {r['verdict']} -> "
                      f"{fresh[key]['verdict']}" + (f" ({fresh[key]['choice']})" if fresh[key].get("choice") else ""))


def distress_column(args: argparse.Namespace) -> None:
    """Add ``distress_verdict`` to the rows of --out not winnable as dealt."""
    rows = load(args.out)
    todo = [r for r in rows if r["verdict"] != "winnable" and "distress_verdict" not in r
            and (not args.missions or r["mission"] in args.missions)]
    jobs = [(int(r["mission"]), int(r["players"]), int(r["seed"]), args.timeout, bool(r.get("challenge")),  # type: ignore[call-overload]
             str(r.get("reading", "reference")), bool(r.get("crew_choices", True)), "choose") for r in todo]
    where = {(r["mission"], r["players"], r["seed"]): r for r in rows}
    with ProcessPoolExecutor(args.workers) as pool:
        for g in pool.map(run_one, jobs, chunksize=1):  # saved as they come: the run may be stopped
            r = where[(g["mission"], g["players"], g["seed"])]
            r["distress_verdict"], r["distress_seconds"] = g["verdict"], g["seconds"]
            print(f"mission {r['mission']}, {r['players']} players, seed {r['seed']}: with the distress signal "
                  f"{g['verdict']} ({g['seconds']:.2f} s)" + (f": {g['choice']}" if g.get("choice") else ""),
                  flush=True)
            args.out.write_text("".join(json.dumps(x) + "\n" for x in rows))


def load(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def run(args: argparse.Namespace) -> None:
    done = {(r["mission"], r["players"], r["seed"]) for r in load(args.out)}
    players = (3,) if args.challenge else args.players
    numbers = [m.number for m in missions() if not args.missions or m.number in args.missions]
    with args.out.open("a") as out, ProcessPoolExecutor(args.workers) as pool:
        for start in range(0, args.deals, args.round):
            jobs = [(n, p, s, args.timeout, args.challenge, args.reading, not args.no_crew_choices, None)
                    for s in range(start, min(args.deals, start + args.round))
                    for n in numbers for p in players if (n, p, s) not in done]
            t0 = time.perf_counter()
            for rec in pool.map(run_one, jobs, chunksize=4):
                out.write(json.dumps(rec) + "\n")
            out.flush()
            print(f"seeds {start}..{start + args.round - 1}: {len(jobs)} deals in "
                  f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)


def report(args: argparse.Namespace) -> None:
    rows = load(args.out)
    players = (3,) if args.challenge else args.players
    cells: dict[tuple[int, int], list[dict[str, object]]] = {}
    for r in rows:
        cells.setdefault((int(r["mission"]), int(r["players"])), []).append(r)  # type: ignore[arg-type]
    info = {m.number: m for m in missions()}
    n_deals = sorted({len(v) for v in cells.values()})
    print(f"Deals per cell: {n_deals[0]}" + (f"-{n_deals[-1]}" if len(n_deals) > 1 else "") + ".\n")
    print("| mission | tasks | special | " + " | ".join(f"{p} players: % winnable (95 % CI); median s" for p in players) + " |")
    print("| --- | --- | --- | " + " | ".join("---" for _ in players) + " |")
    series: dict[int, list[float]] = {p: [] for p in players}
    for n in sorted(info):
        m = info[n]
        parts = []
        for p in players:
            rs = cells.get((n, p), [])
            k = sum(1 for r in rs if r["verdict"] == "winnable")
            unk = sum(1 for r in rs if r["verdict"] == "unknown")
            lo, hi = wilson(k, len(rs))
            med = statistics.median(float(r["seconds"]) for r in rs) if rs else float("nan")  # type: ignore[arg-type]
            series[p].append(k / len(rs) if rs else float("nan"))
            extra = f", {unk} unknown" if unk else ""
            parts.append(f"{100 * k / max(1, len(rs)):.1f} ({100 * lo:.1f}-{100 * hi:.1f}){extra}; {med:.2f}")
        special = "yes" if (m.conditions or m.assignment in ("decision", "distribution")) else ""
        print(f"| {n} | {m.tasks} | {special} | " + " | ".join(parts) + " |")
    signal = [r for r in rows if "distress_verdict" in r]
    if signal:
        print("\nWith the distress signal allowed (either direction, the crew's choice), for the cells with a deal "
              "not winnable as dealt:\n")
        print("| mission | players | not winnable as dealt | of them winnable with the signal | unknown | "
              "% winnable with the signal allowed |")
        print("| --- | --- | --- | --- | --- | --- |")
        for (n, p) in sorted(cells):
            rs = cells[(n, p)]
            lost = [r for r in rs if r["verdict"] != "winnable"]
            if not lost:
                continue
            saved = sum(1 for r in lost if r.get("distress_verdict") == "winnable")
            unk = sum(1 for r in lost if r.get("distress_verdict") == "unknown")
            k = len(rs) - len(lost) + saved
            print(f"| {n} | {p} | {len(lost)} | {saved} | {unk} | {100 * k / len(rs):.1f} |")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(11, 4))
        xs = sorted(info)
        for p, marker in zip(players, "o^s"):
            ax.plot(xs, series[p], marker=marker, linestyle="-", linewidth=0.8, markersize=4, label=f"{p} players")
        ax.set_xlabel("logbook mission")
        ax.set_ylabel("winnable under perfect information\n(axis from 90 %)")
        ax.set_ylim(0.9, 1.005)
        ax.set_xticks(range(1, 51, 2))
        ax.grid(alpha=0.3)
        ax.legend()
        n_deals = min((len(v) for v in cells.values()), default=0)
        ax.set_title(f"The Crew logbook: fraction of seeded deals that can be won ({n_deals} deals per point)")
        fig.tight_layout()
        fig.savefig(args.plot, dpi=120)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=200, help="seeds per (mission, players) cell")
    ap.add_argument("--round", type=int, default=25, help="seeds per round across all cells")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per deal (then 'unknown')")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/missions.jsonl"))
    ap.add_argument("--players", type=lambda s: tuple(int(x) for x in s.split(",")), default=PLAYERS,
                    help="player counts, comma-separated (default 3,4,5; 2 is the game with JARVIS)")
    ap.add_argument("--challenge", action="store_true", help="3 players, the 30-card Challenge for Three")
    ap.add_argument("--report", action="store_true", help="print the table instead of running")
    ap.add_argument("--plot", type=Path, help="with --report: write the plot here")
    ap.add_argument("--reading", default="reference", help="reading of the special rules: reference, literal")
    ap.add_argument("--no-crew-choices", action="store_true", help="deals without token moves and hand-over")
    ap.add_argument("--missions", type=lambda s: {int(x) for x in s.split(",")}, default=set(),
                    help="only these missions, e.g. 29,34 (default: all 50); a run appends to --out, so drop their "
                         "old rows from --out first to regenerate them")
    ap.add_argument("--recheck", type=Path, metavar="OLD.jsonl",
                    help="re-decide OLD's deals that were not winnable, carry the rest, write --out")
    ap.add_argument("--distress", action="store_true",
                    help="add the verdict with the distress signal to the rows of --out not winnable as dealt")
    args = ap.parse_args()
    if args.report:
        report(args)
    elif args.recheck:
        recheck(args)
    elif args.distress:
        distress_column(args)
    else:
        run(args)


if __name__ == "__main__":
    main()
