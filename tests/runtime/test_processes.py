"""Child processes started by crewcheck do not run the caller's main script again."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent('''
    from crewcheck.formats.deal_json import loads
    from crewcheck.solvers.logic import sat_process

    print("the script ran", flush=True)  # at the top level: no __main__ guard
    deal = loads('{"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}')
    for _ in range(4):  # a fork, then spares made by the fork server, then a forkserver child
        with sat_process.SatProcess(deal) as child:
            assert child.wait().verdict.value == "winnable"
        if sat_process.SPARES.thread is not None:
            sat_process.SPARES.thread.join()
''')


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork server start method")
def test_an_unguarded_script_runs_once(tmp_path: Path) -> None:
    script = tmp_path / "script.py"
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("the script ran") == 1, done.stdout
