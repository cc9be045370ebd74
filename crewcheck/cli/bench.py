"""``crewcheck bench agents`` and ``crewcheck simulate``: agents against the exact oracle.

``bench deepsea`` runs Harvill & Vivek's Mission Deep Sea experiment (seed ``004``).
``bench agents`` plays N seeded deals per task count with every (task agent, play agent)
combination, asks the oracle whether each deal was winnable under the chosen and under
the best task assignment, and writes a resumable SQLite store, a CSV and JSON summary and
(with ``--plot``) PNG and SVG figures, by default into the user cache folder
(:func:`crewcheck.runtime.paths.user_cache_dir`). ``simulate`` plays one game and prints it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from crewcheck.cli import EXIT_OK, EXIT_USAGE, fraction_arg, int_arg, report, scheduler_arg, seconds_arg
from crewcheck.errors import CrewcheckError, InvalidInputError
from crewcheck.runtime.paths import CACHE_ENV, user_cache_dir

__all__ = ["add_parsers", "run_agents", "run_simulate"]

_AGENT_HELP = ("task agents: random, tactical, pmc, pmc-smart, mcts, mcts-smart; play agents: random, "
               "randomsmart, pmc, pmc-smart, mcts, mcts-smart, mc-cheating, mc-ignorant, mc-smart, "
               "mc-smart-restricted, mc-smart-selection. Comma-separate several to run every combination")


_DECK_HELP = ("plain (36 cards, Witteveen), classic (40 with rockets, de Jong) or SxV[+RK] (S suits "
              "valued 1..V, rockets 1..K); default plain for 3 players, classic otherwise")
_BUDGET_HELP = ("per move: iterations/playouts per card (1000) or seconds (0.5s); defaults: 1000 tree "
                "iterations, 100 playouts per card")


def add_parsers(subparsers: Any) -> None:
    bench = subparsers.add_parser(
        "bench", help="benchmark agents against the exact oracle",
        description="Benchmark agents against the exact oracle. 'bench agents' plays N seeded deals per "
                    "task count with every (task agent, play agent) combination, asks the oracle whether "
                    "each deal was winnable under the chosen and under the best task assignment, and "
                    "writes a resumable results store, a CSV and JSON summary and (with --plot) PNG and "
                    "SVG figures.")
    bsub = bench.add_subparsers(dest="bench_command", metavar="WHAT")
    p = bsub.add_parser("agents", help="agents' wins vs winnable deals, per number of tasks",
                        description="Agents' wins against winnable deals, per number of tasks. Results "
                                    "are kept as they come, so an interrupted run resumes; an 'unknown' "
                                    "oracle verdict is tried again with a larger --oracle-timeout.")
    p.add_argument("--players", type=int_arg(3, 5), default=3, help="seats (default 3)")
    p.add_argument("--tasks", default="1..10", help="task counts, e.g. 1..20 or 1,3,5 (default 1..10)")
    p.add_argument("--deals", type=int_arg(1), default=10, help="seeded deals per task count (default 10)")
    p.add_argument("--task-agent", default="tactical", help=_AGENT_HELP + " (default tactical)")
    p.add_argument("--play-agent", default="mcts-smart", help="(default mcts-smart)")
    p.add_argument("--budget", default=None, help=_BUDGET_HELP)
    p.add_argument("--seed", type=int_arg(), default=0, help="master seed, a whole number (default 0)")
    p.add_argument("--deck", default=None, help=_DECK_HELP)
    p.add_argument("--oracle", default="auto", choices=("auto", "search", "exhaustive", "none"),
                   help="auto, search, exhaustive or none (default auto)")
    p.add_argument("--oracle-timeout", type=seconds_arg, default=10.0, metavar="S",
                   help="seconds per oracle call, a positive number or 'none' (default 10)")
    p.add_argument("--workers", type=int_arg(1, 1024), default=1,
                   help="local processes; they end with this one (default 1)")
    p.add_argument("--scheduler", type=scheduler_arg, default=None, help="Dask scheduler address (overrides --workers)")
    p.add_argument("--out", default=None, metavar="DIR",
                   help=f"output directory for the results store, tables and plots (default: "
                        f"bench-agents in the user cache folder, ${CACHE_ENV} or ~/.cache/crewcheck)")
    p.add_argument("--plot", action="store_true", help="write PNG and SVG figures")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.set_defaults(func=run_agents)
    d = bsub.add_parser("deepsea", help="Harvill & Vivek's Deep Sea experiment (seed 004) against the exact oracle",
                        description=_DEEPSEA_DOC, formatter_class=argparse.RawDescriptionHelpFormatter)
    d.add_argument("--cards", default="3..6", help="cards per player N, e.g. 3..6 or 3,5 (default 3..6)")
    d.add_argument("--games", type=int_arg(1), default=10_000, help="seeded games per setting and N (default 10000)")
    d.add_argument("--agents", choices=("stochastic,mcts", "stochastic"), default="stochastic,mcts",
                   help="stochastic alone skips training and the sweep (default stochastic,mcts)")
    d.add_argument("--training", type=int_arg(0), default=102_400, help="MCTS training rollouts per N (default 102400)")
    d.add_argument("--seed", type=int_arg(), default=0, help="master seed, a whole number (default 0)")
    d.add_argument("--rtu", default="teammates,all",
                   help="readings of Teammates(r) to sweep: teammates (the agent in one seat, three teammates "
                        "of reliability r), all (all four seats), none (default teammates,all)")
    d.add_argument("--r-step", type=fraction_arg, default=0.1, help="reliability step of the sweep (default 0.1)")
    d.add_argument("--r4-absent", choices=("seat0", "redeal"), default="seat0",
                   help="captain when R4 is out of play: seat 0, or deal again (default seat0)")
    d.add_argument("--hv5", choices=("separate", "together"), default="separate",
                   help="G7 and B8 won in any tricks or in one trick (default separate)")
    d.add_argument("--captain-hv1", choices=("allow", "forbid"), default="allow",
                   help="may the captain take 'fewer tricks than the captain' (default allow)")
    d.add_argument("--oracle", choices=("engine", "none"), default="engine",
                   help="decide every assignment of every deal exactly (default engine)")
    d.add_argument("--oracle-timeout", type=seconds_arg, default=10.0, metavar="S",
                   help="seconds per oracle call, a positive number or 'none' (default 10)")
    d.add_argument("--chunk", type=int_arg(1), default=500, help="games per stored record (default 500)")
    d.add_argument("--workers", type=int_arg(1, 1024), default=1,
                   help="local processes; they end with this one (default 1)")
    d.add_argument("--scheduler", type=scheduler_arg, default=None, help="Dask scheduler address (overrides --workers)")
    d.add_argument("--out", default=None, metavar="DIR",
                   help=f"output directory (default: bench-deepsea in the user cache folder, ${CACHE_ENV} "
                        "or ~/.cache/crewcheck)")
    d.add_argument("--plot", action="store_true", help="write deepsea-rtu.png and deepsea-winnable.png")
    d.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    d.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    d.set_defaults(func=run_deepsea_cli)
    bench.set_defaults(func=lambda args: bench.error("missing WHAT: agents or deepsea"))

    s = subparsers.add_parser("simulate", help="play one seeded game with agents and print it",
                              description="Play one seeded game: the task agent picks the tasks, the "
                                          "play agent plays every seat; prints the hands, the tasks "
                                          "taken and each trick.")
    s.add_argument("--players", type=int_arg(3, 5), default=3, help="seats (default 3)")
    s.add_argument("--tasks", type=int_arg(0), default=4, help="number of tasks (default 4)")
    s.add_argument("--seed", type=int_arg(), default=0, help="seed of the deal and the agents, a whole "
                                                            "number (default 0)")
    s.add_argument("--deck", default=None, help=_DECK_HELP)
    s.add_argument("--task-agent", default="tactical", help="task agent: random, tactical, pmc, pmc-smart, "
                                                            "mcts, mcts-smart (default tactical)")
    s.add_argument("--play-agent", default="randomsmart", help="play agent: random, randomsmart, pmc, "
                   "pmc-smart, mcts, mcts-smart, mc-cheating, mc-ignorant, mc-smart, mc-smart-restricted, "
                   "mc-smart-selection (default randomsmart)")
    s.add_argument("--budget", default=None, help=_BUDGET_HELP)
    s.set_defaults(func=run_simulate)


def _error(message: str, args: argparse.Namespace | None = None) -> int:
    """A usage error: one line (and a JSON error object with ``--json``), exit 2."""
    return report(args, message, EXIT_USAGE)


def _check_agents(task_agents: tuple[str, ...], play_agents: tuple[str, ...]) -> None:
    from crewcheck.agents import PLAY_AGENTS, TASK_AGENTS

    for a in task_agents:
        if a not in TASK_AGENTS:
            raise InvalidInputError(f"unknown task agent {a!r}; available: {', '.join(TASK_AGENTS)}")
    for a in play_agents:
        if a not in PLAY_AGENTS:
            raise InvalidInputError(f"unknown play agent {a!r}; available: {', '.join(PLAY_AGENTS)}")


def run_agents(args: argparse.Namespace) -> int:
    from crewcheck.agents import parse_budget, parse_deck
    from crewcheck.experiments.bench import (BenchConfig, iter_rows_text, parse_range, plot, run_bench,
                                        summarise, write_tables)
    from crewcheck.experiments.results import open_store

    try:
        tasks = parse_range(args.tasks)
    except ValueError:
        return _error(f"--tasks: expected a range such as 1..20, got {args.tasks!r}", args)
    try:
        deck = args.deck or ("plain" if args.players == 3 else "classic")
        spec = parse_deck(deck)
        parse_budget(args.budget)
        cfg = BenchConfig(players=args.players, tasks=tasks, deals=args.deals,
                          task_agents=tuple(a.strip() for a in args.task_agent.split(",")),
                          play_agents=tuple(a.strip() for a in args.play_agent.split(",")),
                          budget=args.budget, seed=args.seed, deck=spec.name, oracle=args.oracle,
                          oracle_timeout=args.oracle_timeout)
        _check_agents(cfg.task_agents, cfg.play_agents)
        pool = spec.deck.size - (0 if spec.trump is None else len(spec.deck.values[spec.deck.suit_index(spec.trump)]))
        if not tasks or min(tasks) < 0 or max(tasks) > pool:
            raise InvalidInputError(f"--tasks: task counts must lie in 0..{pool} for this deck")
        if args.deals < 1:
            raise InvalidInputError("--deals: expected at least 1")
    except (CrewcheckError, ValueError) as e:
        return _error(str(e), args)
    out = str(user_cache_dir("bench-agents")) if args.out is None else args.out
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        return _error(f"{out}: cannot create the output directory: {e.strerror}", args)
    args.out = out
    store = open_store(args.out)
    run_bench(cfg, store, workers=args.workers, scheduler=args.scheduler, progress=not args.no_progress)
    rows = summarise(cfg, store)
    write_tables(rows, cfg, os.path.join(args.out, "summary.csv"), os.path.join(args.out, "summary.json"))
    files: list[str] = []
    if args.plot:
        title = f"{cfg.players} players, {cfg.deck} deck, {cfg.deals} deals per task count"
        files = plot(rows, os.path.join(args.out, "agents"), title)
    return _print_results(args, "crewcheck.bench.agents/1", rows, files, iter_rows_text(rows), store.path)


_DEEPSEA_DOC = """Harvill & Vivek, Designing a Reliable Crew Member (seed 004): Mission Deep Sea with 4
players and N cards each, 2 of their 5 tasks per game, a stochastic agent and their MCTS agent
(UCB-1, c = sqrt 2, trained on self-play, played greedily), the teammate reliability sweep and
RTU. Every deal's every task assignment is decided exactly, so each agent's wins can be read
against the games it could have won. Resumable: results go to OUT/results.sqlite (or .jsonl)
and trained tables to OUT/mcts-*.npz."""


def run_deepsea_cli(args: argparse.Namespace) -> int:
    from crewcheck.experiments.bench import parse_range
    from crewcheck.agents.deepsea import DeepSeaRules
    from crewcheck.experiments.deepsea_bench import (DeepSeaConfig, iter_rows_text, open_store, plot, reliabilities,
                                                run_deepsea, summarise, write_tables)

    try:
        try:
            cards = parse_range(args.cards)
        except ValueError:
            raise InvalidInputError(f"--cards: expected a range such as 3..6, got {args.cards!r}") from None
        if not cards or min(cards) < 2 or max(cards) > 10:
            raise InvalidInputError("--cards: N must lie in 2..10")
        readings = tuple(r.strip() for r in args.rtu.split(",") if r.strip() and r.strip() != "none")
        for r in readings:
            if r not in ("teammates", "all"):
                raise InvalidInputError(f"--rtu: expected teammates, all or none, got {r!r}")
        try:
            reliabilities(args.r_step)
        except (ValueError, ZeroDivisionError):
            raise InvalidInputError(f"--r-step: {args.r_step} does not divide 1") from None
        if args.games < 1 or args.training < 0 or args.chunk < 1:
            raise InvalidInputError("--games and --chunk must be at least 1, --training at least 0")
        rules = DeepSeaRules(args.r4_absent, args.hv5, args.captain_hv1)
        cfg = DeepSeaConfig(cards=cards, games=args.games, training=args.training, seed=args.seed,
                            rtu=readings, r_step=args.r_step, rules=rules, oracle=args.oracle == "engine",
                            oracle_timeout=args.oracle_timeout, chunk=args.chunk,
                            mcts=args.agents != "stochastic")
    except CrewcheckError as e:
        return _error(str(e), args)
    if args.out is None:
        args.out = str(user_cache_dir("bench-deepsea"))
    os.makedirs(args.out, exist_ok=True)
    store = open_store(args.out)
    run_deepsea(cfg, args.out, store, workers=args.workers, scheduler=args.scheduler, progress=not args.no_progress)
    rows = summarise(cfg, store)
    write_tables(rows, cfg, os.path.join(args.out, "summary.csv"), os.path.join(args.out, "summary.json"))
    files: list[str] = []
    if args.plot:
        title = (f"Deep Sea, {cfg.games} games per point, {cfg.training} training rollouts, "
                 f"readings {rules.tag}")
        files = plot(rows, os.path.join(args.out, "deepsea"), title)
    return _print_results(args, "crewcheck.bench.deepsea/1", rows, files, iter_rows_text(rows), store.path)


def _print_results(args: argparse.Namespace, schema: str, rows: Any, files: list[str],
                   lines: Any, store_path: object) -> int:
    """The end of a bench run: one JSON object, or the table and where the files are."""
    if args.json:
        json.dump({"schema": schema, "rows": rows, "files": files}, sys.stdout)
        print()
        return EXIT_OK
    for line in lines:
        print(line)
    print(f"results: {store_path}, {args.out}/summary.csv, summary.json"
          + (f"; plots: {', '.join(os.path.basename(f) for f in files)}" if files else ""))
    return EXIT_OK


def run_simulate(args: argparse.Namespace) -> int:
    from crewcheck.agents import deal, make_agent, play_game

    try:
        deck = args.deck or ("plain" if args.players == 3 else "classic")
        setup = deal(args.players, args.tasks, seed=args.seed, deck=deck)
        rec = play_game(setup, make_agent(args.task_agent, args.budget), make_agent(args.play_agent, args.budget),
                        seed=args.seed)
    except CrewcheckError as e:
        return _error(str(e), args)
    d = setup.deck
    print(f"{'won' if rec.won else 'lost'}  ({rec.termination}; {rec.tasks_done}/{len(setup.tasks)} tasks, "
          f"{rec.tricks} tricks)")
    for s, h in enumerate(setup.hands):
        mine = [str(d.card(c)) for c, o in zip(setup.tasks, rec.owners) if o == s]
        star = "*" if s == setup.commander else " "
        print(f"seat {s}{star} {d.format_mask(h)}   tasks: {' '.join(mine) or '-'}")
    p = setup.players
    for k in range(0, len(rec.plays), p):
        print(f"trick {k // p + 1}: " + " ".join(str(d.card(c)) for c in rec.plays[k:k + p]))
    return EXIT_OK
