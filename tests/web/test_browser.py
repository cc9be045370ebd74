"""`crewcheck serve` in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``) driven by selenium loads a bundled deal, decides it, and reads the
verdict and the first trick from the page; an input error shows next to its field.

Skipped, with the reason, where selenium, the browser or its driver is missing
(``.ci/run`` installs the browser). ``CREWCHECK_CHROMIUM`` and ``CREWCHECK_CHROMEDRIVER``
point to other binaries.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("flask")
pytest.importorskip("selenium", reason="the browser test needs selenium: pip install selenium")

HEADLESS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--window-size=1400,1200"]


def _binary(env: str, *names: str) -> str | None:
    if os.environ.get(env):
        return os.environ[env]
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    from crewcheck.web import make_server

    srv = make_server("127.0.0.1", 0, examples=Path(__file__).resolve().parents[2] / "models" / "deals")
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}/"
    srv.shutdown()
    srv.app.extensions["crewcheck_jobs"].shutdown()
    srv.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    chromium = _binary("CREWCHECK_CHROMIUM", "chromium", "chromium-browser")
    driver = _binary("CREWCHECK_CHROMEDRIVER", "chromedriver")
    if chromium is None or driver is None or not all(os.access(b, os.X_OK) for b in (chromium, driver)):
        pytest.skip("no browser: install Debian's chromium and chromium-driver "
                    "(apt-get install chromium chromium-driver) to run the browser test")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in HEADLESS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="crewcheck-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    try:
        drv = webdriver.Chrome(service=Service(driver), options=options)
    except Exception as e:  # a browser that cannot start here is an environment problem
        shutil.rmtree(profile, ignore_errors=True)
        pytest.skip(f"chromium did not start: {type(e).__name__}: {str(e).splitlines()[0]}")
    yield drv
    drv.quit()
    shutil.rmtree(profile, ignore_errors=True)


def _wait(browser, test, seconds=60):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, seconds).until(test)


def test_a_bundled_deal_is_decided_in_the_browser(server, browser):
    """Choose classic-4p-midgame, press Decide: the page says winnable and shows the first
    trick of the game, seat 3 leading P2 P1 P3 P7 (the deal's history)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(server)
    _wait(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, "#example option")) > 1)
    Select(browser.find_element(By.ID, "example")).select_by_value("classic-4p-midgame")
    _wait(browser, lambda b: b.find_element(By.ID, "table-panel").is_displayed())
    browser.find_element(By.ID, "decide").click()
    _wait(browser, lambda b: b.find_element(By.ID, "verdict").text != "")
    assert browser.find_element(By.ID, "verdict").text == "winnable"
    first = browser.find_element(By.CSS_SELECTOR, "#line tbody tr")
    assert first.get_attribute("data-trick") == "1" and first.get_attribute("data-lead") == "3"
    cards = [b.text for b in first.find_elements(By.CSS_SELECTOR, "button.card")]
    assert cards == ["P2", "P1", "P3", "P7"]
    assert "seat 2 wins" in first.text

    # every card's verdict before the first card of trick 6 (seat 2 leads G9)
    row6 = browser.find_element(By.CSS_SELECTOR, '#line tbody tr[data-trick="6"]')
    row6.find_elements(By.CSS_SELECTOR, "button.card")[0].click()
    _wait(browser, lambda b: b.find_element(By.ID, "analysis-panel").is_displayed())
    assert browser.find_element(By.ID, "analysis-title").text == "Every card at trick 6, seat 2 to play"
    assert "keep it winnable" in browser.find_element(By.ID, "analysis-summary").text


def test_an_input_error_shows_next_to_its_field(server, browser):
    from selenium.webdriver.common.by import By

    browser.get(server)
    _wait(browser, lambda b: b.find_element(By.NAME, "hands.0"))
    browser.find_element(By.ID, "players").send_keys("2")
    hands = browser.find_elements(By.CSS_SELECTOR, "#hands input")
    hands[0].send_keys("B1 B3")
    hands[1].send_keys("B2 B2")
    browser.find_element(By.NAME, "tasks").send_keys("B3@0")
    browser.find_element(By.ID, "show").click()
    error = browser.find_element(By.CSS_SELECTOR, '.error[data-for="hands.1"]')
    _wait(browser, lambda b: error.text != "", 10)
    assert error.text == "hands[1][1]: card 'B2' is twice in hands[1]"


def test_a_long_decision_shows_progress_and_can_be_cancelled(server, browser, monkeypatch):
    """A decision that runs until cancelled (the server's work replaced by one that polls
    the cancel flag as the deciders do): the page shows the progress, Cancel stops it."""
    import time

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from crewcheck.web import app as web_app

    def work(kind, instance, timeout):
        def run(cancelled, progress):
            progress(2, 9, "after B3")
            while not cancelled():
                time.sleep(0.01)
            return {}
        return run

    monkeypatch.setattr(web_app, "_work", work)
    browser.get(server)
    _wait(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, "#example option")) > 1)
    Select(browser.find_element(By.ID, "example")).select_by_value("classic-4p-midgame")
    _wait(browser, lambda b: b.find_element(By.ID, "table-panel").is_displayed())
    browser.find_element(By.ID, "analyse").click()
    status = browser.find_element(By.ID, "status-text")
    _wait(browser, lambda b: "decision 3 of about 9: after B3" in status.text, 10)
    assert not browser.find_element(By.ID, "decide").is_enabled()
    browser.find_element(By.ID, "cancel").click()
    _wait(browser, lambda b: "cancelled" in status.text, 10)
    assert browser.find_element(By.ID, "decide").is_enabled()
