"""The logbook data file, seeded mission deals and ``crewcheck missions`` / ``crewcheck mission``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from crewcheck.cli import main
from crewcheck.errors import InvalidInputError
from crewcheck.formats.deal_json import from_dict
from crewcheck.missions.logbook import JARVIS, PLAYERS, READINGS, deal_mission, logbook, mission, missions, seats

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "models" / "missions"
TOKENS = {"1", "2", "3", "4", "5", ">", ">>", ">>>", ">>>>", "omega"}
CLASSIC = {f"{s}{v}" for s in "BGPY" for v in range(1, 10)} | {f"R{v}" for v in range(1, 5)}
ALL_DEALS = [(m.number, p) for m in missions() for p in m.players]
# Placeholders the model expands; every other one is resolved when dealing.
KEPT = ("choose", "choose_any:")


# -- the data file ------------------------------------------------------------------------
def test_logbook_matches_its_schema() -> None:
    from jsonschema import Draft202012Validator

    schema = json.loads((MODELS / "logbook.schema.json").read_text())
    Draft202012Validator.check_schema(schema)
    errors = list(Draft202012Validator(schema).iter_errors(logbook()))
    assert not errors, errors[0].message


def test_fifty_missions_with_their_fields() -> None:
    """50 missions numbered 1..50; tokens fit the tasks; a special rule or tasks in each."""
    ms = missions()
    assert [m.number for m in ms] == list(range(1, 51))
    for m in ms:
        assert 0 <= m.tasks <= 10
        assert set(m.tokens) <= TOKENS and len(m.tokens) <= m.tasks
        assert (m.assignment is None) == (m.tasks == 0)
        assert m.tasks > 0 or m.conditions, f"mission {m.number} has neither tasks nor conditions"
        assert bool(m.conditions) <= bool(m.special_rule)
        assert set(m.players) <= set(PLAYERS)
        assert m.five_player_rule == (m.tasks > 0 and m.number >= 25), m.number
    assert len(logbook()["sources"]) >= 3


def test_missions_the_public_lists_get_wrong() -> None:
    """Missions 4, 5 and 21 as the BGA files and the rulebook have them (two public lists differ)."""
    m4, m5, m21 = mission(4), mission(5), mission(21)
    assert (m4.tasks, m4.tokens, m4.conditions) == (3, (), ())
    assert m5.tasks == 0 and m5.conditions == ({"kind": "wins_no_tricks", "seat": "choose"},)
    assert (m21.tasks, m21.tokens, m21.communication["kind"]) == (5, ("1", "2"), "dead_zone")


def test_special_rules_in_numbers() -> None:
    """The task-less missions and the assignment missions, by number."""
    no_tasks = [m.number for m in missions() if m.tasks == 0]
    assert no_tasks == [5, 9, 13, 16, 26, 29, 33, 34, 41, 44, 46, 50]
    assert [m.number for m in missions() if m.assignment == "decision"] == [20, 27, 37]
    assert [m.number for m in missions() if m.assignment == "distribution"] == [24, 32, 36, 43]
    assert [m.number for m in missions() if m.unsupported] == [12]
    assert [(m.number, m.token_move) for m in missions() if m.token_move] == [(23, "swap"), (40, "move")]
    assert [m.number for m in missions() if m.readings] == [46]


def test_mission_out_of_range() -> None:
    for bad in (0, 51, -1):
        with pytest.raises(InvalidInputError, match="does not exist"):
            mission(bad)


# -- dealing ------------------------------------------------------------------------------
def _check_deal(deal: dict[str, Any], number: int, players: int) -> None:
    m = mission(number)
    hands = deal["hands"]
    assert len(hands) == seats(players)
    dealt = [c for h in hands for c in h]
    assert len(dealt) == len(set(dealt)) and set(dealt) == CLASSIC, "hands partition the 40 cards"
    sizes = sorted(len(h) for h in hands)
    assert sizes == {2: [13, 13, 14], 3: [13, 13, 14], 4: [10] * 4, 5: [8] * 5}[players]
    assert ("covered" in deal) == (players == 2)
    commander = next(s for s, h in enumerate(hands) if "R4" in h)
    assert f"seat {commander}." in deal["comment"]
    assert deal["lead"] == "rocket" and deal["trump"] == "R" and deal["deck"] == "classic"
    tasks = deal.get("tasks", [])
    cards = [t["card"] for t in tasks]
    assert len(cards) == m.tasks == len(set(cards))
    assert all(c[0] in "BGPY" for c in cards), "tasks are colour cards"
    assert [t.get("token") for t in tasks[:len(m.tokens)]] == list(m.tokens)
    assert all("token" not in t for t in tasks[len(m.tokens):])
    assert deal.get("assignment") == m.assignment
    assert all("seat" not in t for t in tasks)
    conds = deal.get("conditions", [])
    assert len(conds) == len(m.conditions)
    for c in conds:
        for field in ("seat", "other"):
            v = c.get(field)
            assert v is None or (isinstance(v, int) and 0 <= v < seats(players)) or str(v).startswith(KEPT), c
        assert "card" not in c or c["card"] in cards or c["card"] in CLASSIC


@pytest.mark.parametrize("number,players", ALL_DEALS)
def test_every_mission_deals_well_formed(number: int, players: int) -> None:
    """Every mission deals for 2 (with JARVIS), 3, 4 and 5 players into a well-formed deal dict."""
    _check_deal(deal_mission(number, players, seed=number), number, players)


def test_dealing_is_reproducible_and_seeded() -> None:
    """The same seed gives the same deal; another seed another; the hands are shared by missions."""
    assert deal_mission(42, 5, 11) == deal_mission(42, 5, 11)
    assert deal_mission(42, 5, 11)["hands"] != deal_mission(42, 5, 12)["hands"]
    assert deal_mission(1, 4, 3)["hands"] == deal_mission(47, 4, 3)["hands"]
    first = [t["card"] for t in deal_mission(10, 4, 3)["tasks"]]
    assert [t["card"] for t in deal_mission(47, 4, 3)["tasks"]][:4] == first


def test_the_dealing_procedure_is_pinned() -> None:
    """The documented procedure, pinned: a change to it changes every published deal."""
    d = deal_mission(10, 4, 0)
    assert d["hands"][0] == ["B1", "B2", "B9", "G1", "G2", "G8", "P2", "P5", "Y2", "Y3"]
    assert [t["card"] for t in d["tasks"]] == ["B6", "G5", "Y3", "G3"]
    assert d["name"] == "mission-10-4p-seed0"


def test_placeholders_are_resolved_from_the_deal() -> None:
    """commander, left_of:P9 and token:omega become the deal's seat or card."""
    for seed in range(5):
        d = deal_mission(46, 4, seed)
        holder = next(s for s, h in enumerate(d["hands"]) if "P9" in h)
        assert d["conditions"] == [{"kind": "wins_all_cards", "seat": (holder + 1) % 4, "suit": "P",
                                    "played_only": True}]
        d = deal_mission(34, 3, seed)
        commander = next(s for s, h in enumerate(d["hands"]) if "R4" in h)
        assert d["conditions"][1]["seat"] == commander
        d = deal_mission(48, 5, seed)
        omega = next(t["card"] for t in d["tasks"] if t.get("token") == "omega")
        assert d["conditions"] == [{"kind": "task_in_trick", "card": omega, "trick": "last"}]
    assert deal_mission(50, 4, 0)["conditions"][0]["seat"] == "choose_any:first"
    assert deal_mission(33, 4, 0)["conditions"][1] == {"kind": "wins_no_cards", "seat": "choose", "suit": "R"}


def test_assignment_override() -> None:
    """'fixed' gives the commander the first task card and the next seats the next ones."""
    d = deal_mission(20, 5, 4, assignment="fixed")
    commander = next(s for s, h in enumerate(d["hands"]) if "R4" in h)
    assert d["assignment"] == "fixed"
    assert [t["seat"] for t in d["tasks"]] == [commander, (commander + 1) % 5]
    assert deal_mission(10, 4, 0, assignment="distribution")["assignment"] == "distribution"


def test_challenge_for_three_and_distress() -> None:
    d = deal_mission(44, 3, 2, challenge=True, distress="left")
    dealt = {c for h in d["hands"] for c in h}
    assert len(dealt) == 30 and not any(c.startswith("G") for c in dealt) and "R1" not in dealt
    assert [len(h) for h in d["hands"]] == [10, 10, 10] and "deck" not in d
    assert d["distress"] == "left"
    d = deal_mission(42, 3, 2, challenge=True)
    assert all(t["card"][0] in "BPY" for t in d["tasks"])


@pytest.mark.parametrize("kwargs,field", [
    ({"number": 51}, "mission"), ({"number": 1, "players": 1}, "players"), ({"number": 1, "players": 6}, "players"),
    ({"number": 1, "assignment": "random"}, "assignment"), ({"number": 1, "challenge": True}, "challenge"),
    ({"number": 1, "distress": "up"}, "distress"), ({"number": 1, "seed": "x"}, "seed"),
])
def test_bad_arguments(kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        deal_mission(**kwargs)
    assert info.value.field == field


# -- the deal loader ------------------------------------------------------------------------
_PLAIN = [(n, p) for n, p in ALL_DEALS if not mission(n).conditions and mission(n).assignment in ("free", None)]
_NEW = [(n, p) for n, p in ALL_DEALS if (n, p) not in _PLAIN]


@pytest.mark.parametrize("number,players", _PLAIN)
def test_plain_missions_load(number: int, players: int) -> None:
    """Missions with only tasks, tokens and the draft load with today's deal format."""
    inst = from_dict(deal_mission(number, players, seed=number))
    assert inst.players == seats(players) and len(inst.tasks) == mission(number).tasks


@pytest.mark.parametrize("number,players", _NEW)
def test_special_missions_load(number: int, players: int) -> None:
    """Missions with conditions or the commander's assignments load into the model."""
    deal = deal_mission(number, players, seed=number)
    inst = from_dict(deal)
    assert inst.players == seats(players)
    assert len(inst.conditions) == len(deal.get("conditions", []))  # type: ignore[attr-defined]


# -- the command line ----------------------------------------------------------------------
def test_cli_lists_the_missions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["missions"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = [ln for ln in out[1:] if ln[:2].strip().isdigit()]
    assert len(rows) == 50 and rows[4].split()[:2] == ["5", "0"]
    assert main(["missions", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == "crewcheck-logbook/1" and len(data["missions"]) == 50


def test_cli_deals_a_mission(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mission", "16", "--players", "3", "--seed", "9"]) == 0
    assert json.loads(capsys.readouterr().out) == deal_mission(16, 3, 9)
    out = tmp_path / "m12.json"
    assert main(["mission", "12", "--players", "5", "--seed", "2", "-o", str(out)]) == 0
    assert json.loads(out.read_text()) == deal_mission(12, 5, 2)
    assert "not modelled" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ["mission", "51"], ["mission", "0"], ["mission", "x"], ["mission", "3", "--players", "6"],
    ["mission", "3", "--players", "two"], ["mission", "3", "--seed", "1.5"], ["mission", "3", "--assignment", "x"],
    ["mission", "3", "--challenge"],
])
def test_cli_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Bad arguments: one line on stderr, exit 2, nothing on stdout."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("crewcheck: error: ") and captured.err.count("\n") == 1


# -- the Deep Sea catalogue ------------------------------------------------------------------
DEEPSEA = ROOT / "crewcheck" / "missions" / "data" / "deepsea_tasks.json"
# The condition language: each kind's fields (required, optional).
KINDS: dict[str, tuple[set[str], set[str]]] = {
    "wins_no_tricks": ({"seat"}, set()),
    "wins_tricks": ({"seat", "count", "cmp"}, set()),
    "wins_fewer_tricks_than": ({"seat", "other"}, set()),
    "wins_no_cards": ({"seat", "suit"}, {"value"}),
    "wins_all_cards": ({"seat", "suit"}, {"played_only"}),
    "trick_won_with": ({"value", "count"}, {"seat", "trump"}),
    "no_trick_won_with": ({"value"}, set()),
    "each_trump_wins_a_trick": ({"in_order"}, set()),
    "wins_tricks_at": ({"seat", "tricks"}, {"only", "not_with_trump"}),
    "balanced_tricks": ({"margin"}, set()),
    "task_in_trick": ({"card", "trick"}, set()),
    "wins_together": ({"seat", "cards"}, set()),
    "wins_cards": ({"seat", "count", "cmp"}, {"suit", "value"}),
    "compares_cards_won": ({"seat", "suit", "than_suit"}, {"cmp", "margin", "at_least"}),
    "wins_trick_where": ({"seat"}, {"won_with", "holding", "only", "total_min", "total_max", "suit", "other_suit"}),
    "wins_consecutive_tricks": ({"seat", "count"}, {"cmp", "only"}),
    "wins_no_tricks_at": ({"seat", "tricks"}, set()),
    "wins_as_many_tricks_as": ({"seat", "other"}, set()),
    "wins_more_than_the_rest": ({"seat"}, set()),
    "wins_all_cards_of_a_suit": ({"seat"}, {"trump"}),
    "leads_no_cards": ({"seat", "suit"}, set()),
}


def _check_fields(cond: dict[str, Any], seats: tuple[str, ...]) -> None:
    required, optional = KINDS[cond["kind"]]
    keys = set(cond) - {"kind"}
    assert required <= keys <= required | optional, cond
    for field in ("seat", "other"):
        if field in cond:
            v = cond[field]
            assert isinstance(v, int) or v in seats or str(v).startswith(seats), cond
    for card in cond.get("cards", []) + ([cond["card"]] if "card" in cond else []):
        assert card in CLASSIC or card.startswith("token:"), cond


def test_logbook_conditions_use_the_language() -> None:
    """Every logbook condition is a kind of the language with its fields."""
    for m in missions():
        for reading in READINGS:
            for c in m.conditions_for(reading):
                _check_fields(dict(c), ("commander", "choose", "choose_any:", "left_of:"))


def test_deepsea_catalogue() -> None:
    """96 cards, ids in order, difficulties 1..6; every card expressed, the new readings with their source."""
    cat = json.loads(DEEPSEA.read_text())
    tasks = cat["tasks"]
    assert [t["id"] for t in tasks] == [f"DS{i:02d}" for i in range(1, 97)]
    for t in tasks:
        assert set(t["difficulty"]) == {"3", "4", "5"} and all(1 <= d <= 6 for d in t["difficulty"].values())
        if t["expressed"]:
            assert "why_not" not in t
            for c in t["conditions"]:
                _check_fields(c, ("self", "captain", "each_other"))
            if "reading" in t:
                assert t["reading"]["source"] in ("the card text (bgg-list)", "remigerme"), t["id"]
        else:
            assert "conditions" not in t and t["why_not"]
    n = sum(t["expressed"] for t in tasks)
    assert cat["summary"] == {"expressed": n, "not_expressed": 96 - n} and n == 96


def test_deepsea_seed_004_tasks() -> None:
    """The five tasks of seed 004, three of them cards of the game (marked there)."""
    cat = json.loads(DEEPSEA.read_text())
    seed = {t["id"]: t for t in cat["seed_004"]}
    assert sorted(seed) == ["HV1", "HV2", "HV3", "HV4", "HV5"]
    by_id = {t["id"]: t for t in cat["tasks"]}
    for t in seed.values():
        for c in t["conditions"]:
            _check_fields(c, ("self", "captain"))
        if "same_as" in t:
            assert by_id[t["same_as"]]["conditions"] == t["conditions"] and "seed_004" in by_id[t["same_as"]]
    assert seed["HV1"]["conditions"] == [{"kind": "wins_fewer_tricks_than", "seat": "self", "other": "captain"}]
    assert seed["HV3"]["conditions"] == [{"kind": "wins_tricks", "seat": "self", "count": 2, "cmp": "=="}]
    assert seed["HV4"]["conditions"][0]["value"] == 9
    assert {c["suit"] for c in seed["HV2"]["conditions"]} == {"Y", "G"}
    assert sorted(c["cards"][0] for c in seed["HV5"]["conditions"]) == ["B8", "G7"]


def test_deepsea_cards_load_into_deals() -> None:
    """Every expressed card, given to the seat after the captain, loads into a deal (the
    placeholders made concrete by the Deep Sea deal's own resolver)."""
    from crewcheck.missions.deepsea import resolve_conditions

    cat = json.loads(DEEPSEA.read_text())
    deal = deal_mission(1, 4, 0)
    deal.pop("tasks"), deal.pop("assignment")
    captain = next(s for s, h in enumerate(deal["hands"]) if "R4" in h)
    for t in [*cat["tasks"], *cat["seed_004"]]:
        if t.get("expressed", True):
            conds = resolve_conditions(t, (captain + 1) % 4, captain, 4)
            assert len(from_dict({**deal, "conditions": conds}).conditions) == len(conds)  # type: ignore[attr-defined]


@pytest.mark.parametrize("number", range(1, 51))
def test_every_mission_deals_and_decides_from_the_command_line(number: int, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """``crewcheck mission N`` then ``crewcheck decide`` with the default back-end: a verdict
    (seed 0, 4 players; the whole logbook takes about 20 s on 2 cores)."""
    deal = tmp_path / f"m{number}.json"
    assert main(["mission", str(number), "--seed", "0", "-o", str(deal)]) == 0
    capsys.readouterr()
    code = main(["decide", str(deal), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code in (0, 1) and out["verdict"] in ("winnable", "unwinnable")
