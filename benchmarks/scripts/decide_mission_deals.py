"""Decide listed logbook deals in one warm process, one JSON line each: verdict, nodes, the
side of the engine that answered, seconds, the SAT side's conflicts, the crew's choices
decided on their own (``variants``), by the quick rounds of the search (``quick``) and
in one formula per group of task counts (``together``), and the explanation (cut to 120
characters).

Run it from a checkout (``PYTHONPATH=<checkout>``) to compare two commits deal by deal,
e.g. the slow deals of the logbook study, or a spread sample::

    PYTHONPATH=. python -m benchmarks.scripts.decide_mission_deals 46:3:133 16:3:184 > after.jsonl
    PYTHONPATH=. python -m benchmarks.scripts.decide_mission_deals --sample > sample.jsonl
    PYTHONPATH=. python -m benchmarks.scripts.decide_mission_deals --sample --backend search --nodes 2000000

``--distress left|right|choose``: the deals with the distress signal (the quick pass's
deals and nodes, and which of it and the one formula answered, in ``quick_deals``,
``quick_nodes``, ``distress``).

``--sample``: missions 1-50 x 3/4/5 players x two seeds each, ``(37 m + 11 p + 101 j) mod
200`` for ``j`` = 0, 1 (300 deals). The compiled kernel is loaded before the first deal.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import crewcheck
from crewcheck.missions.logbook import deal_mission
from crewcheck.solvers.base import Budget
from crewcheck.solvers.search.driver import load_compiled


def sample() -> list[tuple[int, int, int]]:
    """The spread sample (see the module docstring)."""
    return [(m, p, (m * 37 + p * 11 + j * 101) % 200) for m in range(1, 51) for p in (3, 4, 5) for j in (0, 1)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("deals", nargs="*", help="MISSION:PLAYERS:SEED")
    parser.add_argument("--sample", action="store_true", help="the 300-deal spread sample")
    parser.add_argument("--backend", default=None, help="back-end (default: auto)")
    parser.add_argument("--timeout", type=float, default=None, help="seconds per deal (default: none)")
    parser.add_argument("--nodes", type=int, default=None, help="node budget per deal (default: none)")
    parser.add_argument("--distress", choices=("left", "right", "choose"), default=None,
                        help="the deals with the distress signal (default: none)")
    args = parser.parse_args(argv)
    deals = sample() if args.sample else []
    for spec in args.deals:
        try:
            m, p, s = (int(x) for x in spec.split(":"))
        except ValueError:
            parser.error(f"deals: {spec!r} is not MISSION:PLAYERS:SEED")
        deals.append((m, p, s))
    load_compiled()
    for m, p, s in deals:
        inst = crewcheck.from_dict(deal_mission(m, p, s, distress=args.distress))
        t0 = time.perf_counter()
        r = crewcheck.decide(inst, backend=args.backend, budget=Budget(seconds=args.timeout, nodes=args.nodes))
        wall = time.perf_counter() - t0
        extra = r.stats.extra
        print(json.dumps({"m": m, "p": p, "s": s, "verdict": r.verdict.value, "nodes": r.stats.nodes,
                          "stage": extra.get("stage"), "seconds": round(r.stats.seconds, 3), "wall": round(wall, 3),
                          "conflicts": extra.get("conflicts"), "variants": extra.get("variants_tried"),
                          "quick": extra.get("variants_quick"), "together": extra.get("variants_together"),
                          "low_card_positions": extra.get("low_card_positions"),
                          "backend": r.backend, "distress": extra.get("distress"),
                          "quick_deals": extra.get("quick_deals_tried"), "quick_nodes": extra.get("quick_nodes"),
                          "choice": extra.get("choice"), "expl": (r.explanation or "")[:120]}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
