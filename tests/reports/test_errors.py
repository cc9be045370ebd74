"""One shape of error object, whoever writes it: every ``--json`` command given bad input
(a bad deal, a bad flag, a bug), every ``decide --batch`` error line and every error of
the web page's routes validate against :data:`crewcheck.reports.errors.ERROR_SCHEMA`."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from crewcheck.cli import main, one_line
from crewcheck.reports.errors import ERROR_SCHEMA, error_object, error_to_dict, internal_error_to_dict

ROOT = Path(__file__).resolve().parents[2]
FIGURE1 = str(ROOT / "models" / "deals" / "reiber-figure-1.json")
SMALL = {"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}
VALIDATOR = Draft202012Validator(ERROR_SCHEMA)


def valid(error: Any) -> dict[str, Any]:
    """``error`` if it is an error object of the one shape (else the test fails naming why)."""
    problems = [e.message for e in VALIDATOR.iter_errors(error)]
    assert not problems, (problems, error)
    assert "\n" not in error["line"] and "\n" not in error["message"]
    return error  # type: ignore[no-any-return]


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def test_the_schema_checks_something() -> None:
    """A writer that drifts (a missing field, a field of its own) is caught."""
    assert list(VALIDATOR.iter_errors({"type": "usage", "message": "x"}))
    assert list(VALIDATOR.iter_errors({**error_object("X", "y"), "extra": 1}))
    with pytest.raises(TypeError):
        error_object("X", "y", extra=1)
    valid(error_object("X", "y", field="f"))
    valid(internal_error_to_dict(RuntimeError("two\nlines")))
    assert error_to_dict(ValueError("v"))["input_error"] is False


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**SMALL, "lead": 9}))
    good = tmp_path / "good.json"
    good.write_text(json.dumps(SMALL))
    model = tmp_path / "model.txt"
    model.write_text("v x y z\n")
    cert = tmp_path / "x.cert"
    cert.write_text("p cnf 1 1\n1 0\n")
    return {"bad": str(bad), "good": str(good), "model": str(model), "cert": str(cert), "dir": str(tmp_path)}


COMMANDS = [
    ["decide", "{bad}", "--json"],
    ["decide", "{good}", "--json", "--backend", "nope"],
    ["decide", "{good}", "--json", "--timeout", "x"],
    ["validate", "{bad}", "--json"],
    ["analyse", "{bad}", "--json"],
    ["review", "{bad}", "--json"],
    ["decode", "{good}", "{model}", "--json"],
    ["check", "{bad}", "{cert}", "--json"],
    ["check", "{good}", "{dir}", "--json"],
    ["prove", "nope", "--json"],
    ["prove", "--json", "--records-only", "--quick"],
    ["backends", "--json", "--bogus"],
    ["missions", "--json", "--bogus"],
    ["draw", "{bad}", "--json"],
    ["bench", "agents", "--json", "--deals", "x"],
    ["bench", "deepsea", "--json", "--games", "x"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(a[:2]) for a in COMMANDS])
def test_every_json_command_writes_the_one_error_object(argv: list[str], files: dict[str, str]) -> None:
    code, out, err = run([a.format(**files) for a in argv])
    assert code == 2, err
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    error = valid(json.loads(lines[0])["error"])
    assert error["input_error"] is True and one_line(error["line"])[:60] in err


def test_a_bug_is_an_internal_error_object(files: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    from crewcheck.cli import decide as cli_decide

    def broken(*a: object, **k: object) -> None:
        raise RuntimeError("a bug\nover two lines")

    monkeypatch.setattr(cli_decide, "decide", broken)
    code, out, _ = run(["decide", files["good"], "--json"])
    error = valid(json.loads(out)["error"])
    assert code == 4 and error["type"] == "InternalError" and error["input_error"] is False


def test_every_batch_error_line_is_the_one_error_object(tmp_path: Path) -> None:
    path = tmp_path / "deals.jsonl"
    path.write_text("\n".join([json.dumps({"id": "a", **SMALL, "lead": 9}), "[]", "{", json.dumps(SMALL)]) + "\n")
    code, out, _ = run(["decide", "--batch", str(path), "--workers", "0", "--no-progress"])
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and len(rows) == 4 and "verdict" in rows[3]
    for row in rows[:3]:
        valid(row["error"])


# -- the web page ---------------------------------------------------------------------------
@pytest.fixture
def web() -> Any:
    pytest.importorskip("flask")
    from crewcheck.web.app import create_app
    from crewcheck.web.jobs import Jobs

    app = create_app(jobs=Jobs(1), timeout=1.0)
    app.config["CREWCHECK_HOSTS"] = {"localhost"}  # the test client's host (loopback_hosts adds a port)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    yield app
    app.extensions["crewcheck_jobs"].shutdown()


def _routes(app: Any, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, Any]]:
    """(expected status, response) of every kind of error the routes answer."""
    from crewcheck.web import app as web_app
    from crewcheck.web.jobs import Busy, QueueFull

    client = app.test_client()
    local = {"Host": "localhost"}
    out = [
        (400, client.post("/api/deal", json={"deal": {**SMALL, "lead": 9}}, headers=local)),
        (400, client.post("/api/deal", json={"deal": {**SMALL, "conditions": [{"kind": ["x"]}]}}, headers=local)),
        (400, client.post("/api/new", json={"game": "nope"}, headers=local)),
        (400, client.post("/api/jobs", json={"kind": "nope", "deal": SMALL}, headers=local)),
        (404, client.get("/api/examples/nope", headers=local)),
        (404, client.get("/api/jobs/nope", headers=local)),
        (404, client.open("/api/nope", method="OPTIONS", headers=local)),
        (405, client.get("/api/deal", headers=local)),
        (413, client.post("/api/deal", data=b"{" + b" " * (1 << 17) + b"}", content_type="application/json",
                          headers=local)),
        (415, client.post("/api/deal", data=b"{}", content_type="text/plain", headers=local)),
        (403, client.get("/api/examples", headers={"Host": "attacker.example"})),
    ]
    runner = app.extensions["crewcheck_jobs"]

    class FakeJob:
        id, kind = "job-1", "decide"

    for status, error in ((409, Busy(FakeJob())), (429, QueueFull(3))):  # type: ignore[arg-type]
        def refuse(*a: object, error: Exception = error, **k: object) -> None:
            raise error

        monkeypatch.setattr(runner, "submit", refuse)
        out.append((status, client.post("/api/jobs", json={"kind": "decide", "deal": SMALL}, headers=local)))

    def broken(*a: object, **k: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(web_app.forms, "load", broken)
    out.append((500, client.post("/api/deal", json={"deal": SMALL}, headers=local)))
    return out


def test_every_route_writes_the_one_error_object(web: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    for status, got in _routes(web, monkeypatch):
        assert got.status_code == status, (status, got.data[:200])
        error = valid(got.get_json()["error"])
        assert error["input_error"] is (status < 500 and status not in (409, 429)), error


def test_a_failed_job_carries_the_one_error_object() -> None:
    """A job's error (polled as ``error``) comes from the same writer."""
    pytest.importorskip("flask")
    from crewcheck.web.jobs import Jobs

    jobs = Jobs(1)
    try:
        def work(cancelled: object, progress: object) -> dict[str, Any]:
            raise RuntimeError("a bug")

        job = jobs.submit("client", "decide", work)
        for _ in range(500):
            if job.to_dict()["state"] not in ("queued", "running"):
                break
            import time

            time.sleep(0.01)
        valid(job.to_dict()["error"])
    finally:
        jobs.shutdown()
