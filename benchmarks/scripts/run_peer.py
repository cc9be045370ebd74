"""crewcheck's default engine side by side with de Jong's SAT program, cell by cell.

For every cell (:mod:`benchmarks.scripts.corpus`; by default the issue's table: 4 and 3 players,
fixed and free, k = 1, 2, 4, 6, 8, 10, 12, 15, 20, free also 25, 30, 36, and the token
cells) the script generates ``--deals`` deals from ``--seed`` (a base seed other than the
committed corpus's, so these are new deals), writes them as JSONL, and then, deal by
deal:

1. decides the deal with :func:`crewcheck.decide` and the default back-end (``auto``,
   no time limit unless ``--timeout``), in this process, the compiled kernel loaded
   beforehand; each call is timed (decision plus the replay of a winning line);
2. runs the peer, de Jong's ``satisfiability`` (Kissat sc2021), on the same deal with the
   code of ``../shared/anchors/run_dejong.py`` (its ``to_game`` and ``run_anchor``: one
   process per deal, wall time of that process, ``--peer-timeout``), right after ours,
   so that both see the same machine; token cells are not run (the peer has no tokens):
   their reference is the best single back-end of ours, per deal the faster of
   ``search`` and ``sat`` (each with ``--ref-timeout``). ``--peer-deals`` and
   ``--peer-deals-slow`` run the peer on the first deals of a cell only (the free cells
   with 20 or more tasks take it minutes per deal).

Per cell it prints: deals, verdict agreements and disagreements, unknowns on each side,
median / p90 / p99 / max seconds of both, the ratios peer / ours, and which targets of
the issue are met (0 unknown, 0 disagreement, median >= 10x, p99 and max >= 3x, 3 players
max <= 1 s, free assignment max <= 0.5 s). A peer time-out or failure (out of memory)
counts at the time it ran, so its quantiles and the ratios are then lower bounds (shown
with ``>=``). **Any disagreement
between two decided verdicts makes the script exit 1** after the table, naming the
deals.

Usage (the peer built as in ``../shared/anchors/README.md``)::

    python -m benchmarks.scripts.run_peer --peer BUILD/an-analysis-of-the-crew/bin/satisfiability \\
        --deals 200 --out /tmp/peer-run --markdown /tmp/peer-run/table.md
    python -m benchmarks.scripts.run_peer --peer ... --cells 4p-fixed-k10 3p-free-k36 --deals 50

Results are kept per cell in ``--out`` (``<cell>.jsonl`` deals, ``<cell>.ours.jsonl``,
``<cell>.peer.jsonl``); with ``--resume`` a cell whose three files are complete is read
back instead of run again, so a long run can be continued.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.scripts.corpus import CELLS, Cell, corpus_path, find_cells, read_cell, write_cell
from crewcheck import decide
from crewcheck.solvers.base import Verdict

PEER_SEED = 20261124
"""Base seed of the side-by-side deals (the committed corpus uses 20261123)."""
RUN_DEJONG = Path(__file__).resolve().parents[3] / "shared" / "anchors" / "run_dejong.py"

TARGET_MEDIAN = 10.0
TARGET_TAIL = 3.0
MAX_3P = 1.0
MAX_FREE = 0.5


def quantile(xs: Sequence[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default), as run_dejong.py."""
    s = sorted(xs)
    if not s:
        return float("nan")
    pos = q * (len(s) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def run_ours(deals: list[tuple[str, Any]], timeout: float | None, backend: str = "auto") -> list[dict[str, Any]]:
    rows = []
    for ident, inst in deals:
        t = time.perf_counter()
        r = decide(inst, backend=backend, timeout=timeout)
        dt = time.perf_counter() - t
        rows.append({"id": ident, "verdict": r.verdict.value, "seconds": dt, "nodes": r.stats.nodes,
                     "stage": r.stats.extra.get("stage", r.backend)})
    return rows


def load_run_dejong() -> Any:
    """``../shared/anchors/run_dejong.py`` as a module (its ``to_game`` and ``run_anchor``)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("run_dejong", RUN_DEJONG)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_peer_one(dejong: Any, ident: str, deal: dict[str, Any], peer: str, timeout: float, mem_gb: float,
                 game: Path) -> dict[str, Any]:
    """One deal through the peer, exactly as ``run_dejong.py`` runs it (one process, timed)."""
    row: dict[str, Any] = {"id": ident}
    try:
        text, free = dejong.to_game(deal)
    except dejong.Unsupported as e:
        return {**row, "verdict": "unsupported", "seconds": None, "reason": str(e)}
    game.write_text(text, encoding="ascii")
    verdict, seconds, cpu, reason = dejong.run_anchor(peer, game, free, timeout, mem_gb)
    row.update(verdict=verdict, seconds=seconds, cpu_seconds=cpu)
    if reason:
        row["reason"] = reason
    return row


def run_reference(deals: list[tuple[str, Any]], timeout: float) -> list[dict[str, Any]]:
    """Per deal the faster of ``search`` and ``sat`` (the best single back-end of ours)."""
    rows = []
    for (ident, verdict_s, secs_s), (_, verdict_t, secs_t) in zip(
            ((r["id"], r["verdict"], r["seconds"]) for r in run_ours(deals, timeout, "search")),
            ((r["id"], r["verdict"], r["seconds"]) for r in run_ours(deals, timeout, "sat"))):
        decided = [(s, v, name) for s, v, name in ((secs_s, verdict_s, "search"), (secs_t, verdict_t, "sat"))
                   if v != "unknown"]
        if decided:
            s, v, name = min(decided)
        else:
            s, v, name = max(secs_s, secs_t), "unknown", "-"
        rows.append({"id": ident, "verdict": v, "seconds": s, "backend": name})
    return rows


def _fmt(x: float) -> str:
    return f"{x:.4f}" if x < 10 else f"{x:.1f}"


def summarise(cell: Cell, ours: list[dict[str, Any]], theirs: list[dict[str, Any]],
              peer_timeout: float) -> tuple[dict[str, Any], list[str]]:
    """One table row and the ids of the deals where two decided verdicts differ."""
    by_id = {r.get("id"): r for r in theirs}
    agree = 0
    disagree: list[str] = []
    for r in ours:
        t = by_id.get(r["id"])
        if t is None or "unknown" in (r["verdict"], t["verdict"]) or t["verdict"] == "unsupported":
            continue
        if r["verdict"] == t["verdict"]:
            agree += 1
        else:
            disagree.append(r["id"])
    our_s = [r["seconds"] for r in ours]
    run = [t for t in theirs if t["verdict"] != "unsupported"]
    # an unknown counts at the time the peer ran before it timed out or failed (out of
    # memory at 36 free tasks), so the peer's columns and the ratios are lower bounds there
    their_s = [t["seconds"] if t["seconds"] is not None else peer_timeout for t in run]
    their_unknown = sum(t["verdict"] == "unknown" for t in run)
    row: dict[str, Any] = {
        "cell": cell.name, "deals": len(ours), "agree": agree, "disagree": len(disagree),
        "ours_unknown": sum(r["verdict"] == "unknown" for r in ours), "peer_unknown": their_unknown,
        "winnable": sum(r["verdict"] == "winnable" for r in ours),
        "ours": [statistics.median(our_s), quantile(our_s, .9), quantile(our_s, .99), max(our_s)],
        "sat_stage": sum(r.get("stage") == "sat" for r in ours),
    }
    if their_s:
        row["peer"] = [statistics.median(their_s), quantile(their_s, .9), quantile(their_s, .99), max(their_s)]
        row["ratio"] = [p / max(o, 1e-9) for p, o in zip(row["peer"], row["ours"])]
    return row, disagree


def targets(cell: Cell, row: dict[str, Any]) -> str:
    """Which of the issue's targets this row meets (``ok``) or misses (named)."""
    missed = []
    if row["ours_unknown"]:
        missed.append("unknown")
    if row["disagree"]:
        missed.append("DISAGREE")
    if "ratio" in row:
        med, _, p99, mx = row["ratio"]
        if med < TARGET_MEDIAN:
            missed.append(f"median {med:.1f}x")
        if p99 < TARGET_TAIL:
            missed.append(f"p99 {p99:.1f}x")
        if mx < TARGET_TAIL:
            missed.append(f"max {mx:.1f}x")
    if cell.players == 3 and row["ours"][3] > MAX_3P:
        missed.append(f"3p max {row['ours'][3]:.2f} s")
    if cell.assignment == "free" and row["ours"][3] > MAX_FREE:
        missed.append(f"free max {row['ours'][3]:.2f} s")
    return "ok" if not missed else "; ".join(missed)


HEADER = ("| cell | deals | winnable | agree | disagree | unknown ours / peer | ours median / p90 / p99 / max s "
          "| peer median / p90 / p99 / max s | ratio median / p99 / max | SAT side answered | targets |")


def markdown_row(cell: Cell, row: dict[str, Any]) -> str:
    ours = " / ".join(_fmt(x) for x in row["ours"])
    if "peer" in row:
        bound = ">= " if row["peer_unknown"] else ""
        peer = " / ".join(_fmt(x) for x in row["peer"]) + (f" ({row['peer_unknown']} unknown)" if bound else "")
        ratio = " / ".join(f"{bound}{x:.1f}x" for x in (row["ratio"][0], row["ratio"][2], row["ratio"][3]))
    else:
        peer = ratio = "-"
    return (f"| {cell.name} | {row['deals']} | {row['winnable']} | {row['agree']} | {row['disagree']} "
            f"| {row['ours_unknown']} / {row['peer_unknown']} | {ours} | {peer} | {ratio} | {row['sat_stage']} "
            f"| {targets(cell, row)} |")


def _warm_up() -> None:
    from crewcheck.solvers.search import load_compiled

    load_compiled()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer", default=os.environ.get("DEJONG_BIN"),
                        help="the peer's satisfiability executable (default: $DEJONG_BIN)")
    parser.add_argument("--deals", type=int, default=200, help="deals per cell (default %(default)s)")
    parser.add_argument("--seed", type=int, default=PEER_SEED, help="base seed (default %(default)s)")
    parser.add_argument("--cells", nargs="*", help="cell names (default: every cell of the corpus)")
    parser.add_argument("--out", default="peer-run", help="working directory (default %(default)s)")
    parser.add_argument("--timeout", type=float, default=None, help="crewcheck's limit per deal (default none)")
    parser.add_argument("--peer-timeout", type=float, default=120.0, help="the peer's limit per deal (default %(default)s)")
    parser.add_argument("--ref-timeout", type=float, default=60.0,
                        help="limit per deal of each single back-end in token cells (default %(default)s)")
    parser.add_argument("--peer-deals", type=int, default=None,
                        help="run the peer on the first N deals of each cell only (default: all)")
    parser.add_argument("--peer-deals-slow", type=int, default=None,
                        help="likewise, for the free cells with 20 or more tasks, where the peer takes "
                             "seconds to minutes per deal (default: as --peer-deals)")
    parser.add_argument("--mem-limit-gb", type=float, default=8.0, help="the peer's memory cap (default %(default)s)")
    parser.add_argument("--markdown", help="also write the table here")
    parser.add_argument("--resume", action="store_true", help="read back cells already complete in --out")
    args = parser.parse_args(argv)
    if not args.peer or not Path(args.peer).is_file():
        parser.error("the peer's executable is needed: --peer PATH or DEJONG_BIN (see ../shared/anchors/README.md)")
    if not RUN_DEJONG.is_file():
        parser.error(f"run_dejong.py not found at {RUN_DEJONG}")
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    cells = find_cells(args.cells) if args.cells else list(CELLS)
    _warm_up()
    dejong = load_run_dejong()
    game = out_dir / "peer-deal.game"
    rows = [HEADER, "|" + "---|" * 11]
    print(HEADER, flush=True)
    failures: list[str] = []
    for cell in cells:
        deal_file = corpus_path(cell, out_dir)
        ours_file = out_dir / f"{cell.name}.ours.jsonl"
        peer_file = out_dir / f"{cell.name}.peer.jsonl"
        done = args.resume and all(f.exists() for f in (deal_file, ours_file, peer_file)) \
            and len(_read_jsonl(ours_file)) == args.deals
        if done:
            ours, theirs = _read_jsonl(ours_file), _read_jsonl(peer_file)
        else:
            write_cell(cell, args.deals, seed=args.seed, directory=out_dir)
            deals = read_cell(deal_file)
            raw = [json.loads(line) for line in deal_file.read_text(encoding="utf-8").splitlines() if line.strip()]
            peer_n = args.deals if args.peer_deals is None else args.peer_deals
            if cell.assignment == "free" and cell.k >= 20 and args.peer_deals_slow is not None:
                peer_n = min(peer_n, args.peer_deals_slow)
            ours, theirs = [], []
            for n, ((ident, inst), d) in enumerate(zip(deals, raw)):
                # interleaved deal by deal, so both see the same machine
                ours += run_ours([(ident, inst)], args.timeout)
                if cell.tokens:
                    theirs += run_reference([(ident, inst)], args.ref_timeout)
                elif n < peer_n:
                    d.pop("id", None)
                    theirs.append(run_peer_one(dejong, ident, d, args.peer, args.peer_timeout,
                                               args.mem_limit_gb, game))
            _write_jsonl(ours_file, ours)
            _write_jsonl(peer_file, theirs)
        row, disagree = summarise(cell, ours, theirs, args.ref_timeout if cell.tokens else args.peer_timeout)
        failures += disagree
        line = markdown_row(cell, row)
        rows.append(line)
        print(line, flush=True)
    note = ("Token cells: the peer has no tokens; their 'peer' columns are the best single back-end of "
            "ours per deal (the faster of search and sat).")
    rows += ["", note]
    if args.markdown:
        Path(args.markdown).write_text("\n".join(rows) + "\n", encoding="utf-8")
    if failures:
        print(f"DISAGREEMENT with the peer on {len(failures)} deal(s): {', '.join(failures)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
