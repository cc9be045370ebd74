"""Mission 12 wherever a verdict is printed: ``crewcheck decide`` on a mission-12 deal
notes the draw it leaves out; ``crewcheck draw`` names the task seats of its answer and
says that the reference's shield (the communicated card is never drawn) makes its answer
a lower bound."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crewcheck.analysis.chance import SHIELD_CAVEAT, analyse_draw
from crewcheck.cli import main
from crewcheck.formats import deal_json
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
