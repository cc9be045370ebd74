"""Mission Deep Sea missions: the draw to a difficulty, the ways of taking the cards, every
card of the catalogue as conditions of a real deal, and the ``crewcheck deepsea`` command."""

from __future__ import annotations

import functools
import json
import time
from collections import Counter

import pytest

from crewcheck.cli import main
from crewcheck.errors import InvalidInputError
from crewcheck.formats.deal_json import from_dict
from crewcheck.runtime.progress import Progress
from crewcheck.solvers.base import Stats, Verdict
from crewcheck.missions.deepsea import (
    deal_deepsea_mission, draw_mission, mission_deal, resolve_conditions, task_cards, takings,
)
from crewcheck.missions.logbook import deal_mission


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("difficulty", [1, 5, 12])
def test_the_draw_adds_up_to_the_difficulty(players: int, difficulty: int) -> None:
    """The cards drawn add up to the difficulty; a card set aside would have overshot it."""
    by_id = {c["id"]: c for c in task_cards()}
    for seed in range(5):
        m = draw_mission(difficulty, players, seed)
        diff = [by_id[c]["difficulty"][str(players)] for c in m.cards]
        assert sum(diff) == difficulty
        assert len(set(m.cards)) == len(m.cards)
        assert "R4" in m.hands[m.captain]
        assert sorted(len(h) for h in m.hands) == sorted(len(range(s, 40, players)) for s in range(players))


def test_the_hands_are_the_logbooks() -> None:
    """Without a redeal the hands are those of ``crewcheck mission`` for the same seed."""
    m = draw_mission(3, 4, 7)
    assert m.redeals == 0
    assert [list(h) for h in m.hands] == deal_mission(1, 4, 7)["hands"]


def test_redeal_rules_are_followed() -> None:
    """No drawn card's redeal set lies in one hand."""
    by_id = {c["id"]: c for c in task_cards()}
    for seed in range(40):
        m = draw_mission(9, 3, seed)
        for cid in m.cards:
            for group in by_id[cid].get("redeal_when", ()):
                assert not any(set(group) <= set(h) for h in m.hands)


def test_takings_follow_the_draft() -> None:
    """Each taking gives seat captain + i the cards of turns i, i + p, ...; every split once."""
    m = draw_mission(12, 3, 2)
    k, p = len(m.cards), m.players
    want = Counter((m.captain + i) % p for i in range(k))
    options = list(takings(m))
    assert options[0] == tuple((m.captain + i) % p for i in range(k)) or any(
        task_cards()[int(c[2:]) - 1].get("not_for_captain") for c in m.cards)
    assert len(set(options)) == len(options)
    for owners in options:
        assert Counter(owners) == want


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_card_fits_a_deal_for_every_seat(players: int) -> None:
    """Each of the 96 cards, taken by each seat it may go to, gives valid deal conditions."""
    m = draw_mission(1, players, 0)
    hands = [list(h) for h in m.hands]
    for card in task_cards():
        assert card["expressed"], card["id"]
        for seat in range(players):
            if card.get("not_for_captain") and seat == m.captain:
                continue
            conds = resolve_conditions(card, seat, m.captain, players)
            deal = {"hands": hands, "trump": "R", "lead": m.captain, "conditions": conds}
            inst = from_dict(deal)  # raises if a condition does not fit
            assert len(inst.conditions) == len(conds)


def test_per_player_numbers_and_card_sets() -> None:
    """'Total above 23/28/31' becomes 24/29/32 and the colour cards; a submarine set its four cards."""
    by_id = {c["id"]: c for c in task_cards()}
    for p, low in ((3, 24), (4, 29), (5, 32)):
        (c,) = resolve_conditions(by_id["DS48"], 0, 1, p)
        assert c["total_min"] == low and len(c["only"]) == 36 and not any(x[0] == "R" for x in c["only"])
    (c,) = resolve_conditions(by_id["DS58"], 2, 0, 4)
    assert c["won_with"] == ["R1", "R2", "R3", "R4"] and c["holding"] == ["P7"] and c["seat"] == 2
    assert len(resolve_conditions(by_id["DS01"], 1, 0, 5)) == 4  # one per other seat


def test_a_captain_with_only_barred_cards_passes() -> None:
    """A card the captain may not take, drawn alone, goes to the seat after the captain."""
    m = draw_mission(2, 4, 0)
    barred = next(c for c in task_cards() if c.get("not_for_captain"))
    alone = type(m)(m.difficulty, m.players, m.seed, m.hands, m.captain, (barred["id"],), (), 0)
    assert list(takings(alone)) == [((m.captain + 1) % 4,)]


def test_not_for_captain_is_refused() -> None:
    """A captain-barred card given to the captain is an error naming --take."""
    m = draw_mission(2, 4, 0)
    barred = next(c for c in task_cards() if c.get("not_for_captain"))
    m2 = type(m)(m.difficulty, m.players, m.seed, m.hands, m.captain, (barred["id"],), (), 0)
    with pytest.raises(InvalidInputError) as err:
        mission_deal(m2, (m.captain,))
    assert err.value.field == "take"


def test_cli_writes_the_deal(capsys: pytest.CaptureFixture[str]) -> None:
    """``crewcheck deepsea`` prints a deal file the deciders read."""
    assert main(["deepsea", "--difficulty", "5", "--players", "3", "--seed", "4"]) == 0
    deal = json.loads(capsys.readouterr().out)
    assert deal == deal_deepsea_mission(5, 3, 4)
    from_dict({k: v for k, v in deal.items() if k != "comment"})


@pytest.mark.parametrize("argv", [
    ["deepsea", "--difficulty", "0"],
    ["deepsea", "--difficulty", "x"],
    ["deepsea", "--difficulty", "4", "--players", "6"],
    ["deepsea", "--difficulty", "4", "--take", "a,b"],
    ["deepsea", "--difficulty", "4", "--take", "7"],
])
def test_cli_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Bad arguments: one line on stderr, exit 2, nothing on stdout."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("crewcheck: error: --") and captured.err.count("\n") == 1


@pytest.mark.parametrize("limit", ["x", "-5", "nan", "0"])
def test_cli_bad_time_limit(limit: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A time limit that is no positive number of seconds: one line naming the option,
    exit 2, before anything is decided."""
    try:
        code = main(["deepsea", "--difficulty", "4", "--decide", "--time-limit", limit])
    except SystemExit as e:
        code = int(e.code or 0)
    assert code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "--time-limit" in captured.err and captured.err.count("\n") == 1


@pytest.mark.parametrize("card, said", [
    ("DS48", "seat 1 wins a trick whose cards are each a colour card; total value at least 29"),
    ("DS46", "seat 1 wins a trick whose cards are each a 2, 4, 6 or 8 (trumps too)"),
    ("DS07", "seat 1 wins a trick whose cards are each a colour 1, 2, 3, 4, 5 or 6"),
    ("DS12", "seat 1 wins a trick won with a colour 7; holding a colour 5 besides"),
    ("DS58", "seat 1 wins a trick won with a trump; holding P7 besides"),
    ("DS52", "seat 1 wins R1"),
    ("DS95", "seat 1 wins more Y cards than B cards"),
    ("DS92", "seat 1 wins as many P cards as Y cards, at least 1"),
    ("DS26", "seat 1 wins exactly 2 colour 9(s)"),
])
def test_cards_in_words(card: str, said: str) -> None:
    """A card's conditions read as the card says: card sets named by their values, not
    listed card by card; "more" for a lead of one; one card without "in one trick"."""
    from crewcheck.formats.notation import describe_conditions

    by_id = {c["id"]: c for c in task_cards()}
    base = {k: v for k, v in deal_mission(1, 4, 0).items() if k not in ("comment", "tasks", "assignment")}
    inst = from_dict({**base, "conditions": resolve_conditions(by_id[card], 1, 0, 4)})
    assert describe_conditions(inst)[0] == said


def test_show_names_the_task_cards(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    """``crewcheck show`` of a Deep Sea deal names the task cards drawn (its comment)."""
    from pathlib import Path

    out = Path(str(tmp_path)) / "ds.json"
    assert main(["deepsea", "--difficulty", "8", "--players", "4", "--seed", "3", "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["show", str(out)]) == 0
    text = capsys.readouterr().out
    drawn = json.loads(out.read_text())["comment"]
    assert "DS26 seat 1" in drawn and f"comment: {drawn}" in text
    assert "seat 3 wins more P cards than G cards" in text


def test_mission_48_reads_the_last_trick() -> None:
    """``task_in_trick`` with ``"last"`` reads "in the last trick"."""
    from crewcheck.formats.notation import describe_conditions

    inst = from_dict({k: v for k, v in deal_mission(48, 4, 0).items() if k != "comment"})
    assert describe_conditions(inst)[0].endswith("is played in the last trick")


class _Lost:
    """A stand-in decision: every taking unwinnable after a short wait."""

    verdict = Verdict.UNWINNABLE
    backend = "fake"
    stats = Stats()


def _slow_loss(*_: object, **__: object) -> _Lost:
    time.sleep(0.05)
    return _Lost()


def test_decide_mission_stops_at_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a budget for the whole mission, the takings stop when it is spent and the
    answer is unknown; the progress hook hears of every taking decided."""
    import crewcheck.experiments.deepsea_missions as dm

    monkeypatch.setattr(dm, "decide", _slow_loss)
    monkeypatch.setattr(dm, "decide_together", lambda *_: {})
    mission = draw_mission(5, 3, 4)
    heard: list[tuple[int, int]] = []
    r = dm.decide_mission(mission, budget=0.12, progress=lambda done, total: heard.append((done, total)))
    assert r.verdict is Verdict.UNKNOWN and 1 <= r.tried < r.takings
    assert heard == [(n, r.takings) for n in range(1, r.tried + 1)]
    full = dm.decide_mission(mission)
    assert full.verdict is Verdict.UNWINNABLE and full.tried == full.takings


def test_cli_decide_budget_and_progress(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``deepsea --decide --budget``: unknown (exit 3) when the budget runs out, with the
    ways decided on stderr in the progress style; ``--no-progress`` keeps stderr quiet."""
    import crewcheck.cli.missions as cm
    import crewcheck.experiments.deepsea_missions as dm

    monkeypatch.setattr(dm, "decide", _slow_loss)
    monkeypatch.setattr(dm, "decide_together", lambda *_: {})
    monkeypatch.setattr(cm, "Progress", functools.partial(Progress, every=0.0))
    argv = ["deepsea", "--difficulty", "5", "--players", "3", "--seed", "4", "--decide", "--budget", "0.12"]
    assert main(argv) == 3
    out, err = capsys.readouterr()
    assert out.startswith("unknown  (") and "deepsea: 1/12 takings" in err
    assert main([*argv, "--no-progress"]) == 3
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("budget", ["x", "-1", "0", "inf"])
def test_cli_bad_budget(budget: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A budget that is no positive number of seconds: one line naming the option, exit 2."""
    assert main(["deepsea", "--difficulty", "4", "--decide", "--budget", budget]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "--budget" in captured.err and captured.err.count("\n") == 1


@pytest.mark.parametrize("difficulty, players, seed", [(8, 3, 0), (10, 4, 16), (12, 5, 3), (14, 5, 0)])
def test_a_taking_is_the_deal_of_its_file(difficulty: int, players: int, seed: int) -> None:
    """The deals :func:`decide_mission` decides, built from each card's conditions read
    once, are the deals its files read as a whole, or refused alike."""
    from crewcheck.errors import InvalidDealError
    from crewcheck.experiments.deepsea_missions import _Cards
    from crewcheck.missions.deepsea import mission_deal, takings

    mission = draw_mission(difficulty, players, seed)
    cards = _Cards(mission)
    for owners in takings(mission):
        deal = mission_deal(mission, owners)
        try:
            whole = from_dict({k: v for k, v in deal.items() if k != "comment"})
        except InvalidDealError:
            with pytest.raises(InvalidDealError):
                cards.taking(owners)
            continue
        assert cards.taking(owners) == whole


def test_too_many_takings_are_refused_before_they_are_listed(capsys: pytest.CaptureFixture[str]) -> None:
    """A mission whose cards can be shared in more than ``MAX_TAKINGS`` ways is refused by
    name (``--difficulty``, exit 2, one line) before any is listed; its deal file is still
    written, with the cards in draw order (``first_taking``, as the first split listed)."""
    from crewcheck.missions.deepsea import MAX_TAKINGS, first_taking, taking_count, takings

    mission = draw_mission(60, 5, 0)
    assert taking_count(len(mission.cards), 5) > MAX_TAKINGS
    with pytest.raises(InvalidInputError, match="ways of taking"):
        next(takings(mission))
    assert main(["deepsea", "--difficulty", "60", "--players", "5", "--decide", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("crewcheck: error: --difficulty: the crew has about")
    assert main(["deepsea", "--difficulty", "60", "--players", "5"]) == 0
    deal = json.loads(capsys.readouterr().out)
    small = draw_mission(12, 4, 3)
    assert first_taking(small) == next(takings(small))
    assert len(deal["conditions"]) >= len(mission.cards) - 1


@pytest.mark.parametrize("difficulty, players, seed", [(8, 3, 0), (12, 4, 16), (16, 5, 7), (16, 4, 13),
                                                     (8, 3, 57), (8, 4, 23)])
def test_the_count_of_takings_is_the_listing(difficulty: int, players: int, seed: int) -> None:
    """Without a card the captain may not take, :func:`taking_count` is how many
    :func:`takings` lists; with one (16:4:13 and the last two), the captain's passes
    make no more (fewer on the last two; a one-off scan of 2,880 missions found none
    with more)."""
    from crewcheck.missions.deepsea import taking_count, takings

    mission = draw_mission(difficulty, players, seed)
    listed = sum(1 for _ in takings(mission))
    barred = any(c.get("not_for_captain") for c in task_cards() if c["id"] in mission.cards)
    count = taking_count(len(mission.cards), players)
    assert listed <= count if barred else listed == count
