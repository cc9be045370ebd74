"""de Jong Figure 3: winnability of CLASSIC deals, fixed vs free objectives.

Run: python proofs/dejong_figure3.py
Needs an exact back-end fast enough for 40-card 4-player deals; until one is on
this branch the ledger reports the claim OPEN and this script says why.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from crewcheck.claims import dejong


def main() -> None:
    for name, fn in (("free", dejong.figure_3_free), ("fixed", dejong.figure_3_fixed)):
        comp = fn("quick")
        print(f"{name} objectives: " + (comp.open_reason or str(comp.values)))


if __name__ == "__main__":
    main()
