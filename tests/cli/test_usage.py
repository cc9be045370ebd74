"""Usage errors, help texts, internal errors in --json mode and the back-end listing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crewcheck.cli import main

ROOT = Path(__file__).resolve().parents[2]
FIGURE1 = str(ROOT / "models" / "deals" / "reiber-figure-1.json")


@pytest.mark.parametrize("argv", [
    ["decide", "--frob"], ["decide", "--timeout", "x", FIGURE1], [], ["nonsense"], ["bench"], ["reduce"],
    ["simulate", "--players", "7"], ["bench", "agents", "--workers", "0"]])
def test_a_usage_error_is_one_line_with_a_hint(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """argparse printed the usage block and the error (4 lines); now one line ending in
    where to look, exit 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and ": error: " in err[0] and "--help')" in err[0]


def test_a_usage_error_in_json_mode_is_a_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["decide", FIGURE1, "--json", "--frob"]) == 2
    payload = json.loads(capsys.readouterr().out)
    assert payload["error"]["type"] == "UsageError" and "--frob" in payload["error"]["message"]


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "-inf", "1e999", "abc", ""])
def test_timeout_must_be_a_positive_finite_number(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    """--timeout 0, negatives, nan and infinity are refused with exit 2 (no back-end gets
    to read them its own way)."""
    assert main(["decide", FIGURE1, f"--timeout={value}"]) == 2
    err = capsys.readouterr().err
    assert "argument --timeout: expected a positive number of seconds or 'none'" in err


@pytest.mark.parametrize("value", ["none", "None", "2", "0.5"])
def test_timeout_accepts_seconds_or_none(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["decide", FIGURE1, "--timeout", value]) == 0


def test_an_internal_error_in_json_mode_prints_a_json_object(monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """A bug (not bad input) is exit 4; in --json mode stdout still gets one JSON object."""
    import crewcheck.cli.decide as cli_decide

    def broken(*args: object, **kw: object) -> None:
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(cli_decide, "decide", broken)
    assert main(["decide", FIGURE1, "--json"]) == 4
    captured = capsys.readouterr()
    payload = json.loads(captured.out)
    assert payload["error"]["type"] == "InternalError" and "boom" in payload["error"]["message"]
    assert len(captured.err.splitlines()) == 1


@pytest.mark.parametrize(("argv", "needle"), [
    (["simulate", "--tasks", "-1"], "argument --tasks: expected a whole number from 0"),
    (["simulate", "--deck", "3x6+R0"], "unknown deck '3x6+R0'"),
    (["simulate", "--deck", "3x5000"], "limit of 4096 cards"),
    (["simulate", "--seed", "1.5"], "argument --seed: expected a whole number"),
    (["simulate", "--tasks", "99"], "99 tasks asked for"),
    (["bench", "agents", "--seed", "1.5"], "argument --seed: expected a whole number"),
    (["bench", "agents", "--oracle-timeout", "0"], "argument --oracle-timeout"),
    (["bench", "agents", "--tasks", "1..100000000000"], "--tasks"),
    (["bench", "agents", "--deals", "0"], "argument --deals"),
])
def test_simulate_and_bench_refuse_bad_values(argv: list[str], needle: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """These exited 4 (an internal error) or were accepted (``--seed 1.5``)."""
    assert main(argv) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and needle in err[0]


@pytest.mark.parametrize("command", ["simulate", "decide", "validate", "backends"])
def test_every_option_has_a_description(command: str) -> None:
    """``simulate --help`` listed its options with no word about them."""
    from crewcheck.cli import build_parser

    parser = build_parser()
    sub = parser._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    for action in sub._actions:
        assert action.help, f"{command} {action.option_strings or action.dest} has no help"
    assert sub.description


@pytest.mark.parametrize("argv", [["bench", "--help"], ["bench", "agents", "--help"], ["--help"]])
def test_help_has_no_raw_rst(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(argv)
    out = capsys.readouterr().out
    assert "``" not in out and ":func:" not in out


def test_backends_says_when_the_kernel_runs_as_plain_python(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Without numba the search is installed but limited, and so is the engine; the
    engine without PySAT says it has no SAT side."""
    from crewcheck.runtime import kernels
    from crewcheck.solvers.logic import sat_process

    kernels.numba_missing.cache_clear()
    monkeypatch.setattr(kernels, "numba_missing", lambda: "numba is not installed: pip install numba")
    monkeypatch.setattr(sat_process, "available", lambda: "the SAT side needs python-sat")
    assert main(["backends", "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)["backends"]}
    assert "plain-Python kernel" in rows["search"]["limited"] and "numba" in rows["search"]["limited"]
    assert "plain-Python kernel" in rows["engine"]["limited"] and "no SAT side" in rows["engine"]["limited"]
    assert rows["engine"]["aliases"] == ["portfolio"] and rows["exhaustive"]["limited"] is None
    assert main(["backends"]) == 0
    text = capsys.readouterr().out
    engine = next(ln for ln in text.splitlines() if ln.startswith("engine (portfolio)"))
    assert " limited " in engine and "installed" not in engine


def test_backends_full_strength_is_installed(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from crewcheck.runtime import kernels
    from crewcheck.solvers.logic import sat_process

    monkeypatch.setattr(kernels, "numba_missing", lambda: None)
    monkeypatch.setattr(sat_process, "available", lambda: None)
    assert main(["backends", "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)["backends"]}
    assert rows["search"]["limited"] is None and rows["engine"]["limited"] is None


def test_numba_missing_reports_a_failing_import(monkeypatch: pytest.MonkeyPatch) -> None:
    """numba installed but broken (say, a numpy it does not support) is reported, not raised."""
    import builtins

    from crewcheck.runtime import kernels

    real_import = builtins.__import__

    def fake_import(name: str, *args: object, **kw: object) -> object:
        if name == "numba":
            raise RuntimeError("Numba needs NumPy 2.0 or less")
        return real_import(name, *args, **kw)  # type: ignore[arg-type]

    kernels.numba_missing.cache_clear()
    monkeypatch.setattr(builtins, "__import__", fake_import)
    try:
        assert "fails to import" in (kernels.numba_missing() or "")
    finally:
        kernels.numba_missing.cache_clear()
