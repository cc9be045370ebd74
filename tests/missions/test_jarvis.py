"""The two-player game with JARVIS: ``crewcheck mission N --players 2`` deals a third seat
whose cards lie in columns as the reference deals them, and ``decide`` decides it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from crewcheck.api import decide
from crewcheck.cli import main
from crewcheck.errors import InvalidInputError
from crewcheck.formats.deal_json import from_dict
from crewcheck.missions.logbook import JARVIS, deal_mission, verdict_caveats
from crewcheck.solvers.base import Verdict

CARDS = [f"{s}{v}" for s in "BGPY" for v in range(1, 10)] + [f"R{v}" for v in range(1, 5)]


@pytest.mark.parametrize("seed", range(12))
def test_jarvis_is_dealt_as_the_reference_deals_it(seed: int) -> None:
    """Seat 2 takes the first 14 shuffled cards that are not R4, in columns of two in the
    order drawn (the first face down under the second); seats 0 and 1 share the other 26."""
    deck = list(CARDS)
    random.Random(seed).shuffle(deck)
    jarvis = [c for c in deck if c != "R4"][:14]
    deal = deal_mission(1, 2, seed)
    hands = deal["hands"]
    assert len(hands) == 3 and sorted(map(len, hands)) == [13, 13, 14]
    assert set(hands[JARVIS]) == set(jarvis) and "R4" not in hands[JARVIS]
    assert deal["covered"] == [[jarvis[k], jarvis[k + 1]] for k in range(0, 14, 2)]
    rest = [c for c in deck if c not in jarvis]
    assert [set(h) for h in hands[:2]] == [set(rest[0::2]), set(rest[1::2])]
    assert "JARVIS at seat 2" in deal["comment"]


def test_the_commander_is_a_human_on_either_side_of_jarvis() -> None:
    """The commander holds R4, so it is seat 0 (JARVIS plays before it) or seat 1
    (JARVIS plays after it), never JARVIS; both occur."""
    commanders = {from_dict(deal_mission(1, 2, seed)).commander for seed in range(20)}
    assert commanders == {0, 1}


def test_challenge_for_three_with_jarvis() -> None:
    """With the Challenge deck (the reference plays it with JARVIS as a third seat) every
    seat holds 10 cards and JARVIS's lie in 5 columns."""
    deal = deal_mission(1, 2, 4, challenge=True)
    assert [len(h) for h in deal["hands"]] == [10, 10, 10] and len(deal["covered"]) == 5
    assert not any(c.startswith("G") or c == "R1" for h in deal["hands"] for c in h)


@pytest.mark.parametrize("kwargs, field", [
    ({"distress": "left"}, "distress"), ({"players": 1}, "players"), ({"players": 2, "challenge": True}, None),
])
def test_two_player_arguments(kwargs: dict[str, object], field: str | None) -> None:
    """The distress signal with JARVIS is refused by name; one player is no game."""
    args = {"number": 1, "players": 2, "seed": 0, **kwargs}
    if field is None:
        deal_mission(**args)  # type: ignore[arg-type]
        return
    with pytest.raises(InvalidInputError) as info:
        deal_mission(**args)  # type: ignore[arg-type]
    assert info.value.field == field


def test_a_two_player_mission_decides_with_a_replayed_line() -> None:
    """Mission 1 with JARVIS: the default back-end wins it, and the line replays under the
    covers (decide passes every winning line through the replay checker)."""
    deal = from_dict(deal_mission(1, 2, 3))
    result = decide(deal)
    assert result.verdict is Verdict.WINNABLE and result.witness is not None


def test_an_unwinnable_two_player_mission_is_certified(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Mission 36, 2 players, seed 0, the tasks handed out in turn: unwinnable, and the
    certificate (a DRUP proof of the CNF with JARVIS's covers) checks."""
    deal, cert = tmp_path / "m36.json", tmp_path / "m36.cert"
    assert main(["mission", "36", "--players", "2", "--seed", "0", "--assignment", "fixed", "-o", str(deal)]) == 0
    assert main(["decide", str(deal), "--certificate", str(cert)]) == 1
    assert main(["check", str(deal), str(cert)]) == 0  # (0: accepted)
    out = capsys.readouterr().out
    assert "accepted: unwinnable" in out


def test_show_prints_jarvis_columns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``crewcheck show`` on a two-player mission deal lists JARVIS's seven columns."""
    path = tmp_path / "m1.json"
    path.write_text(json.dumps(deal_mission(1, 2, 3)))
    assert main(["show", str(path)]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("seat 2 columns"))
    assert len(line.split(":", 1)[1].split()) == 7


def test_mission_12_caveat_names_two_player_deals() -> None:
    """A two-player mission 12 deal file carries the same caveat as the others, and the
    draw analysis refuses JARVIS's columns by name."""
    deal = deal_mission(12, 2, 0)
    assert verdict_caveats(deal)
    from crewcheck.analysis.chance import analyse_draw
    from crewcheck.errors import NotApplicableError

    with pytest.raises(NotApplicableError, match="JARVIS"):
        analyse_draw(from_dict(deal))
