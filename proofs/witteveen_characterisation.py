"""Witteveen Thm 3.15 / 3.18: the characterisations against exact search.

Run: python proofs/witteveen_characterisation.py [--full]
Decides games with the claims' exact reference search (compiled when numba is
installed), and with crewcheck.decide(backend="exhaustive") on small decks,
and compares each verdict with the characterisation.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

import argparse

from crewcheck.claims import witteveen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="n up to 5, 10^6 uniform games at n = 9")
    args = parser.parse_args()
    res = witteveen.characterisation_check("full" if args.full else "quick")
    print("case A = task card in player 1's hand (Thm 3.15), B = in player 2's hand (Thm 3.18)")
    rows = [(f"exhaustive 4x{n}", r) for n, r in res["exhaustive"].items()]
    rows += [("uniform 4x9", res["uniform"]), ("losing-conditioned 4x9", res["losing"])]
    if res["down_sets"]:
        rows.append(("down-set deals 4x9", res["down_sets"]))
    rows += list(res["project"].items())
    for name, r in rows:
        for case in "AB":
            x = r[case]
            print(f"  {name:<28} {case}: {x['games']:>8,} games, losing by search {x['losing_search']:>6,}, "
                  f"by characterisation {x['losing_char']:>6,}, disagreements {x['disagree']}")
        for e in r["examples"]:
            print("    counterexample:", e)


if __name__ == "__main__":
    main()
