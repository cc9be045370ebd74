"""Witteveen Lemma 3.13: games with the task suit fixed.

Run: python proofs/witteveen_total_games.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

import math

from crewcheck.claims import burnside, characterisation


def main() -> None:
    print("Step 1. Count every game with the task in one fixed suit by enumerating each suit's")
    print("holdings and combining the suits (the same convolution used for S1..S4):")
    counted = characterisation.count_classes(9)["games"]
    print(f"  {counted:,}")
    print(f"Step 2. Formula 9 x C(36,18) = {9 * math.comb(36, 18):,}; all games / 4 = "
          f"{burnside.total_games(4, 9) // 4:,}")
    print("Step 3. Small decks, enumerated hand by hand:")
    for n in range(1, 6):
        print(f"  4x{n}: {n * burnside.all_hands(4 * n, 2 * n).size:,} enumerated, "
              f"{burnside.task_suit_fixed_games(4, n):,} by formula")


if __name__ == "__main__":
    main()
