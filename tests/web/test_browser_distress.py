"""`crewcheck serve` in a real browser: the distress signal made on the board, the
direction and then each seat's passed card, each option with its verdict, and the game
with those passes played on. The shared fixtures and helpers are in
:mod:`tests.web.browsing`."""

from __future__ import annotations

import pytest

pytest.importorskip("flask")

from tests.web.browsing import (  # noqa: E402
    DESKTOP, VERDICTS, browser, pick, server, settled, setup_options, wait_for)

__all__ = ["browser", "server"]  # the module fixtures, used by name


def test_the_distress_signal_picked_on_the_board_then_played_on(server, browser):
    """Mission 1, four players, the crew choosing the signal's direction: left and right
    offered, each decided, the engine's line marked; then seat 1 to seat 4 in turn,
    each offering its cards that are no trump, each decided given the passes already
    picked; the chosen passes are in the receivers' hands of the game played, which is
    winnable and goes on by a click."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(*DESKTOP)
    browser.get(server + "?game=mission&mission=1&players=4&seed=0&distress=choose")
    assert "distress=choose" in browser.current_url
    title, options = setup_options(browser, "direction")
    assert title == "The crew signals distress: which way the cards go"
    assert {v: label for v, (_, label, _) in options.items()} == {"1": "pass to the left", "-1": "pass to the right"}
    assert all(verdict in VERDICTS for verdict, _, _ in options.values())
    assert sum(engine for _, _, engine in options.values()) == 1, options  # the engine's line marked
    pick(browser, "direction", "-1")  # to the right: seat s passes to seat s - 1
    passed = {}
    for seat in range(4):
        title, options = setup_options(browser, f"pass{seat}")
        to = (seat - 1) % 4
        assert title == f"Distress signal: seat {seat + 1} passes a card to seat {to + 1}", title
        assert options and not any(card.startswith("R") for card in options), options  # no trump
        assert all(verdict in ("winnable", "unwinnable") for verdict, _, _ in options.values()), options
        assert sum(engine for _, _, engine in options.values()) <= 1, options
        # a winnable card that is not the engine's, so the line left to the engine is not the one played
        card = next((c for c, (v, _, engine) in options.items() if v == "winnable" and not engine),
                    next(c for c, (v, _, _) in options.items() if v == "winnable"))
        made = browser.find_elements(By.CSS_SELECTOR, ".setup-made")
        if seat:
            assert made and f"seat {seat} passes {passed[seat - 1][0]}" in made[0].text, made
        passed[seat] = (card, to)
        pick(browser, f"pass{seat}", card)
    title, options = setup_options(browser, "draft")
    assert "distress signal to the right" in browser.find_element(By.CSS_SELECTOR, ".setup-made").text
    pick(browser, "draft", next(c for c, (v, _, _) in options.items() if v == "winnable"))
    wait_for(browser, lambda b: b.find_element(By.ID, "title").text.endswith("-chosen"))
    cards = settled(browser, 0)
    assert browser.find_element(By.ID, "position").text.startswith("✓ Winnable")
    assert not browser.find_elements(By.CSS_SELECTOR, ".setup-box")
    for seat, (card, to) in passed.items():
        assert browser.find_elements(By.CSS_SELECTOR, f'.seat[data-seat="{to}"] [data-card="{card}"]'), (seat, card)
        assert not browser.find_elements(By.CSS_SELECTOR, f'.seat[data-seat="{seat}"] [data-card="{card}"]')
    play = next(c for c, v in cards.items() if v == "winnable")
    browser.find_element(By.CSS_SELECTOR, f'button.card[data-card="{play}"]').click()
    settled(browser, 1)
