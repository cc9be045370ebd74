"""How hard is *Mission Deep Sea* by difficulty? The winnable fraction of seeded missions
under perfect information, for 3, 4 and 5 players.

For each difficulty and player count, seeded missions (``crewcheck deepsea --difficulty D
--players P --seed S``, seeds 0, 1, ...) are decided by trying every way the crew can
take the drawn cards (:func:`crewcheck.experiments.deepsea_missions.decide_mission`,
default back-end, ``--timeout`` seconds per taking). Missions are taken in rounds of
``--round`` seeds across all cells, so a run stopped early has the same number of
missions in every cell. Results go to a JSONL file, one compact record per mission
(resumable: finished (difficulty, players, seed) triples are skipped); ``--report``
prints the table (fraction winnable with a Wilson 95 % interval, unknowns, mean number
of cards, median and largest seconds per mission).

    nice -n 5 python -m benchmarks.scripts.run_deepsea_missions --difficulties 1-16 --deals 20 --workers 1
    python -m benchmarks.scripts.run_deepsea_missions --report
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from crewcheck.experiments.deepsea_bench import wilson
from crewcheck.experiments.deepsea_missions import decide_mission
from crewcheck.missions.deepsea import draw_mission

PLAYERS = (3, 4, 5)


def run_one(job: tuple[int, int, int, float]) -> dict[str, object]:
    difficulty, players, seed, timeout = job
    mission = draw_mission(difficulty, players, seed)
    r = decide_mission(mission, timeout=timeout)
    return {"d": difficulty, "p": players, "seed": seed, "cards": list(mission.cards), "verdict": r.verdict.value,
            "takings": r.takings, "tried": r.tried, "seconds": round(r.seconds, 3),
            "backends": sorted(set(r.backends))}


def load(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _range(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def run(args: argparse.Namespace) -> None:
    done = {(r["d"], r["p"], r["seed"]) for r in load(args.out)}
    difficulties = _range(args.difficulties)
    with args.out.open("a") as out, ProcessPoolExecutor(args.workers) as pool:
        for start in range(0, args.deals, args.round):
            jobs = [(d, p, s, args.timeout) for s in range(start, min(args.deals, start + args.round))
                    for d in difficulties for p in PLAYERS if (d, p, s) not in done]
            t0 = time.perf_counter()
            for rec in pool.map(run_one, jobs, chunksize=2):
                out.write(json.dumps(rec, separators=(",", ":")) + "\n")
                out.flush()
            print(f"seeds {start}..{start + args.round - 1}: {len(jobs)} missions in "
                  f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)


def report(args: argparse.Namespace) -> None:
    rows = load(args.out)
    cells: dict[tuple[int, int], list[dict[str, object]]] = {}
    for r in rows:
        cells.setdefault((int(r["d"]), int(r["p"])), []).append(r)  # type: ignore[call-overload]
    n_deals = sorted({len(v) for v in cells.values()})
    total = sum(float(r["seconds"]) for r in rows)  # type: ignore[arg-type]
    print(f"Missions per cell: {n_deals[0]}" + (f"-{n_deals[-1]}" if len(n_deals) > 1 else "")
          + f"; {len(rows)} missions, {total:.0f} s of decision time in all.\n")
    print("| difficulty | " + " | ".join(f"{p} players: % winnable (95 % CI); cards; median / max s" for p in PLAYERS)
          + " |")
    print("| --- | " + " | ".join("---" for _ in PLAYERS) + " |")
    for d in sorted({d for d, _ in cells}):
        parts = []
        for p in PLAYERS:
            rs = cells.get((d, p), [])
            if not rs:
                parts.append("-")
                continue
            k = sum(1 for r in rs if r["verdict"] == "winnable")
            unk = sum(1 for r in rs if r["verdict"] == "unknown")
            lo, hi = wilson(k, len(rs))
            secs = [float(r["seconds"]) for r in rs]  # type: ignore[arg-type]
            cards = statistics.mean(len(r["cards"]) for r in rs)  # type: ignore[arg-type]
            extra = f", {unk} unknown" if unk else ""
            parts.append(f"{100 * k / len(rs):.0f} ({100 * lo:.0f}-{100 * hi:.0f}){extra}; {cards:.1f}; "
                         f"{statistics.median(secs):.2f} / {max(secs):.1f}")
        print(f"| {d} | " + " | ".join(parts) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--difficulties", default="1-16", help="difficulties, e.g. 1-16 or 2,4,8 (default: 1-16)")
    ap.add_argument("--deals", type=int, default=20, help="seeds per (difficulty, players) cell")
    ap.add_argument("--round", type=int, default=5, help="seeds per round across all cells")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per way of taking the cards")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/deepsea_missions.jsonl"))
    ap.add_argument("--report", action="store_true", help="print the table instead of running")
    args = ap.parse_args()
    report(args) if args.report else run(args)


if __name__ == "__main__":
    main()
