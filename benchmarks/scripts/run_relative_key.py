"""Search nodes where the refutation table can key by relative ranks
(:func:`crewcheck.solvers.search.kernel.position_key`): logbook deals whose conditions are
renamable (:func:`crewcheck.solvers.search.conditions.renamable`), every concrete crew
choice of each deal (the first ``--choices``), or the deals of ``--deals`` files (5-seat
deals, say); each decided by the search alone under a node budget, one JSON line each.
Nodes and verdicts are exact, so a busy machine does not change them; run it from two
checkouts (``PYTHONPATH=<checkout>``) and ``--compare`` the two files::

    PYTHONPATH=. python -m benchmarks.scripts.run_relative_key --seeds 10 --out after.jsonl
    PYTHONPATH=. python -m benchmarks.scripts.run_relative_key --deals 5p.jsonl --out after-5p.jsonl
    python -m benchmarks.scripts.run_relative_key --compare before.jsonl after.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, TextIO

MISSIONS = (5, 29, 33, 34, 41, 46, 50)
"""The logbook missions whose conditions are all renamable."""


def _write(f: TextIO, mission: int | str, players: int, seed: int, choice: int, a: Any) -> None:
    """One record: which deal (a mission or a file's cell) and what the search said of it."""
    f.write(json.dumps({"mission": mission, "players": players, "seed": seed, "choice": choice,
                        "verdict": a.verdict.name, "nodes": a.nodes, "canonical": a.extra.get("canonical")}) + "\n")
    f.flush()


def run(missions: tuple[int, ...], seeds: int, choices: int, nodes: int, out: Path) -> None:
    from crewcheck.formats.deal_json import from_dict
    from crewcheck.missions.logbook import deal_mission
    from crewcheck.model.variants import variants
    from crewcheck.solvers.base import Budget
    from crewcheck.solvers.search.driver import SearchOptions, SearchSolver, load_compiled

    load_compiled()
    solver = SearchSolver(SearchOptions())
    with out.open("w", encoding="utf-8") as f:
        for m in missions:
            for p in (3, 4, 5):
                for seed in range(seeds):
                    inst = from_dict(deal_mission(m, p, seed))
                    for i, (_, v) in enumerate(variants(inst)):
                        if i >= choices or not v.is_concrete():
                            break
                        _write(f, m, p, seed, i, solver.decide(v, budget=Budget(nodes=nodes)))


def run_files(files: list[Path], nodes: int, out: Path) -> None:
    from crewcheck.formats.deal_json import from_dict
    from crewcheck.solvers.base import Budget
    from crewcheck.solvers.search.driver import SearchOptions, SearchSolver, load_compiled

    load_compiled()
    solver = SearchSolver(SearchOptions())
    with out.open("w", encoding="utf-8") as f:
        for path in files:
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
                data = json.loads(line)
                inst = from_dict({k: v for k, v in data.items() if k not in ("id", "seed")})
                cell = str(data.get("id", path.stem)).split("/")[0]
                _write(f, cell, len(inst.hands), n, 0, solver.decide(inst, budget=Budget(nodes=nodes)))


def compare(before: Path, after: Path) -> int:
    def load(path: Path) -> dict[tuple[int | str, int, int, int], dict[str, object]]:
        rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
        return {(r["mission"], r["players"], r["seed"], r["choice"]): r for r in rows}

    a, b = load(before), load(after)
    keys = sorted(k for k in a if k in b)
    groups: dict[tuple[int | str, int], list[tuple[dict[str, object], dict[str, object]]]] = defaultdict(list)
    conflicts = 0
    for k in keys:
        x, y = a[k], b[k]
        if "UNKNOWN" not in (x["verdict"], y["verdict"]) and x["verdict"] != y["verdict"]:
            conflicts += 1
            print(f"CONFLICT {k}: {x['verdict']} before, {y['verdict']} after", file=sys.stderr)
        groups[(k[0], k[1])].append((x, y))
    print("| mission (or file) | players | choices decided | decided before / after | nodes before / after "
          "(decided by both) | ratio | relative key |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for (m, p), rows in sorted(groups.items(), key=lambda kv: (str(kv[0][0]).zfill(3), kv[0][1])):
        both = [(x, y) for x, y in rows if x["verdict"] != "UNKNOWN" and y["verdict"] != "UNKNOWN"]
        nb = sum(int(x["nodes"]) for x, _ in both)  # type: ignore[call-overload]
        na = sum(int(y["nodes"]) for _, y in both)  # type: ignore[call-overload]
        db = sum(x["verdict"] != "UNKNOWN" for x, _ in rows)
        da = sum(y["verdict"] != "UNKNOWN" for _, y in rows)
        print(f"| {m} | {p} | {len(rows)} | {db} / {da} | {nb:,} / {na:,} | {na / max(nb, 1):.2f} | "
              f"{sum(bool(y['canonical']) for _, y in rows)} |")
    print(f"\n{len(keys)} choices, {conflicts} verdict conflicts")
    return 1 if conflicts else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--missions", type=int, nargs="+", default=list(MISSIONS))
    parser.add_argument("--seeds", type=int, default=10, help="seeds 0..N-1 of each mission and player count")
    parser.add_argument("--choices", type=int, default=6, help="the first N concrete choices of a deal")
    parser.add_argument("--nodes", type=int, default=1_000_000, help="node budget per choice")
    parser.add_argument("--deals", type=Path, nargs="+", help="deal files (JSON lines) instead of the missions")
    parser.add_argument("--out", type=Path, help="records (JSON lines)")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if args.out is None:
        parser.error("--out is needed to run")
    if args.deals:
        run_files(args.deals, args.nodes, args.out)
    else:
        run(tuple(args.missions), args.seeds, args.choices, args.nodes, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
