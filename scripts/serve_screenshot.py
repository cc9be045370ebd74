"""Make ``docs/serve.png``: the ``crewcheck serve`` page with a decided deal, in headless
Chromium (Debian's ``chromium`` and ``chromium-driver``, selenium from PyPI).

Run: ``PYTHONPATH=$PWD python scripts/serve_screenshot.py [--deal NAME] [--out docs/serve.png]``.
It starts the server on a free loopback port, chooses the bundled deal, presses Decide,
clicks the first card of the first trick still to play (every card's verdict there) and
saves the window.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deal", default="classic-4p-midgame")
    ap.add_argument("--out", default=str(ROOT / "docs" / "serve.png"))
    ap.add_argument("--size", default="1400,1400", help="window width,height")
    args = ap.parse_args(argv)

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    from crewcheck.web import make_server

    server = make_server("127.0.0.1", 0, examples=ROOT / "models" / "deals")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    profile = tempfile.mkdtemp(prefix="crewcheck-chromium-")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--window-size={args.size}", f"--user-data-dir={profile}", "--hide-scrollbars"):
        options.add_argument(flag)
    browser = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                               options=options)
    try:
        wait = WebDriverWait(browser, 60)
        browser.get(f"http://127.0.0.1:{server.server_port}/")
        wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#example option")) > 1)
        Select(browser.find_element(By.ID, "example")).select_by_value(args.deal)
        wait.until(lambda b: b.find_element(By.ID, "table-panel").is_displayed())
        browser.find_element(By.ID, "tab-fields").click()
        browser.find_element(By.ID, "decide").click()
        wait.until(lambda b: b.find_element(By.ID, "verdict").text != "")
        rows = browser.find_elements(By.CSS_SELECTOR, "#line tbody tr:not(.played)")
        if rows:
            rows[0].find_elements(By.CSS_SELECTOR, "button.card")[0].click()
            wait.until(lambda b: b.find_element(By.ID, "analysis-panel").is_displayed())
        browser.save_screenshot(args.out)
        print(f"wrote {args.out}")
    finally:
        browser.quit()
        server.shutdown()
        server.app.extensions["crewcheck_jobs"].shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
