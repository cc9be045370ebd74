"""`crewcheck serve` in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``) driven by selenium plays logbook mission 1 to the end by clicks,
reads a verdict on every legal card after every card, takes cards back, opens the link
of the position in a new window, steps back with the back button and reviews the game.

Where selenium, the browser or its driver is missing the tests are skipped with the
reason, except under CI (``CI=true``), where that is a failure: ``.ci/run`` installs the
browser. ``CREWCHECK_CHROMIUM`` and ``CREWCHECK_CHROMEDRIVER`` point to other binaries.

``CREWCHECK_SCREENSHOTS=DIR`` also writes the page's screenshots to ``DIR``
(``serve.png`` at desktop width, ``serve-phone.png`` at a phone's, ``serve-setup.png``:
the board during the draft): ``python scripts/serve_screenshot.py`` refreshes those in
``docs/``. The shared fixtures and helpers are in :mod:`tests.web.browsing`; the game
record, practice, mission 12's draw and the links that keep them are in
``test_browser_record.py``.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

pytest.importorskip("flask")

from tests.web.browsing import (  # noqa: E402
    DESKTOP, MISSION_ONE, PHONE, VERDICTS, browser, pick, played_cards, screenshot, server, settled,
    setup_options, wait_for)

__all__ = ["browser", "server"]  # the module fixtures, used by name


def test_play_mission_one_to_the_end_with_verdicts_undo_link_and_review(server, browser):
    """Pick mission 1 (4 players, seed 0) and play it by clicks: after every card each
    legal card carries a verdict (a symbol as well as a colour). The first cards follow
    the verdicts; then a card marked as losing is played, and the position after it says
    so; the game is played on to its end (lost). Two cards taken back (a button, then the
    ← key); the link of that position opens the same board in a new window; the back
    button goes back one position; the review names the losing card played."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    browser.set_window_size(*DESKTOP)
    browser.get(server)
    wait_for(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, "#mission option")) == 50)
    browser.find_element(By.CSS_SELECTOR, "#games summary").click()
    form = browser.find_element(By.ID, "tab-mission")
    Select(form.find_element(By.NAME, "mission")).select_by_value("1")
    Select(form.find_element(By.NAME, "players")).select_by_visible_text("4")
    seed = form.find_element(By.NAME, "seed")
    seed.clear()
    seed.send_keys("0")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_for(browser, lambda b: b.find_element(By.ID, "title").text == "Mission 1, 4 players, seed 0")

    played: list[str] = []
    lost_at = None
    verdicts_seen = 0
    clicked: float | None = None
    waits: list[float] = []  # click to every verdict shown, seconds
    while True:
        cards = settled(browser, len(played))
        if clicked is not None and cards:
            waits.append(time.monotonic() - clicked)
        if not cards:
            break
        assert set(cards.values()) <= VERDICTS, cards
        verdicts_seen += 1
        position = browser.find_element(By.ID, "position").text
        if lost_at is None:
            assert position.startswith("✓ Winnable"), position
            losing = sorted(c for c, v in cards.items() if v == "unwinnable")
            if len(played) >= 4 and losing:
                card, lost_at = losing[0], len(played)
                screenshot(browser, "serve.png", DESKTOP)  # cards that win and cards that lose
                screenshot(browser, "serve-phone.png", PHONE)
            else:
                card = sorted(c for c, v in cards.items() if v == "winnable")[0]
        else:
            assert position.startswith("✗ Cannot be won"), position
            assert set(cards.values()) == {"unwinnable"}  # monotone: nothing wins after a loss
            card = sorted(cards)[0]
        button = browser.find_element(By.CSS_SELECTOR, f'#table button.card[data-card="{card}"]')
        assert card in button.get_attribute("aria-label") and button.find_element(By.CLASS_NAME, "mark").text
        clicked = time.monotonic()
        if len(played) == 1:  # by keyboard once: a legal card is a button that takes the focus
            button.send_keys(Keys.ENTER)
        else:
            button.click()
        played.append(card)
    assert lost_at is not None and verdicts_seen == len(played)
    waits.sort()
    print(f"click to every verdict: median {waits[len(waits) // 2]:.3f} s, "
          f"slowest {waits[-1]:.3f} s over {len(waits)} cards")
    assert browser.find_element(By.ID, "position").text.startswith("✗ Lost")
    assert played_cards(browser) == played

    browser.find_element(By.ID, "undo").click()
    settled(browser, len(played) - 1)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    cards = settled(browser, len(played) - 2)
    assert played_cards(browser) == played[:-2]
    link = browser.current_url
    assert "play=" + ",".join(played[:-2]) in link

    first = browser.current_window_handle
    browser.switch_to.new_window("window")
    browser.get(link)
    assert settled(browser, len(played) - 2) == cards
    assert played_cards(browser) == played[:-2]
    browser.close()
    browser.switch_to.window(first)

    browser.back()  # the position before the second card taken back
    settled(browser, len(played) - 1)
    assert browser.current_url.endswith(",".join(played[:-1]))

    browser.find_element(By.ID, "review").click()
    summary = wait_for(browser, lambda b: b.find_element(By.ID, "review-summary").text or False)
    seat_trick = f"played {played[lost_at]} (card {lost_at + 1} of the game)"
    assert summary.startswith("✗ lost at trick") and seat_trick in summary, summary
    marked = browser.find_element(By.CSS_SELECTOR, "#moves .move.lost")
    assert marked.get_attribute("data-index") == str(lost_at) and "lost here" in marked.text


def test_a_pasted_deal_file_with_an_error_shows_the_loader_line(server, browser):
    """A deal file with a card dealt twice: the loader's one-line message on the page."""
    from selenium.webdriver.common.by import By

    browser.get(server)
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#table button.card"))
    browser.find_element(By.CSS_SELECTOR, "#games summary").click()
    browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="file"]').click()
    box = browser.find_element(By.ID, "deal-json")
    box.send_keys('{"hands": [["B1", "B3"], ["B2", "B2"]], "tasks": [{"card": "B3", "seat": 0}]}')
    browser.find_element(By.CSS_SELECTOR, "#tab-file button[type=submit]").click()
    error = browser.find_element(By.CSS_SELECTOR, '#tab-file .error[data-for="json"]')  # beside the text box
    wait_for(browser, lambda b: error.text != "", 10)
    assert error.text == "hands[1][1]: card 'B2' is twice in hands[1]"


def test_a_bundled_deal_opens_at_its_history_and_its_link_keeps_it(server, browser):
    """The bundled midgame (22 cards played): loaded from the deal-file tab, the board is
    at card 22, with seat 0 to play, and the address carries the deal itself. Its
    winning line, played a card and then to the end, wins."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(server)
    wait_for(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, "#example option")) > 1)
    browser.find_element(By.CSS_SELECTOR, "#games summary").click()
    browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="file"]').click()
    Select(browser.find_element(By.ID, "example")).select_by_value("classic-4p-midgame")
    wait_for(browser, lambda b: b.find_element(By.ID, "deal-json").get_attribute("value"))
    browser.find_element(By.CSS_SELECTOR, "#tab-file button[type=submit]").click()
    cards = settled(browser, 22)
    assert "deal=" in browser.current_url and cards
    assert browser.find_element(By.CSS_SELECTOR, '.seat[data-seat="0"] .tag.turn').text == "to play"
    browser.get(browser.current_url)
    assert settled(browser, 22) == cards

    # the winning line from here: its first card played, the rest to step through
    browser.find_element(By.ID, "line").click()
    settled(browser, 23)
    assert browser.find_element(By.ID, "redo").is_enabled()
    browser.find_element(By.ID, "redo").click()
    settled(browser, 24)
    browser.find_element(By.ID, "end").click()
    settled(browser, 40)
    assert browser.find_element(By.ID, "position").text.startswith("✓ Won")


LOST_ON_B6 = "G5,G6,G9,G2,B6,B9,B3,B4"
"""Seat 1 (seat 0 of the deal file) wins the task B6, which only the commander (seat 2)
could take: the game is lost on B6."""


def test_the_task_chips_and_the_trick_label_agree_with_the_result(server, browser):
    """A game lost on a task: the chip of that task is failed (✗), never done (✓), the
    seat's score says so, and the move list shows each trick's winner and the task failed
    in it. In a trick in progress the table and the panel give it the same number."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(*DESKTOP)
    browser.get(server + MISSION_ONE + "&play=" + LOST_ON_B6)
    settled(browser, 8)
    position = browser.find_element(By.ID, "position").text
    assert position.startswith("✗ Lost") and "B6" in position and "seat 1" in position, position
    chips = browser.find_elements(By.CSS_SELECTOR, '#table .task[data-task="B6"]')
    assert chips and all(c.get_attribute("data-status") == "failed" and c.text.startswith("✗") for c in chips)
    assert not browser.find_elements(By.CSS_SELECTOR, "#table .task.done")
    score = browser.find_element(By.CSS_SELECTOR, '.seat[data-seat="0"] .score').text
    assert score == "Tricks won: 1; tasks: 1 held, 0 done, 1 failed", score
    results = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#moves .trick-result")]
    assert results == ["→ seat 4", "→ seat 1 ✗ B6"], results
    assert browser.execute_script("return fileName()") == "mission-01-4p-seed0"

    browser.get(server + MISSION_ONE + "&play=G5,G6,G9,G2,B6")
    settled(browser, 5)
    label = browser.find_element(By.CSS_SELECTOR, "#table .trick-label").text
    assert label == "Trick 2" and "Trick 2," in browser.find_element(By.ID, "position").text, label


def test_every_card_says_why_and_the_draft_says_who_takes_the_task(server, browser):
    """After the first trick of mission 1: hovering a ✗ card shows its reason, focusing a
    ✓ card its winning line (with the seat that takes the task in it); every reason is
    listed too (for a tap); the task to draft names the seat of the winning line."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    browser.set_window_size(*DESKTOP)
    browser.get(server + MISSION_ONE + "&play=G5,G6,G9,G2")
    cards = settled(browser, 4)
    assert cards["B6"] == "unwinnable"
    lost = browser.find_element(By.CSS_SELECTOR, '#table button.card[data-card="B6"]')
    assert lost.get_attribute("data-reason").startswith("loses")
    ActionChains(browser).move_to_element(lost).perform()
    reason = wait_for(browser, lambda b: b.find_element(By.ID, "card-reason").text or False, 5)
    assert reason.startswith("✗ B6: loses"), reason
    won = sorted(c for c, v in cards.items() if v == "winnable")[0]
    button = browser.find_element(By.CSS_SELECTOR, f'#table button.card[data-card="{won}"]')
    browser.execute_script("arguments[0].focus()", button)
    reason = browser.find_element(By.ID, "card-reason").text
    assert reason.startswith(f"✓ {won}: wins with: {won}") and "seat 2 takes B6" in reason, reason
    listed = browser.execute_script(
        "return [...document.querySelectorAll('#reason-list li')].map((e) => e.textContent)")
    assert any(line.startswith("✗ B6: loses") for line in listed), listed
    draft = browser.find_element(By.CSS_SELECTOR, '#table .draft[data-task="B6"]').text
    assert "winning line: seat 2 takes it" in draft, draft
    text = browser.find_element(By.TAG_NAME, "body").text
    assert "(s)" not in text and "Thm" not in text and "strict/" not in text and "seat 0" not in text


def test_cancel_shows_stopped_and_analyse_again(server, browser, monkeypatch):
    """A decision in progress shows the verdicts found so far; cancelled, the page says it
    stopped and offers to analyse again, which brings every card's verdict."""
    import time as clock

    from selenium.webdriver.common.by import By

    from crewcheck.web import app as web_app

    from crewcheck.web import forms

    def slow(kind, instance, timeout):
        def run(cancelled, progress):
            first = forms.layout(instance)["legal"][0]
            progress(0, 3, "the position", partial={"position": None, "cards": {}})
            clock.sleep(0.3)
            progress(1, 3, "after " + first, partial={"position": "winnable", "cards": {
                first: {"verdict": "unwinnable", "reason": "loses: a reason"}}})
            while not cancelled():
                clock.sleep(0.01)
            return {}
        return run

    monkeypatch.setattr(web_app, "_work", slow)
    browser.set_window_size(*DESKTOP)
    browser.get(server + MISSION_ONE + "&play=G5")
    cancel = wait_for(browser, lambda b: b.find_element(By.ID, "cancel") if b.find_element(By.ID, "cancel").is_displayed()
                   else False)
    # the verdicts found so far are shown while the others are being decided
    early = wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, '#table button.card[data-verdict="unwinnable"]'))
    assert len(early) == 1 and early[0].get_attribute("data-reason") == "loses: a reason"
    assert browser.find_elements(By.CSS_SELECTOR, '#table button.card[data-verdict="thinking"]')
    assert "1 of 3 decisions done (after " in browser.find_element(By.ID, "thinking-text").text
    assert browser.find_element(By.ID, "position").text.startswith("✓ Winnable. Trick 1")
    assert "1 of " in browser.find_element(By.ID, "position").text
    cancel.click()
    again = wait_for(browser, lambda b: b.find_element(By.ID, "again") if b.find_element(By.ID, "again").is_displayed()
                  else False)
    assert browser.find_element(By.ID, "stopped-text").text.startswith("Stopped")
    monkeypatch.undo()
    again.click()
    cards = settled(browser, 1)
    assert cards and set(cards.values()) <= VERDICTS
    assert not browser.find_element(By.ID, "stopped").is_displayed()


def test_a_bad_link_shows_its_error_and_disables_the_board(server, browser):
    """A link to mission 99: the error where the verdict goes, every control disabled,
    and keys or clicks raise nothing."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.set_window_size(*DESKTOP)
    browser.get(server + "?game=mission&mission=99&players=4&seed=0&play=B1")
    position = wait_for(browser, lambda b: b.find_element(By.ID, "position").text or False)
    assert position.startswith("The link cannot be opened: mission: expected an integer from 1 to 50"), position
    browser.execute_script(
        "window.__errors = []; window.addEventListener('error', (e) => window.__errors.push(e.message))")
    buttons = browser.find_elements(By.CSS_SELECTOR, "#side button")
    assert buttons and not any(b.is_enabled() for b in buttons)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT, Keys.END, "w")
    browser.execute_script("download(); jump(3); play('B1')")
    assert browser.execute_script("return window.__errors") == []
    assert not browser.find_elements(By.CSS_SELECTOR, "#table button.card")


def test_the_phone_layout_keeps_the_verdict_undo_and_redo_in_reach(server, browser):
    """At 390 px wide nothing overflows sideways, and the verdict, Undo and Redo stay on
    the screen wherever the page is scrolled."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(*PHONE)
    try:
        browser.get(server + MISSION_ONE + "&play=G5,G6,G9,G2")
        settled(browser, 4)
        width = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], width
        for y in (0, 100000):
            browser.execute_script(f"window.scrollTo(0, {y})")
            for name in ("position", "undo", "redo"):
                box = browser.execute_script("const r = arguments[0].getBoundingClientRect();"
                                             "return [r.top, r.bottom, window.innerHeight]",
                                             browser.find_element(By.ID, name))
                assert 0 <= box[0] and box[1] <= box[2], (name, y, box)
        browser.find_element(By.ID, "undo").click()
        settled(browser, 3)
        browser.execute_script("window.scrollTo(0, 0)")
        browser.find_element(By.CSS_SELECTOR, "#games summary").click()  # the mission list fits too
        width = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], width
    finally:
        browser.set_window_size(*DESKTOP)


def test_the_crew_makes_its_choices_on_the_board(server, browser):
    """The set-up as a phase of the game. Mission 8: the draft card by card, the
    commander (seat 2) first, then seat 3 and seat 4, each pick's options decided and the
    engine's marked; the game is then played with those seats. Mission 28 as a
    commander's decision: every task to seat 3 loses, to seat 1 wins, the commander is no
    option. Mission 5: the sick crew member is picked on the board."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(*DESKTOP)
    browser.get(server + "?game=mission&mission=8&players=4&seed=0")
    settled(browser, 0)
    assert "engine chooses" in browser.find_element(By.CSS_SELECTOR, ".setup-engine").text
    picked = []
    for seat in (2, 3, 4):
        title, options = setup_options(browser, "draft")
        assert title == f"The draft: seat {seat} takes a task", title
        assert len(options) == 4 - seat + 1 and not set(options) & set(picked), options
        assert sum(engine for _, _, engine in options.values()) == 1, options  # the engine's line marked
        card = next(v for v, (verdict, _, engine) in options.items() if engine)
        assert options[card][0] == "winnable"
        if seat == 3:  # the draft card by card, each option with its verdict
            screenshot(browser, "serve-setup.png", DESKTOP, element="#board")
        picked.append(card)
        pick(browser, "draft", card)
    wait_for(browser, lambda b: b.find_element(By.ID, "title").text == "mission-08-4p-seed0-chosen")
    settled(browser, 0)
    assert browser.find_element(By.ID, "position").text.startswith("✓ Winnable")
    for seat, card in zip((1, 2, 3), picked):
        assert browser.find_element(By.CSS_SELECTOR, f'.seat[data-seat="{seat}"] .task[data-task="{card}"]')
    assert not browser.find_elements(By.CSS_SELECTOR, ".setup-box")

    decision = "?game=mission&mission=28&players=4&seed=0&assignment=decision"
    for seat, verdict in ((2, "✗ Cannot be won"), (0, "✓ Winnable")):
        browser.get(server + decision)
        title, options = setup_options(browser, "recipient")
        assert title == "The commander decides who takes every task"
        assert sorted(options) == ["0", "2", "3"]  # the commander (seat 2) is no option
        assert options[str(seat)][0] == ("unwinnable" if seat == 2 else "winnable"), options
        pick(browser, "recipient", str(seat))
        wait_for(browser, lambda b: b.find_element(By.ID, "title").text.endswith("-chosen"))
        settled(browser, 0)
        assert browser.find_element(By.ID, "position").text.startswith(verdict), (seat, verdict)

    browser.get(server + "?game=mission&mission=5&players=4&seed=0")
    title, options = setup_options(browser, "seats")
    assert title == "The commander picks a crew member" and len(options) == 3
    value, (_, label, _) = sorted(options.items())[0]
    assert "the chosen crew member is seat" in label
    pick(browser, "seats", value)
    wait_for(browser, lambda b: b.find_element(By.ID, "title").text.endswith("-chosen"))
    settled(browser, 0)
    seat = json.loads(value)[0][1] + 1
    assert f"Seat {seat} wins no trick." in browser.find_element(By.ID, "rules").text


def test_the_two_readings_of_a_rule_side_by_side(server, browser):
    """Mission 46 with three players, whose rule reads otherwise word for word: the
    board's verdict and the other reading's side by side, and a button that plays the
    game under the other reading (in the address too), the first reading then beside it."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(*DESKTOP)
    browser.get(server + "?game=mission&mission=46&players=3&seed=0")
    settled(browser, 0)

    def rows(b: Any) -> Any:
        got = {k: tuple(v) for k, v in b.execute_script(
            "const out = {}; for (const r of document.querySelectorAll('.readings .reading-row'))"
            " out[r.dataset.reading] = [r.dataset.verdict, r.textContent]; return out").items()}
        return got if len(got) == 2 and all(v for v, _ in got.values()) else False

    got = wait_for(browser, rows, 60)
    assert got["reference"][1].startswith("This board (as Board Game Arena reads it): ✓"), got
    assert got["literal"][1].startswith("Read word for word: ✓"), got
    browser.find_element(By.ID, "reading-switch").click()
    wait_for(browser, lambda b: b.find_element(By.ID, "title").text.endswith("the rule word for word"))
    assert "reading=literal" in browser.current_url
    got = wait_for(browser, rows, 60)
    assert got["literal"][1].startswith("This board (word for word):"), got
    assert got["reference"][1].startswith("Read as Board Game Arena reads it:"), got


def test_a_set_up_step_that_fails_says_why_in_the_set_up_box(server, browser):
    """A pick that is no option of its step (the commander under a commander's
    decision): the server's one-line error, naming the pick, in the set-up box."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(*DESKTOP)
    browser.get(server + "?game=mission&mission=28&players=4&seed=0&assignment=decision")
    setup_options(browser, "recipient")
    browser.execute_script("S.setup.picks = {recipient: '1'}; S.setup.step = null; askSetup()")
    error = wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, ".setup-box .setup-error") or False, 30)[0]
    assert error.text == "picks.recipient: '1' is not an option of this step", error.text


def test_the_token_swap_and_the_hand_over_on_the_board(server, browser):
    """Mission 23: "the tokens stay" and one option per swap, each decided; a swap
    picked is listed as chosen and the draft follows, the commander first. Mission 30
    with five players: the hand-over, "no hand-over" first."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(*DESKTOP)
    browser.get(server + "?game=mission&mission=23&players=4&seed=0")
    title, options = setup_options(browser, "token_move")
    assert title == "The crew may move the task tokens" and options["null"][1] == "the tokens stay where they are"
    swap, (verdict, label, _) = next((v, o) for v, o in options.items() if v != "null" and o[0] == "winnable")
    assert "swaps the tokens of" in label
    pick(browser, "token_move", swap)
    made = wait_for(browser, lambda b: b.find_element(By.CSS_SELECTOR, ".setup-made").text or False, 10)
    assert made == f"Chosen: {label}.", made
    title, options = setup_options(browser, "draft")
    assert title == "The draft: seat 2 takes a task" and len(options) == 5
    assert browser.find_element(By.CSS_SELECTOR, ".setup-made").text == made

    browser.get(server + "?game=mission&mission=30&players=5&seed=0")
    title, options = setup_options(browser, "handover")
    assert title == "A crew member may hand one task to another"
    assert list(options)[0] == "null" and options["null"][1] == "no hand-over"
    assert options["[0,1]"][1] == "seat 1 hands a task to seat 2"
