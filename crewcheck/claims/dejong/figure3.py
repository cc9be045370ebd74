"""Claims from de Jong's thesis (seed ``001``): the winnability curves of Figure 3.

Figure 3 plots, per number of tasks (objectives) 1..23, the fraction of
10,000 random CLASSIC CREW deals (4 players, 4 suits x 9 values plus rockets
1-4, commander = holder of rocket 4) that are winnable, with *fixed*
objectives (dealt to players in selection order) and with *free* objectives
(any division with the same per-player counts). The text states that every
sampled deal with 2..23 free objectives was winnable.

The curves are reproduced on a small sample with the fastest installed exact back-end
(:data:`BACKENDS`, chosen by :func:`crewcheck.api.choose_backend`); an UNKNOWN verdict
is counted, never guessed.

References
----------
.. [1] A. de Jong, "An Analysis of the Cooperative Card Game The Crew",
   seed ``001``, §4.4, §5, Figure 3.
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping
from typing import Any

from crewcheck.api import choose_backend, decide
from crewcheck.claims.claim import Computation, Mode, Value
from crewcheck.claims.execution import run_job
from crewcheck.errors import NotApplicableError
from crewcheck.formats.deal_json import from_dict
from crewcheck.solvers.base import Verdict

__all__ = ["BACKENDS", "TIMEOUT", "DEJONG_DEALS_ENV", "dejong_chunk", "dejong_curve", "figure_3_free",
           "figure_3_fixed"]

BACKENDS = ("search", "cpsat", "z3")
"""The exact back-ends fast enough for 40-card 4-player deals with trumps, preferred first."""

TIMEOUT = 10.0
"""Seconds per deal for Figure 3 (an UNKNOWN verdict is counted, never guessed)."""

DEJONG_DEALS_ENV = "CREWCHECK_DEJONG_DEALS"
"""Environment variable overriding the number of deals per task count (Figure 3)."""


def _deal_dict(rng: Any, sizes: dict[str, int], players: int, tasks: int, objectives: str) -> dict[str, Any]:
    cards = [f"{s}{v}" for s, n in sizes.items() for v in range(1, n + 1)]
    rng.shuffle(cards)
    per = len(cards) // players
    hands = [sorted(cards[i * per:(i + 1) * per]) for i in range(players)]
    colour = [c for c in cards if not c.startswith("R")]
    chosen = rng.sample(colour, tasks)
    commander = next(i for i, h in enumerate(hands) if f"R{sizes['R']}" in h)
    if objectives == "free":
        task_list = [{"card": c} for c in chosen]
        extra = {"assignment": "free"}
    else:  # drafted round-robin from the commander, in the drawn order
        task_list = [{"card": c, "seat": (commander + i) % players} for i, c in enumerate(chosen)]
        extra = {}
    return {"schema": "crewcheck-deal/1", "deck": sizes, "hands": hands, "tasks": task_list, **extra}


def dejong_chunk(params: Mapping[str, Any]) -> dict[str, Any]:
    """Decide ``size`` random deals with ``tasks`` objectives (``fixed`` or ``free``)."""
    rng = random.Random(f"dejong:{params['objectives']}:{params['tasks']}:{params['seed']}:{params['index']}")
    sizes = params.get("sizes") or {"B": 9, "G": 9, "P": 9, "Y": 9, "R": 4}
    out: dict[str, Any] = {"winnable": 0, "unwinnable": 0, "unknown": 0, "examples": []}
    for _ in range(int(params["size"])):
        deal = _deal_dict(rng, sizes, int(params.get("players", 4)), int(params["tasks"]), params["objectives"])
        verdict = decide(from_dict(deal), backend=params["backend"], timeout=params.get("timeout")).verdict
        key = {Verdict.WINNABLE: "winnable", Verdict.UNWINNABLE: "unwinnable"}.get(verdict, "unknown")
        out[key] += 1
        if key == "unwinnable" and params["objectives"] == "free" and len(out["examples"]) < 3:
            out["examples"].append(deal)
    return out


def dejong_curve(mode: Mode, objectives: str) -> Computation:
    """Reproduce one curve of de Jong's Figure 3 with the fastest installed exact back-end."""
    try:
        backend = choose_backend(among=BACKENDS)
    except NotApplicableError:
        return Computation((Value("curve", None, "not computed"),), holds=None,
                           open_reason="needs a fast exact back-end for 40-card 4-player deals with "
                           "trumps (none of search, cpsat, z3 is installed; "
                           "'exhaustive' refuses > 20 cards)")
    # de Jong used 10,000 deals per task count; a shared 2-core machine affords far
    # fewer (set CREWCHECK_DEJONG_DEALS to raise it; chunks already run are reused).
    deals = int(os.environ.get(DEJONG_DEALS_ENV, "4" if mode == "quick" else "5"))
    counts = [1, 2, 4, 8, 12, 16, 23] if mode == "full" else [1, 4, 23]
    chunk = 5
    chunks: list[dict[str, Any]] = [
        {"objectives": objectives, "tasks": k, "seed": 0, "index": i, "backend": backend,
         "size": min(chunk, deals - i * chunk), "timeout": TIMEOUT}
        for k in counts for i in range((deals + chunk - 1) // chunk)]
    results = run_job(f"dejong-fig3/{objectives}/{backend}/v1", dejong_chunk, chunks, label=f"de Jong {objectives}")
    per_k: dict[int, dict[str, int]] = {}
    examples: list[Any] = []
    for c, r in zip(chunks, results):
        rec = per_k.setdefault(int(c["tasks"]), {"winnable": 0, "unwinnable": 0, "unknown": 0})
        for key in rec:
            rec[key] += r[key]
        examples += r["examples"]
    curve = {str(k): v["winnable"] / max(1, v["winnable"] + v["unwinnable"]) for k, v in per_k.items()}
    values = [Value("curve", curve, f"fraction winnable among decided deals, {deals} random CLASSIC "
                    f"deals per task count, crewcheck.decide(backend={backend!r}, timeout={TIMEOUT:g})"),
              Value("counts", {str(k): v for k, v in per_k.items()}, "winnable / unwinnable / unknown")]
    if objectives == "free":
        unwinnable = sum(v["unwinnable"] for k, v in per_k.items() if k >= 2)
        unknown = sum(v["unknown"] for v in per_k.values())
        values.append(Value("unwinnable", unwinnable, "unwinnable deals with 2..23 free objectives"))
        values.append(Value("unknown", unknown, "deals the back-end could not decide in time (not counted)"))
    else:
        ks = sorted(per_k)
        values.append(Value("decreasing", curve[str(ks[-1])] < curve[str(ks[0])],
                            "winnable fraction at the most tasks below that at the fewest"))
    return Computation(tuple(values), holds=None,
                       evidence=f"unwinnable free deals: {examples[:1]}" if examples else "")


def figure_3_free(mode: Mode) -> Computation:
    """Every sampled deal with 2..23 free objectives is winnable."""
    return dejong_curve(mode, "free")


def figure_3_fixed(mode: Mode) -> Computation:
    """The fixed-objective curve (reproduced and plotted; no single number claimed)."""
    return dejong_curve(mode, "fixed")
