"""Bounds and checks a hostile user found missing: a resume that checks its input, a bound
on conditions, path arguments checked before they are opened, condition fields checked by
type, and one-line messages that say what is wrong. Each test is the regression test of
one finding; they run in this process (a subprocess where a hang is the failure). The web
routes' side is in ``tests/web/test_hostile_bounds.py``."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from crewcheck.cli import main, time_left
from crewcheck.formats import deal_json
from crewcheck.model.limits import MAX_CONDITIONS, MAX_CONDITIONS_BYTES

ROOT = Path(__file__).resolve().parents[2]
SMALL = {"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}
CLASSIC = json.loads((ROOT / "models" / "deals" / "classic-3p-14-13-13.json").read_text())
NO_TRICK = {"kind": "wins_no_tricks", "seat": 1}


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def one_error(got: tuple[int, str, str], needle: str) -> None:
    code, _, err = got
    assert code == 2, err
    assert len(err.splitlines()) == 1 and needle in err, err
    assert "internal error" not in err and "Traceback" not in err


def _lines(path: Path, deals: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps({"id": f"cell/{k}", **d}) + "\n" for k, d in enumerate(deals)))
    return path


def _deals(seats: list[int]) -> list[dict[str, object]]:
    return [{**SMALL, "tasks": [{"card": "B3", "seat": s}]} for s in seats]


# -- resume checks the input --------------------------------------------------------------
def test_resume_with_the_out_file_of_another_input_is_refused(tmp_path: Path) -> None:
    """The results of another file with the same ids and line numbers stood in for this
    file's first lines, which were never decided."""
    first = _lines(tmp_path / "first.jsonl", _deals([0, 0]))
    other = _lines(tmp_path / "other.jsonl", _deals([1, 1, 0]))
    out = tmp_path / "out.jsonl"
    assert run(["decide", "--batch", str(first), "--out", str(out), "--workers", "0", "--no-progress"])[0] == 0
    assert all("digest" in json.loads(line) for line in out.read_text().splitlines())
    before = out.read_text()
    one_error(run(["decide", "--batch", str(other), "--out", str(out), "--resume", "--workers", "0"]),
              "is for another line than input line")
    assert out.read_text() == before


def test_resume_of_an_out_file_nested_past_the_parser_is_refused(tmp_path: Path) -> None:
    """A record line nested deeper than the JSON parser goes (found by the fuzz test):
    one line, exit 2, never an internal error."""
    deals, out = tmp_path / "d.jsonl", tmp_path / "o.jsonl"
    deals.write_text(json.dumps(SMALL) + "\n")
    out.write_text("[" * 100_000 + "\n")
    code, _, err = run(["decide", "--batch", str(deals), "--out", str(out), "--resume", "--no-progress"])
    assert code == 2 and "not a result of decide --batch" in err and "internal error" not in err
    assert len(err.strip().splitlines()) == 1


def test_resume_of_the_same_input_goes_on(tmp_path: Path) -> None:
    """The check lets the run's own input through: the lines decided stay, the rest follow."""
    deals = _deals([0, 1, 0])
    path = _lines(tmp_path / "deals.jsonl", deals)
    out = tmp_path / "out.jsonl"
    _lines(tmp_path / "head.jsonl", deals[:2])
    assert run(["decide", "--batch", str(tmp_path / "head.jsonl"), "--out", str(out), "--workers", "0",
                "--no-progress"])[0] == 0
    code, _, err = run(["decide", "--batch", str(path), "--out", str(out), "--resume", "--workers", "0",
                        "--no-progress"])
    assert code == 0, err
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["id"], r["line"], r["verdict"]) for r in rows] == [(f"cell/{k}", k + 1, "winnable") for k in range(3)]


def test_an_out_file_without_digests_is_refused_clearly(tmp_path: Path) -> None:
    """Results written before they carried a digest cannot be matched with the input."""
    path = _lines(tmp_path / "deals.jsonl", _deals([0]))
    out = tmp_path / "out.jsonl"
    out.write_text(json.dumps({"schema": "crewcheck-result/1", "verdict": "winnable", "id": "cell/0", "line": 1,
                               "seconds": 0, "stats": {"nodes": 0}}) + "\n")
    one_error(run(["decide", "--batch", str(path), "--out", str(out), "--resume", "--workers", "0"]),
              "carries no digest of its input line")


# -- a bound on conditions ------------------------------------------------------------------
def test_too_many_conditions_are_refused_before_any_is_read(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """23,000 copies of one condition took 91 s to validate: the count is checked first
    (the schema's validator, the slow step, is never reached)."""
    monkeypatch.setattr(deal_json, "_validator", lambda: pytest.fail("the schema was checked first"))
    path = tmp_path / "deal.json"
    path.write_text(json.dumps({**SMALL, "conditions": [NO_TRICK] * (MAX_CONDITIONS + 1)}))
    for command in ("validate", "decide", "show", "analyse"):
        one_error(run([command, str(path)]), f"conditions: {MAX_CONDITIONS + 1} conditions is more than the limit")


def test_an_instance_built_in_python_is_bounded_too() -> None:
    """The library's constructor holds the same count as the deal reader."""
    from dataclasses import replace

    from crewcheck.errors import InvalidDealError

    deal = deal_json.from_dict({**SMALL, "conditions": [NO_TRICK]})
    with pytest.raises(InvalidDealError, match="more than the limit of"):
        replace(deal, conditions=deal.conditions * (MAX_CONDITIONS + 1))


def test_conditions_over_the_size_limit_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    big = {"kind": "wins_cards", "seat": 0, "cards": ["B1"] * (MAX_CONDITIONS_BYTES // 4)}
    path.write_text(json.dumps({**SMALL, "conditions": [big]}))
    one_error(run(["validate", str(path)]), "bytes of conditions is more than the limit")


def test_conditions_are_not_checked_one_by_one_by_the_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    """The schema's validator took milliseconds a condition (5.6 s for 500), then its
    findings about conditions were dropped: it no longer sees them."""
    real = deal_json._validator()
    seen: list[int] = []

    class Spy:
        def iter_errors(self, data: dict[str, object]) -> object:
            seen.append(len(data.get("conditions", [])))  # type: ignore[arg-type]
            return real.iter_errors(data)

    monkeypatch.setattr(deal_json, "_validator", Spy)
    instance = deal_json.from_dict({**CLASSIC, "conditions": [NO_TRICK] * MAX_CONDITIONS})
    assert len(instance.conditions) == MAX_CONDITIONS and seen == [0]


def test_the_text_output_counts_repeated_conditions(tmp_path: Path) -> None:
    """The text output printed every condition on one line (100 KB)."""
    path = tmp_path / "deal.json"
    varied = [{"kind": "wins_tricks", "seat": 0, "count": 1, "cmp": ">="}] * 3 + [
        {"kind": "wins_no_tricks", "seat": s % 2} for s in range(MAX_CONDITIONS - 3)]
    path.write_text(json.dumps({**SMALL, "conditions": varied}))
    code, out, err = run(["decide", str(path), "--backend", "exhaustive"])
    line = next(ln for ln in out.splitlines() if ln.startswith("conditions:"))
    assert len(line) < 500 and "(3 times)" in line, line


def test_the_budget_covers_reading_the_deal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--timeout 1`` answered after 28 s: the time spent reading the deal is taken off."""
    from crewcheck.cli import decide as cli_decide

    seen: list[float | None] = []
    load = deal_json.load_with_text

    def slow_load(path: str) -> object:
        time.sleep(0.4)
        return load(path)

    def spy(instance: object, **kw: object) -> object:
        seen.append(kw["timeout"])  # type: ignore[arg-type]
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_decide.deal_json, "load_with_text", slow_load)
    monkeypatch.setattr(cli_decide, "decide", spy)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(SMALL))
    run(["decide", str(path), "--timeout", "1"])
    assert seen and seen[0] is not None and seen[0] <= 0.65
    assert time_left(1.0, time.perf_counter() - 5) == pytest.approx(1e-3)
    assert time_left(None, 0.0) is None


# -- path arguments -------------------------------------------------------------------------
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_check_with_a_named_pipe_does_not_block(tmp_path: Path) -> None:
    """``crewcheck check DEAL FIFO`` blocked forever (the certificate was opened first)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    deal = tmp_path / "deal.json"
    deal.write_text(json.dumps(SMALL))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for argv in ([str(deal), str(fifo)], [str(fifo), str(deal)]):
        done = subprocess.run([sys.executable, "-m", "crewcheck", "check", *argv], capture_output=True, text=True,
                              env=env, timeout=60, stdin=subprocess.DEVNULL)
        assert done.returncode == 2 and "fifo: not a regular file" in done.stderr, done.stderr


@pytest.mark.parametrize("argv, needle", [
    (["--out", "/nonexistent/dir/f"], "--out: the folder of '/nonexistent/dir/f' does not exist"),
    (["--out", "/dev/full"], "--out: '/dev/full' is not a regular file"),
    (["--batch-file", "/proc/self/mem"], "/proc/self/mem: cannot read file"),
    (["--scheduler", "garbage"], "expected 'local' or a scheduler address"),
])
def test_batch_paths_and_scheduler_are_checked_before_workers_start(
        argv: list[str], needle: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each was an internal error (exit 4) reported after the workers had started."""
    if "/proc/self/mem" in argv and not os.path.exists("/proc/self/mem"):
        pytest.skip("/proc")
    from crewcheck.cli import batch

    monkeypatch.setattr(batch, "fan_out", lambda *a, **k: pytest.fail("workers started"))
    source = str(_lines(tmp_path / "deals.jsonl", _deals([0])))
    if argv[0] == "--batch-file":
        source, argv = argv[1], []
    one_error(run(["decide", "--batch", source, "--workers", "1", *argv]), needle)


def test_results_that_cannot_be_written_end_the_run_with_one_line(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A disk that fills during the run: one line, exit 2 (not an internal error)."""
    from crewcheck.cli import batch

    @contextlib.contextmanager
    def full(path: object) -> object:
        class Sink:
            def write(self, text: str) -> int:
                raise OSError(28, "No space left on device")

            def flush(self) -> None:
                pass
        yield Sink()

    monkeypatch.setattr(batch, "_output", full)
    source = str(_lines(tmp_path / "deals.jsonl", _deals([0])))
    code, _, err = run(["decide", "--batch", source, "--workers", "0", "--no-progress"])
    assert code == 2 and "cannot write the results: No space left on device" in err
    assert "internal error" not in err


@pytest.mark.parametrize("argv", [["encode", "{deal}", "-o", ""], ["deals", "-o", ""], ["mission", "3", "-o", ""],
                                  ["decide", "--batch", "{deal}", "--out", ""], ["reduce", "hampath", "{deal}", "-o", ""]])
def test_an_empty_output_name_is_refused(argv: list[str], tmp_path: Path) -> None:
    """``-o ""`` was accepted silently."""
    deal = tmp_path / "deal.json"
    deal.write_text(json.dumps(SMALL))
    one_error(run([str(deal) if a == "{deal}" else a for a in argv]), "expected a file name, got an empty one")


# -- condition fields by type -----------------------------------------------------------------
@pytest.mark.parametrize("kind", [["wins_no_tricks"], {"a": 1}, 5, None, True])
@pytest.mark.parametrize("command", ["validate", "decide", "show", "analyse", "encode"])
def test_a_condition_kind_that_is_no_string_is_one_line(kind: object, command: str, tmp_path: Path) -> None:
    """A kind that was a list or an object: "TypeError: unhashable type", exit 4."""
    path = tmp_path / "deal.json"
    path.write_text(json.dumps({**SMALL, "conditions": [{"kind": kind, "seat": 0}]}))
    one_error(run([command, str(path)]), "conditions[0].kind: expected a kind name (a string)")


# -- messages ---------------------------------------------------------------------------------
def test_a_bad_batch_line_error_carries_its_id(tmp_path: Path) -> None:
    path = tmp_path / "deals.jsonl"
    path.write_text(json.dumps({"id": "cell/7", **SMALL, "lead": 9}) + "\n")
    code, out, _ = run(["decide", "--batch", str(path), "--workers", "0", "--no-progress"])
    row = json.loads(out)
    assert code == 2 and row["id"] == "cell/7" and row["error"]["field"] == "lead"


def test_a_line_of_deals_saved_as_a_file_is_a_deal_file(tmp_path: Path) -> None:
    """``crewcheck deals | head -1 > d.json; crewcheck validate d.json``: "unknown key 'id'"
    (the web page's side is in ``tests/web/test_hostile_bounds.py``)."""
    lines = tmp_path / "deals.jsonl"
    assert run(["deals", "--players", "3", "--tasks", "1", "--count", "1", "-o", str(lines)])[0] == 0
    one = tmp_path / "one.json"
    one.write_text(lines.read_text().splitlines()[0])
    assert json.loads(one.read_text())["id"]
    assert run(["validate", str(one)])[0] == 0
    assert run(["decide", str(one), "--json"])[0] in (0, 1)
    one.write_text(json.dumps({**SMALL, "id": 5}))
    one_error(run(["validate", str(one)]), "id: expected a string")


def test_reduce_hampath_refuses_a_text_that_is_no_graph(tmp_path: Path) -> None:
    """Any text file became a graph of 0 edges, its lines copied into the deal's comment."""
    pytest.importorskip("networkx")
    secret = tmp_path / "passwd"
    secret.write_text("root:x:0:0:root:/root:/bin/bash\nalice:s3cret:1000:1000::/home/alice:/bin/sh\n")
    code, out, err = run(["reduce", "hampath", str(secret)])
    assert code == 2 and "not an edge list" in err and "s3cret" not in err + out and "root:" not in err
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    one_error(run(["reduce", "hampath", str(empty)]), "not a graph: no vertex")
    graph = tmp_path / "graph.txt"
    graph.write_text("a b\nb c\n")
    code, out, _ = run(["reduce", "hampath", str(graph)])
    assert code == 0 and "seat=vertex: 0=a, 1=b, 2=c" in json.loads(out)["comment"]


def test_the_oracle_does_not_point_at_a_search_that_refuses_too() -> None:
    """Too many conditions for the search's position key: the oracle said "use --backend
    search", which refused naming kinds it does decide; the refusal is about the count."""
    from crewcheck.solvers.exhaustive import ExhaustiveSolver

    few = deal_json.from_dict({**CLASSIC, "conditions": [NO_TRICK]})
    assert "(use --backend search)" in (ExhaustiveSolver().supports(few) or "")
    many = deal_json.from_dict({**CLASSIC, "conditions": [{"kind": "wins_no_tricks", "seat": s % 3}
                                                          for s in range(200)]})
    why = ExhaustiveSolver().supports(many) or ""
    assert "use --backend search" not in why and "not 200 conditions at once" in why, why
