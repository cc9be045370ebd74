"""The partition table (``SearchOptions(partition=True)``) against the exhaustive oracle.

Seeded small deals (3-4 players, 12-20 cards, 2-5 fixed tasks, trumps or none), large
enough that refutations leave cards out and the partition table refutes positions: the
search with the table gives the oracle's verdict on every one, the plain twin and the
compiled kernel agree node for node, and a deliberately wrong generalisation (a trick's
winning card not noted as relevant) gives a wrong verdict on some deal, so these deals
do catch an unsound table.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from crewcheck.model.cards import Deck
from crewcheck.model.instance import Instance
from crewcheck.model.tasks import Task
from crewcheck.solvers.base import Budget, Verdict
from crewcheck.solvers.search import SearchOptions, SearchSolver, kernel
from tests.oracle import oracle_verdict

SEEDS = range(160)


def small_deal(seed: int, medium: bool = False) -> Instance:
    """A seeded deal with equal hands and fixed tasks (``medium``: 4 players, 6-7 cards each)."""
    rng = random.Random(seed)
    players = 4 if medium else rng.choice((3, 4))
    if medium:
        per = rng.choice((6, 7))
    else:
        per = rng.choice((4, 5)) if players == 3 else rng.choice((3, 4, 5))
    total = players * per
    trump = rng.random() < 0.5
    ntr = rng.choice((2, 3)) if trump else 0
    names = ["B", "G", "P", "Y"][:rng.choice((3, 4))]
    sizes = {n: 0 for n in names}
    for i in range(total - ntr):
        sizes[names[i % len(names)]] += 1
    if trump:
        sizes["R"] = ntr
    deck = Deck.from_sizes(sizes)
    cards = list(range(deck.size))
    rng.shuffle(cards)
    hands = tuple(sum(1 << c for c in cards[s * per:(s + 1) * per]) for s in range(players))
    nontrump = [c for c in range(deck.size) if not trump or c < deck.size - ntr]
    picks = rng.sample(nontrump, rng.choice((4, 5, 6) if medium else (2, 3, 4, 5)))
    tasks = tuple(Task(c, rng.randrange(players)) for c in picks)
    return Instance(deck, hands, tasks, "R" if trump else None, rng.randrange(players))


def _decide(inst: Instance, pure: bool, first_round: int = 64) -> Any:
    """The search with the partition table, in small rounds by default (restarts carry
    the tables over); one round for the twin test (the plain kernel's rounds are 1/32)."""
    return SearchSolver(SearchOptions(partition=True, pure=pure, warm_start=False, first_round_nodes=first_round,
                                      broaden_after=1 << 30)).decide(inst, budget=Budget())


@pytest.fixture(scope="module")
def verdicts() -> dict[int, Verdict]:
    return {seed: oracle_verdict(small_deal(seed)) for seed in SEEDS}


def test_partition_agrees_with_oracle(verdicts: dict[int, Verdict]) -> None:
    """The search with the partition table gives the oracle's verdict on every deal, and
    the table refutes positions on some of them (so the deals exercise it)."""
    hits = 0
    for seed in SEEDS:
        answer = _decide(small_deal(seed), pure=False)
        assert answer.verdict is verdicts[seed], seed
        hits += int(answer.extra.get("part_hits", 0))
    assert hits > 0


def test_twin_and_compiled_agree_with_partition() -> None:
    """The plain twin and the compiled kernel with the partition table: the same
    verdicts, lines, nodes and table statistics."""
    pytest.importorskip("numba")
    for seed in SEEDS[:40]:
        inst = small_deal(seed)
        a, b = _decide(inst, pure=True, first_round=1 << 20), _decide(inst, pure=False, first_round=1 << 20)
        if "refuted_before_search" in a.extra:
            continue
        assert b.extra["compiled"] is True
        assert (a.verdict, a.plays, a.nodes) == (b.verdict, b.plays, b.nodes), seed
        for key in ("tt_hits", "tt_stores", "cuts", "part_hits", "part_stores"):
            assert a.extra[key] == b.extra[key], (seed, key)


def _hit_positions(inst: Instance) -> list[tuple[int, ...]]:
    """The lines (cards played from ``inst``) to every trick boundary the partition table
    refuted while the plain twin decided ``inst``: the last trick completed
    (:func:`~crewcheck.solvers.search.partition.pt_winner` is told of each) ends the line."""
    seen: list[tuple[int, ...]] = []
    last: list[Any] = [None, 0]
    winner, refuted = kernel.pt_winner, kernel.pt_refuted

    def note_trick(seq: Any, ts: int, p: int, bi: int, suit_of: Any) -> int:
        last[0], last[1] = seq, ts + p
        return int(winner(seq, ts, p, bi, suit_of))

    def note_hit(hands: Any, p: int, leader: int, *rest: Any) -> int:
        r = int(refuted(hands, p, leader, *rest))
        if r >= 0 and last[0] is not None:
            seen.append(tuple(int(c) for c in last[0][:last[1]]))
        return r

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(kernel, "pt_winner", note_trick)
        mp.setattr(kernel, "pt_refuted", note_hit)
        _decide(inst, pure=True)
    return seen


def _wrong_hits(seeds: range) -> tuple[int, int]:
    """Positions the partition table refuted on the deals of ``seeds``, and how many of
    them the oracle finds winnable."""
    hits = wrong = 0
    for seed in seeds:
        inst = small_deal(seed)
        for line in _hit_positions(inst):
            hits += 1
            wrong += oracle_verdict(inst.with_history(inst.history + line)) is not Verdict.UNWINNABLE
    return hits, wrong


def test_every_partition_hit_is_lost() -> None:
    """Every position the partition table refutes is lost (the oracle from that position)."""
    hits, wrong = _wrong_hits(SEEDS)
    assert hits > 0 and wrong == 0


def test_wrong_generalisation_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A partition table that takes cuts and exact hits to need no card (an unsound
    generalisation) refutes a winnable position on these deals: the test above catches it."""
    monkeypatch.setattr(kernel, "ALL", 0)
    hits, wrong = _wrong_hits(SEEDS[:60])
    assert wrong > 0


def test_partition_off_by_default_and_for_free_assignment() -> None:
    """The default options keep no partition table; a free-assignment deal never uses it."""
    inst = small_deal(3)
    assert SearchSolver().decide(inst, budget=Budget()).extra.get("part_stores", 0) == 0
    free = Instance(inst.deck, inst.hands, tuple(Task(t.card) for t in inst.tasks), inst.trump, inst.lead,
                    rules=inst.rules.__class__(assignment="free"))
    answer = SearchSolver(SearchOptions(partition=True)).decide(free, budget=Budget())
    assert answer.extra.get("part_stores", 0) == 0 and answer.extra.get("part_hits", 0) == 0
