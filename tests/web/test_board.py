"""What the board shows, decided on the server: each task's state agrees with the game's
result, the trick number, the per-seat score, the board's words (seats from 1, no proof
citations, no "(s)"), a reason for every card's verdict, one job per tab, the games'
limits and notes."""

from __future__ import annotations

import threading
import time

import pytest

pytest.importorskip("flask")

from crewcheck.analysis.analyse import analyse  # noqa: E402
from crewcheck.formats.notation import parse_deal  # noqa: E402
from crewcheck.web import app as web_app  # noqa: E402
from crewcheck.web import forms  # noqa: E402
from crewcheck.web.app import create_app  # noqa: E402
from crewcheck.web.games import new_game  # noqa: E402
from crewcheck.web.jobs import Jobs  # noqa: E402
from crewcheck.web.words import explain_analysis, rules_words, words  # noqa: E402

LOST_ON_B6 = "G5 G6 G9 G2 B6 B9 B3 B4".split()
"""Mission 1, 4 players, seed 0: seat 0 wins the task B6, which the commander had to draft."""


def mission_one(history: list[str]) -> dict:
    game = new_game({"game": "mission", "mission": 1, "players": 4, "seed": 0})
    instance, _ = forms.load({"deal": game["deal"]})
    return forms.layout(forms.with_history(instance, history))


def test_a_task_won_by_a_seat_that_cannot_take_it_is_failed_not_done():
    layout = mission_one(LOST_ON_B6)
    assert layout["won"] is False and "B6" in layout["over"]
    (task,) = layout["tasks"]
    assert task["status"] == "failed" and task["done"] is False and task["won_by"] == 0
    assert layout["seats"][0]["score"] == {"tricks": 1, "tasks": 1, "done": 0, "failed": 1, "open": 0}
    assert layout["over_words"] == "task B6 was won by seat 1, who had no room for another task"


def test_a_fixed_task_is_done_by_its_seat_and_failed_by_another():
    deal = parse_deal("B1 B2 | B3 B4 ; trump - ; lead 0 ; tasks B3@1 B4@0 ; strict/fixed")
    first = forms.layout(forms.with_history(deal, ["B1", "B3"]))
    done, still_open = first["tasks"]
    assert done["status"] == "done" and done["won_by"] == 1 and still_open["status"] == "open"
    assert first["seats"][1]["score"]["done"] == 1 and first["trick"] == 2
    # seat 1 leads B4, seat 0 must follow with B2: seat 1 wins seat 0's task
    lost = forms.layout(forms.with_history(deal, ["B1", "B3", "B4", "B2"]))
    assert [t["status"] for t in lost["tasks"]] == ["done", "failed"] and lost["won"] is False
    assert lost["over_words"] == "task B4 was won by seat 2, not by seat 1, whose task it is"


@pytest.mark.parametrize("history, trick", [([], 1), (LOST_ON_B6[:4], 2), (LOST_ON_B6[:5], 2)])
def test_the_trick_in_progress_has_one_number(history, trick):
    layout = mission_one(history)
    assert layout["trick"] == trick == len(layout["tricks"]) + 1


def test_the_boards_words():
    assert words("Witteveen Thm 3.18: none of properties 1-3 holds").startswith("the seat leading cannot")
    assert "Thm" not in words("the graph has no Hamiltonian path (Lemma 6.2, tokens)")
    assert words("seat 0 wins 1 trick(s); seats 0, 2 and 3 win 2 trick(s)") == \
        "seat 1 wins 1 trick; seats 1, 3 and 4 win 2 tricks"
    deal = parse_deal("B1 B2 | B3 B4 ; trump - ; lead 0 ; tasks B3@? ; strict/free")
    assert rules_words(deal.rules, tokens=False) == "tasks drafted"
    assert "strict" not in rules_words(deal.rules) and "/" not in rules_words(deal.rules)


def test_every_card_has_a_reason_and_the_line_says_who_takes_the_task():
    game = new_game({"game": "mission", "mission": 1, "players": 4, "seed": 0})
    instance, _ = forms.load({"deal": game["deal"]})
    a = analyse(forms.with_history(instance, LOST_ON_B6[:4]))
    explained = explain_analysis(a)
    reasons = dict(zip((v.cards[0] for v in a.cards), explained["cards"]))
    assert len(explained["cards"]) == len(a.cards)
    lost = [v for v in a.cards if v.verdict.value == "unwinnable"]
    assert lost and all(reasons[v.cards[0]].startswith("loses") for v in lost)
    won = [v for v in a.cards if v.verdict.value == "winnable"]
    assert won and all(reasons[v.cards[0]].startswith("wins with: ") for v in won)
    assert all("takes B6" in reasons[v.cards[0]] for v in won)
    assert explained["takes"] == {"B6": 1}


def test_a_card_that_ends_the_game_says_how():
    deal = forms.with_history(parse_deal("B1 B4 | B3 B2 ; trump - ; lead 0 ; tasks B3@1 ; strict/fixed"), ["B4"])
    a = analyse(deal, backend="exhaustive")
    explained = explain_analysis(a)
    by_card = {str(deal.card(v.cards[0])): r for v, r in zip(a.cards, explained["cards"])}
    assert by_card["B3"] == "loses at once: task failed on task B3 (seat 2)"
    assert by_card["B2"] == "wins with: B2 / B1 B3"


def test_each_tab_of_a_page_has_its_own_job(monkeypatch):
    started = threading.Event()

    def work(kind, instance, timeout):
        def run(cancelled, progress):
            started.set()
            while not cancelled():
                time.sleep(0.01)
            return {}
        return run

    monkeypatch.setattr(web_app, "_work", work)
    app = create_app(jobs=Jobs(2, abandon_after=60))
    client = app.test_client()
    client.get("/")
    deal = {"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}
    one = client.post("/api/jobs", json={"kind": "decide", "deal": deal}, headers={"X-Crewcheck-Tab": "a1"})
    two = client.post("/api/jobs", json={"kind": "decide", "deal": deal}, headers={"X-Crewcheck-Tab": "b2"})
    assert one.status_code == 202 and two.status_code == 202
    again = client.post("/api/jobs", json={"kind": "decide", "deal": deal}, headers={"X-Crewcheck-Tab": "a1"})
    assert again.status_code == 409  # still one job per tab
    # a tab sees only its own job
    assert client.get(f"/api/jobs/{one.get_json()['id']}", headers={"X-Crewcheck-Tab": "b2"}).status_code == 404
    for job, tab in ((one, "a1"), (two, "b2")):
        client.post(f"/api/jobs/{job.get_json()['id']}/cancel", json={}, headers={"X-Crewcheck-Tab": tab})
    app.extensions["crewcheck_jobs"].shutdown()


def test_classic_deals_go_to_twelve_tasks_and_missions_note_their_reading():
    got = new_game({"game": "classic", "tasks": 12, "players": 4, "seed": 1})
    assert len(got["deal"]["tasks"]) == 12
    # missions 29 and 34 play the rulebook's words as the reference does: no note
    assert new_game({"game": "mission", "mission": 29, "players": 4})["reading"] is None
    assert new_game({"game": "mission", "mission": 46, "players": 4})["reading"] is None
    assert "Board Game Arena" in new_game({"game": "mission", "mission": 46, "players": 3})["reading"]
    assert new_game({"game": "mission", "mission": 1})["reading"] is None


def test_the_verdicts_are_published_as_they_are_found():
    """The position's verdict first, then each class's, with the reasons the finished
    analysis gives."""
    from crewcheck.web.words import Streaming

    game = new_game({"game": "mission", "mission": 1, "players": 4, "seed": 0})
    instance = forms.with_history(forms.load({"deal": game["deal"]})[0], LOST_ON_B6[:4])
    seen: list[dict] = []
    stream = Streaming(instance, lambda done, total, what, partial=None: partial and seen.append(partial))
    a = analyse(instance, progress=stream.progress, decided=stream.decided)
    assert seen[0] == {"position": "winnable", "cards": {}}
    assert [len(p["cards"]) for p in seen] == sorted(len(p["cards"]) for p in seen)  # one class at a time
    final = explain_analysis(a)["cards"]
    expected = {str(instance.card(c)): {"verdict": v.verdict.value, "reason": r}
                for v, r in zip(a.cards, final) for c in v.cards}
    assert seen[-1]["cards"] == expected and len(seen) == len(a.cards) + 1


def test_a_running_job_shows_what_it_has_found(monkeypatch):
    release = threading.Event()

    def work(kind, instance, timeout):
        def run(cancelled, progress):
            progress(1, 3, "after B6", partial={"position": "winnable", "cards": {"B6": {"verdict": "unwinnable"}}})
            release.wait(10)
            return {"done": True}
        return run

    monkeypatch.setattr(web_app, "_work", work)
    app = create_app(jobs=Jobs(1, abandon_after=60))
    client = app.test_client()
    client.get("/")
    deal = {"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}
    job = client.post("/api/jobs", json={"kind": "analyse", "deal": deal}).get_json()
    for _ in range(500):
        got = client.get(f"/api/jobs/{job['id']}").get_json()
        if got["partial"]:
            break
        time.sleep(0.01)
    assert got["state"] == "running" and got["partial"]["cards"]["B6"]["verdict"] == "unwinnable"
    release.set()
    for _ in range(500):
        got = client.get(f"/api/jobs/{job['id']}").get_json()
        if got["state"] == "done":
            break
        time.sleep(0.01)
    assert got["result"] == {"done": True} and got["partial"] is None
    app.extensions["crewcheck_jobs"].shutdown()


def test_a_started_analysis_comes_with_the_layout_of_its_position():
    """One request per move: the page draws the position from the job's answer."""
    app = create_app(jobs=Jobs(1, abandon_after=60))
    client = app.test_client()
    client.get("/")
    game = new_game({"game": "mission", "mission": 1, "players": 4, "seed": 0})
    r = client.post("/api/jobs", json={"kind": "analyse", "deal": game["deal"], "history": LOST_ON_B6[:5],
                                       "replace": True})
    assert r.status_code == 202
    got = r.get_json()
    assert got["layout"] == mission_one(LOST_ON_B6[:5]) and got["layout"]["trick"] == 2
    client.post(f"/api/jobs/{got['id']}/cancel", json={})
    app.extensions["crewcheck_jobs"].shutdown()
