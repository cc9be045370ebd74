"""`crewcheck serve` in a real browser: the two-player game with JARVIS, its columns on
the board (a card under another shown but not playable), the page's words for who plays
JARVIS's cards, and JARVIS's card played by a click. The shared fixtures and helpers are
in :mod:`tests.web.browsing`."""

from __future__ import annotations

import pytest

pytest.importorskip("flask")

from tests.web.browsing import DESKTOP, browser, screenshot, server, settled, wait_for  # noqa: E402

__all__ = ["browser", "server"]  # the module fixtures, used by name


def test_jarvis_columns_drawn_and_its_face_up_card_played_by_a_click(server, browser):
    """Mission 1 with JARVIS, seed 0, the task fixed: seat 3 is JARVIS in seven columns,
    each a face-up card on a face-down one (B8 under B6); the rules say the commander
    plays JARVIS's cards; after seat 2 leads B7, JARVIS's only card is B6 (a button with
    its verdict), B8 under it is no button, and B6 is played by a click."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.set_window_size(*DESKTOP)
    browser.get(server + "?game=mission&mission=1&players=2&seed=0&assignment=fixed")
    wait_for(browser, lambda b: b.find_element(By.ID, "title").text == "Mission 1, 2 players with JARVIS, seed 0")
    form = browser.find_element(By.ID, "tab-mission")
    chosen = Select(form.find_element(By.NAME, "players")).first_selected_option
    assert chosen.get_attribute("value") == "2" and chosen.get_attribute("textContent") == "2 players with JARVIS"
    settled(browser, 0)
    jarvis = browser.find_element(By.CSS_SELECTOR, '.seat.jarvis[data-seat="2"]')
    assert "JARVIS, played by the commander" in jarvis.text
    assert len(jarvis.find_elements(By.CSS_SELECTOR, ".column")) == 7
    assert browser.find_element(By.CSS_SELECTOR, "#rules p").text.startswith("2 players and JARVIS, trump R")
    assert "the commander (seat 2) plays JARVIS's cards" in browser.find_element(By.CSS_SELECTOR, ".jarvis-note").text
    under = jarvis.find_element(By.CSS_SELECTOR, '.card.under[data-card="B8"]')
    assert under.get_attribute("data-under") == "B6" and under.tag_name == "span"
    browser.find_element(By.CSS_SELECTOR, 'button.card[data-card="B7"]').click()
    cards = settled(browser, 1)
    assert list(cards) == ["B6"] and cards["B6"] == "winnable"
    assert "JARVIS (seat 3) to play (the commander plays JARVIS's card)" in browser.find_element(By.ID, "position").text
    browser.find_element(By.CSS_SELECTOR, 'button.card[data-card="B6"]').click()
    settled(browser, 2)
    screenshot(browser, "jarvis-board.png", DESKTOP, "#board")
    assert not browser.find_elements(By.CSS_SELECTOR, 'button.card[data-card="B8"]')
    assert browser.find_elements(By.CSS_SELECTOR, '.seat.jarvis .card.under[data-card="B8"]')
