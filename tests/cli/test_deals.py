"""``crewcheck deals``: seeded, reproducible, the corpus's distribution, clean errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crewcheck.cli import main
from crewcheck.formats.deal_json import from_dict

CORPUS = Path(__file__).resolve().parents[2] / "benchmarks" / "corpus"


def _lines(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, object]]:
    assert main(["deals", *argv]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_a_cell_is_the_committed_corpus_file_with_its_seed(capsys: pytest.CaptureFixture[str]) -> None:
    """The corpus's own seed and cell give its committed file, line for line, plus ``seed``."""
    got = _lines(capsys, "--cell", "3p-free-k12", "--seed", "20261123", "--count", "100")
    corpus = [json.loads(line) for line in (CORPUS / "3p-free-k12.jsonl").read_text().splitlines()]
    assert all(row.pop("seed") == 20261123 for row in got)
    assert got == corpus


def test_the_same_seed_gives_the_same_deals_and_start_picks_one(capsys: pytest.CaptureFixture[str]) -> None:
    """Reproducible: deal n does not depend on --start or --count; other seeds differ."""
    ten = _lines(capsys, "--players", "5", "--tasks", "6", "--count", "10", "--seed", "3")
    assert ten == _lines(capsys, "--players", "5", "--tasks", "6", "--count", "10", "--seed", "3")
    assert _lines(capsys, "--players", "5", "--tasks", "6", "--start", "7", "--count", "1", "--seed", "3") == [ten[7]]
    assert [r["id"] for r in ten[:2]] == ["5p-fixed-k06/0", "5p-fixed-k06/1"]
    other = _lines(capsys, "--players", "5", "--tasks", "6", "--count", "10", "--seed", "4")
    assert [r["hands"] for r in other] != [r["hands"] for r in ten]


def test_every_line_is_a_valid_deal_of_the_asked_shape(capsys: pytest.CaptureFixture[str]) -> None:
    """Ranges of task counts give one cell each; the deals are valid and of the asked shape."""
    rows = _lines(capsys, "--players", "3", "--tasks", "1..3", "--assignment", "free", "--count", "4")
    assert [r["id"] for r in rows][::4] == ["3p-free-k01/0", "3p-free-k02/0", "3p-free-k03/0"]
    for row in rows:
        ident = row.pop("id")
        row.pop("seed")
        deal = from_dict(row)
        assert deal.players == 3 and deal.rules.assignment == "free"
        assert len(deal.tasks) == int(str(ident).split("-k")[1][:2])
        assert sorted(h.bit_count() for h in deal.hands) == [13, 13, 14]


def test_mission_deals_carry_their_own_seed(capsys: pytest.CaptureFixture[str]) -> None:
    """--mission: deal n is `crewcheck mission N --seed S+n`, and says so."""
    rows = _lines(capsys, "--mission", "12", "--players", "4", "--count", "2", "--seed", "5")
    assert [(r["id"], r["seed"]) for r in rows] == [("mission-12-4p/0", 5), ("mission-12-4p/1", 6)]
    assert main(["mission", "12", "--players", "4", "--seed", "6"]) == 0
    single = json.loads(capsys.readouterr().out)
    assert {k: v for k, v in rows[1].items() if k not in ("id", "seed")} == single


def test_two_player_mission_deals_carry_jarvis(capsys: pytest.CaptureFixture[str]) -> None:
    """``--mission N --players 2``: three seats, JARVIS's seven columns as covered cards."""
    rows = _lines(capsys, "--mission", "1", "--players", "2", "--count", "2")
    assert [len(r["hands"]) for r in rows] == [3, 3] and all(len(r["covered"]) == 7 for r in rows)


@pytest.mark.parametrize("argv, needle", [
    (["--tasks", "37"], "--tasks"),
    (["--tasks", "3..1"], "--tasks"),
    (["--players", "6"], "--players"),
    (["--tokens", "--assignment", "free"], "--tokens"),
    (["--cell", "4p-sideways-k3"], "--cell"),
    (["--mission", "1", "--players", "1"], "--players"),
])
def test_bad_arguments_are_one_line_and_exit_2(argv: list[str], needle: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deals", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and needle in captured.err and len(captured.err.strip().splitlines()) == 1
