"""Re-decide a random sample of the deals a ``run_missions --recheck`` carried over as
winnable, under today's deals (reference reading, the crew's choices), and report any
that is not winnable: the recheck's soundness argument (every change only gives the crew
more) checked on data.

    python -m benchmarks.scripts.spot_check_carried --sample 300 --out benchmarks/results/missions.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from benchmarks.scripts.run_missions import run_one


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/missions.jsonl"))
    ap.add_argument("--sample", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60.0)
    args = ap.parse_args()
    rows = [json.loads(line) for line in args.out.read_text().splitlines() if line.strip()]
    carried = [r for r in rows if r.get("carried")]
    # the missions whose deals changed most: every special-rule and token mission, and five players
    changed = {5, 23, 29, 34, 40, 46}
    pool_rows = [r for r in carried if r["mission"] in changed or r["players"] == 5]
    sample = random.Random(args.seed).sample(pool_rows, min(args.sample, len(pool_rows)))
    jobs = [(r["mission"], r["players"], r["seed"], args.timeout, bool(r.get("challenge")),
             str(r.get("reading", "reference")), bool(r.get("crew_choices", True)), None) for r in sample]
    with ProcessPoolExecutor(args.workers) as pool:
        got = list(pool.map(run_one, jobs, chunksize=4))
    bad = [g for g in got if g["verdict"] != "winnable"]
    for g in bad:
        print(f"mission {g['mission']}, {g['players']} players, seed {g['seed']}: {g['verdict']}")
    print(f"{len(got)} carried deals re-decided, {len(got) - len(bad)} winnable", file=sys.stderr)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
