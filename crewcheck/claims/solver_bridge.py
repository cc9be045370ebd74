"""Bridge from the claims' int-encoded 2-player games to ``crewcheck.decide``.

The characterisation checks encode a Witteveen game as ``(hand1 mask, task
index)`` over a 4-suit deck (card ``suit * values + value - 1``). This module
turns such a game into a project :class:`~crewcheck.model.Instance` (no trump
suit, seat 0 leads, the task owned by seat 0) and asks a registered back-end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from crewcheck.claims.base import Computation, Value

SUIT_LETTERS = "BGPY"
"""Witteveen's four suits, in the deck order of the claims' encoding."""


def instance_dict(hand1: int, task: int, values: int, suits: int) -> dict[str, Any]:
    """The deal JSON object (``crewcheck-deal/1``) of one 2-player 1-task game."""
    def name(c: int) -> str:
        return f"{SUIT_LETTERS[c // values]}{c % values + 1}"

    cards = range(values * suits)
    return {
        "schema": "crewcheck-deal/1",
        "deck": {SUIT_LETTERS[s]: values for s in range(suits)},
        "hands": [[name(c) for c in cards if hand1 >> c & 1],
                  [name(c) for c in cards if not hand1 >> c & 1]],
        "trump": None,
        "lead": 0,
        "tasks": [{"card": name(task), "seat": 0}],
    }


@cache
def _backends() -> tuple[str, ...]:
    from crewcheck.solvers import registry

    avail = registry.available()
    wanted = ("exhaustive", "search", "two_player_one_task")
    return tuple(n for n in wanted if n in registry.BACKENDS and avail.get(n) is None)


DECIDE_TIMEOUT = 120.0
"""Seconds per 2-player game for the project back-ends (UNKNOWN is counted, not guessed)."""


def make_decider(backend: str) -> Callable[[int, int, int, int], bool | None]:
    """A decider ``(hand1, task, values, suits) -> bool | None`` using `backend`.

    ``None`` means the back-end answered UNKNOWN.
    """
    from crewcheck import decide, from_dict
    from crewcheck.solvers.base import Verdict

    def decider(hand1: int, task: int, values: int, suits: int) -> bool | None:
        inst = from_dict(instance_dict(hand1, task, values, suits))
        verdict = decide(inst, backend=backend, timeout=DECIDE_TIMEOUT).verdict
        if verdict is Verdict.UNKNOWN:
            return None
        return verdict is Verdict.WINNABLE

    return decider


def deciders() -> dict[str, Callable[[int, int, int, int], bool | None]]:
    """``{"project-<backend>": decider}`` for every installed project back-end."""
    return {f"project-{name}": make_decider(name) for name in _backends()}


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
    import random

    from crewcheck import decide, from_dict
    from crewcheck.solvers.base import Verdict

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


def dejong_curve(mode: str, objectives: str) -> Computation:
    """Reproduce one curve of de Jong's Figure 3 with the fastest installed exact back-end."""
    import os

    from crewcheck.claims.execution import run_job
    from crewcheck.solvers import registry

    avail = registry.available()
    backend = next((b for b in ("search", "cpsat", "z3") if b in registry.BACKENDS and avail.get(b) is None), None)
    if backend is None:
        return Computation((Value("curve", None, "not computed"),), holds=None,
                           open_reason="needs a fast exact back-end for 40-card 4-player deals with "
                           "trumps (none of search, cpsat, z3 is installed on this branch; "
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
