"""Witteveen Thm 3.17, 3.20, Cor 3.21: counting the losing games.

Run: python proofs/witteveen_losing_count.py
Counts the games in each losing class defined by Cor 3.16 / 3.19 by enumerating
per-suit holdings and convolving over suits (no use of the paper's sums), then
evaluates the paper's sums (4)-(7) separately and compares.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

import math

from crewcheck.claims import characterisation


def main() -> None:
    print("Step 1. Classes (task suit fixed, n values; see crewcheck.claims.characterisation):")
    print(characterisation.__doc__.split("The losing games")[1].split("For ``n = 9``")[0])
    print("Step 2. Count each class by per-suit holdings + convolution, n = 1..9:")
    for n in range(1, 10):
        c = characterisation.count_classes(n)
        print(f"  n={n}: S1={c['S1']:,} S2={c['S2']:,} S3={c['S3']:,} S4={c['S4']:,} "
              f"losing={c['losing']:,} of {c['games']:,} ({100 * c['losing'] / c['games']:.3f}%)")
    c = characterisation.count_classes(9)
    print("Step 3. The paper's sums, evaluated as printed:")
    s = characterisation.paper_sums()
    for k in ("S1", "S2", "S3", "S4", "losing"):
        print(f"  {k}: sums {s[k]:,}  count {c[k]:,}  {'agree' if s[k] == c[k] else 'DIFFER'}")
    games = 9 * math.comb(36, 18)
    print(f"Step 4. Winnable: {games - c['losing']:,} of {games:,} = {100 * (games - c['losing']) / games:.4f}%")


if __name__ == "__main__":
    main()
