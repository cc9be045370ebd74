"""Mission 12 wherever a verdict is printed: ``crewcheck decide`` on a mission-12 deal
notes the draw it leaves out; ``crewcheck draw`` names the task seats of its answer and
says that the reference's shield (the communicated card is never drawn) makes its answer
a lower bound."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, note, settings

from crewcheck import decide
from crewcheck.analysis.chance import SHIELD_CAVEAT, analyse_draw
from crewcheck.analysis.draw_positions import after_draw, first_tricks
from crewcheck.cli import main
from crewcheck.errors import NotApplicableError
from crewcheck.formats import deal_json
from crewcheck.model.cards import iter_bits
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Verdict
from tests.strategies import instances
from crewcheck.missions.logbook import deal_mission, verdict_caveats

# Free assignment, one task: after trick 1 the task's seat must still be able to win B2.
FREE = {"hands": [["B1", "B2", "P1"], ["B3", "P2", "P3"], ["B4", "P4", "P5"]], "lead": 0,
        "tasks": [{"card": "B2"}], "assignment": "free"}


def test_decide_on_a_mission_12_deal_notes_the_draw(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The verdict of ``decide`` on a mission-12 deal file comes with a note on stderr; on
    another mission's deal it does not."""
    for number, noted in ((12, True), (11, False)):
        path = tmp_path / f"m{number}.json"
        deal = deal_mission(number, 3, 0)
        path.write_text(json.dumps(deal))
        main(["decide", str(path)])
        err = capsys.readouterr().err
        assert ("mission 12: this verdict leaves out the random card drawn" in err) is noted
        assert bool(verdict_caveats(deal)) is noted
    assert verdict_caveats({"name": "mission-99-3p-seed0"}) == []


def test_draw_names_the_task_seats_and_the_shield() -> None:
    """The answer names the seat of every task for its best first trick, and says that it
    is a lower bound of the reference's (the communicated card is never drawn there)."""
    inst = deal_json.from_dict(FREE)
    got = analyse_draw(inst, backend="exhaustive")
    assert got.task_seats is not None and len(got.task_seats) == 1
    fixed = analyse_draw(inst.with_assignment(got.task_seats), backend="exhaustive")
    assert fixed.probability == got.probability  # the seats named are the best choice's
    text = got.describe(inst)
    assert f"task seats: B2 seat {got.task_seats[0]}" in text
    assert SHIELD_CAVEAT in text and "Player.php:115 at c57d835" in SHIELD_CAVEAT


def test_draw_json_carries_the_seats_and_the_caveat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "free.json"
    path.write_text(json.dumps(FREE))
    main(["draw", str(path), "--json", "--backend", "exhaustive"])
    out = json.loads(capsys.readouterr().out)
    assert set(out["task_seats"]) == {"B2"} and out["caveat"] == SHIELD_CAVEAT


def _plain_with_shields(inst: Instance) -> tuple[bool, Fraction]:
    """Every fixed choice of seats, first trick, shield per seat (a card that is no trump
    and the highest or lowest of its suit before the first trick, still held after it, or
    none) and draw avoiding the shields, each position decided by the oracle."""
    best = Fraction(0)
    counts = inst.task_counts
    for seats in product(range(inst.players), repeat=len(inst.tasks)):
        if counts is not None and any(seats.count(s) != counts[s] for s in range(inst.players)):
            continue
        if counts is None and list(seats) != [t.seat for t in inst.tasks]:
            continue
        fixed = inst.with_assignment(seats) if counts is not None else inst
        for trick in first_tricks(fixed):
            state = fixed.with_history(trick).state()
            if state.end is not None:
                best = max(best, Fraction(int(state.end.won)))
                continue
            options = []
            for s, h in enumerate(state.hands):
                suits: dict[int, list[int]] = {}
                for c in iter_bits(inst.hands[s]):
                    if inst.deck.suit_of(c) != inst.trump_suit:
                        suits.setdefault(inst.deck.suit_of(c), []).append(c)
                ends = {c for cs in suits.values() for c in (min(cs), max(cs)) if h >> c & 1}
                options.append([None, *sorted(ends)])
            for shield in product(*options):
                hands = [[c for c in iter_bits(h) if c != shield[s]] for s, h in enumerate(state.hands)]
                draws = list(product(*hands))
                wins = sum(decide(fresh, backend="exhaustive").verdict is Verdict.WINNABLE
                           for fresh in (after_draw(fixed, trick, d) for d in draws) if isinstance(fresh, Instance))
                best = max(best, Fraction(wins, len(draws)))
    return best == 1, best


def test_the_shield_can_make_a_deal_sure() -> None:
    """Seat 1 must win B2 after the draw: a chance of 3/8 when any card may be drawn, a
    sure win when the crew picks the shields too."""
    inst = deal_json.from_dict({"hands": [["B1", "B2", "P1"], ["B3", "P2", "P3"], ["B4", "P4", "P5"]],
                                "lead": 0, "tasks": [{"card": "B2", "seat": 1}]})
    plain = analyse_draw(inst, backend="exhaustive")
    got = analyse_draw(inst, backend="exhaustive", shield=True)
    assert (plain.every, plain.probability) == (False, Fraction(3, 8))
    assert (got.every, got.probability) == (True, Fraction(1)) == _plain_with_shields(inst)
    assert got.shields is not None and "shields (" in got.describe(inst) and SHIELD_CAVEAT not in got.describe(inst)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(instances(max_players=3, max_cards=9, max_tasks=2, history=False, lead_modes=("seat", "rocket"),
                 equal_hands=True, tokens=False))
def test_the_shields_equal_a_plain_count(inst: Instance) -> None:
    """analyse_draw(shield=True) equals a plain count over seats, first tricks, shields
    and the draws that avoid them; never below the answer without shields."""
    assume(inst.tricks >= 3 and inst.tasks)
    note(deal_json.dumps(inst))
    got = analyse_draw(inst, backend="exhaustive", shield=True)
    assert (got.every, got.probability) == _plain_with_shields(inst)
    plain = analyse_draw(inst, backend="exhaustive")
    assert plain.probability is not None and got.probability is not None and got.probability >= plain.probability


def test_draw_shield_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``crewcheck draw --shield`` answers with the shields and without the lower-bound caveat."""
    path = tmp_path / "sure.json"
    path.write_text(json.dumps({"hands": [["B1", "B2", "P1"], ["B3", "P2", "P3"], ["B4", "P4", "P5"]],
                                "lead": 0, "tasks": [{"card": "B2", "seat": 1}]}))
    assert main(["draw", str(path), "--shield", "--json", "--backend", "exhaustive"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["every"] is True and out["caveat"] is None and len(out["shields"]) == 3
    assert main(["draw", str(path), "--backend", "exhaustive"]) == 1
    assert SHIELD_CAVEAT in capsys.readouterr().out


def test_not_every_draw_is_known_before_the_chance(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """When the time runs out after a losing draw was found for every first trick, the
    answer says "for every draw: no" with the lower bound, and ``draw`` exits 1 (not 3);
    with nothing known it exits 3."""
    import crewcheck.analysis.chance as chance

    inst = deal_json.from_dict(FREE)
    part = chance.DrawAnswer(False, True, None, decisions=7, complete=False, lower=Fraction(1, 2))
    text = part.describe(inst)
    assert text.startswith("winnable for every draw: no; for some draw: yes; undecided after 7 positions searched")
    assert "at least 0.500" in text
    path = tmp_path / "free.json"
    path.write_text(json.dumps(FREE))
    hunting = chance.DrawAnswer(None, None, None, complete=False, tricks_lost=1234)
    assert "1,234 first tricks shown to lose a draw, none yet to win every draw" in hunting.describe(inst)
    assert "first tricks shown" not in text  # "every draw" is known there
    for answer, code in ((part, 1), (hunting, 3)):
        monkeypatch.setattr(chance, "analyse_draw", lambda *a, answer=answer, **k: answer)
        assert main(["draw", str(path)]) == code
    capsys.readouterr()


def test_the_hunt_finds_a_loss_after_every_first_trick() -> None:
    """On the hand-made deal no first trick wins every draw: the hunt finds a losing draw
    after each (so "not for every draw" is known before the chance is counted), and
    every first trick it met is weighed after."""
    from crewcheck.analysis.chance import _Analysis, _Pair

    inst = deal_json.from_dict({"hands": [["B1", "B2", "P1"], ["B3", "P2", "P3"], ["B4", "P4", "P5"]],
                                "lead": 0, "tasks": [{"card": "B2", "seat": 1}]})
    run = _Analysis("exhaustive", None, None, False)
    met: list[_Pair] = []
    assert run.hunt(run.pairs(inst), met) is None
    assert len(met) == len(list(run.pairs(inst))) > 0
    assert all(p.losing is not None or (p.classes is None and not p.ended) for p in met)
    assert run.tricks_lost == len(met)
    got = analyse_draw(inst, backend="exhaustive")
    assert got.every is False and got.every_seconds is not None


def test_every_only_leaves_the_chance_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``count=False`` (``draw --every-only``) answers "for every draw" and stops: where no
    first trick wins every draw the chance is not counted (the lower bound stays below
    the chance); where one does, the answer is the full one (chance 1)."""
    lost = deal_json.from_dict({"hands": [["B1", "B2", "P1"], ["B3", "P2", "P3"], ["B4", "P4", "P5"]],
                                "lead": 0, "tasks": [{"card": "B2", "seat": 1}]})
    full = analyse_draw(lost, backend="exhaustive")
    cut = analyse_draw(lost, backend="exhaustive", count=False)
    assert full.complete and full.counted and full.probability is not None and full.every is False
    assert (cut.every, cut.complete, cut.counted, cut.probability) == (False, False, False, None)
    assert cut.lower <= full.probability and cut.every_seconds is not None
    assert "winnable for every draw: no" in cut.describe(lost) and "the chance not counted" in cut.describe(lost)
    won = deal_json.from_dict({"hands": [["B1", "B2", "B3"], ["P1", "P2", "P3"], ["Y1", "Y2", "Y3"]],
                               "lead": 0, "tasks": [{"card": "B3", "seat": 0}]})
    got = analyse_draw(won, backend="exhaustive", count=False)
    assert (got.every, got.complete, got.probability) == (True, True, Fraction(1))
    with pytest.raises(NotApplicableError):
        analyse_draw(lost, backend="exhaustive", shield=True, count=False)
    path = tmp_path / "lost.json"
    path.write_text(deal_json.dumps(lost))
    assert main(["draw", str(path), "--every-only", "--backend", "exhaustive", "--no-progress"]) == 1
    assert "the chance not counted" in capsys.readouterr().out
    assert main(["draw", str(path), "--every-only", "--shield"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--every-only" in err[0]
