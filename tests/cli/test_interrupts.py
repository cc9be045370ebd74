"""Interrupted runs: Ctrl-C during ``decide --batch`` still prints the summary of the lines
finished, and the time a deal took is the same number in the result line and the summary."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from crewcheck.cli import main

ROOT = Path(__file__).resolve().parents[2]
SMALL = '{"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}'


def _ctrl_c_on() -> None:
    """In the child: Ctrl-C (SIGINT) delivered as usual, even when the test run itself was
    started with SIGINT ignored (a background job of a non-interactive shell)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)

def test_ctrl_c_in_a_batch_prints_the_summary_of_the_finished_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import crewcheck.cli.batch as cli_decide

    real = cli_decide.decide
    calls: list[int] = []

    def interrupted_on_the_second(*args: object, **kw: object) -> object:
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(cli_decide, "decide", interrupted_on_the_second)
    path = tmp_path / "deals.jsonl"
    path.write_text("\n".join([SMALL] * 3) + "\n")
    assert main(["decide", "--batch", str(path), "--workers", "0"]) == 130
    captured = capsys.readouterr()
    assert [json.loads(line)["line"] for line in captured.out.splitlines()] == [1]
    assert "crewcheck: interrupted after 1 deal(s)" in captured.err.splitlines()[-1]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigint_of_a_real_batch_run_ends_with_the_summary() -> None:
    """The real thing: a batch read from a pipe, SIGINT once the first line is answered
    (the run then waits for the next line, as a batch fed by a slow producer does)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "crewcheck", "decide", "--batch", "-", "--backend", "exhaustive"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True,
                            preexec_fn=_ctrl_c_on)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(SMALL + "\n")
    proc.stdin.flush()
    first = proc.stdout.readline()
    time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=60)  # stdin stays open until the signal has ended the run (no EOF race)
    rest, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert json.loads(first)["line"] == 1 and rest == ""
    assert err.splitlines()[-1].startswith("crewcheck: interrupted after 1 deal(s)")
    assert "Traceback" not in err


def test_batch_summary_uses_the_reported_seconds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The cell summary's seconds per deal are the results' ``seconds`` (one way of timing
    a deal everywhere: from the start of the back-end, kernel loading not counted)."""
    import crewcheck.cli.batch as cli_decide
    from crewcheck.solvers.base import Result, Stats

    real = cli_decide.decide

    def slow_to_return(*args: object, **kw: object) -> Result:
        result = real(*args, **kw)  # type: ignore[arg-type]
        time.sleep(0.05)  # time outside the decision is not the deal's
        return Result(result.verdict, result.witness, result.backend, result.rules,
                      Stats(result.stats.nodes, 1.5, result.stats.extra), result.explanation)

    monkeypatch.setattr(cli_decide, "decide", slow_to_return)
    path = tmp_path / "cell.jsonl"
    path.write_text(SMALL + "\n")
    assert main(["decide", "--batch", str(path), "--workers", "0"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["seconds"] == 1.5
    assert "cell: 1, 1.5000 / 1.5000 / 1.5000 / 1.5000 s" in captured.err
