"""`crewcheck serve`: listens on loopback, serves the page, stops cleanly on Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from crewcheck.cli import main

pytest.importorskip("flask")

ROOT = Path(__file__).resolve().parents[2]


def _ctrl_c_on() -> None:
    """In the child: Ctrl-C (SIGINT) delivered as usual, even when the test run itself was
    started with SIGINT ignored (a background job of a non-interactive shell)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)

def test_bad_arguments_are_one_line_errors(tmp_path, capsys):
    assert main(["serve", "--port", "70000"]) == 2
    assert main(["serve", "--examples", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and err[0].startswith("crewcheck serve: error: argument --port: ")
    assert err[1].startswith("crewcheck: error: --examples: ")


def test_serve_answers_on_loopback_and_stops_on_ctrl_c():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "crewcheck", "serve", "--port", "0"], cwd=ROOT, env=env,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_ctrl_c_on)
    try:
        line = proc.stderr.readline()
        m = re.search(r"serving (http://127\.0\.0\.1:(\d+)/)", line)
        assert m, line
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(m.group(1), timeout=5) as r:
                    assert r.status == 200 and b'id="board"' in r.read()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=60)
        rest = proc.stderr.read()
    assert code == 0 and "stopped" in rest and "Traceback" not in rest
