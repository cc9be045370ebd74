"""What the browser tests share: the server and headless Chromium (module fixtures), and
the helpers that wait for the board to settle and read it.

Where selenium, the browser or its driver is missing the tests are skipped with the
reason, except under CI (``CI=true``), where that is a failure: ``.ci/run`` installs the
browser. ``CREWCHECK_CHROMIUM`` and ``CREWCHECK_CHROMEDRIVER`` point to other binaries.
``CREWCHECK_SCREENSHOTS=DIR`` also writes the page's screenshots to ``DIR``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("flask")

IN_CI = os.environ.get("CI") == "true"
HEADLESS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", "--hide-scrollbars", "--window-size=1400,1000"]
DESKTOP = (1400, 1000)
PHONE = (390, 844)  # a phone's window; the screenshot is as tall as the page
VERDICTS = {"winnable", "unwinnable", "unknown"}


def _missing(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"CI must run the browser test: {reason}")
    pytest.skip(reason)


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
def browser() -> Iterator[Any]:
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing("the browser test needs selenium: pip install selenium")
    chromium = _binary("CREWCHECK_CHROMIUM", "chromium", "chromium-browser")
    driver = _binary("CREWCHECK_CHROMEDRIVER", "chromedriver")
    if chromium is None or driver is None or not all(os.access(b, os.X_OK) for b in (chromium, driver)):
        _missing("no browser: install Debian's chromium and chromium-driver "
                 "(apt-get install chromium chromium-driver) to run the browser test")
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
        _missing(f"chromium did not start: {type(e).__name__}: {str(e).splitlines()[0]}")
    yield drv
    drv.quit()
    shutil.rmtree(profile, ignore_errors=True)


def wait_for(browser: Any, test: Any, seconds: float = 30) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, seconds, poll_frequency=0.05).until(test)


_SNAPSHOT = """
const cards = {};
for (const b of document.querySelectorAll("#table button.card")) cards[b.dataset.card] = b.dataset.verdict;
return {played: [...document.querySelectorAll("#moves .move.done .face")].map((e) => e.textContent),
        cards, position: document.querySelector("#position").textContent,
        thinking: !document.querySelector("#thinking").hidden};
"""


def snapshot(browser: Any) -> dict[str, Any]:
    """The page's moves, legal cards and position line, read at one instant."""
    got: dict[str, Any] = browser.execute_script(_SNAPSHOT)
    return got


def played_cards(browser: Any) -> list[str]:
    """The cards played, as the move list shows them (the cards taken back excluded)."""
    return list(snapshot(browser)["played"])


def settled(browser: Any, played: int) -> dict[str, str]:
    """Wait for the position after ``played`` cards with every legal card's verdict
    (or the game's end); the legal cards and their verdicts."""

    def ready(b: Any) -> tuple[dict[str, str]] | bool:
        snap = snapshot(b)
        cards: dict[str, str] = snap["cards"]
        if len(snap["played"]) != played or snap["thinking"] or "thinking" in cards.values():
            return False
        over = snap["position"].startswith(("✓ Won", "✗ Lost"))
        if cards and snap["position"].startswith(("✓", "✗", "?")) and not over:
            return (cards,)
        return ({},) if over and not cards else False

    from selenium.common.exceptions import TimeoutException

    try:
        got: dict[str, str] = wait_for(browser, ready)[0]
    except TimeoutException:
        raise AssertionError(f"no position after {played} cards with its verdicts: {snapshot(browser)}") from None
    return got


def screenshot(browser: Any, name: str, size: tuple[int, int], element: str | None = None) -> None:
    """Under ``CREWCHECK_SCREENSHOTS=DIR``, the page at ``size`` (a phone's: as tall as the
    page) as ``DIR/name``, or only the ``element`` (a CSS selector)."""
    folder = os.environ.get("CREWCHECK_SCREENSHOTS")
    if not folder:
        return
    if element is not None:
        from selenium.webdriver.common.by import By

        Path(folder).mkdir(parents=True, exist_ok=True)
        browser.find_element(By.CSS_SELECTOR, element).screenshot(str(Path(folder) / name))
        return
    browser.set_window_size(*size)
    # a phone's: as tall as the page (the window's frame taken into account)
    for _ in range(3):
        page, inner = browser.execute_script("return [document.documentElement.scrollHeight, window.innerHeight]")
        if size != PHONE or inner >= page:
            break
        browser.set_window_size(size[0], browser.get_window_size()["height"] + page - inner)
    browser.execute_script("window.scrollTo(0, 0)")
    Path(folder).mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(Path(folder) / name))
    browser.set_window_size(*DESKTOP)



def setup_options(browser: Any, step: str) -> tuple[str, dict[str, tuple[str, str, bool]]]:
    """Wait for the set-up step ``step`` with every option decided: its title and each
    option's value -> (verdict, its words, marked as the engine's line)."""
    from selenium.webdriver.common.by import By

    def ready(b: Any) -> Any:
        found = b.find_elements(By.CSS_SELECTOR, f'.setup-box .setup-option[data-step="{step}"]')
        return found if found and all(x.get_attribute("data-verdict") in VERDICTS for x in found) else False

    options = wait_for(browser, ready, 60)
    title = browser.find_element(By.CSS_SELECTOR, ".setup-box .setup-title").text
    return title, {o.get_attribute("data-value"): (o.get_attribute("data-verdict"), o.get_attribute("data-label"),
                                                  "engine" in o.get_attribute("class").split()) for o in options}


def pick(browser: Any, step: str, value: str) -> None:
    from selenium.webdriver.common.by import By

    browser.find_element(By.CSS_SELECTOR, f'.setup-option[data-step="{step}"][data-value=\'{value}\']').click()


MISSION_ONE = "?game=mission&mission=1&players=4&seed=0"
