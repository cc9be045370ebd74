"""Benchmark certificates of unwinnable deals: size, the time to make them, the time to check them.

For every deal of the chosen corpus cells (default: 4p-fixed-k10, 4p-fixed-k15,
3p-fixed-k12, the first ``--deals`` of each), ``crewcheck.decide`` (default back-end)
decides it; every unwinnable deal is then certified as ``crewcheck decide --certificate``
does (the CNF rebuilt, solved again by the proof-producing solver), the certificate is
written to a temporary file and checked as ``crewcheck check`` does (CNF rebuilt, digest
compared, proof verified by :mod:`crewcheck.certificates.rup`). Per deal it records the
decision's seconds, the certificate's extra seconds (encoding + proof solve), the proof
solve alone, a plain solve of the same CNF without proof logging (the cost of logging),
the certificate's bytes (and gzip-compressed bytes), the lemmas, and the check's seconds.

``--solvers`` also runs each named proof-producing solver on the same CNFs and checks
its proof (which solver to use by default). ``--drat-trim PATH`` also times drat-trim
(backward checking, its default) on the same certificate file and the CNF in DIMACS.

Prints a Markdown table (``--table FILE`` writes it; ``--jsonl FILE`` one line per deal),
with the load average of the machine before and after the run: timings on a shared
machine are only as good as its load.

Usage::

    python -m benchmarks.scripts.run_certificates --deals 100 --table benchmarks/results/certificates.md \\
        --jsonl benchmarks/results/certificates.jsonl --solvers glucose42,glucose4,cadical195,lingeling
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from crewcheck.api import decide
from crewcheck.certificates import rup
from crewcheck.certificates.certfile import write_certificate
from crewcheck.certificates.cnf import build_cnf
from crewcheck.certificates.produce import DEFAULT_PROOF_SOLVER, certify
from crewcheck.certificates.verify import check_file
from crewcheck.formats.deal_json import from_dict
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Verdict

CORPUS_DIR = Path(__file__).resolve().parents[1] / "corpus"
CELLS = ("4p-fixed-k10", "4p-fixed-k15", "3p-fixed-k12")


def load_cell(cell: str, deals: int) -> list[tuple[str, Instance]]:
    out = []
    for n, line in enumerate((CORPUS_DIR / f"{cell}.jsonl").read_text().splitlines()):
        if n >= deals:
            break
        data = json.loads(line)
        out.append((data.pop("id", f"{cell}/{n}"), from_dict(data)))
    return out


def plain_solve(clauses: list[list[int]], solver: str) -> float:
    """Seconds for the same solver on the same CNF without proof logging."""
    from pysat.solvers import Solver  # type: ignore[import-untyped]

    t0 = time.perf_counter()
    with Solver(name=solver, bootstrap_with=clauses) as sat:
        assert sat.solve() is False
    return time.perf_counter() - t0


def proof_solve(clauses: list[list[int]], solver: str) -> tuple[float, bytes]:
    """Seconds for ``solver`` with proof logging on the CNF, and its proof."""
    from pysat.solvers import Solver

    t0 = time.perf_counter()
    with Solver(name=solver, bootstrap_with=clauses, with_proof=True) as sat:
        assert sat.solve() is False
        lines = [x.strip() for x in sat.get_proof() or () if x.strip()]
    seconds = time.perf_counter() - t0
    if not lines or lines[-1] != "0":
        lines.append("0")
    return seconds, ("\n".join(lines) + "\n").encode()


def drat_trim(program: str, clauses: list[list[int]], variables: int, cert: Path) -> tuple[float, bool]:
    """Seconds drat-trim takes on the certificate file, and whether it says VERIFIED."""
    import subprocess

    dimacs = cert.with_suffix(".cnf")
    dimacs.write_text(f"p cnf {variables} {len(clauses)}\n" + "".join(" ".join(map(str, c)) + " 0\n"
                                                                      for c in clauses))
    t0 = time.perf_counter()
    out = subprocess.run([program, str(dimacs), str(cert), "-w"], capture_output=True, text=True, check=False)
    return time.perf_counter() - t0, "s VERIFIED" in out.stdout.splitlines()


def run_deal(ident: str, inst: Instance, folder: Path, solvers: list[str],
             drat: str | None = None) -> dict[str, Any]:
    result = decide(inst)
    row: dict[str, Any] = {"id": ident, "verdict": result.verdict.value, "decide_seconds": result.stats.seconds,
                           "backend": result.backend, "stage": result.stats.extra.get("stage")}
    if result.verdict is not Verdict.UNWINNABLE:
        return row
    produced = certify(inst, result)
    assert produced is not None
    path = folder / "deal.cert"
    size = write_certificate(produced.certificate, path)
    part = produced.certificate.parts[0]
    checked = check_file(inst, path)
    assert checked.accepted, (ident, checked.message)
    cnf = build_cnf(inst)
    row.update(certificate_seconds=produced.seconds, proof_seconds=part.seconds,
               plain_solve_seconds=plain_solve(cnf.clauses, DEFAULT_PROOF_SOLVER),
               bytes=size, gzip_bytes=len(gzip.compress(path.read_bytes(), 6)), lemmas=part.lemmas,
               deletions=part.deletions, check_seconds=checked.seconds, clauses=len(cnf.clauses))
    if drat is not None:
        row["drat_trim_seconds"], row["drat_trim_verified"] = drat_trim(drat, cnf.clauses, cnf.variables, path)
    for name in solvers:
        seconds, proof = proof_solve(cnf.clauses, name)
        got = rup.check_proof(cnf.clauses, rup.read_proof(proof))
        row[f"solver:{name}"] = {"seconds": seconds, "bytes": len(proof), "check_seconds": got.seconds,
                                 "accepted": got.accepted, "lemmas": got.lemmas}
    return row


def _stats(xs: list[float]) -> str:
    return f"{statistics.median(xs):.3f} / {max(xs):.3f}"


def table(rows: list[dict[str, Any]], load: tuple[float, float], solvers: list[str]) -> str:
    out = [f"Load average (1 min) before / after the run: {load[0]:.2f} / {load[1]:.2f} on 2 cores.", "",
           "| cell | deals | unwinnable | decide s (median / max) | certificate extra s (median / max) | "
           "proof solve s | plain solve s (no proof) | size kB (median / max) | gzip kB (median / max) | "
           "lemmas (median / max) | check s (median / max) | total check s / total decide s |",
           "| --- | ---: | ---: | --- | --- | --- | --- | --- | --- | --- | --- | ---: |"]
    cells = sorted({r["id"].split("/")[0] for r in rows}, key=lambda c: CELLS.index(c) if c in CELLS else 99)
    for cell in cells:
        mine = [r for r in rows if r["id"].startswith(cell + "/")]
        lost = [r for r in mine if r["verdict"] == "unwinnable"]
        if not lost:
            out.append(f"| {cell} | {len(mine)} | 0 | | | | | | | | | |")
            continue
        ratio = sum(r["check_seconds"] for r in lost) / max(sum(r["decide_seconds"] for r in lost), 1e-6)
        out.append(
            f"| {cell} | {len(mine)} | {len(lost)} | {_stats([r['decide_seconds'] for r in lost])} | "
            f"{_stats([r['certificate_seconds'] for r in lost])} | {_stats([r['proof_seconds'] for r in lost])} | "
            f"{_stats([r['plain_solve_seconds'] for r in lost])} | "
            f"{statistics.median(r['bytes'] for r in lost) / 1e3:.1f} / {max(r['bytes'] for r in lost) / 1e3:.1f} | "
            f"{statistics.median(r['gzip_bytes'] for r in lost) / 1e3:.1f} / "
            f"{max(r['gzip_bytes'] for r in lost) / 1e3:.1f} | "
            f"{int(statistics.median(r['lemmas'] for r in lost))} / {max(r['lemmas'] for r in lost)} | "
            f"{_stats([r['check_seconds'] for r in lost])} | {ratio:.2f} |")
    lost = [r for r in rows if r["verdict"] == "unwinnable"]
    timed = [r for r in lost if "drat_trim_seconds" in r]
    if timed:
        out += ["", f"drat-trim (backward checking) on the same {len(timed)} certificate files: "
                    f"{_stats([r['drat_trim_seconds'] for r in timed])} s (median / max), "
                    f"{sum(r['drat_trim_seconds'] for r in timed):.2f} s in all against "
                    f"{sum(r['check_seconds'] for r in timed):.2f} s for crewcheck check; "
                    f"verified {sum(r['drat_trim_verified'] for r in timed)} / {len(timed)}."]
    if solvers and lost:
        out += ["", f"Proof-producing solvers on the same {len(lost)} CNFs (all cells): seconds, proof size and "
                    "check seconds, median / max; total seconds; proofs the checker accepted.", "",
                "| solver | solve s (median / max) | total s | proof kB (median / max) | check s (median / max) | "
                "accepted |", "| --- | --- | ---: | --- | --- | ---: |"]
        for name in solvers:
            got = [r[f"solver:{name}"] for r in lost]
            out.append(f"| {name} | {_stats([g['seconds'] for g in got])} | {sum(g['seconds'] for g in got):.2f} | "
                       f"{statistics.median(g['bytes'] for g in got) / 1e3:.1f} / "
                       f"{max(g['bytes'] for g in got) / 1e3:.1f} | {_stats([g['check_seconds'] for g in got])} | "
                       f"{sum(g['accepted'] for g in got)} / {len(got)} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cells", default=",".join(CELLS), help="comma-separated corpus cells")
    parser.add_argument("--deals", type=int, default=100, help="first N deals of each cell (default 100)")
    parser.add_argument("--solvers", default="", help="also compare these proof-producing PySAT solvers")
    parser.add_argument("--drat-trim", metavar="PATH", help="also time this drat-trim on every certificate")
    parser.add_argument("--table", help="write the Markdown table here")
    parser.add_argument("--jsonl", help="write one JSON line per deal here")
    args = parser.parse_args(argv)
    solvers = [s for s in args.solvers.split(",") if s]
    rows: list[dict[str, Any]] = []
    before = os.getloadavg()[0]
    rup.compiled()  # the checker's compilation is not any deal's check time
    with tempfile.TemporaryDirectory() as tmp:
        for cell in args.cells.split(","):
            for ident, inst in load_cell(cell, args.deals):
                row = run_deal(ident, inst, Path(tmp), solvers, args.drat_trim)
                rows.append(row)
                if row["verdict"] == "unwinnable":
                    print(f"{ident}: decide {row['decide_seconds']:.3f} s, certificate +{row['certificate_seconds']:.3f}"
                          f" s, {row['bytes']:,} bytes, check {row['check_seconds']:.3f} s", file=sys.stderr, flush=True)
    text = table(rows, (before, os.getloadavg()[0]), solvers)
    print(text)
    if args.table:
        Path(args.table).write_text(text)
    if args.jsonl:
        Path(args.jsonl).write_text("".join(json.dumps(r) + "\n" for r in rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
