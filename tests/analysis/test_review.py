"""Card analysis, task seats and game review (crewcheck.analysis) against the exhaustive oracle."""

from __future__ import annotations

import itertools
from pathlib import Path

from hypothesis import assume, example, given, note, settings

from crewcheck import Card, decide, load, loads
from crewcheck.formats.notation import parse_deal, to_notation
from crewcheck.model.instance import Instance
from crewcheck.analysis.analyse import ON_WINNING_LINE, POSITION_LOST, analyse, equivalent_cards
from crewcheck.analysis.review import review
from crewcheck.analysis.seats import task_seats
from crewcheck.reports.results import analysis_to_dict, review_to_dict, summary
from crewcheck.solvers.base import Verdict
from tests.strategies import condition_instances, instances

DEALS = Path(__file__).resolve().parents[2] / "models" / "deals"


def oracle(instance: Instance) -> Verdict:
    return decide(instance, backend="exhaustive").verdict


def after(instance: Instance, card: int) -> Instance:
    return instance.with_history((*instance.history, card))


def index(instance: Instance, name: str) -> int:
    return instance.deck.index(Card.parse(name))


def names(instance: Instance, cards) -> list[str]:
    return [str(instance.card(c)) for c in cards]


# -- equivalent cards -------------------------------------------------------------------
@given(instances(max_players=3, max_cards=10, max_tasks=3))
def test_equivalent_cards_have_the_same_verdict(inst):
    """Every card of a class of equivalent cards leaves a position with the same verdict."""
    note(to_notation(inst))
    for group in equivalent_cards(inst.state()):
        verdicts = {oracle(after(inst, c)) for c in group}
        assert len(verdicts) == 1, f"{names(inst, group)} are grouped but their verdicts differ: {verdicts}"


@given(instances(max_players=3, max_cards=10, max_tasks=3))
def test_the_classes_partition_the_legal_plays(inst):
    """Each legal card is in exactly one class, each class is held by one seat and one suit."""
    state = inst.state()
    groups = equivalent_cards(state)
    flat = [c for g in groups for c in g]
    assert sorted(flat) == sorted(c for c in range(inst.deck.size) if state.legal_mask() >> c & 1)
    for g in groups:
        assert len({inst.holder[c] for c in g}) == 1 and len({inst.deck.suit_of(c) for c in g}) == 1


def test_adjacent_cards_of_one_hand_are_grouped():
    """B3 and B4 (nothing between) are one class; B6 is not (B5 is held by seat 1)."""
    deal = parse_deal("B3 B4 B6 G1 | B5 G2 G3 G4 ; trump - ; lead 0 ; tasks G4@1 ; strict/fixed")
    assert [names(deal, g) for g in equivalent_cards(deal.state())] == [["B3", "B4"], ["B6"], ["G1"]]


def test_a_card_on_the_table_between_two_cards_keeps_them_apart():
    """Seat 1 holds B3 and B5 and B4 is on the table: B5 beats it, B3 does not, so they are
    not equivalent, and here their verdicts differ."""
    deal = parse_deal("B4 G1 | B3 B5 ; trump - ; lead 0 ; tasks B4@0 ; strict/fixed ; played B4")
    assert [names(deal, g) for g in equivalent_cards(deal.state())] == [["B3"], ["B5"]]
    assert oracle(after(deal, index(deal, "B3"))) is Verdict.WINNABLE
    assert oracle(after(deal, index(deal, "B5"))) is Verdict.UNWINNABLE


def test_a_task_card_is_never_grouped():
    """G1 and G2 are adjacent in seat 0's hand, but G2 is seat 1's task: leading it loses,
    leading G1 does not."""
    deal = parse_deal("B1 G1 G2 | B2 B3 B4 ; trump - ; lead 0 ; tasks G2@1 ; strict/fixed")
    assert [names(deal, g) for g in equivalent_cards(deal.state())] == [["B1"], ["G1"], ["G2"]]
    assert oracle(after(deal, index(deal, "G1"))) is Verdict.WINNABLE
    assert oracle(after(deal, index(deal, "G2"))) is Verdict.UNWINNABLE


def test_a_card_a_condition_names_is_never_grouped():
    """Under "no trick is won with a 2", B2 is not interchangeable with B1."""
    deal = loads('{"hands": [["B1", "B2", "G1"], ["B3", "G2", "G3"]], "lead": 0, '
                 '"conditions": [{"kind": "no_trick_won_with", "value": 2}]}')
    assert [names(deal, g) for g in equivalent_cards(deal.state())] == [["B1"], ["B2"], ["G1"]]


@given(condition_instances(max_cards=9))
@settings(max_examples=30)
def test_equivalent_cards_have_the_same_verdict_under_conditions(inst):
    """The same property on deals carrying random conditions of every kind."""
    note(to_notation(inst))
    for group in equivalent_cards(inst.state()):
        verdicts = {oracle(after(inst, c)) for c in group}
        assert len(verdicts) == 1, f"{names(inst, group)} are grouped but their verdicts differ: {verdicts}"


# -- analyse ----------------------------------------------------------------------------
@given(instances(max_players=3, max_cards=11, max_tasks=3))
@settings(max_examples=30)
def test_analyse_agrees_with_the_oracle_on_every_card(inst):
    """Every class's verdict (decided by the default back-end on one shared refutation
    table, or known from the position's verdict) is the oracle's, and each winning line
    plays a card of its class next."""
    note(to_notation(inst))
    a = analyse(inst)
    assert a.position.verdict is oracle(inst)
    for v in a.cards:
        expected = oracle(after(inst, v.cards[0]))
        assert v.verdict is expected, f"analyse says {v.verdict} after {names(inst, v.cards)}, oracle {expected}"
        if v.verdict is Verdict.WINNABLE:
            assert v.witness is not None and v.witness.plays[len(inst.history)] in v.cards


@given(condition_instances(max_cards=8, choose=True))
@settings(max_examples=25)
def test_analyse_agrees_with_the_oracle_under_conditions(inst):
    """Deals with conditions (decided by the SAT side) and seats the crew chooses (every
    choice tried) give the oracle's verdict for every card."""
    note(to_notation(inst))
    # a deal whose only conditions name a chosen seat and that has no task: main's history
    # check (Instance.without_choices) ends it at once, so no history can be built on it
    assume(inst.without_choices().state().end is None)
    a = analyse(inst)
    assert a.position.verdict is oracle(inst)
    for v in a.cards:
        assert v.verdict is oracle(after(inst, v.cards[0]))


def test_a_lost_position_needs_one_decision():
    """When the position cannot be won, every card loses without deciding each."""
    deal = load(DEALS / "unwinnable-commander-wins-all.json")
    a = analyse(deal)
    assert a.position.verdict is Verdict.UNWINNABLE and a.decisions == 1
    assert a.cards and all(v.verdict is Verdict.UNWINNABLE and v.how == POSITION_LOST for v in a.cards)


def test_the_positions_winning_line_answers_for_its_first_card():
    """The class of the position's winning line's next card is not decided again."""
    deal = load(DEALS / "classic-4p-midgame.json")
    a = analyse(deal)
    on_line = [v for v in a.cards if v.how == ON_WINNING_LINE]
    assert len(on_line) == 1 and on_line[0].verdict is Verdict.WINNABLE
    assert a.decisions == 1 + len(a.cards) - 1


def test_analysis_json_has_the_stable_fields():
    deal = load(DEALS / "classic-4p-midgame.json")
    d = analysis_to_dict(analyse(deal))
    assert d["schema"] == "crewcheck-analysis/1" and d["verdict"] == "winnable"
    assert d["to_play"] == 0 and d["trick"] == 6 and d["history"] == 22
    assert {"cards", "verdict", "how", "next", "witness", "explanation"} <= set(d["cards"][0])
    assert d["tasks"] is None and d["position"]["schema"] == "crewcheck-result/1"


def test_a_finished_game_has_no_card_to_analyse():
    deal = load(DEALS / "classic-4p-lost-game.json")
    a = analyse(deal)
    assert a.cards == () and a.position.verdict is Verdict.UNWINNABLE


def test_cancel_leaves_the_rest_unknown():
    """Once cancel says stop, no further decision starts (a running one stops at its next
    poll): the cards not known from the position are UNKNOWN, and nothing raises."""
    deal = load(DEALS / "classic-4p-midgame.json")
    a = analyse(deal, cancel=lambda: True)
    assert a.decisions <= 1
    assert all(v.how == ON_WINNING_LINE or v.verdict is Verdict.UNKNOWN for v in a.cards)
    assert any(v.verdict is Verdict.UNKNOWN for v in a.cards)


# -- free assignment --------------------------------------------------------------------
def seats_by_oracle(inst: Instance) -> dict[int, set[int]]:
    """Per open task, the seats that take it in some fixed assignment (within the draft
    counts, the history's tasks kept) that the oracle can win."""
    state = inst.state()
    owners = state.owners or ()
    counts = inst.task_counts or ()
    open_tasks = [k for k, o in enumerate(owners) if o < 0]
    out: dict[int, set[int]] = {k: set() for k in open_tasks}
    for seats in itertools.product(range(inst.players), repeat=len(open_tasks)):
        full = list(owners)
        for k, s in zip(open_tasks, seats):
            full[k] = s
        if any(full.count(s) != counts[s] for s in range(inst.players)):
            continue
        if oracle(inst.with_assignment(full)) is Verdict.WINNABLE:
            for k, s in zip(open_tasks, seats):
                out[k].add(s)
    return out


@given(instances(max_players=3, max_cards=9, max_tasks=3, free=True, tokens=True))
@example(parse_deal("B2 G3 Y1 Y2 | B1 B4 G2 G4 | B3 G1 Y3 ; trump - ; lead 2 ; tasks Y1@? Y2@? ; strict/free"))
@settings(max_examples=30)
def test_task_seats_agree_with_every_fixed_assignment(inst):
    """A seat can take an open task exactly when some fixed assignment giving it that task
    can be won. The pinned example holds two interchangeable task cards in one hand: the
    encoding's symmetry breaking (the lower card first) would give each of them only one
    of the two seats that can take it."""
    note(to_notation(inst))
    state = inst.state()
    if state.end is not None:
        return
    got = {t.task: set(t.seats) for t in task_seats(inst)}
    assert all(not t.unknown for t in task_seats(inst))
    assert got == seats_by_oracle(inst)


def test_the_bundled_free_deal_reports_who_can_take_each_task():
    deal = load(DEALS / "classic-4p-free-8-tasks.json")
    a = analyse(deal)
    assert a.tasks is not None and len(a.tasks) == len(deal.tasks)
    assert all(t.seats for t in a.tasks)


# -- review -----------------------------------------------------------------------------
@given(instances(max_players=3, max_cards=10, max_tasks=3))
@settings(max_examples=30)
def test_review_agrees_with_the_oracle_before_every_card(inst):
    """The verdict before and after each card is the oracle's, and the losing card is the
    first card after which the oracle says the deal cannot be won."""
    note(to_notation(inst))
    r = review(inst)
    base = inst.with_history(())
    truth = [oracle(base.with_history(inst.history[:k])) for k in range(len(inst.history) + 1)]
    assert r.start is truth[0]
    for step in r.steps:
        assert (step.before, step.after) == (truth[step.index], truth[step.index + 1])
    lost = [i for i in range(len(inst.history)) if truth[i] is Verdict.WINNABLE
            and truth[i + 1] is Verdict.UNWINNABLE]
    assert r.losing == (lost[0] if lost else None)
    if r.losing is not None:
        assert r.alternatives is not None
        kept = {c for v in r.alternatives.winning for c in v.cards}
        assert inst.history[r.losing] not in kept and kept


def test_the_bundled_lost_game_is_lost_in_trick_5():
    """models/deals/classic-4p-lost-game.json: winnable until seat 3 plays Y9 (card 18)."""
    game = load(DEALS / "classic-4p-lost-game.json")
    r = review(game)
    assert r.losing == 17 and r.steps[17].trick == 5 and r.steps[17].seat == 3
    assert str(game.card(r.steps[17].card)) == "Y9"
    assert summary(r).startswith("lost at trick 5: seat 3 played Y9 (card 18 of the game)")
    assert r.decisions < 15  # bisection, not one decision per card
    d = review_to_dict(r)
    assert d["schema"] == "crewcheck-review/1" and d["losing"]["card"] == "Y9"
    assert ["G6", "G8"] in d["losing"]["kept_winnable"]


def test_a_deal_never_winnable_says_why():
    """The engine's reason (lead reachability) is given."""
    deal = load(DEALS / "unwinnable-commander-wins-all.json")
    state = deal.state()
    card = next(c for c in range(deal.deck.size) if state.legal_mask() >> c & 1)
    r = review(after(deal, card))
    assert r.start is Verdict.UNWINNABLE and r.losing is None
    assert summary(r).startswith("never winnable: ") and "can never win a trick" in r.explanation
    assert all(s.before is Verdict.UNWINNABLE for s in r.steps)


def test_a_never_winnable_deal_without_a_quick_reason_gets_a_core():
    """When the decision gives no reason, the sat back-end's smallest set of tasks that
    cannot all be completed is the explanation."""
    game = parse_deal("B1 B3 | B2 B4 ; trump - ; lead 0 ; tasks B4@0 B1@1 ; strict/fixed ; played B1 B2")
    r = review(game, backend="exhaustive")
    assert r.start is Verdict.UNWINNABLE
    assert r.explanation is not None and "B4@0" in r.explanation


def test_a_won_game_is_never_lost():
    deal = load(DEALS / "classic-4p-midgame.json")
    won = decide(deal)
    game = deal.with_history(won.witness.plays)
    r = review(game)
    assert r.losing is None and r.end is Verdict.WINNABLE
    assert summary(r) == "won: the game was never lost"
