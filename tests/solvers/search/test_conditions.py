"""Conditions in the search (:mod:`crewcheck.solvers.search.conditions`): the kernel's int
memos and judgements follow the model's, kind by kind; the search agrees with the
exhaustive oracle on random tiny deals of every kind (both kernels, before and during
play); a kind the search does not know is left out soundly (a relaxation), and the
engine still agrees with the oracle."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, note
from hypothesis import strategies as st

from crewcheck import decide
from crewcheck.formats import deal_json
from crewcheck.missions.logbook import deal_mission, missions
from crewcheck.model.conditions import BROKEN, CONDITION_KINDS, DEEP_SEA, HOLDS, kinds_of
from crewcheck.model.instance import Instance
from crewcheck.model.state import State
from crewcheck.model.variants import variants
from crewcheck.formats.deal_json import from_dict
from crewcheck.solvers.base import Budget, Verdict
from crewcheck.solvers.search import conditions as SC
from crewcheck.solvers.search.driver import SearchOptions, SearchSolver
from tests.sizes import few, slow_twin
from tests.strategies import condition_instances, playouts

KINDS = sorted(SC.SEARCH_KINDS)

FEW = few()
"""The per-kind property tests check 10 deals a kind by default; each has a slow twin
(:func:`on_more_deals`, CI's slow step) with the profile's number."""


def on_more_deals(test: Any) -> Any:
    """The slow twin of a per-kind property test: the same body and kinds, the profile's
    number of examples."""
    return slow_twin(test, "kind", KINDS)


DEEPSEA_KINDS = kinds_of(DEEP_SEA)
DEEPSEA = tuple(k for k in DEEPSEA_KINDS if k in SC.SEARCH_KINDS)


@st.composite
def kind_deals(draw: st.DrawFn, kind: str, *, history: bool = True) -> Instance:
    """A tiny concrete deal with at least one condition of ``kind`` (fixed or free
    assignment), sometimes part-way through play."""
    inst = draw(condition_instances(kinds=(kind,), max_cards=10))
    assume(any(c.kind == kind for c in inst.conditions))
    if history and draw(st.booleans()):
        plays = draw(playouts(inst, max_plays=inst.deck.size))
        if plays and not inst.with_history(plays).state().is_terminal():
            inst = inst.with_history(plays)
    return inst


def _model_judgement(state: State, left: int, tricks_left: int) -> int:
    inst = state.instance
    holding = True
    for cond, memo in zip(inst.conditions, state.memos):
        j = cond.judge(inst, memo, left, tricks_left)
        if j is BROKEN:
            return SC.C_BROKEN
        holding = holding and j is HOLDS
    return SC.C_HOLDS if holding else SC.C_OPEN


@pytest.mark.parametrize("kind", KINDS)
@FEW
@given(data=st.data())
def test_kernel_memos_and_judgements_follow_the_model(kind: str, data: st.DataObject) -> None:
    """Along a random game, after every trick: the kernel's memo of each condition is the
    model's memo converted (``SearchKind.memo``), and :func:`cond_judge` says what the
    model's ``judge`` says of all conditions together."""
    inst = data.draw(kind_deals(kind, history=False))
    note(deal_json.dumps(inst))
    state = inst.state()
    cond = SC.build(inst, state, False)
    memo = list(cond.memo0)
    while state.end is None:
        card = data.draw(st.sampled_from([c for c in range(inst.deck.size) if state.legal_mask() >> c & 1]))
        before = state
        state = state.apply(card)
        if state.trick or state.tricks_played == before.tricks_played:
            continue
        trick = before.trick + (card,)
        played = sum(1 << c for c in trick)
        tricks_left = min(h.bit_count() for h in state.hands)
        from crewcheck.model.rules import trick_winner
        pos = trick_winner(inst.deck, inst.trump_suit, trick)
        SC.cond_step(cond, memo, played, state.leader, trick[pos], state.tricks_played, int(tricks_left == 0),
                     before.leader, trick[0])
        want = [SC.SEARCH_KINDS[c.kind].memo(m) for c, m in zip(inst.conditions, state.memos)]
        assert memo[:cond.n] == want
        left = 0
        for h in state.hands:
            left |= h
        assert SC.cond_judge(cond, memo, left, tricks_left) == _model_judgement(state, left, tricks_left)


def _agree(inst: Instance, solver: SearchSolver) -> None:
    note(deal_json.dumps(inst))
    expected = decide(inst, backend="exhaustive").verdict
    for _, variant in variants(inst):
        if not variant.is_concrete():
            continue
        got = solver.decide(variant, budget=Budget())
        if got.verdict is Verdict.WINNABLE:
            from crewcheck.api import check_witness

            check_witness(variant, (*variant.history, *(got.plays or ())), got.assignment, "search")
            assert expected is Verdict.WINNABLE, f"`search` says WINNABLE, `exhaustive` says {expected.name}"
            return
        assert got.verdict is Verdict.UNWINNABLE
    assert expected is Verdict.UNWINNABLE, f"`search` says UNWINNABLE, `exhaustive` says {expected.name}"


@pytest.mark.parametrize("kind", KINDS)
@FEW
@given(data=st.data())
def test_search_agrees_with_the_oracle(kind: str, data: st.DataObject) -> None:
    """The plain kernel's verdict is the oracle's on tiny deals with a condition of each kind."""
    _agree(data.draw(kind_deals(kind)), SearchSolver(SearchOptions(pure=True)))


@pytest.mark.parametrize("kind", KINDS)
@FEW
@given(data=st.data())
def test_compiled_search_agrees_with_the_oracle(kind: str, data: st.DataObject) -> None:
    """The compiled kernel's verdict is the oracle's too (no warm start in the plain one)."""
    pytest.importorskip("numba")
    _agree(data.draw(kind_deals(kind)), SearchSolver(SearchOptions(warm_start=False)))


@given(inst=st.one_of(condition_instances(max_cards=10), condition_instances(max_cards=10, kinds=DEEPSEA)))
def test_compiled_kernel_matches_twin_with_conditions(inst: Instance) -> None:
    """Same verdict, line, nodes and table counts from both kernels on deals with conditions
    (of the logbook, and of *Mission Deep Sea*)."""
    pytest.importorskip("numba")
    if not inst.is_concrete() or inst.state().end is not None:
        return
    a = SearchSolver(SearchOptions(pure=True)).decide(inst, budget=Budget())
    b = SearchSolver(SearchOptions(warm_start=False)).decide(inst, budget=Budget())
    if "refuted_before_search" in a.extra:
        assert a.verdict == b.verdict
        return
    assert (a.verdict, a.plays, a.nodes) == (b.verdict, b.plays, b.nodes)
    for key in ("tt_hits", "tt_stores", "cuts"):
        assert a.extra[key] == b.extra[key], key


@pytest.mark.parametrize("kind", KINDS)
@FEW
@given(data=st.data())
def test_a_kind_left_out_is_a_sound_relaxation(kind: str, data: st.DataObject) -> None:
    """With ``kind`` taken out of the table, the search (relax) never contradicts the oracle:
    UNWINNABLE only when the oracle says so, a winning line only if it wins the real deal,
    else UNKNOWN; and the engine, whose SAT side knows the kind, gives the oracle's verdict."""
    inst = data.draw(kind_deals(kind))
    assume(inst.is_concrete())
    note(deal_json.dumps(inst))
    expected = decide(inst, backend="exhaustive").verdict
    with pytest.MonkeyPatch.context() as m:
        m.delitem(SC.SEARCH_KINDS, kind)
        assert kind in SC.unknown_kinds(inst)
        assert SearchSolver().supports(inst) is not None  # refused unless relaxed
        got = SearchSolver(SearchOptions(pure=True, relax=True)).decide(inst, budget=Budget())
        assert got.verdict in (expected, Verdict.UNKNOWN)
        if got.verdict is Verdict.UNKNOWN:
            assert got.extra.get("relaxed_line_lost")
        assert decide(inst, backend="engine").verdict is expected


def test_every_logbook_kind_is_judged_by_the_search() -> None:
    """The logbook's missions need no relaxation: every kind they use has a row (so the
    study's mission deals race at full speed)."""
    used = {c["kind"] for m in missions() for c in m.conditions}
    assert used <= set(SC.SEARCH_KINDS)
    assert set(SC.SEARCH_KINDS) <= set(CONDITION_KINDS)


@pytest.mark.parametrize("number", [5, 9, 13, 16, 29, 34, 41, 44, 46, 48, 50])
def test_engine_decides_mission_deals_with_the_search(number: int) -> None:
    """A seeded 4-player deal of each condition mission: the engine's verdict is the SAT
    back-end's, and the search may answer it (no longer the SAT side alone)."""
    pytest.importorskip("pysat")
    deal = deal_mission(number, 4, seed=3)
    inst = from_dict({k: v for k, v in deal.items() if k != "comment"})
    engine = decide(inst, backend="engine")
    assert engine.verdict is decide(inst, backend="sat").verdict


def test_a_winning_line_stops_where_the_game_is_won() -> None:
    """Mission 26 ("at least two tricks won with a 1"), 3 players, seed 60: the condition
    is settled at trick 10, where the game is won; the search's line must end there (it
    used to play on to trick 13, which the replay checker rejects as play after the end)."""
    deal = deal_mission(26, 3, seed=60)
    inst = from_dict({k: v for k, v in deal.items() if k != "comment"})
    got = decide(inst, backend="search")  # the witness is replayed by the checker
    assert got.verdict is Verdict.WINNABLE and got.witness is not None
    assert len(got.witness.plays) == 30


def test_every_deepsea_kind_is_judged_by_the_search() -> None:
    """Every *Mission Deep Sea* kind has a row: a Deep Sea deal is decided by the search
    itself, not by the search on a relaxation and the SAT side."""
    assert DEEPSEA == DEEPSEA_KINDS


@pytest.mark.parametrize("kind", DEEPSEA)
@FEW
@given(data=st.data())
def test_decide_with_the_search_gives_a_checked_witness(kind: str, data: st.DataObject) -> None:
    """``decide(backend="search")`` on a tiny deal with a Deep Sea condition: the oracle's
    verdict, and for a winnable deal a witness that the replay checker accepted, ending at
    the trick where the game is won (the checker rejects play after the end)."""
    inst = data.draw(kind_deals(kind))
    assume(inst.is_concrete())
    note(deal_json.dumps(inst))
    got = decide(inst, backend="search")
    assert got.verdict is decide(inst, backend="exhaustive").verdict
    if got.verdict is Verdict.WINNABLE:
        assert got.witness is not None
        state = inst.state()
        for card in got.witness.plays[len(inst.history):]:
            state = state.apply(card)  # raises on a play after the end
        assert state.end is not None and state.end.won


def test_unknown_kinds_reports_a_key_overflow() -> None:
    """More memo bits than the key has room for: the conditions past the room are not
    judged by the search (left to the SAT side), never packed into a clash."""
    from crewcheck.model.conditions import BalancedTricks

    base = from_dict({k: v for k, v in deal_mission(29, 5, seed=0).items() if k != "comment"})
    many = dataclasses.replace(base, conditions=tuple(BalancedTricks(m) for m in range(1, 9)))
    assert SC.unknown_kinds(many) == ["balanced_tricks"]
    assert SC.unknown_kinds(base) == []


def _position(data: st.DataObject, kind: str) -> Instance:
    """A tiny deal with a condition of ``kind`` and some cards of it played."""
    inst = data.draw(kind_deals(kind, history=False))
    assume(inst.is_concrete())
    plays = data.draw(playouts(inst, max_plays=inst.deck.size))
    assume(plays and not inst.with_history(plays).state().is_terminal())
    return inst.with_history(plays)


def _boundary(data: st.DataObject, kind: str) -> Instance:
    """A tiny deal with a condition of ``kind`` at a trick boundary after one or more whole
    tricks, the game not over: random legal tricks are played, and the position kept is the
    last boundary before the game ends (drawn this way, not filtered, because a condition
    such as ``wins_no_tricks`` usually ends the game within a trick or two)."""
    inst = data.draw(kind_deals(kind, history=False))
    assume(inst.is_concrete())
    state = inst.state()
    plays: list[int] = []
    kept: list[int] = []
    wanted = data.draw(st.integers(1, inst.deck.size // inst.players))
    while not state.is_terminal() and state.tricks_played < wanted:
        card = data.draw(st.sampled_from([c for c in range(inst.deck.size) if state.legal_mask() >> c & 1]))
        plays.append(card)
        state = state.apply(card)
        if not state.trick and not state.is_terminal():
            kept = list(plays)
    assume(kept)
    return inst.with_history(tuple(kept))


BOUNDARY_KINDS = ["wins_no_tricks", "wins_trick_where"]
DISGUISED_KINDS = ["wins_all_cards", "each_trump_wins_a_trick"]


@pytest.mark.parametrize("kind", KINDS)
@FEW
@given(data=st.data())
def test_trick_cut_is_sound(kind: str, data: st.DataObject) -> None:
    """When :func:`cond_trick_dead` refutes a trick in progress, the oracle loses the position."""
    from crewcheck.solvers.search.problem import Problem

    inst = _position(data, kind)
    state = inst.state()
    assume(0 < len(state.trick) < inst.players)
    note(deal_json.dumps(inst))
    problem = Problem.build(inst, state, compiled=False, canonical=False)
    d = problem.deal
    seq = list(state.trick)
    if SC.cond_trick_dead(d.cond, list(d.cond.memo0), list(state.hands), inst.players, seq, 0, len(seq),
                          state.leader, d.suit_of, d.suit_mask, d.trump, d.covers):
        assert decide(inst, backend="exhaustive").verdict is Verdict.UNWINNABLE


@pytest.mark.parametrize("kind", BOUNDARY_KINDS)
@FEW
@given(data=st.data())
def test_boundary_cut_is_sound(kind: str, data: st.DataObject) -> None:
    """When :func:`cond_boundary_dead` refutes a trick boundary, the oracle loses the position."""
    from crewcheck.solvers.search.problem import Problem

    inst = _boundary(data, kind)
    state = inst.state()
    note(deal_json.dumps(inst))
    d = Problem.build(inst, state, compiled=False, canonical=False).deal
    tricks_left = min(h.bit_count() for h in state.hands)
    if SC.cond_boundary_dead(d.cond, list(d.cond.memo0), list(state.hands), inst.players, d.trump, d.suit_mask,
                             tricks_left):
        assert decide(inst, backend="exhaustive").verdict is Verdict.UNWINNABLE


@pytest.mark.parametrize("kind", DISGUISED_KINDS)
@FEW
@given(data=st.data())
def test_tasks_in_disguise_keep_the_verdict(kind: str, data: st.DataObject) -> None:
    """The deal with those conditions written as tasks has the oracle's verdict of the deal."""
    inst = data.draw(kind_deals(kind))
    assume(inst.is_concrete())
    work = SC.tasks_in_disguise(inst)
    assume(work is not None)
    note(deal_json.dumps(inst))
    assert decide(work, backend="exhaustive").verdict is decide(inst, backend="exhaustive").verdict


@FEW
@given(data=st.data())
def test_winning_card_arms_are_equivalent_to_the_deal(data: st.DataObject) -> None:
    """A deal with ``trick_won_with`` is winnable iff one of its arms is (oracle on each),
    and the search that alternates the arms from the first node agrees with the oracle."""
    inst = data.draw(kind_deals("trick_won_with"))
    assume(inst.is_concrete())
    arms = SC.winning_card_arms(inst)
    assume(arms is not None)
    note(deal_json.dumps(inst))
    expected = decide(inst, backend="exhaustive").verdict
    assert any(decide(a, backend="exhaustive").verdict is Verdict.WINNABLE for a in arms) == (
        expected is Verdict.WINNABLE)
    _agree(inst, SearchSolver(SearchOptions(pure=True, split_nodes=1)))


def test_winning_card_arms_count_the_trick_in_progress() -> None:
    """A card of the value already played to the unfinished trick may still win it: it is
    one of the choices (found by the property test above)."""
    inst = from_dict({"hands": [["B1"], ["G1"]], "trump": None, "lead": 0, "assignment": "fixed", "tasks": [],
                      "conditions": [{"kind": "trick_won_with", "value": 1, "trump": False}],
                      "current": {"lead": 0, "cards": ["B1"]}})
    arms = SC.winning_card_arms(inst)
    assert arms is not None and [[t.card for t in a.tasks] for a in arms] == [[0], [1]]
    verdicts = [decide(a, backend="exhaustive").verdict for a in arms]
    assert verdicts == [Verdict.WINNABLE, Verdict.UNWINNABLE]  # B1 wins its trick; G1 cannot


def test_no_disguise_under_a_token_that_counts_every_task() -> None:
    """With the last (omega) token on G1, writing "each trump wins a trick" as two tasks
    for R1 and R2 would make G1 no longer the last task, and the search lost this
    winnable deal (seat 1 leads G1 under B1, seat 0 then wins R1 and R2). An absolute or
    omega token keeps the conditions as conditions; the verdict is the oracle's."""
    inst = deal_json.loads('{"hands": [["B1", "R1", "R2"], ["B2", "B3", "G1", "G2", "G3"]], "trump": "R", '
                           '"lead": "any", "tasks": [{"card": "G1", "seat": 1, "token": "omega"}], '
                           '"conditions": [{"kind": "each_trump_wins_a_trick"}]}')
    assert SC.tasks_in_disguise(inst) is None
    assert decide(inst, backend="exhaustive").verdict is Verdict.WINNABLE
    assert SearchSolver(SearchOptions(warm_start=False)).decide(inst, budget=Budget()).verdict is Verdict.WINNABLE
    first = dataclasses.replace(inst, tasks=(dataclasses.replace(inst.tasks[0], token="1"),))
    assert SC.tasks_in_disguise(first) is None
    relative = dataclasses.replace(inst, tasks=(dataclasses.replace(inst.tasks[0], token=">"),))
    assert SC.tasks_in_disguise(relative) is not None


def test_winning_card_arms_leave_an_absolute_token_alone() -> None:
    """A deal whose tasks carry an absolute token is not split into arms (a task added for a
    chosen card would come before the token's task): the counterexample hypothesis found,
    winnable, and the search that splits from the first node says so."""
    path = Path(__file__).resolve().parents[3] / "models" / "counterexamples" / "search_arms_absolute_token.json"
    inst = deal_json.load(path)
    assert SC.winning_card_arms(inst) is None
    assert decide(inst, backend="exhaustive").verdict is Verdict.WINNABLE
    for solver in (SearchSolver(SearchOptions(pure=True, split_nodes=1)), SearchSolver()):
        assert solver.decide(inst, budget=Budget(seconds=60)).verdict is Verdict.WINNABLE


test_kernel_memos_and_judgements_follow_the_model_on_more_deals = on_more_deals(
    test_kernel_memos_and_judgements_follow_the_model)
test_search_agrees_with_the_oracle_on_more_deals = on_more_deals(test_search_agrees_with_the_oracle)
test_compiled_search_agrees_with_the_oracle_on_more_deals = on_more_deals(test_compiled_search_agrees_with_the_oracle)
test_a_kind_left_out_is_a_sound_relaxation_on_more_deals = on_more_deals(test_a_kind_left_out_is_a_sound_relaxation)
test_trick_cut_is_sound_on_more_deals = on_more_deals(test_trick_cut_is_sound)
test_decide_with_the_search_gives_a_checked_witness_on_more_deals = slow_twin(
    test_decide_with_the_search_gives_a_checked_witness, "kind", DEEPSEA)
test_boundary_cut_is_sound_on_more_deals = slow_twin(test_boundary_cut_is_sound, "kind", BOUNDARY_KINDS)
test_winning_card_arms_are_equivalent_to_the_deal_on_more_deals = slow_twin(
    test_winning_card_arms_are_equivalent_to_the_deal)
test_tasks_in_disguise_keep_the_verdict_on_more_deals = slow_twin(
    test_tasks_in_disguise_keep_the_verdict, "kind", DISGUISED_KINDS)


def test_cards_played_for_sure_are_tasks_in_disguise_under_played_only() -> None:
    """``wins_all_cards`` with ``played_only`` on uneven hands (one card stays unplayed):
    the cards of the hands dealt as many cards as there are tricks become tasks, the
    condition stays for the rest, and the oracle's verdict is kept, on 150 seeded tiny
    deals of both verdicts."""
    rng = random.Random(46)
    cards = [f"{s}{v}" for s in "BGP" for v in (1, 2, 3)] + ["R1"]
    verdicts = set()
    rewritten = 0
    for _ in range(150):
        rng.shuffle(cards)
        hands = [sorted(cards[:4]), sorted(cards[4:7]), sorted(cards[7:10])]
        seat = rng.randrange(3)
        inst = from_dict({"hands": hands, "trump": "R", "lead": 0, "assignment": "fixed", "tasks": [],
                          "conditions": [{"kind": "wins_all_cards", "seat": seat, "suit": "P", "played_only": True}]})
        work = SC.tasks_in_disguise(inst)
        sure = {f"P{v}" for v in (1, 2, 3)} - set(hands[0])
        if not sure:
            assert work is None
            continue
        assert work is not None
        rewritten += 1
        assert {str(work.card(t.card)) for t in work.tasks} == sure
        assert all(t.seat == seat for t in work.tasks)
        assert len(work.conditions) == (1 if any(c.startswith("P") for c in hands[0]) else 0)
        expected = decide(inst, backend="exhaustive").verdict
        assert decide(work, backend="exhaustive").verdict is expected, deal_json.dumps(inst)
        verdicts.add(expected)
    assert rewritten > 100 and verdicts == {Verdict.WINNABLE, Verdict.UNWINNABLE}
