"""`crewcheck serve` in a real browser, the game record and the links: variations kept
when another card is played, practice mode, mission 12's draw, and the address that
keeps all of them (back/forward and reload restore them), including a deal made on the
board (the set-up, the draw), which says where it came from."""

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


def test_a_different_card_after_undo_keeps_the_old_line_as_a_variation(server, browser):
    """Mission 1 after four cards: three taken back and another card played; the cards
    taken back stay in the move list as a variation from card 2, and a click on its
    last card goes back to that line, the new card then being the variation."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(*DESKTOP)
    line = ["G5", "G6", "G9", "G2"]
    browser.get(server + MISSION_ONE + "&play=" + ",".join(line))
    settled(browser, 4)
    assert not browser.find_element(By.ID, "variations-head").is_displayed()
    for n in (3, 2, 1):
        browser.find_element(By.ID, "undo").click()
        cards = settled(browser, n)
    other = sorted(c for c in cards if c != "G6")[0]
    browser.find_element(By.CSS_SELECTOR, f'#table button.card[data-card="{other}"]').click()
    settled(browser, 2)
    assert played_cards(browser) == ["G5", other]
    kept = browser.find_element(By.CSS_SELECTOR, "#variations .variation")
    assert kept.get_attribute("data-from") == "1" and "from card 2 (trick 1)" in kept.text
    assert [b.text for b in kept.find_elements(By.CSS_SELECTOR, "button.move")] == ["G6", "G9", "G2"]
    assert browser.find_element(By.ID, "variations-head").is_displayed()
    assert browser.current_url.endswith(f"&play=G5,{other}&var=G5,G6,G9,G2"), browser.current_url
    browser.refresh()  # the address keeps the variation
    settled(browser, 2)
    assert variations(browser) == [["G6", "G9", "G2"]]
    browser.back()  # the position before the other card: no variation yet, the line to redo
    settled(browser, 1)
    assert variations(browser) == [] and browser.find_element(By.ID, "redo").is_enabled()
    browser.forward()
    settled(browser, 2)
    assert variations(browser) == [["G6", "G9", "G2"]] and played_cards(browser) == ["G5", other]
    kept = browser.find_element(By.CSS_SELECTOR, "#variations .variation")
    kept.find_elements(By.CSS_SELECTOR, "button.move")[-1].click()
    settled(browser, 4)
    assert played_cards(browser) == line
    swapped = browser.find_elements(By.CSS_SELECTOR, "#variations .variation")
    assert len(swapped) == 1 and [b.text for b in swapped[0].find_elements(By.CSS_SELECTOR, "button.move")] == [other]
    assert browser.current_url.endswith(f"&play=G5,G6,G9,G2&var=G5,{other}"), browser.current_url


def variations(browser: Any) -> list[list[str]]:
    """The cards of each variation the move list shows, read at one instant."""
    got: list[list[str]] = browser.execute_script(
        "return [...document.querySelectorAll('#variations .variation')]"
        ".map((v) => [...v.querySelectorAll('button.move')].map((b) => b.textContent))")
    return got


def test_practice_hides_the_verdicts_until_a_card_is_played(server, browser):
    """Practice mode: the legal cards show no verdict and the winning card cannot be
    asked for; once a card is played, its verdict (the one the board gives it outside
    practice) and its reason are shown. The setting is in the address: a reload keeps
    practising, and turned off it leaves the address."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(*DESKTOP)
    browser.get(server + MISSION_ONE + "&play=G5,G6,G9,G2")
    cards = settled(browser, 4)
    browser.find_element(By.ID, "practice").click()
    buttons = browser.find_elements(By.CSS_SELECTOR, "#table button.card")
    assert buttons and {b.get_attribute("data-verdict") for b in buttons} == {"hidden"}
    assert all(not b.find_element(By.CLASS_NAME, "mark").text for b in buttons)
    assert browser.find_element(By.ID, "position").text.startswith("Practice. Trick 2")
    assert not browser.find_element(By.ID, "hint").is_enabled() and not browser.find_element(By.ID, "line").is_enabled()
    assert not browser.find_element(By.ID, "reasons").is_displayed()
    assert not browser.find_element(By.ID, "practice-result").is_displayed()
    assert "practice=1" in browser.current_url
    browser.refresh()
    wait_for(browser, lambda b: b.execute_script("return S.verdicts.has(S.history.join(' '))"))
    assert browser.find_element(By.ID, "practice").is_selected()
    buttons = browser.find_elements(By.CSS_SELECTOR, "#table button.card")
    assert buttons and {b.get_attribute("data-verdict") for b in buttons} == {"hidden"}
    browser.find_element(By.CSS_SELECTOR, '#table button.card[data-card="B6"]').click()
    result = wait_for(browser, lambda b: b.find_element(By.ID, "practice-result").text or False, 30)
    assert cards["B6"] == "unwinnable" and result.startswith("Your last card, B6: ✗"), result
    assert "loses" in result
    assert "practice=1" in browser.current_url
    browser.find_element(By.ID, "practice").click()  # practice off: the verdicts again
    assert not browser.find_element(By.ID, "practice-result").is_displayed()
    assert "practice" not in browser.current_url


def test_mission_twelve_draw_picked_or_randomised_on_the_board(server, browser):
    """Mission 12: the draft made on the board (the engine's picks), the first trick
    played, then the draw: each seat's cards with their verdicts, a card picked for seat
    1, then randomised; played on, the board deals the game after the draw. Each deal made
    on the board keeps, reloaded, what made it: the chosen deal says its set-up was made
    on the board and still offers the draw after its first trick; the drawn one says it
    was dealt after the draw; each links back to where it was made."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.set_window_size(*DESKTOP)
    browser.get(server + "?game=mission&mission=12&players=4&seed=0")
    settled(browser, 0)
    for _ in range(4):
        _, options = setup_options(browser, "draft")
        pick(browser, "draft", next(v for v, (_, _, engine) in options.items() if engine))
    wait_for(browser, lambda b: b.find_element(By.ID, "title").text.endswith("-chosen"))
    assert "made=chosen" in browser.current_url and "draw=1" in browser.current_url
    browser.refresh()
    wait_for(browser, lambda b: b.find_element(By.ID, "title").text == "mission-12-4p-seed0-chosen")
    settled(browser, 0)
    made, text, back, href = origin(browser)
    assert made == "chosen" and text.startswith("The set-up was made on the board: seat 2 takes "), text
    assert "Mission 12's draw follows the first trick." in text
    assert back == "Back to the set-up" and "game=mission&mission=12&players=4&seed=0" in href, href
    for n in range(4):
        cards = settled(browser, n)
        card = sorted(c for c, v in cards.items() if v == "winnable")[0]
        browser.find_element(By.CSS_SELECTOR, f'#table button.card[data-card="{card}"]').click()
    settled(browser, 4)

    def drawn(b: Any) -> Any:
        selects = b.find_elements(By.CSS_SELECTOR, ".draw-box select")
        return selects if len(selects) == 4 else False

    selects = wait_for(browser, drawn, 60)
    counts = [len(s.find_elements(By.TAG_NAME, "option")) for s in selects]
    assert counts == [9, 9, 9, 9], counts
    marks = {o.get_attribute("data-verdict") for s in selects for o in s.find_elements(By.TAG_NAME, "option")}
    assert marks <= VERDICTS and marks, marks
    first = selects[0].find_elements(By.TAG_NAME, "option")
    given, expected = next((o.get_attribute("value"), o.get_attribute("data-verdict")) for o in first
                           if not o.is_selected())
    Select(selects[0]).select_by_value(given)
    wait_for(browser, lambda b: (drawn(b) and drawn(b)[0].get_attribute("value") == given
                                 and b.find_elements(By.ID, "draw-play")), 60)
    verdict = browser.find_element(By.CSS_SELECTOR, ".draw-verdict").get_attribute("data-verdict")
    assert verdict == expected, (verdict, expected)
    browser.find_element(By.ID, "draw-random").click()
    wait_for(browser, lambda b: b.find_elements(By.ID, "draw-play"), 60)
    browser.find_element(By.ID, "draw-play").click()
    wait_for(browser, lambda b: b.find_element(By.ID, "title").text.endswith("-drawn"))
    settled(browser, 0)
    hands = browser.execute_script("return S.layout.seats.map((s) => s.suits.flatMap((x) => x.cards).length)")
    assert hands == [9, 9, 9, 9], hands
    assert "made=drawn" in browser.current_url and "draw=1" not in browser.current_url
    browser.refresh()
    wait_for(browser, lambda b: b.find_element(By.ID, "title").text == "mission-12-4p-seed0-chosen-drawn")
    settled(browser, 0)
    made, text, back, _ = origin(browser)
    assert made == "drawn" and text.startswith("Dealt after mission 12's draw, made on the board: after the first "
                                               "trick ("), text
    assert back == "Back to the draw"
    assert browser.execute_script("return hasDraw()") is False


def origin(browser: Any) -> list[str]:
    """The board's note on where its deal was made, read at one instant (the board redraws
    it): what made it, its text, and the link back's words and address."""
    got: list[str] = browser.execute_script(
        "const n = document.querySelector('#rules .origin'); const a = n && n.querySelector('a.origin-back');"
        "return n ? [n.dataset.made, n.textContent, a ? a.textContent : '', a ? a.href : ''] : ['', '', '', '']")
    return got


def test_mission_twelves_draw_with_the_draft_left_to_the_engine(server, browser):
    """Mission 12 with the draft left to the engine: after the first trick the draw is
    offered all the same, taking the seats the engine's winning line gives the tasks, and
    the board says so."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(*DESKTOP)
    browser.get(server + "?game=mission&mission=12&players=4&seed=0")
    for n in range(4):
        cards = settled(browser, n)
        card = sorted(c for c, v in cards.items() if v == "winnable")[0]
        browser.find_element(By.CSS_SELECTOR, f'#table button.card[data-card="{card}"]').click()
    settled(browser, 4)
    engine = wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, ".draw-box .draw-engine")
                      or b.find_elements(By.CSS_SELECTOR, ".draw-box .draw-error"), 90)[0]
    assert engine.text.startswith("The tasks were left to the engine: the draw takes the seats its winning line "
                                  "gives them (seat "), engine.text
    assert len(browser.find_elements(By.CSS_SELECTOR, ".draw-box select")) == 4


