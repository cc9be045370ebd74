"""Hostile input through the command line: a committed corpus of reproducers and a fuzz
test over mutated deal files and batch files.

Whatever the bytes, ``crewcheck decide`` exits 0, 1, 2 or 3, never prints a traceback,
writes at most one line on stderr, and never gives a verdict for a deal that
``crewcheck validate`` rejects. ``--batch`` answers every line and ends with its summary.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from crewcheck.cli import main

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "data" / "hostile"
EXPECTED: dict[str, str] = json.loads((HOSTILE / "expected.json").read_text())
SMALL_DEALS = [ROOT / "models" / "deals" / name for name in (
    "reiber-figure-1.json", "witteveen-2p-1-task.json", "unwinnable-commander-wins-all.json",
    "reiber-single-value.json", "reiber-single-suit-owned.json")]
SEEDS = [p.read_bytes() for p in SMALL_DEALS] + [
    b'{"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}',
    b'{"deck": {"B": 2, "R": 2}, "hands": [["B1", "R2"], ["B2", "R1"]], "trump": "R", "lead": "rocket", '
    b'"tasks": [{"card": "B2", "token": "1"}], "assignment": "free", "played": [], '
    b'"current": {"lead": 0, "cards": ["R2"]}}',
]


def run(argv: list[str]) -> tuple[int, str, str]:
    """``main(argv)`` in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


# -- the corpus ----------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("command", ["decide", "validate"])
def test_hostile_file_is_one_line_exit_2(name: str, command: str) -> None:
    """Each hostile deal file is bad input: exit 2, one line naming the problem (and
    the field), never the internal error of exit 4."""
    path = str(HOSTILE / name)
    code, out, err = run([command, path])
    assert code == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"crewcheck: error: {path}: "), err
    assert EXPECTED[name] in lines[0]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_file_in_json_mode_is_an_error_object(name: str) -> None:
    """With --json the same problem is one JSON error object on stdout."""
    code, out, err = run(["decide", str(HOSTILE / name), "--json"])
    assert code == 2
    payload = json.loads(out)
    assert set(payload["error"]) == {"type", "field", "message", "line", "input_error"}
    assert payload["error"]["input_error"] is True
    assert payload["error"]["type"].endswith("Error") and payload["error"]["type"] != "InternalError"


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/urandom", "/dev/null", "."])
def test_a_file_that_is_not_regular_is_refused_at_once(path: str) -> None:
    """Devices and directories are refused before a byte is read (``/dev/zero`` would
    give 3.7 GB, ``/dev/urandom`` never end)."""
    if not os.path.exists(path):
        pytest.skip(f"no {path} here")
    code, _, err = run(["decide", path])
    assert code == 2 and "not a regular file" in err and len(err.splitlines()) == 1


def test_a_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    """A deal file larger than MAX_DEAL_BYTES is refused without being parsed."""
    from crewcheck.formats.reading import MAX_DEAL_BYTES

    path = tmp_path / "big.json"
    path.write_bytes(b" " * (MAX_DEAL_BYTES + 1) + b"{}")
    code, _, err = run(["decide", str(path)])
    assert code == 2 and "larger than the limit" in err


def test_batch_keeps_every_good_line_after_bad_ones() -> None:
    """A batch with a 4,301-digit number, deep nesting and a stray byte between good
    lines answers all five lines, in order, and ends with its summary (exit 2)."""
    code, out, err = run(["decide", "--batch", str(HOSTILE / "batch-mixed.jsonl")])
    assert code == 2
    results = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in results] == [1, 2, 3, 4, 5]
    assert results[0]["verdict"] == "winnable" and results[4]["verdict"] == "unwinnable"
    assert [r["id"] for r in results if "id" in r] == ["good/1", "good/5"]
    assert all("error" in r for r in results[1:4])
    assert results[1]["error"]["field"] == "tasks[0].seat"
    assert "Traceback" not in err
    assert err.splitlines()[-1].startswith("crewcheck: decided 5 deal(s)") and "3 bad input" in err


def test_batch_line_over_the_size_limit_is_one_error(tmp_path: Path) -> None:
    """A line longer than the limit is skipped as one bad line; the next line is decided."""
    from crewcheck.formats.reading import MAX_DEAL_BYTES

    path = tmp_path / "long.jsonl"
    path.write_bytes(b"[" * (MAX_DEAL_BYTES + 10) + b"\n" + SEEDS[-2] + b"\n")
    code, out, err = run(["decide", "--batch", str(path)])
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and [r["line"] for r in results] == [1, 2]
    assert "longer than the limit" in results[0]["error"]["message"]
    assert results[1]["verdict"] == "winnable"


def test_batch_file_that_cannot_be_read_is_refused_before_any_line(tmp_path: Path) -> None:
    """A missing batch file among several: one line, exit 2, before any worker starts
    (nothing decided, no summary of a run that never began)."""
    good = tmp_path / "good.jsonl"
    good.write_bytes(SEEDS[-2] + b"\n")
    code, out, err = run(["decide", "--batch", str(good), str(tmp_path / "missing.jsonl")])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "missing.jsonl: cannot read file" in err


# -- the fuzz test -------------------------------------------------------------------
_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.integers() | st.floats(allow_nan=False)
    | st.sampled_from(["B1", "B4\n", "R0", "b2", "X", "", "rocket", "any", "omega", "1", ">>", "free",
                       "strict", "classic"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["hands", "tasks", "card", "seat", "token", "deck", "lead", "trump", "B", "x"]),
        inner, max_size=4),
    max_leaves=12)
_TEXT_SNIPPETS = st.sampled_from([
    b"\xff", b"\x00", b"NaN", b"1e999", b"-0", b"9" * 40, b"1" * 4301, b"[" * 40, b"{", b"}", b",", b'"',
    b"\\", b"\n", b"\\ud800", b'"seat": 1, "seat": 2', b"true", b"2.0"])


@st.composite
def mutated_deal(draw: st.DrawFn) -> bytes:
    """A deal file after a few random edits: of the JSON tree (a value replaced, a key
    dropped or added) or of the bytes (a snippet inserted, a slice cut)."""
    base = draw(st.sampled_from(SEEDS))
    data = json.loads(base)
    for _ in range(draw(st.integers(0, 3))):
        node = data
        path = []
        while isinstance(node, (dict, list)) and node and draw(st.booleans()):
            key = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else list(range(len(node)))))
            path.append((node, key))
            node = node[key]
        action = draw(st.sampled_from(["replace", "drop", "add"]))
        if path and action == "replace":
            parent, key = path[-1]
            parent[key] = draw(_JSON_VALUES)
        elif path and action == "drop":
            parent, key = path[-1]
            del parent[key]
        elif isinstance(node, dict):
            node[draw(st.sampled_from(["hands", "tasks", "deck", "lead", "trump", "played", "extra"]))] = \
                draw(_JSON_VALUES)
        elif isinstance(node, list):
            node.append(draw(_JSON_VALUES))
    text = json.dumps(data).encode()
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(text)))
        if draw(st.booleans()):
            text = text[:at] + draw(_TEXT_SNIPPETS) + text[at:]
        else:
            text = text[:at] + text[at + draw(st.integers(1, 8)):]
    return text


def _check_decide(path: str) -> None:
    code, out, err = run(["decide", path, "--timeout", "2"])
    note(f"decide: exit {code}, stderr {err!r}")
    assert code in (0, 1, 2, 3)
    assert "Traceback" not in err and len(err.splitlines()) <= 1
    valid, _, verr = run(["validate", path])
    assert valid in (0, 2) and len(verr.splitlines()) <= 1
    if code in (0, 1, 3):
        assert valid == 0, "a verdict for a deal the validator rejects"
    if valid == 2:
        assert code == 2


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated_deal())
def test_fuzz_decide_never_crashes(data: bytes) -> None:
    """Mutated deal files: exit 0/1/2/3 only, no traceback, at most one stderr line, and a
    verdict only for a deal the validator accepts."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "deal.json")
        with open(path, "wb") as f:
            f.write(data)
        _check_decide(path)


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(mutated_deal() | st.binary(max_size=40), min_size=1, max_size=4))
def test_fuzz_batch_answers_every_line(lines: list[bytes]) -> None:
    """Mutated batch files: every non-blank line gets one JSON object (a result or an
    error), in order, and stderr ends with the summary; exit 0 or 2, no traceback."""
    data = b"\n".join(lines)
    expected = [n for n, line in enumerate(data.split(b"\n"), 1) if line.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "deals.jsonl")
        with open(path, "wb") as f:
            f.write(data)
        code, out, err = run(["decide", "--batch", path, "--timeout", "2"])
    note(f"batch: exit {code}, stderr {err!r}")
    assert code in (0, 2)
    assert "Traceback" not in err
    results = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in results] == expected
    assert all(("verdict" in r) != ("error" in r) for r in results)
    assert err.splitlines()[-1].startswith(f"crewcheck: decided {len(expected)} deal(s)")


def test_an_error_quoting_a_huge_token_stays_short(tmp_path: Path) -> None:
    """``decode`` quoted a 5,000-digit literal of a model file in full."""
    model = tmp_path / "model.txt"
    model.write_text("s SATISFIABLE\nv " + "1" * 5000 + " 0\n")
    code, _, err = run(["decode", str(SMALL_DEALS[0]), str(model)])
    assert code == 2 and len(err.splitlines()) == 1 and len(err) < 400
