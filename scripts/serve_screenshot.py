"""Make ``docs/serve.png`` (a desktop window) and ``docs/serve-phone.png`` (a phone's
width): the ``crewcheck serve`` board of logbook mission 1 in the middle of a game, with
cards that keep it winnable and cards that lose it; and ``docs/serve-setup.png``: the
board of mission 8 during its draft, each task the seat may take with its verdict; in
headless Chromium (Debian's
``chromium`` and ``chromium-driver``, selenium from PyPI).

Run: ``python scripts/serve_screenshot.py [--out DIR]`` from the checkout. The pictures
are taken by the browser test itself (``tests/web/test_browser.py``, with
``CREWCHECK_SCREENSHOTS=DIR``), so they show the page the test plays; CI runs the test
without taking them.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(ROOT / "docs"), help="directory of the pictures (default: docs)")
    args = ap.parse_args(argv)
    env = {**os.environ, "CREWCHECK_SCREENSHOTS": str(Path(args.out).resolve()), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests/web/test_browser.py", "-k", "mission_one or choices_on_the_board"], cwd=ROOT, env=env)
    if done.returncode == 0:
        names = ("serve.png", "serve-phone.png", "serve-setup.png")
        print("wrote " + ", ".join(str(Path(args.out) / name) for name in names))
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
