"""Plots for ``docs/claims.md`` (matplotlib, optional)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from crewcheck.claims.claim import Verdict


def write_plots(verdicts: Sequence[Verdict], docs: Path) -> dict[str, str]:
    """Write PNGs under `docs` and return ``{claim id: relative path}``.

    Returns an empty mapping when matplotlib is not installed.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return {}
    out: dict[str, str] = {}
    for v in verdicts:
        comp = v.computation
        if comp is None:
            continue
        if v.claim.id == "witteveen-cor-3.21":
            by_n = {int(k): x for k, x in comp.value("losing_by_values").items()}
            ns = sorted(by_n)
            frac = [100 * by_n[n] / (n * math.comb(4 * n, 2 * n)) for n in ns]
            fig, ax = plt.subplots(figsize=(6, 3.5))
            ax.plot(ns, frac, marker="o")
            ax.set_xlabel("values per suit n (4 suits, 2n cards each)")
            ax.set_ylabel("losing games (%)")
            ax.set_title("2-player 1-task games (Witteveen's rules): losing share")
            ax.grid(alpha=0.3)
            name = "claims-losing-by-values.png"
            fig.tight_layout()
            fig.savefig(docs / name, dpi=110)
            plt.close(fig)
            out[v.claim.id] = name
    curves = {}
    sizes: set[int] = set()
    for v in verdicts:
        if v.claim.id.startswith("dejong-fig-3") and v.computation is not None:
            try:
                curve = v.computation.value("curve")
            except KeyError:
                continue
            if curve:
                curves[v.claim.id.rsplit("-", 1)[-1]] = {int(k): x for k, x in curve.items()}
                counts = v.computation.value("counts")
                sizes |= {sum(c.values()) for c in counts.values()}
    if curves:
        fig, ax = plt.subplots(figsize=(6, 3.5))
        for label, curve in sorted(curves.items()):
            xs = sorted(curve)
            ax.plot(xs, [100 * curve[x] for x in xs], marker="o", label=f"{label} objectives")
        ax.set_xlabel("number of tasks")
        ax.set_ylabel("winnable (%)")
        ax.set_ylim(0, 102)
        per = f"{min(sizes):,} deals per count" if len(sizes) == 1 else \
            f"{min(sizes):,}-{max(sizes):,} deals per count"
        ax.set_title(f"Random CLASSIC 4-player deals\n(de Jong Figure 3; {per})", fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(loc="lower left")  # the free curve runs along the top, the fixed one falls to the right
        name = "claims-dejong-figure-3.png"
        fig.tight_layout()
        fig.savefig(docs / name, dpi=110)
        plt.close(fig)
        for v in verdicts:
            if v.claim.id.startswith("dejong-fig-3"):
                out[v.claim.id] = name
    return out
