"""Witteveen Thm 3.23: the complement-and-swap bijection between S2 and S4.

Run: python proofs/witteveen_bijection.py [--max-values N]   (N = 9 takes ~2 minutes)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

import argparse

from crewcheck.claims import bijection, characterisation


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-values", type=int, default=8)
    args = parser.parse_args()
    print("For each n: enumerate S2 and S4 explicitly, re-classify every game, map it")
    print("(complement the critical suit and the task, swap hands), classify the image,")
    print("and map back. Injective both ways + finite => bijection.")
    for n in range(2, args.max_values + 1):
        a, b = bijection.check_direction("S2", n), bijection.check_direction("S4", n)
        counted = characterisation.count_classes(n)
        print(f"  n={n}: |S2|={a['games']:,} |S4|={b['games']:,} (counted {counted['S2']:,}/{counted['S4']:,}); "
              f"bad class {a['wrong_class'] + b['wrong_class']}, bad image {a['wrong_image'] + b['wrong_image']}, "
              f"not involution {a['not_involution'] + b['not_involution']}")


if __name__ == "__main__":
    main()
