"""The search on covered cards (JARVIS's columns in the two-player game): the oracle's
verdict on every deal of the small exhaustive families and on generated deals, winning
lines that replay, the plain twin and the compiled kernel alike, and one hand-made deal per
place where the search had to learn that a seat plays and follows suit with its face-up
cards only."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crewcheck.api import check_witness, decide
from crewcheck.errors import NotApplicableError
from crewcheck.formats.notation import parse_deal, to_notation
from crewcheck.model.cards import Card, Deck
from crewcheck.model.conditions import WinsNoTricks
from crewcheck.model.derived import equivalent_plays
from crewcheck.model.instance import Instance
from crewcheck.model.tasks import Task
from crewcheck.solvers.base import Budget, Verdict
from crewcheck.solvers.search import SearchOptions, SearchSolver
from crewcheck.solvers.search.problem import Problem
from crewcheck.solvers.search.refutations import possible_winners, refutation
from crewcheck.solvers.search.table import KEY_WORDS
from tests.oracle import check_against_oracle, oracle_verdict
from tests.sizes import few, slow_twin
from tests.solvers.search.twins import fires, same_from_both_kernels, twin_and_compiled
from tests.strategies import covered_instances, every_tiny_covered_deal

# seat 1 cannot follow blue (its B1 lies under R1), so it trumps the led B2, its task
TRUMPS_OVER_COVER = "B2 | B1 R1 ; trump R ; lead 0 ; tasks B2@1 ; strict/fixed ; covered B1<R1 ; played B2"
# seat 1's blue cards lie under G1: it never has to play them before seat 0's B2 wins
BLUE_UNDER_GREEN = "B2 G2 | B3 B4 G1 ; trump - ; lead 0 ; tasks B2@0 ; strict/fixed ; covered B3<B4 B4<G1"
# seat 0's blue cards lie under its R1: it trumps seat 1's lead of B3 at once
TRUMPS_WITH_BLUE_UNDER = ("B1 B2 R1 | B3 G3 G4 R2 R3 | G1 G2 ; trump R ; lead 1 ; tasks B3@0 ; strict/fixed ; "
                          "covered B1<B2 B2<R1")
# seat 1's green cards lie under B2: it discards B2 on seat 0's lead of G3 at once
DISCARDS_OVER_GREEN = "B1 G3 | B2 G1 G2 ; trump - ; lead 0 ; tasks B2@0 ; strict/fixed ; covered G1<G2 G2<B2"
# seat 1 must play G2 (not its neighbour G1) under G3 to turn up B3, which then wins B2
COVERING_NEIGHBOUR = "B2 G3 | B3 G1 G2 ; trump - ; lead 0 ; tasks B2@1 ; strict/fixed ; covered B3<G2"
# G1 goes before the B1 under it, so its task completes first: against the tokens
STACK_AGAINST_TOKENS = "B2 G2 | B1 G1 ; trump - ; lead 0 ; tasks B1@0:1 G1@0:2 ; strict/fixed ; covered B1<G1"
# B1 lies under two cards: its earliest trick is the third, of two
DEEP_STACK = "B2 G3 | B1 G1 G2 ; trump - ; lead 0 ; tasks B1@1 ; strict/fixed ; covered B1<G1 G1<G2"
HAND_MADE = (TRUMPS_OVER_COVER, BLUE_UNDER_GREEN, TRUMPS_WITH_BLUE_UNDER, DISCARDS_OVER_GREEN, COVERING_NEIGHBOUR)


def _search(inst: Instance, *, pure: bool = False, **options: int) -> None:
    """The search (compiled, or the plain twin) gives the oracle's verdict on ``inst`` and a
    winning line that the replay checker accepts."""
    check_against_oracle(inst, SearchSolver(SearchOptions(pure=pure, warm_start=False, **options)))


@pytest.mark.parametrize("text", HAND_MADE)
@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "twin"])
def test_hand_made_covered_deals(text: str, pure: bool) -> None:
    """Each deal is won only by a play the cover allows or calls for: both kernels win it,
    with a line that replays."""
    inst = parse_deal(text)
    assert oracle_verdict(inst) is Verdict.WINNABLE
    answer = SearchSolver(SearchOptions(pure=pure, warm_start=False)).decide(inst, budget=Budget())
    assert answer.verdict is Verdict.WINNABLE
    check_witness(inst, inst.history + tuple(answer.plays or ()), answer.assignment, "search")


def test_trick_cut_asks_the_face_up_cards() -> None:
    """``trick_dead`` lets seat 1 trump the task it owns: its only blue card is covered,
    so it need not follow (with the whole hand it would say the task is lost)."""
    inst = parse_deal(TRUMPS_OVER_COVER)
    for k, compiled in twin_and_compiled():
        assert fires("trick_dead", inst, k, compiled) is False


@pytest.mark.parametrize("text", [BLUE_UNDER_GREEN, TRUMPS_WITH_BLUE_UNDER, DISCARDS_OVER_GREEN])
def test_release_times_count_the_face_up_cards(text: str) -> None:
    """``release_dead`` does not ask a seat to play out its covered cards of a suit first:
    seat 1 its blue ones before seat 0's B2 wins, seat 0 its blue ones before it trumps
    B3, seat 1 its green ones before it discards B2 (counting them, each release time
    would be 3 of 2 tricks: a won deal refuted)."""
    inst = parse_deal(text)
    for k, compiled in twin_and_compiled():
        assert fires("release_dead", inst, k, compiled) is False


@pytest.mark.parametrize("assignment", ["fixed", "free"])
def test_a_stack_against_the_tokens_is_refuted_at_the_root(assignment: str) -> None:
    """G1 covers B1, so G1's task completes first, but B1's token is 1: the root
    refutation says so under either assignment, and the oracle agrees."""
    text = STACK_AGAINST_TOKENS if assignment == "fixed" else STACK_AGAINST_TOKENS.replace(
        "@0", "@?").replace("fixed", "free")
    inst = parse_deal(text)
    assert oracle_verdict(inst) is Verdict.UNWINNABLE
    assert "lies under G1" in (refutation(inst.state()) or "")
    assert "lies under" not in (refutation(parse_deal(text.replace(" ; covered B1<G1", "")).state()) or "")


def test_release_times_wait_for_the_cards_above() -> None:
    """The kernel's release times: B1 under G1 and G2 is played in the third trick at
    the earliest, of two (``release_dead``), and with tokens G1's task comes first
    (``token_order_dead`` on the precedence the stack adds)."""
    for text, rule in ((DEEP_STACK, "release_dead"), (STACK_AGAINST_TOKENS, "token_order_dead")):
        inst = parse_deal(text)
        assert oracle_verdict(inst) is Verdict.UNWINNABLE
        for k, compiled in twin_and_compiled():
            assert fires(rule, inst, k, compiled) is True, (text, compiled)
            assert fires(rule, parse_deal(text.split(" ; covered")[0]), k, compiled) is False


def test_possible_winners_ask_the_face_up_cards() -> None:
    """The root refutation counts seat 1 among the possible winners of the trick in
    progress: it trumps, its covered blue card does not make it follow (no later trick
    would let it in: seat 0 has no card left to lead)."""
    assert possible_winners(parse_deal(TRUMPS_OVER_COVER).state()) >> 1 & 1


def test_condition_trick_cut_asks_the_face_up_cards() -> None:
    """``cond_trick_dead`` counts seat 1 among the possible winners of the trick seat 0
    led: its only blue card is covered, so it trumps, and seat 0 (to win no trick) is
    not the only possible winner."""
    inst = dataclasses.replace(parse_deal(TRUMPS_OVER_COVER), tasks=(), conditions=(WinsNoTricks(0),))
    assert oracle_verdict(inst) is Verdict.WINNABLE
    state = inst.state()
    for k, compiled in twin_and_compiled():
        problem = Problem.build(inst, state, compiled=compiled, canonical=False)
        d = problem.deal
        hands, seq, _ = problem.round_arrays()
        assert d.cond.n == 1 and len(state.trick) == 1
        assert not k.cond_trick_dead(d.cond, d.cond.memo0, hands, inst.players, seq, 0, 1, state.leader,
                                     d.suit_of, d.suit_mask, d.trump, d.covers)


def test_a_covering_card_is_not_interchangeable_with_its_neighbour() -> None:
    """G1 and G2 of seat 1 have nothing between them, but G2 covers B3: both are plays
    of their own (the model's classes and the kernel's moves)."""
    inst = parse_deal(COVERING_NEIGHBOUR)
    state = inst.state().apply(inst.deck.index(Card.parse("G3")))
    assert [len(g) for g in equivalent_plays(state)] == [1, 1]


def test_the_key_keeps_the_covers_in_play() -> None:
    """The refutation table's relative-rank key on up to three seats: the covers still in
    play in word 3 (bits 54 on) and code 7 for their cards, nothing of them once the
    covering card is gone; on four seats, the exact key (word 3 zero) while a cover is in
    play."""
    deck = Deck.from_sizes({"B": 4, "G": 4})
    covered = ((2, 3),)  # B3 under B4, seat 1's
    for players, hands in ((2, (0b11110011, 0b00001100)), (4, (0b00010011, 0b00001100, 0b01100000, 0b10000000))):
        inst = Instance(deck, hands, (Task(0, 0),), None, 0, covered=covered)
        for k, compiled in twin_and_compiled():
            problem = Problem.build(inst, inst.state(), compiled=compiled, canonical=True)
            d = problem.deal
            held, _, quota = problem.round_arrays()
            key = problem.workspace().key
            assert d.canon == 1 and len(key) == KEY_WORDS
            k.position_key(held, players, 0, quota, 0, 1, d.holder, d.suit_mask, d.card_task, d.covers, key)
            if players == 4:
                assert key[3] == 0
                continue
            assert key[3] >> 54 == 1 and (key[0] >> 6) & 0o77 == 0o77  # B3 and B4: code 7
            held[1] &= ~(1 << 3)  # B4 played: B3 is face up
            k.position_key(held, players, 0, quota, 0, 1, d.holder, d.suit_mask, d.card_task, d.covers, key)
            assert key[3] >> 54 == 0 and (key[0] >> 6) & 0o7 == 2  # B3: seat 1, no task


@pytest.mark.parametrize("split, jarvis", [
    ((3, 3), 0),
    pytest.param((2, 2, 2), 2, marks=pytest.mark.slow),
])
def test_search_agrees_with_the_oracle_on_every_tiny_covered_deal(split: tuple[int, ...], jarvis: int) -> None:
    """Exhaustively, not sampled: every deal of the six-card deck (B1-3, G1-2, R1) with one
    cover and one task, on two seats 3/3 and (slow) three seats 2/2/2 with the cover at
    seat 2: the search's verdict is the oracle's, and every winning line replays."""
    deals = every_tiny_covered_deal(split, jarvis)
    assert len(deals) > 1000
    solver = SearchSolver(SearchOptions(warm_start=False))
    wrong = []
    for inst in deals:
        want = oracle_verdict(inst)
        answer = solver.decide(inst, budget=Budget())
        if answer.verdict is Verdict.WINNABLE:
            check_witness(inst, inst.history + tuple(answer.plays or ()), answer.assignment, "search")
        if answer.verdict is not want:
            wrong.append(f"{to_notation(inst)}: search {answer.verdict.name}, oracle {want.name}")
    assert not wrong, f"{len(wrong)} disagreements, e.g. {wrong[0]}"


@few()
@given(inst=covered_instances())
def test_search_agrees_with_the_oracle_on_covered_deals(inst: Instance) -> None:
    """Generated covered deals (stacks of one to three cards in one hand, every rule
    feature, histories): the compiled search's verdict is the oracle's, its line replays."""
    _search(inst)


test_search_agrees_with_the_oracle_on_covered_deals_on_more_deals = slow_twin(
    test_search_agrees_with_the_oracle_on_covered_deals, inst=covered_instances())


@few()
@given(inst=covered_instances(), pure=st.booleans())
def test_search_rounds_and_broadening_agree_on_covered_deals(inst: Instance, pure: bool) -> None:
    """The same with tiny rounds that broaden at once (first plays through the model's
    classes of interchangeable cards) and, for free assignment, the split into fixed
    deals; the plain twin or the compiled kernel."""
    _search(inst, pure=pure, first_round_nodes=2, broaden_after=2, split_nodes=2)


test_search_rounds_and_broadening_agree_on_covered_deals_on_more_deals = slow_twin(
    test_search_rounds_and_broadening_agree_on_covered_deals, inst=covered_instances(), pure=st.booleans())


@few()
@given(inst=covered_instances(max_cards=8, conditions=True))
def test_search_agrees_with_the_oracle_on_covered_deals_with_conditions(inst: Instance) -> None:
    """Covered cards with random conditions, crew choices and the commander's
    assignments: the search's verdict is the oracle's (every variant decided, a winning
    line replayed with its choice), where it judges every condition kind of the deal."""
    try:
        got = decide(inst, backend="search").verdict
    except NotApplicableError:
        return  # a kind the search does not judge
    want = decide(inst, backend="exhaustive").verdict
    assert got is want, f"`search` says {got.value}, `exhaustive` says {want.value} on {to_notation(inst)}"


test_search_agrees_with_the_oracle_on_covered_deals_with_conditions_on_more_deals = slow_twin(
    test_search_agrees_with_the_oracle_on_covered_deals_with_conditions,
    inst=covered_instances(max_cards=8, conditions=True))


@few()
@given(inst=covered_instances())
def test_compiled_kernel_matches_twin_on_covered_deals(inst: Instance) -> None:
    """Same verdict, line, node and table counts from both kernels on covered deals."""
    same_from_both_kernels(inst)


test_compiled_kernel_matches_twin_on_covered_deals_on_more_deals = slow_twin(
    test_compiled_kernel_matches_twin_on_covered_deals, inst=covered_instances())


def test_the_search_still_refuses_what_it_cannot_do() -> None:
    """Covered cards are no reason to refuse any more, but a deck beyond one 64-bit mask
    is, covered or not; ``decide`` raises naming the limit."""
    deck = Deck.from_sizes({"B": 32, "G": 32})
    hands = (sum(1 << c for c in range(0, 64, 2)), sum(1 << c for c in range(1, 64, 2)))
    inst = Instance(deck, hands, (Task(0, 0),), None, 0, covered=((2, 4),))
    assert SearchSolver().supports(parse_deal(COVERING_NEIGHBOUR)) is None
    why = SearchSolver().supports(inst)
    assert why is not None and "at most 63 cards" in why
    with pytest.raises(NotApplicableError, match="63 cards"):
        decide(inst, backend="search")
