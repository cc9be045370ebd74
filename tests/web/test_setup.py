"""The set-up on the board (:mod:`crewcheck.web.choices`): each crew choice before the
first card offered as a step with each option's verdict, the draft one task at a time
from the commander, the deal played once everything is chosen, and the engine's picks."""

from __future__ import annotations

import dataclasses
import json

import pytest

pytest.importorskip("flask")

from crewcheck.errors import InvalidInputError  # noqa: E402
from crewcheck.formats import deal_json  # noqa: E402
from crewcheck.model.variants import Choice  # noqa: E402
from crewcheck.api import decide  # noqa: E402
from crewcheck.web import forms  # noqa: E402
from crewcheck.web.app import create_app  # noqa: E402
from crewcheck.web.choices import CHOICE_KINDS, draft_order, engine_setup, setup_step  # noqa: E402
from crewcheck.web.games import new_game  # noqa: E402
from crewcheck.web.jobs import Jobs  # noqa: E402


def deal(mission: int, players: int = 4, **extra: object):
    game = new_game({"game": "mission", "mission": mission, "players": players, "seed": 0, **extra})
    return forms.load({"deal": game["deal"]})[0]


def step(instance, picks=None, draft=(), cancelled=lambda: False):
    return setup_step(instance, picks or {}, list(draft), timeout=60, cancelled=cancelled,
                      progress=lambda *a, **k: None)


def test_every_choice_the_crew_makes_has_a_row():
    """Every field of a Choice the crew picks on the board is a row of the table (the
    distress signal's direction and passes are steps of :mod:`crewcheck.web.distress`)."""
    fields = {f.name for f in dataclasses.fields(Choice)} - {"direction", "passes"}
    assert fields == set(CHOICE_KINDS)


def test_the_commanders_decision_each_option_decided_then_played():
    """Mission 28 as a commander's decision (commander seat 1): every task to seat 2
    loses, to seat 0 or 3 wins; picking seat 2 gives the deal with every task fixed to
    seat 2, which loses; the engine's pick is a winning option; no set-up after a card."""
    instance = deal(28, assignment="decision")
    assert instance.commander == 1
    got = step(instance)
    assert got["step"] == "recipient" and got["deal"] is None
    assert [(o["value"], o["verdict"]) for o in got["options"]] == [("0", "winnable"), ("2", "unwinnable"),
                                                                      ("3", "winnable")]
    assert got["options"][1]["label"] == "the commander gives every task to seat 3"
    chosen = step(instance, {"recipient": "2"})
    assert chosen["step"] is None and chosen["made"] == ["the commander gives every task to seat 3"]
    played = deal_json.from_dict(chosen["deal"])
    assert played.rules.assignment == "fixed" and {t.seat for t in played.tasks} == {2}
    assert decide(played).verdict.value == "unwinnable"
    engine = engine_setup(instance, decide(instance).witness)
    assert engine is not None and engine["picks"]["recipient"] in ("0", "3")
    first = forms.layout(instance)["legal"][0]
    assert step(forms.with_history(instance, [first])) is None
    with pytest.raises(InvalidInputError) as e:
        step(instance, {"recipient": "1"})  # the commander takes no task
    assert e.value.field == "picks.recipient"


def test_the_draft_card_by_card_the_commander_first():
    """Mission 8 (3 tasks, 4 players): the commander drafts first, then clockwise; each
    pick offers the tasks left with their verdicts; after the last pick the deal has
    every task at the seat that drafted it."""
    instance = deal(8)
    c = instance.commander
    assert draft_order(instance) == [c, (c + 1) % 4, (c + 2) % 4]
    got = step(instance)
    assert got["step"] == "draft" and got["seat"] == c and len(got["options"]) == 3
    assert {o["verdict"] for o in got["options"]} <= {"winnable", "unwinnable"}
    cards = [str(instance.card(t.card)) for t in instance.tasks]
    second = step(instance, draft=cards[:1])
    assert second["seat"] == (c + 1) % 4 and [o["value"] for o in second["options"]] == cards[1:]
    assert second["made"] == [f"seat {c + 1} takes {cards[0]}"]
    done = step(instance, draft=cards[::-1])
    played = deal_json.from_dict(done["deal"])
    assert [t.seat for t in played.tasks] == [(c + 2) % 4, (c + 1) % 4, c]
    # a draft option's verdict is the deal's with that pick made
    for o in got["options"]:
        rest = [x for x in cards if x != o["value"]]
        wins = any(decide(deal_json.from_dict(step(instance, draft=[o["value"], r, s])["deal"])).verdict.value
                   == "winnable" for r in rest for s in rest if s != r)
        assert (o["verdict"] == "winnable") == wins, o
    with pytest.raises(InvalidInputError) as e:
        step(instance, draft=["R4"])
    assert e.value.field == "draft[0]"


def test_the_chosen_crew_member_then_the_draft():
    """Mission 5 (a sick crew member): one option per seat but the commander; picking
    one puts that seat in the deal's conditions."""
    instance = deal(5)
    got = step(instance)
    assert got["step"] == "seats"
    seats = [json.loads(o["value"])[0][1] for o in got["options"]]
    assert instance.commander not in seats and len(seats) == 3
    assert got["options"][0]["label"] == f"the chosen crew member is seat {seats[0] + 1}"
    after = step(instance, {"seats": got["options"][0]["value"]})
    while after["deal"] is None:  # any draft that follows
        after = step(instance, {"seats": got["options"][0]["value"]},
                     draft=[*(m.split()[-1] for m in after["made"][1:]), after["options"][0]["value"]])
    assert "choose" not in json.dumps(after["deal"]["conditions"])


def test_mission_fifty_names_the_first_and_last_seats():
    """Mission 50: the first and the last seat, each any seat, in one step."""
    got = step(deal(50))
    assert got["step"] == "seats" and len(got["options"]) == 16
    assert got["options"][1]["label"] == "first: seat 1, last: seat 2"


def test_the_token_swap_and_the_hand_over():
    """Mission 23's swap: no swap first, then one option per pair of tasks with
    different tokens; with five players the hand-over: none first, then one per giver
    and receiver."""
    instance = deal(23)
    got = step(instance)
    assert got["step"] == "token_move" and got["options"][0]["label"] == "the tokens stay where they are"
    assert all("swaps the tokens of" in o["label"] for o in got["options"][1:])
    swapped = step(instance, {"token_move": got["options"][1]["value"]})
    assert swapped["step"] == "draft" and swapped["made"][0] == got["options"][1]["label"]
    five = step(deal(30, players=5))
    assert five["step"] == "handover" and five["options"][0]["label"] == "no hand-over"
    assert five["options"][1]["label"] == "seat 1 hands a task to seat 2"


def test_a_setup_job_through_the_server():
    """``kind: setup`` is a job like the others; picks of the wrong shape are a 400
    naming the field."""
    app = create_app(jobs=Jobs(1))
    client = app.test_client()
    game = new_game({"game": "mission", "mission": 1, "players": 4, "seed": 0})
    r = client.post("/api/jobs", json={"kind": "setup", "deal": game["deal"], "picks": [], "history": []})
    assert r.status_code == 400 and r.get_json()["error"]["field"] == "picks"
    r = client.post("/api/jobs", json={"kind": "setup", "deal": game["deal"], "draft": ["B6"], "history": []})
    assert r.status_code == 202 and r.get_json()["layout"]["setup"] is True
    job = r.get_json()["id"]
    for _ in range(600):
        got = client.get(f"/api/jobs/{job}").get_json()
        if got["state"] not in ("queued", "running"):
            break
        import time
        time.sleep(0.05)
    assert got["state"] == "done" and got["result"]["setup"]["deal"]["tasks"][0]["seat"] == 1
    app.extensions["crewcheck_jobs"].shutdown()


def test_mission_twelves_draw_each_card_decided_then_played_on():
    """Mission 12, drafted and after its first trick: each seat's cards offered with
    the verdict of the draw with that card; the deal after the draw has the first trick's
    cards gone, each drawn card in the next seat's hand, the trick's winner to lead. The
    draw is refused before the first trick ends, and a card the seat does not hold."""
    from crewcheck.model.cards import iter_bits
    from crewcheck.model.variants import play_state
    from crewcheck.web.draw import draw_step

    assert new_game({"game": "mission", "mission": 12})["draw"] and not new_game({"game": "mission"})["draw"]
    instance = deal(12)
    got, picks = step(instance), []
    while got["deal"] is None:
        picks.append(got["options"][0]["value"])
        got = step(instance, draft=picks)
    fixed = deal_json.from_dict(got["deal"])
    trick = list(decide(fixed).witness.plays[:4])
    position = fixed.with_history(trick)
    hands = play_state(position).hands
    cards = [str(position.card(next(iter_bits(h)))) for h in hands]
    answer = draw_step(position, cards, timeout=60, cancelled=lambda: False, progress=lambda *a: None)
    assert [x["card"] for x in answer["seats"]] == cards
    assert [len(x["options"]) for x in answer["seats"]] == [h.bit_count() for h in hands]
    after = deal_json.from_dict(answer["deal"])
    assert answer["verdict"] == decide(after).verdict.value
    for s, card in enumerate(cards):
        held = {str(after.card(c)) for c in iter_bits(after.hands[(s + 1) % 4])}
        assert card in held
    assert not {str(fixed.card(c)) for c in trick} & {str(c) for c in after.deck.cards}
    with pytest.raises(InvalidInputError) as e:
        draw_step(fixed.with_history(trick[:3]), cards, timeout=60, cancelled=lambda: False, progress=print)
    assert e.value.field == "history"
    with pytest.raises(InvalidInputError) as e:
        draw_step(position, [cards[1], *cards[1:]], timeout=60, cancelled=lambda: False, progress=print)
    assert e.value.field == "draw[0]"


def _finished(client, job: str) -> dict:
    import time

    for _ in range(1200):
        got = client.get(f"/api/jobs/{job}").get_json()
        if got["state"] not in ("queued", "running"):
            return got
        time.sleep(0.05)
    raise AssertionError(f"job {job} still running")


def test_the_other_reading_is_decided_beside_the_board():
    """Mission 46 with 3 players offers the other reading's deal; an analysis asked with
    ``compare`` also decides the same position under it (here a deal the other rule
    makes unwinnable), and a compare deal that cannot be loaded is a 400 naming it."""
    game = new_game({"game": "mission", "mission": 46, "players": 3, "seed": 0})
    assert game["read"] == "reference" and game["other"]["reading"] == "literal"
    assert game["other"]["deal"]["conditions"] != game["deal"]["conditions"]
    literal = new_game({"game": "mission", "mission": 46, "players": 3, "seed": 0, "reading": "literal"})
    assert literal["other"]["reading"] == "reference" and literal["params"]["reading"] == "literal"
    assert literal["deal"]["conditions"] == game["other"]["deal"]["conditions"]
    assert new_game({"game": "mission", "mission": 46, "players": 4, "seed": 0})["other"] is None
    app = create_app(jobs=Jobs(1))
    client = app.test_client()
    mine = {"hands": [["B1", "B3"], ["B2", "B4"]], "lead": 0, "tasks": [{"card": "B3", "seat": 0}]}
    other = {**mine, "tasks": [{"card": "B4", "seat": 0}]}
    r = client.post("/api/jobs", json={"kind": "analyse", "deal": mine, "compare": other, "history": []})
    got = _finished(client, r.get_json()["id"])
    assert got["result"]["analyse"]["verdict"] == "winnable"
    assert got["result"]["compare"]["verdict"] == "unwinnable"
    r = client.post("/api/jobs", json={"kind": "analyse", "deal": mine, "compare": {"hands": []}, "history": []})
    assert r.status_code == 400 and r.get_json()["error"]["field"] == "compare"
    app.extensions["crewcheck_jobs"].shutdown()


def test_mission_twelves_draw_takes_the_engines_draft_when_the_draft_was_left_to_it():
    """Mission 12 with the draft left to the engine: after the first trick the draw takes
    the seats a winning line of the position gives the tasks, and says so; the deal after
    the draw has every task at that seat. A position no line wins leaves the draw a
    one-line error naming the history."""
    from crewcheck.model.cards import iter_bits
    from crewcheck.model.variants import play_state
    from crewcheck.web.draw import draw_step

    instance = deal(12)
    assert instance.rules.assignment == "free"
    trick = list(decide(instance).witness.plays[:4])
    position = instance.with_history(trick)
    line = decide(position).witness.assignment
    hands = play_state(position).hands
    cards = [str(position.card(next(iter_bits(h)))) for h in hands]
    answer = draw_step(position, cards, timeout=60, cancelled=lambda: False, progress=lambda *a: None)
    expected = [f"seat {s + 1} takes {position.card(t.card)}" for t, s in zip(position.tasks, line)]
    assert answer["engine"] == ", ".join(expected)
    after = deal_json.from_dict(answer["deal"])
    assert after.rules.assignment == "fixed"
    left = {str(position.card(t.card)): s for t, s in zip(position.tasks, line)}
    assert all(left[str(after.card(t.card))] == t.seat for t in after.tasks)
    lost = forms.load({"deal": {"hands": [["B1", "B2"], ["B3", "B4"]], "lead": 0, "assignment": "free",
                                "tasks": [{"card": "B1"}]}})[0]
    with pytest.raises(InvalidInputError) as e:
        draw_step(forms.with_history(lost, ["B2", "B3"]), ["B1", "B4"], timeout=60, cancelled=lambda: False,
                  progress=lambda *a: None)
    assert e.value.field == "history" and "cannot be won" in str(e.value) and "draft on the board" in str(e.value)


def test_a_deal_with_more_than_four_hundred_choices_is_set_up_one_choice_at_a_time():
    """Mission 40 with five players and the commander's distribution (1,520 ways to
    choose): the set-up is offered all the same, a step at a time: the token move first
    (no move and 15 swaps), then, after a pick, the distribution."""
    from crewcheck.model.variants import count_variants

    instance = deal(40, players=5, assignment="distribution")
    assert count_variants(instance) > 400
    got = step(instance)
    assert got["step"] == "token_move" and len(got["options"]) == 16
    assert got["options"][0]["value"] == "null" and got["options"][0]["verdict"] == "winnable"
    assert {o["verdict"] for o in got["options"]} <= {"winnable", "unwinnable", "unknown"}
    after = step(instance, {"token_move": "null"})
    assert after["step"] == "quota" and after["made"] == ["the tokens stay where they are"]
    assert any(o["verdict"] == "winnable" for o in after["options"])
