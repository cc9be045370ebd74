"""How the engine's SAT side starts: a spare process fed through its pipe against a fork
of the searching process, on the same deals in one process.

For each cell the first ``--deals`` deals of the benchmark corpus are decided by the
default engine (:func:`crewcheck.decide`, kernel loaded, winning lines replayed) twice,
once per setting, the two settings alternating deal by deal (which goes first alternates
too), so both see the same machine:

``fork``
    every SAT process forked from this process (``sat_process.SPARES.enabled = False``);
``spare``
    the spare SAT processes (:class:`crewcheck.solvers.logic.sat_process._Spares`), the default.

Per cell and setting: median / p90 / total seconds, and the deals the SAT side answered.
Verdicts of the two settings must agree (the script exits 1 if not).

Usage::

    PYTHONPATH=. python -m benchmarks.scripts.run_sat_start --cells 4p-fixed-k10 4p-fixed-k15 3p-fixed-k12 \\
        --deals 100 --markdown benchmarks/results/sat-start.md
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from benchmarks.scripts.run_peer import quantile
from crewcheck import decide
from crewcheck.formats.deal_json import from_dict
from crewcheck.model.instance import Instance
from crewcheck.solvers.logic import sat_process

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
SETTINGS = ("fork", "spare")


def _spares(on: bool) -> None:
    sat_process.SPARES.enabled = on


def decide_alternating(cell: str, deals: Sequence[Instance],
                       settings: Mapping[str, Callable[[], None]]) -> tuple[list[str], int]:
    """Each deal decided by the default engine once per setting (``settings[name]()`` is
    called first), the order of the settings alternating deal by deal; a table row per
    setting (cell, deals, setting, median / p90 / total seconds, deals the SAT side
    answered) and the number of deals whose verdicts differ (each printed)."""
    secs: dict[str, list[float]] = {s: [] for s in settings}
    sat: dict[str, int] = {s: 0 for s in settings}
    bad = 0
    for n, inst in enumerate(deals):
        verdicts = {}
        for name in (list(settings) if n % 2 == 0 else list(settings)[::-1]):
            settings[name]()
            t0 = time.perf_counter()
            r = decide(inst)
            secs[name].append(time.perf_counter() - t0)
            sat[name] += r.stats.extra.get("stage") == "sat"
            verdicts[name] = r.verdict
        if len(set(verdicts.values())) != 1:
            bad += 1
            print(f"DISAGREEMENT {cell}/{n}: {verdicts}", file=sys.stderr)
    rows = []
    for name, xs in secs.items():
        rows.append(f"| {cell} | {len(xs)} | {name} | {quantile(xs, 0.5):.4f} | {quantile(xs, 0.9):.4f} | "
                    f"{sum(xs):.2f} | {sat[name]} |")
        print(rows[-1], file=sys.stderr)
    return rows, bad


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cells", nargs="+", default=["4p-fixed-k10", "4p-fixed-k15", "3p-fixed-k12"])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--markdown", type=Path)
    args = ap.parse_args(argv)
    from crewcheck.solvers.search import load_compiled

    load_compiled()
    rows = ["| cell | deals | setting | median s | p90 s | total s | SAT side answered |", "|---|---|---|---|---|---|---|"]
    bad = 0
    for cell in args.cells:
        lines = (CORPUS / f"{cell}.jsonl").read_text(encoding="utf-8").splitlines()[:args.deals]
        deals = []
        for line in lines:
            data = json.loads(line)
            data.pop("id", None)
            deals.append(from_dict(data))
        got, b = decide_alternating(cell, deals, {s: functools.partial(_spares, s == "spare") for s in SETTINGS})
        rows += got
        bad += b
    sat_process.SPARES.enabled = True
    text = "\n".join(rows) + "\n"
    if args.markdown is not None:
        args.markdown.write_text(text, encoding="utf-8")
    print(text)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
