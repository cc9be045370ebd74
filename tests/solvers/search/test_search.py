"""The fast search back-end against the exhaustive oracle.

Properties: on random small deals with every rule feature (trumps or none, lead seat /
commander / free, unequal hands, tokens in both readings, free assignment, mid-game
history) ``search`` gives the oracle's verdict, and every winning line passes the
replay checker (:func:`crewcheck.decide` replays it). Counterexamples found by these
properties are saved in ``models/counterexamples/`` and pinned below.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings

from crewcheck import decide
from crewcheck.formats.deal_json import load
from crewcheck.model.cards import Deck
from crewcheck.model.instance import Instance
from crewcheck.model.tasks import Task
from crewcheck.solvers import registry
from crewcheck.solvers.base import Budget, Verdict
from crewcheck.solvers.search import SearchOptions, SearchSolver
from tests.oracle import check_against_oracle
from tests.sizes import few, slow_twin
from tests.strategies import instances, own_task_instances, trump_pad_instances

COUNTEREXAMPLES = Path(__file__).resolve().parents[3] / "models" / "counterexamples"


@given(instances(max_players=4, max_cards=12, max_tasks=4))
def test_search_agrees_with_oracle(inst: Instance) -> None:
    """`search` (compiled kernel when numba is installed) gives the oracle's verdict and a
    replayable witness on small deals with every rule feature."""
    check_against_oracle(inst, SearchSolver())


@given(own_task_instances())
def test_search_agrees_with_oracle_own_tasks(inst: Instance) -> None:
    """On deals full of seats' own task cards `search` (whose precedence and release-time
    cuts fire there) gives the oracle's verdict."""
    check_against_oracle(inst, SearchSolver())


@few()
@given(inst=instances(max_players=3, max_cards=10, max_tasks=9, free=True, history=False))
def test_search_agrees_with_oracle_free_many_tasks(inst: Instance) -> None:
    """Free assignment with most cards tasks: the counting of non-task cards modulo the
    players (kernel ``boundary_dead``) fires here; the verdict is still the oracle's (10
    deals by default, the profile's number in the slow twin)."""
    check_against_oracle(inst, SearchSolver())


test_search_agrees_with_oracle_free_many_tasks_on_more_deals = slow_twin(
    test_search_agrees_with_oracle_free_many_tasks,
    inst=instances(max_players=3, max_cards=10, max_tasks=9, free=True, history=False))


@given(trump_pad_instances())
def test_search_agrees_with_oracle_trumps_left(inst: Instance) -> None:
    """Free assignment with every card that is no task a trump: the trump-sharing check
    (root rule and kernel ``trump_split_dead``, which fires inside the search) keeps the
    oracle's verdict."""
    check_against_oracle(inst, SearchSolver())


@given(instances(max_players=4, max_cards=12, max_tasks=4))
def test_search_broadened_agrees_with_oracle(inst: Instance) -> None:
    """Broadening after 2 nodes (rounds of the whole search and of each first play, one
    refutation table): the oracle's verdict, and a witness that replays."""
    check_against_oracle(inst, SearchSolver(SearchOptions(first_round_nodes=2, broaden_after=2)))


@given(instances(max_players=3, max_cards=10, max_tasks=4, free=True))
def test_search_split_agrees_with_oracle(inst: Instance) -> None:
    """Free assignment run as the free search and the fixed deal of every way to give the
    open tasks to seats, in turn (a node limit of 2 to start, so the split always runs):
    the oracle's verdict, and a witness whose assignment replays."""
    check_against_oracle(inst, SearchSolver(SearchOptions(split_nodes=2)))


@given(instances(max_players=3, max_cards=10, max_tasks=4, free=True))
def test_search_agrees_with_oracle_free(inst: Instance) -> None:
    """Free assignment: the lazy quota semantics agree with the oracle's enumeration of
    assignments, and the returned assignment replays."""
    check_against_oracle(inst, SearchSolver())


@settings(max_examples=25)
@given(instances(max_players=4, max_cards=10, max_tasks=3))
def test_pure_kernel_agrees_with_oracle(inst: Instance) -> None:
    """The plain-Python kernel (used without numba) gives the oracle's verdict."""
    check_against_oracle(inst, SearchSolver(SearchOptions(pure=True)))


@settings(max_examples=40)
@given(instances(max_players=4, max_cards=12, max_tasks=4))
def test_restart_rounds_agree_with_oracle(inst: Instance) -> None:
    """Tiny node-limited rounds (so the portfolio of orderings and the carried-over
    refutation table are exercised) still give the oracle's verdict."""
    check_against_oracle(inst, SearchSolver(SearchOptions(warm_start=False, first_round_nodes=8)))


def test_rounds_grow_from_a_one_node_limit() -> None:
    """The plain kernel's first round gets 1/32 of ``first_round_nodes``: from a limit of
    one node the rounds still grow (1.5x rounded down would keep it at 1, each round one
    node from the root, never deciding)."""
    inst = Instance(Deck.from_sizes({"B": 4}), (0b0011, 0b1100), (Task(0, 1),), None, 0)
    answer = SearchSolver(SearchOptions(pure=True, warm_start=False, first_round_nodes=2)).decide(
        inst, budget=Budget(nodes=10_000))
    assert answer.verdict is Verdict.WINNABLE and answer.extra["rounds"] > 1  # B1 under B3: two plays


@given(instances(max_players=4, max_cards=12, max_tasks=4))
def test_decide_default_is_the_engine(inst: Instance) -> None:
    """The engine (the search, raced against SAT on hard deals) is the default back-end
    outside the classes of the confirmed special-case deciders, and every winning witness
    replays (decide checks)."""
    from crewcheck.solvers.special import CONFIRMED

    r = decide(inst)
    assert r.backend in ("engine", *CONFIRMED)
    if all(registry.get(name).supports(inst) is not None for name in CONFIRMED):
        assert r.backend == "engine"
    assert r.verdict is not Verdict.UNKNOWN


def _classic(seed: int, k: int, players: int = 4) -> Instance:
    from benchmarks.scripts.corpus import random_deal

    return random_deal(random.Random(seed), players=players, k=k)


def test_stats_in_extra() -> None:
    """Statistics (nodes, table hits, time) are exposed in the result."""
    r = decide(_classic(3, 6), backend="search")
    for key in ("tt_hits", "tt_stores", "cuts", "rounds", "compiled", "seconds"):
        assert key in r.stats.extra
    assert r.stats.nodes > 0


def test_budget_gives_unknown() -> None:
    """Out of budget the verdict is UNKNOWN, never a guess."""
    inst = _classic(3, 6)  # winnable, ~18,000 nodes
    r = decide(inst, backend="search", budget=Budget(nodes=50))
    assert r.verdict is Verdict.UNKNOWN
    assert r.stats.nodes <= 50 + inst.deck.size


def test_threads_do_not_share_a_table() -> None:
    """The compiled kernel runs without the GIL: searches in two threads at once (each
    with its own refutation table) give the verdicts of the same searches in turn."""
    from concurrent.futures import ThreadPoolExecutor

    deals = [_classic(seed, k) for seed in (2, 3, 5) for k in (6, 8)]
    alone = [decide(d, backend="search", budget=Budget(nodes=3_000_000)).verdict for d in deals]
    with ThreadPoolExecutor(2) as pool:
        together = list(pool.map(lambda d: decide(d, backend="search", budget=Budget(nodes=3_000_000)).verdict,
                                 deals))
    assert together == alone
    assert Verdict.UNWINNABLE in alone and Verdict.WINNABLE in alone


def test_refuses_huge_deck() -> None:
    """Decks over 63 cards are refused with a one-line reason."""
    deck = Deck.from_sizes({"B": 40, "G": 30})
    hands = (sum(1 << i for i in range(0, 70, 2)), sum(1 << i for i in range(1, 70, 2)))
    inst = Instance(deck, hands, (Task(0, 0),))
    why = SearchSolver().supports(inst)
    assert why is not None and "63" in why


@pytest.mark.parametrize("path", sorted(COUNTEREXAMPLES.glob("*.json")), ids=lambda p: p.stem)
def test_counterexamples(path: Path) -> None:
    """Every saved counterexample is now decided like the oracle decides it."""
    inst = load(path)
    check_against_oracle(inst, SearchSolver())


def test_works_without_numba(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without numba the plain-Python kernel answers (same verdict, slower)."""
    from crewcheck.solvers.search import kernel

    def missing() -> None:
        raise ImportError("No module named 'numba'")

    monkeypatch.setattr(kernel, "compiled", missing)
    monkeypatch.setattr(kernel, "is_loaded", lambda: False)
    inst = _classic(5, 3)
    r = decide(inst, backend="search")
    assert r.stats.extra["compiled"] is False
    assert r.verdict is decide(inst, backend="search", budget=Budget()).verdict


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["cpsat", "z3"])
@pytest.mark.parametrize("cell", ["4p-fixed-k02", "4p-fixed-k04", "3p-fixed-k04", "4p-free-k04"])
def test_crosscheck_corpus(backend: str, cell: str) -> None:
    """On seeded 40-card corpus deals (too big for the oracle) `search` and another exact
    back-end agree wherever both decide within their budget."""
    from benchmarks.scripts.corpus import Cell, load_cell
    from crewcheck.solvers import registry

    if registry.available().get(backend) is not None:
        pytest.skip(f"{backend} not installed")
    for n, inst in enumerate(load_cell(Cell.parse(cell), 10)):
        ours = decide(inst, backend="search", timeout=20).verdict
        theirs = decide(inst, backend=backend, timeout=60).verdict
        if Verdict.UNKNOWN in (ours, theirs):
            continue
        assert ours == theirs, f"`search` says {ours.name}, `{backend}` says {theirs.name} on {cell}/{n}"
