"""Measure the agents' speed on a seeded Classic 4-player deal; print a Markdown table.

Run once, late, on a quiet machine: ``PYTHONPATH=$PWD python benchmarks/scripts/run_agents.py``.
Every figure is best of ``--repeat`` runs; the plain-Python twin is measured in the same
run as the baseline the compiled kernel is compared with.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from agents_setup import SEED, classic_setup, kernel_position  # noqa: E402

from crewcheck.agents import make_agent  # noqa: E402
from crewcheck.agents.base import observe  # noqa: E402
from crewcheck.agents.determinize import sample_uniform  # noqa: E402
from crewcheck.agents.fast import is_compiled, kernel, seed_state, twin  # noqa: E402
from crewcheck.agents.mcts import TreeSearchAgent  # noqa: E402


def best_rate(f, n: int, repeat: int, clock=time.perf_counter) -> float:
    """``n`` / the best of ``repeat`` timings of ``f`` (wall clock, or ``clock``)."""
    best = float("inf")
    for _ in range(repeat):
        t = clock()
        f()
        best = min(best, clock() - t)
    return n / best


def plot_main(argv: list[str]) -> int:
    """``plot SUMMARY.json PREFIX [--combos ta/pa,...] [--title T]``: figures for the docs
    from a bench summary, restricted to some agent combinations."""
    import json

    from crewcheck.experiments.bench import plot

    ap = argparse.ArgumentParser(prog="run_agents.py plot")
    ap.add_argument("summary")
    ap.add_argument("prefix")
    ap.add_argument("--combos", default="")
    ap.add_argument("--title", default="")
    args = ap.parse_args(argv)
    rows = json.load(open(args.summary, encoding="utf-8"))["rows"]
    if args.combos:
        keep = [tuple(c.split("/")) for c in args.combos.split(",")]
        rows = [r for r in rows if (r["task_agent"], r["play_agent"]) in keep]
        rows.sort(key=lambda r: (keep.index((r["task_agent"], r["play_agent"])), r["tasks"]))
    for f in plot(rows, args.prefix, args.title):
        print(f)
    return 0


def main() -> int:
    if sys.argv[1:2] == ["plot"]:
        return plot_main(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--playouts", type=int, default=200_000)
    ap.add_argument("--iterations", type=int, default=20_000)
    args = ap.parse_args()
    k, tw = kernel(), twin()
    rows = []
    for full in (True, False):
        st, tb = kernel_position(full=full)
        k.playouts(st, 10, seed_state(1), tb)
        n = args.playouts
        fast = best_rate(lambda: k.playouts(st, n, seed_state(1), tb), n, args.repeat)
        slow = best_rate(lambda: tw.playouts(st, 200, seed_state(1), tb), 200, 1)
        cpu = best_rate(lambda: k.playouts(st, n, seed_state(1), tb), n, args.repeat, time.process_time)
        label = "full random playouts (all 40 cards)" if full else "random playouts to the end of the game (4 tasks)"
        rows.append((label, f"{fast:,.0f} /s", f"{slow:,.0f} /s", f"{fast / slow:,.0f}x"))
        rows.append((label + ", per CPU second", f"{cpu:,.0f} /s", "", ""))
    s = classic_setup()
    owners = [(s.commander + j) % 4 for j in range(len(s.tasks))]
    view = observe(s.hands, s, owners, (), s.commander, (), 0, 0, s.commander, "play", cheating=True)
    for uct, smart, name in ((True, True, "MCTS-UCT smart"), (True, False, "MCTS-UCT standard"),
                             (False, True, "PMC smart")):
        agent = TreeSearchAgent(uct=uct, smart=smart, iterations=args.iterations)
        agent.search(view, random.Random(0))
        it = best_rate(lambda: agent.search(view, random.Random(0)), args.iterations, args.repeat)
        rows.append((f"{name} iterations (first card, {args.iterations} per move)", f"{it:,.0f} /s", "", ""))
    draft = observe(s.hands, s, [-1] * len(s.tasks), (), s.commander, (), 0, 0, s.commander, "tasks", cheating=True)
    agent = TreeSearchAgent(uct=True, smart=True, iterations=args.iterations)
    agent.search(draft, random.Random(0))
    it = best_rate(lambda: agent.search(draft, random.Random(0)), args.iterations, args.repeat)
    rows.append((f"MCTS-UCT smart iterations (task phase, {args.iterations} per move)", f"{it:,.0f} /s", "", ""))
    fair = observe(s.hands, s, owners, (), s.commander, (), 0, 0, (s.commander + 1) % 4, "play")
    others = [p for p in range(4) if p != fair.seat]
    cands = fair.candidates()
    rng = random.Random(0)
    n = 2000
    det = best_rate(lambda: [sample_uniform([cands[p] for p in others], [fair.hand_sizes[p] for p in others], rng)
                             for _ in range(n)], n, args.repeat)
    rows.append(("determinizations, Algorithm 1 (3 hidden hands of 10)", f"{det:,.0f} /s", "", ""))
    lead = observe(s.hands, s, owners, (), s.commander, (), 0, 0, s.commander, "play")
    for name in ("mc-cheating", "mc-ignorant", "mc-smart"):
        agent = make_agent(name, "100")
        ag = agent if name != "mc-cheating" else agent
        v = view if name == "mc-cheating" else lead
        ag.choose(v, random.Random(0))
        mv = best_rate(lambda: ag.choose(v, random.Random(0)), 1, args.repeat)
        rows.append((f"{name} move, 100 playouts per card ({len(v.legal())} cards)", f"{1000 / mv:,.1f} ms", "", ""))
    print(f"Classic 4-player deal, seed {SEED}; {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores (shared), python {platform.python_version()}, compiled={is_compiled(k)}, "
          f"one core, best of {args.repeat}.\n")
    print("| measure | compiled kernel | plain twin | ratio |")
    print("| --- | ---: | ---: | ---: |")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
