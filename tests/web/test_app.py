"""`crewcheck serve`'s application (Flask test client): the same answers and one-line
errors as the command line, one job per page, progress and cancel, request limits."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("flask")

from crewcheck import decide, load  # noqa: E402
from crewcheck.formats import deal_json  # noqa: E402
from crewcheck.reports.results import result_to_dict  # noqa: E402
from crewcheck.web import app as web_app  # noqa: E402
from crewcheck.web.app import COOKIE, MAX_REQUEST_BYTES, create_app, loopback_hosts  # noqa: E402
from crewcheck.web.jobs import Busy, Jobs  # noqa: E402
from crewcheck.missions.logbook import deal_mission  # noqa: E402
from crewcheck.model.variants import play_state  # noqa: E402

DEALS = Path(__file__).resolve().parents[2] / "models" / "deals"
MIDGAME = (DEALS / "classic-4p-midgame.json").read_text()
LOST = (DEALS / "classic-4p-lost-game.json").read_text()


@pytest.fixture
def app():
    application = create_app(jobs=Jobs(1, abandon_after=60), examples=DEALS)
    yield application
    application.extensions["crewcheck_jobs"].shutdown()


@pytest.fixture
def client(app):
    c = app.test_client()
    assert c.get("/").status_code == 200  # sets the page's cookie
    return c


def wait(client, job_id, seconds=60.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = client.get(f"/api/jobs/{job_id}").get_json()
        if got["state"] not in ("queued", "running"):
            return got
        time.sleep(0.02)
    raise AssertionError("job did not finish")


def test_the_page_sets_a_client_cookie_and_has_the_controls(app):
    c = app.test_client()
    r = c.get("/")
    assert r.status_code == 200 and b'id="board"' in r.data and b'id="cancel"' in r.data and b'id="undo"' in r.data
    assert COOKIE in r.headers.get("Set-Cookie", "") and "HttpOnly" in r.headers["Set-Cookie"]
    assert c.get("/static/app.js").status_code == 200 and c.get("/static/draw.js").status_code == 200


def test_examples_are_the_bundled_deals(client):
    names = [e["name"] for e in client.get("/api/examples").get_json()["examples"]]
    assert "classic-4p-midgame" in names and "classic-4p-lost-game" in names
    got = client.get("/api/examples/classic-4p-midgame").get_json()
    assert json.loads(got["text"])["name"] == "classic-4p-midgame"
    assert client.get("/api/examples/..%2Fsecret").status_code == 404


def test_a_deal_is_laid_out(client):
    r = client.post("/api/deal", json={"deal": MIDGAME})
    layout = r.get_json()["layout"]
    assert r.status_code == 200 and layout["players"] == 4 and layout["to_play"] == 0
    assert len(layout["tricks"]) == 5 and layout["current"]["cards"] == ["G9", "G4"]
    assert layout["fields"]["played"].split()[:4] == ["P2", "P1", "P3", "P7"]


def test_typed_fields_give_the_same_deal_as_its_file(client):
    deal = load(DEALS / "classic-4p-midgame.json")
    fields = client.post("/api/deal", json={"deal": MIDGAME}).get_json()["layout"]["fields"]
    r = client.post("/api/deal", json={"fields": fields})
    assert r.status_code == 200
    assert deal_json.from_dict(r.get_json()["layout"]["deal"]) == deal


def expected_line(data):
    try:
        deal_json.loads(json.dumps(data))
    except Exception as e:  # the message crewcheck decide prints after the file name
        return str(e)
    raise AssertionError("the deal is valid")


def test_errors_are_the_command_lines_next_to_their_field(client):
    """A card dealt twice: the loader's one-line message, shown by seat 1's hand."""
    fields = {"hands": ["B1 B3", "B2 B2"], "tasks": "B3@0"}
    got = client.post("/api/deal", json={"fields": fields})
    error = got.get_json()["error"]
    assert got.status_code == 400 and error["input"] == "hands.1"
    assert error["line"] == expected_line({"hands": [["B1", "B3"], ["B2", "B2"]],
                                           "tasks": [{"card": "B3", "seat": 0}]})
    error = client.post("/api/deal", json={"fields": {"hands": ["B1", "B2"], "tasks": "B9@0"}}).get_json()["error"]
    assert error["input"] == "tasks" and error["line"].startswith("tasks[0].card: ")
    error = client.post("/api/deal", json={"fields": {"hands": ["B1", "B2"], "tasks": "B1@7"}}).get_json()["error"]
    assert error["input"] == "tasks" and "seat 7" in error["line"]
    error = client.post("/api/deal", json={"deal": '{"hands": '}).get_json()["error"]
    assert error["input"] == "json" and error["line"].startswith("malformed JSON")


def test_an_illegal_played_card_is_reported_with_its_index(client):
    fields = {"hands": ["B1 B3", "B2 B4"], "tasks": "B3@0", "played": "B1 B4 B3"}
    error = client.post("/api/deal", json={"fields": fields}).get_json()["error"]
    assert error["input"] == "played" and error["index"] == 2
    assert error["line"] == ("current.cards[0]: 'B3' is held by seat 0, not by the leader seat 1 "
                             "(card 3 of the game)")


def test_decide_gives_the_command_lines_result(client):
    r = client.post("/api/jobs", json={"kind": "decide", "deal": MIDGAME})
    assert r.status_code == 202
    job = wait(client, r.get_json()["id"])
    assert job["state"] == "done"
    got = job["result"]["decide"]
    deal = load(DEALS / "classic-4p-midgame.json")
    want = result_to_dict(deal, decide(deal))
    assert got["verdict"] == want["verdict"] == "winnable"
    assert got["witness"][0] == want["witness"][0] == {"lead": 3, "cards": ["P2", "P1", "P3", "P7"], "winner": 2}


def test_analyse_at_a_point_of_the_line(client):
    deal = load(DEALS / "classic-4p-midgame.json")
    line = [str(deal.card(c)) for c in decide(deal).witness.plays]
    r = client.post("/api/jobs", json={"kind": "analyse", "deal": MIDGAME, "history": line[:24]})
    job = wait(client, r.get_json()["id"])
    a = job["result"]["analyse"]
    assert job["state"] == "done" and a["trick"] == 7 and a["history"] == 24
    assert a["verdict"] == "winnable" and any(c["verdict"] == "winnable" for c in a["cards"])
    bad = client.post("/api/jobs", json={"kind": "analyse", "deal": MIDGAME, "history": line[:3] + ["Q9"]})
    assert bad.status_code == 400 and bad.get_json()["error"]["field"] == "history[3]"


def test_review_of_a_pasted_game(client):
    r = client.post("/api/jobs", json={"kind": "review", "deal": LOST})
    job = wait(client, r.get_json()["id"])
    review = job["result"]["review"]
    assert review["summary"].startswith("lost at trick 5: seat 3 played Y9")
    assert review["losing"]["index"] == 17 and job["progress"]["done"] >= 5


def blocking(monkeypatch):
    """Jobs whose work runs until cancelled (polling like the deciders do)."""
    started = threading.Event()

    def work(kind, instance, timeout):
        def run(cancelled, progress):
            started.set()
            progress(1, 3, "something long")
            while not cancelled():
                time.sleep(0.01)
            return {}
        return run

    monkeypatch.setattr(web_app, "_work", work)
    return started


def test_one_job_at_a_time_per_page_and_cancel(client, monkeypatch):
    started = blocking(monkeypatch)
    first = client.post("/api/jobs", json={"kind": "decide", "deal": MIDGAME}).get_json()
    assert started.wait(5)
    second = client.post("/api/jobs", json={"kind": "review", "deal": MIDGAME})
    assert second.status_code == 409 and second.get_json()["error"]["job"] == first["id"]
    running = client.get(f"/api/jobs/{first['id']}").get_json()
    assert running["state"] == "running" and running["progress"] == {"done": 1, "total": 3, "what": "something long"}
    assert client.post(f"/api/jobs/{first['id']}/cancel", json={}).status_code == 200
    assert wait(client, first["id"])["state"] == "cancelled"
    third = client.post("/api/jobs", json={"kind": "decide", "deal": MIDGAME})
    assert third.status_code == 202


def test_another_page_cannot_see_or_cancel_a_job(app, client, monkeypatch):
    blocking(monkeypatch)
    job = client.post("/api/jobs", json={"kind": "decide", "deal": MIDGAME}).get_json()
    other = app.test_client()
    other.get("/")
    assert other.get(f"/api/jobs/{job['id']}").status_code == 404
    assert other.post(f"/api/jobs/{job['id']}/cancel", json={}).status_code == 404
    client.post(f"/api/jobs/{job['id']}/cancel", json={})


def test_a_job_nobody_polls_is_cancelled():
    jobs = Jobs(1, abandon_after=0.2)
    seen = threading.Event()

    def work(cancelled, progress):
        while not cancelled():
            time.sleep(0.01)
        seen.set()
        return {}

    job = jobs.submit("page", "decide", work)
    with pytest.raises(Busy):
        jobs.submit("page", "decide", work)
    assert seen.wait(5) and job.state in ("cancelled", "running")
    jobs.shutdown()
    assert job.state == "cancelled"


def test_requests_are_limited(app, client):
    big = {"deal": "x" * (MAX_REQUEST_BYTES + 1)}
    r = client.post("/api/deal", json=big)
    assert r.status_code == 413 and "too large" in r.get_json()["error"]["line"]
    r = client.post("/api/deal", data="hands=B1", content_type="application/x-www-form-urlencoded")
    assert r.status_code == 415
    r = client.post("/api/jobs", json={"kind": "solve", "deal": MIDGAME})
    assert r.status_code == 400 and r.get_json()["error"]["field"] == "kind"
    loopback_hosts(app, 8765)
    assert client.get("/api/examples", headers={"Host": "127.0.0.1:8765"}).status_code == 200
    assert client.get("/api/examples", headers={"Host": "attacker.example:8765"}).status_code == 403


# -- hostile requests: every error a JSON 4xx -------------------------------------------
def _error(r, status):
    assert r.status_code == status, r.data[:200]
    body = r.get_json()
    assert isinstance(body, dict) and "error" in body, r.data[:200]
    assert "\n" not in body["error"]["message"]
    return body["error"]


def test_a_long_example_name_is_a_json_404(client):
    _error(client.get("/api/examples/" + "a" * 5000), 404)
    _error(client.get("/api/examples/%D9%A3"), 404)


@pytest.mark.parametrize("route", ["/api/deal", "/api/jobs"])
def test_a_deeply_nested_body_is_a_json_400(client, route):
    text = '{"kind": "decide", "deal": ' + "[" * 5000 + "]" * 5000 + "}"
    err = _error(client.post(route, data=text, content_type="application/json"), 400)
    assert "nested" in err["message"]


@pytest.mark.parametrize("deal", [
    "[" * 5000 + "]" * 5000,                                             # deeply nested deal string
    '{"hands": [["B1"], ["B2"]], "lead": ' + "9" * 5000 + ', "tasks": []}',  # a 5,000-digit integer
    '{"hands": [["B1"], ["B2"]], "lead": 0, "lead": 1, "tasks": []}',      # a duplicate key
    '{"hands": [["B1"], ["B2"]], "lead": NaN, "tasks": []}',
])
@pytest.mark.parametrize("route", ["/api/deal", "/api/jobs"])
def test_the_deal_string_goes_through_the_hardened_reader(client, route, deal):
    """The pasted deal text is read as the command line reads a file: the same refusals."""
    err = _error(client.post(route, json={"kind": "decide", "deal": deal}), 400)
    assert err["input_error"] is True
    if '"lead": 0, "lead"' in deal:
        assert "duplicate key 'lead'" in err["message"]


def test_a_body_with_a_duplicate_key_or_bad_utf8_is_a_json_400(client):
    _error(client.post("/api/deal", data='{"deal": {}, "deal": {}}', content_type="application/json"), 400)
    _error(client.post("/api/deal", data=b'{"deal": "\xc3"}', content_type="application/json"), 400)


def test_the_conditions_field_goes_through_the_hardened_reader(client):
    fields = {"hands": ["B1 B2", "B3 B4"], "tasks": "B4@0", "conditions": "[" * 100 + "]" * 100}
    err = _error(client.post("/api/deal", json={"fields": fields}), 400)
    assert err["field"] == "conditions"


def test_unicode_digits_in_the_lead_field_are_not_a_seat(client):
    fields = {"hands": ["B1 B2", "B3 B4"], "tasks": "B4@0", "lead": "²"}
    _error(client.post("/api/deal", json={"fields": fields}), 400)


def test_the_job_queue_has_a_global_bound(app):
    """One client rotating its cookie cannot queue jobs without end: past the bound, 429."""
    app.extensions["crewcheck_jobs"].max_active = 3
    hold = threading.Event()
    codes = []
    try:
        real = web_app._work

        def slow(kind, instance, timeout):
            def run(cancelled, progress):
                hold.wait(30)
                return {}
            return run

        web_app._work = slow
        for n in range(6):
            c = app.test_client()
            c.set_cookie(COOKIE, f"client-{n}")
            codes.append(c.post("/api/jobs", json={"kind": "decide", "deal": MIDGAME}).status_code)
    finally:
        web_app._work = real
        hold.set()
    assert codes == [202, 202, 202, 429, 429, 429]


def test_typed_fields_without_hands_but_with_played_cards_is_a_json_400(client):
    """Found by the fuzz test: no seats and played cards divided the cards by zero seats (500)."""
    err = _error(client.post("/api/deal", json={"fields": {"hands": [], "played": "B1"}}), 400)
    assert err["field"] == "hands"


# -- the board's routes -------------------------------------------------------------------
def test_the_missions_for_the_picker(client):
    got = client.get("/api/missions").get_json()["missions"]
    assert [m["number"] for m in got] == list(range(1, 51))
    assert got[15]["rule"] == "You must not win a trick with a nine."


def test_a_new_mission_is_the_command_lines_deal_and_its_layout(client):
    """``/api/new`` deals what ``crewcheck mission 16 --players 3 --seed 7`` writes, and lays
    it out: the commander to lead, its legal cards, the condition in words."""
    r = client.post("/api/new", json={"game": "mission", "mission": "16", "players": 3, "seed": "7"})
    assert r.status_code == 200
    got = r.get_json()
    want = deal_mission(16, 3, 7)
    assert got["game"]["deal"] == want
    assert got["game"]["params"] == {"game": "mission", "mission": 16, "players": 3, "seed": 7, "assignment": "",
                                     "reading": "", "distress": ""}
    layout = got["layout"]
    commander = next(s for s, hand in enumerate(want["hands"]) if "R4" in hand)
    assert layout["to_play"] == commander and sorted(layout["legal"]) == sorted(want["hands"][commander])
    assert layout["conditions"] == ["No trick won with a 9."]
    assert got["game"]["rule"] == "You must not win a trick with a nine."


@pytest.mark.parametrize("body, n_tasks", [({"game": "classic", "players": 5, "tasks": 4, "seed": 3}, 4),
                                           ({"game": "classic", "tasks": 0}, 0),
                                           ({"game": "deepsea", "cards": 5, "seed": 2, "owners": 1}, 0)])
def test_random_classic_and_deep_sea_deals(client, body, n_tasks):
    """A seeded deal loads as a deal file; the same parameters deal it again."""
    got = client.post("/api/new", json=body).get_json()
    deal = deal_json.from_dict(got["game"]["deal"])
    assert len(deal.tasks) == n_tasks
    again = client.post("/api/new", json=got["game"]["params"]).get_json()
    assert again["game"]["deal"] == got["game"]["deal"]
    if body["game"] == "classic":
        assert deal.players == body.get("players", 4)
        assert all(t.seat is not None for t in deal.tasks)
    else:
        assert deal.players == 4 and sum(h.bit_count() for h in deal.hands) == 20 and deal.conditions
        assert len(got["game"]["options"]) > 1


@pytest.mark.parametrize("body, field", [
    ({"game": "chess"}, "game"),
    ({}, "game"),
    ({"game": ["mission"]}, "game"),  # found by the fuzz test: an unhashable name was a 500
    ({"game": "mission", "mission": 51}, "mission"),
    ({"game": "mission", "mission": "one"}, "mission"),
    ({"game": "mission", "mission": 1, "players": 1}, "players"),
    ({"game": "classic", "players": 2}, "players"),
    ({"game": "mission", "mission": 1, "seed": -1}, "seed"),
    ({"game": "mission", "mission": 1, "seed": 1.5}, "seed"),
    ({"game": "mission", "mission": 1, "assignment": "random"}, "assignment"),
    ({"game": "classic", "tasks": 13}, "tasks"),
    ({"game": "classic", "assignment": "decision"}, "assignment"),
    ({"game": "deepsea", "cards": 0}, "cards"),
    ({"game": "deepsea", "owners": 999}, "owners"),
])
def test_a_bad_game_parameter_is_one_error_naming_it(client, body, field):
    err = _error(client.post("/api/new", json=body), 400)
    assert err["field"] == field and err["input"] == f"game.{field}" and err["line"].startswith(f"{field}: ")


def test_a_position_is_laid_out_with_its_legal_cards(client):
    deal = load(DEALS / "classic-4p-midgame.json")
    line = [str(deal.card(c)) for c in decide(deal).witness.plays]
    r = client.post("/api/deal", json={"deal": MIDGAME, "history": line[:25]})
    layout = r.get_json()["layout"]
    state = play_state(deal.with_history(decide(deal).witness.plays[:25]))
    assert layout["history"] == line[:25] and layout["to_play"] == state.to_play
    assert layout["legal"] == [str(c) for c in state.legal_plays()] and layout["over"] is None
    end = client.post("/api/deal", json={"deal": MIDGAME, "history": line}).get_json()["layout"]
    assert end["legal"] == [] and end["won"] is True
    err = _error(client.post("/api/deal", json={"deal": MIDGAME, "history": line[:2] + [line[5]]}), 400)
    assert err["field"] == "history[2]"


def test_replace_cancels_the_pages_job_and_starts_the_new_one(client, monkeypatch):
    """The board asks about each new position with ``replace``: the page's job still
    running is cancelled instead of a 409."""
    started = blocking(monkeypatch)
    first = client.post("/api/jobs", json={"kind": "analyse", "deal": MIDGAME}).get_json()
    assert started.wait(5)
    second = client.post("/api/jobs", json={"kind": "analyse", "deal": MIDGAME, "replace": True})
    assert second.status_code == 202
    assert wait(client, first["id"])["state"] == "cancelled"
    assert client.get(f"/api/jobs/{second.get_json()['id']}").get_json()["state"] in ("queued", "running")
    client.post(f"/api/jobs/{second.get_json()['id']}/cancel", json={})
    err = _error(client.post("/api/jobs", json={"kind": "analyse", "deal": MIDGAME, "replace": "yes"}), 400)
    assert err["field"] == "replace"


@pytest.mark.parametrize(("number", "players", "distress"), [
    (9, 2, None),          # JARVIS's covered cards
    (38, 4, "choose"),     # the distress signal
    (40, 5, None),         # the token move and the hand-over
    (23, 3, None),         # the token swap
])
def test_typed_fields_keep_covers_and_the_crews_choices(client, number, players, distress):
    data = deal_mission(number, players, 3, distress=distress)
    deal = deal_json.from_dict(data)
    assert deal.covered or deal.distress or deal.token_move
    fields = client.post("/api/deal", json={"deal": data}).get_json()["layout"]["fields"]
    r = client.post("/api/deal", json={"fields": fields})
    assert r.status_code == 200, r.get_json()
    assert deal_json.from_dict(r.get_json()["layout"]["deal"]) == deal


@pytest.mark.parametrize(("extra", "field", "words"), [
    ({"covered": "B3"}, "covered", "expected CARD<COVER"),
    ({"covered": "B3<Z9"}, "covered", ""),
    ({"handover": "perhaps"}, "handover", "expected 'yes' or 'no'"),
    ({"distress": "up"}, "distress", ""),
])
def test_typed_covers_and_choices_have_one_line_errors(client, extra, field, words):
    fields = {"hands": ["B1 B3", "B2 B4"], "tasks": "B3@0", **extra}
    error = client.post("/api/deal", json={"fields": fields}).get_json()["error"]
    assert error["input"] == field and words in error["line"] and "\n" not in error["line"]
