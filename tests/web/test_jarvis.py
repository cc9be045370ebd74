"""The two-player game with JARVIS on `crewcheck serve`'s page (Flask test client): a
mission for 2 players is the command line's deal, JARVIS's columns are laid out, a card
under another is refused until its cover went in an earlier trick, the commander's play
of JARVIS's face-up card is accepted, every card's verdict is answered, and what the model
leaves out with JARVIS (the distress signal, mission 12's draw) is a one-line error."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("flask")

from crewcheck.missions.logbook import deal_mission  # noqa: E402
from crewcheck.web.app import create_app  # noqa: E402
from crewcheck.web.jobs import Jobs  # noqa: E402

MISSION = {"game": "mission", "mission": 1, "players": 2, "seed": 0, "assignment": "fixed"}
"""Mission 1 with JARVIS, seed 0, the task fixed: seat 1 is the commander and leads,
JARVIS (seat 2) plays second; its columns are B1 under Y1, G4 under P4, Y3 under G7, R3
under Y8, B2 under P3, B8 under B6 and G2 under G5, and the task is B6, which seat 1 takes."""


@pytest.fixture
def client():
    app = create_app(jobs=Jobs(1, abandon_after=60))
    c = app.test_client()
    assert c.get("/").status_code == 200
    yield c
    app.extensions["crewcheck_jobs"].shutdown()


def finished(client, job_id: str, seconds: float = 120.0) -> dict:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = client.get(f"/api/jobs/{job_id}").get_json()
        if got["state"] not in ("queued", "running"):
            return got
        time.sleep(0.05)
    raise AssertionError("job did not finish")


def error_of(r, status: int = 400) -> dict:
    assert r.status_code == status, r.data[:300]
    err = r.get_json()["error"]
    assert "\n" not in err["message"] and "Traceback" not in err["message"]
    return err


def new(client, **params) -> dict:
    r = client.post("/api/new", json={**MISSION, **params})
    assert r.status_code == 200, r.data[:300]
    return r.get_json()


def test_a_two_player_mission_is_the_command_lines_deal_with_jarvis_columns(client):
    """``/api/new`` for 2 players deals what ``crewcheck mission 1 --players 2`` writes:
    three seats, JARVIS at seat 2 in seven columns (top card first, the card under it
    face down), the commander playing its cards in the page's words, the other seats
    without columns."""
    got = new(client)
    game, layout = got["game"], got["layout"]
    assert game["deal"] == deal_mission(1, 2, 0, "fixed")
    assert game["title"] == "Mission 1, 2 players with JARVIS, seed 0" and game["params"]["players"] == 2
    assert layout["players"] == 3 and layout["commander"] == 1 and layout["to_play"] == 1
    assert layout["jarvis"]["seat"] == 2
    assert "seat 3 is JARVIS" in layout["jarvis"]["words"]
    assert "the commander (seat 2) plays JARVIS's cards" in layout["jarvis"]["words"]
    columns = layout["seats"][2]["columns"]
    pairs = [[c["card"] for c in column] for column in columns]
    assert pairs == [[top, under] for under, top in game["deal"]["covered"]]
    assert pairs[0] == ["Y1", "B1"] and len(pairs) == 7
    assert all(column[0]["face_up"] and not column[1]["face_up"] for column in columns)
    assert all(c["held"] for column in columns for c in column)
    assert layout["seats"][0]["columns"] == [] and layout["seats"][1]["columns"] == []


def test_the_page_offers_two_players_with_jarvis_and_says_the_commander_plays_its_cards(client):
    """The mission form's player count has "2 players with JARVIS", the page says who
    plays JARVIS's cards, and the Classic form says the game with JARVIS is for missions."""
    page = client.get("/").data.decode()
    assert '<option value="2">2 players with JARVIS</option>' in page
    assert "the commander plays JARVIS's cards" in page
    assert "the two-player game with JARVIS is dealt for missions only" in page
    assert "JARVIS, played by the commander" in client.get("/static/draw.js").data.decode()


def test_a_covered_card_is_refused_until_its_cover_went_in_an_earlier_trick(client):
    """On JARVIS's turn after the commander leads B7 the only legal card is B6 (B8 lies
    under it); B8 and B1 (under Y1) are refused with a one-line error naming the card
    and its cover, at the card of the game; B6, a legal play of JARVIS, is accepted."""
    deal = new(client)["game"]["deal"]
    layout = client.post("/api/deal", json={"deal": deal, "history": ["B7"]}).get_json()["layout"]
    assert layout["to_play"] == 2 and layout["legal"] == ["B6"]
    for card, cover in (("B8", "B6"), ("B1", "Y1")):
        for route, body in (("/api/deal", {}), ("/api/jobs", {"kind": "analyse"})):
            err = error_of(client.post(route, json={"deal": deal, "history": ["B7", card], **body}))
            assert err["field"] == "history[1]"
            assert f"'{card}' lies under '{cover}'" in err["message"] and "(card 2 of the game)" in err["message"]
    r = client.post("/api/deal", json={"deal": deal, "history": ["B7", "B6"]})
    assert r.status_code == 200
    after = r.get_json()["layout"]
    assert after["history"] == ["B7", "B6"] and after["to_play"] == 0
    column = after["seats"][2]["columns"][5]
    # B6 went in the trick in progress: B8 under it is turned up only at the end of the trick
    assert [(c["card"], c["held"], c["face_up"]) for c in column] == [("B6", False, True), ("B8", True, False)]


def test_the_card_under_a_played_card_turns_up_after_the_trick(client):
    """Once Y1 went in a complete trick, B1 under it is face up and may be played."""
    deal = new(client)["game"]["deal"]
    history = ["Y4", "Y1", "Y2"]  # seat 1 leads Y4, JARVIS follows with Y1, seat 0 with Y2
    layout = client.post("/api/deal", json={"deal": deal, "history": history}).get_json()["layout"]
    assert len(layout["tricks"]) == 1
    column = layout["seats"][2]["columns"][0]
    assert [(c["card"], c["held"], c["face_up"]) for c in column] == [("Y1", False, False), ("B1", True, True)]


def test_every_card_of_a_position_with_jarvis_has_a_verdict(client):
    """The page's per-card analysis answers on a deal with covered cards: every legal
    card of JARVIS (on its turn) and of the commander has a verdict, and the one card
    of the task line wins."""
    deal = new(client)["game"]["deal"]
    for history, to_play in (([], 1), (["B7"], 2)):
        r = client.post("/api/jobs", json={"kind": "analyse", "deal": deal, "history": history, "replace": True})
        assert r.status_code == 202, r.data[:300]
        assert r.get_json()["layout"]["to_play"] == to_play
        got = finished(client, r.get_json()["id"])
        assert got["state"] == "done", got.get("error")
        analysis = got["result"]["analyse"]
        legal = r.get_json()["layout"]["legal"]
        assert sorted(c for entry in analysis["cards"] for c in entry["cards"]) == sorted(legal)
        assert all(entry["verdict"] in ("winnable", "unwinnable") for entry in analysis["cards"])
        assert analysis["verdict"] == "winnable"
    assert [e["verdict"] for e in analysis["cards"]] == ["winnable"]  # JARVIS's B6, the task, to seat 1


def test_the_distress_signal_and_mission_twelve_are_refused_with_jarvis(client):
    """With 2 players the distress signal and mission 12 (its draw) are one-line errors
    naming the parameter; with 3 players both are dealt; the draw job refuses a deal
    with covered cards."""
    err = error_of(client.post("/api/new", json={**MISSION, "distress": "left"}))
    assert err["field"] == "distress" and err["input"] == "game.distress"
    assert "distress signal with JARVIS" in err["message"]
    err = error_of(client.post("/api/new", json={**MISSION, "mission": 12}))
    assert err["field"] == "players" and "mission 12's draw with JARVIS" in err["message"]
    assert client.post("/api/new", json={**MISSION, "players": 3, "distress": "left"}).status_code == 200
    assert client.post("/api/new", json={**MISSION, "players": 3, "mission": 12}).status_code == 200
    deal = deal_mission(12, 2, 0, "fixed")
    history: list[str] = []
    for _ in range(3):
        layout = client.post("/api/deal", json={"deal": deal, "history": history}).get_json()["layout"]
        history.append(layout["legal"][0])
    err = error_of(client.post("/api/jobs", json={"kind": "draw", "deal": deal, "history": history,
                                                  "draw": [], "replace": True}))
    assert err["field"] == "history" and "draw with JARVIS" in err["message"]


def test_classic_deals_stay_three_to_five_players(client):
    """A random Classic deal for 2 players is refused naming ``players`` (its dealer's
    two-player game has no JARVIS)."""
    err = error_of(client.post("/api/new", json={"game": "classic", "players": 2}))
    assert err["field"] == "players" and "from 3 to 5" in err["message"]


def test_the_draft_goes_round_to_jarvis_and_the_deal_played_keeps_its_columns(client):
    """Mission 8 with JARVIS, drafted: the set-up job offers the commander (seat 2 on the
    board) the first task, then JARVIS (seat 3), then seat 1, each option decided; the
    deal played after the draft has JARVIS's columns and a task at each seat."""
    deal = new(client, mission=8, assignment="")["game"]["deal"]
    draft: list[str] = []
    titles = []
    while True:
        r = client.post("/api/jobs", json={"kind": "setup", "deal": deal, "picks": {}, "draft": draft, "replace": True})
        assert r.status_code == 202, r.data[:300]
        got = finished(client, r.get_json()["id"])
        assert got["state"] == "done", got.get("error")
        step = got["result"]["setup"]
        if step["deal"] is not None:
            break
        titles.append(step["title"])
        assert all(o["verdict"] in ("winnable", "unwinnable") for o in step["options"])
        draft.append(step["options"][0]["value"])
    assert titles == ["The draft: seat 2 takes a task", "The draft: seat 3 takes a task",
                      "The draft: seat 1 takes a task"]
    assert step["deal"]["covered"] == deal["covered"]
    assert sorted(t["seat"] for t in step["deal"]["tasks"]) == [0, 1, 2]


def test_mission_46_with_jarvis_shows_both_readings(client):
    """Mission 46 with JARVIS leaves a 14th card unplayed, as with three players: the
    page notes the reading and decides the other reading's deal beside the board's."""
    game = new(client, mission=46, assignment="")["game"]
    assert game["reading"] and "two with JARVIS" in game["reading"]
    assert game["other"]["reading"] == "literal" and game["other"]["deal"] != game["deal"]
    assert new(client, mission=46, assignment="", players=4)["game"]["reading"] is None
