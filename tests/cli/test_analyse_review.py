"""`crewcheck analyse` and `crewcheck review`: verdict first, exit codes, JSON, clean errors."""

from __future__ import annotations

import json
from pathlib import Path

from crewcheck.cli import main

DEALS = Path(__file__).resolve().parents[2] / "models" / "deals"
MIDGAME = str(DEALS / "classic-4p-midgame.json")
LOST = str(DEALS / "classic-4p-lost-game.json")
FREE = str(DEALS / "classic-4p-free-8-tasks.json")
LOST_AT_ONCE = str(DEALS / "unwinnable-commander-wins-all.json")


def write(tmp_path, data, name="game.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def test_analyse_prints_the_verdict_then_one_line_per_class(capsys):
    assert main(["analyse", MIDGAME]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("winnable  (") and "decisions" in out[0]
    assert out[2].startswith("trick 6, seat 0 to play (G9 G4 on the table): 1 of 5 cards keep the deal winnable")
    assert any(line.split()[:4] == ["P5", "=", "P6", "unwinnable"] for line in out)
    winning = [line for line in out if " winnable " in line and "/" in line]
    assert len(winning) == 1 and winning[0].split()[0] == "R1"


def test_analyse_json_and_exit_code_of_a_lost_position(capsys):
    assert main(["analyse", LOST_AT_ONCE, "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["schema"] == "crewcheck-analysis/1" and out["verdict"] == "unwinnable"
    assert all(c["verdict"] == "unwinnable" for c in out["cards"]) and out["decisions"] == 1


def test_analyse_under_free_assignment_says_who_can_take_each_task(capsys):
    assert main(["analyse", FREE]) == 0
    out = capsys.readouterr().out
    assert "who can still take each open task (free assignment):" in out


def test_review_finds_the_losing_card(capsys):
    assert main(["review", LOST]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("lost at trick 5: seat 3 played Y9 (card 18 of the game); "
                             "G6 = G8 or R2 = R3 kept it winnable  (")
    trick5 = next(line for line in out if line.lstrip().startswith("5."))
    assert "*Y9" in trick5 and trick5.rstrip().endswith("lost by Y9")
    assert out[-1].split()[:2] == ["Y9", "unwinnable"]


def test_review_json(capsys):
    assert main(["review", LOST, "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["schema"] == "crewcheck-review/1"
    assert out["losing"] == {"index": 17, "trick": 5, "seat": 3, "card": "Y9",
                             "kept_winnable": [["G6", "G8"], ["R2", "R3"]]}
    assert len(out["steps"]) == 40 and out["steps"][17]["before"] == "winnable"
    assert out["steps"][17]["after"] == "unwinnable"


def test_review_of_a_game_still_winnable_exits_0(capsys):
    assert main(["review", MIDGAME]) == 0
    assert capsys.readouterr().out.startswith("still winnable after all 22 cards")


def test_an_illegal_history_gives_the_index_of_the_card_and_why(tmp_path, capsys):
    """The third card (played[0].cards[2]) does not follow suit although the seat can."""
    data = json.loads(Path(MIDGAME).read_text())
    first = data["played"][0]
    hands = data["hands"]
    seat = (first["lead"] + 2) % 4
    off_suit = next(c for c in hands[seat] if c[0] != first["cards"][0][0])
    first["cards"][2] = off_suit
    path = write(tmp_path, data)
    for command in ("review", "analyse"):
        assert main([command, path]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"crewcheck: error: {path}: played[0].cards[2]: seat {seat} must follow suit")
        assert err.rstrip().endswith("(card 3 of the game)") and err.count("\n") == 1
    assert main(["review", path, "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["error"]["index"] == 2 and out["error"]["field"] == "played[0].cards[2]"


def test_bad_input_is_the_same_error_as_decide(tmp_path, capsys):
    path = write(tmp_path, '{"hands": [["B1", "B1"], ["B2"]]}')
    assert main(["decide", path]) == 2
    decide_err = capsys.readouterr().err
    for command in ("analyse", "review"):
        assert main([command, path]) == 2
        assert capsys.readouterr().err == decide_err


def test_a_missing_file_is_one_line(tmp_path, capsys):
    assert main(["review", str(tmp_path / "nope.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("crewcheck: error: ") and err.count("\n") == 1
