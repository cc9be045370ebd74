"""Bounds and checks a hostile user found missing on ``crewcheck serve``'s routes (Flask
test client): a condition kind that is no string and too many conditions are one-line
errors naming the field, a line of ``crewcheck deals`` is a deal, and ``OPTIONS`` answers
with the methods. The command line's side is in ``tests/cli/test_hostile_bounds.py``."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("flask")

from crewcheck.cli import main  # noqa: E402
from crewcheck.model.limits import MAX_CONDITIONS  # noqa: E402
from crewcheck.web.app import create_app  # noqa: E402
from crewcheck.web.jobs import Jobs  # noqa: E402

SMALL = {"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}
NO_TRICK = {"kind": "wins_no_tricks", "seat": 1}


@pytest.fixture
def client() -> Iterator[Any]:
    """A test client of the application with one worker, shut down after the test."""
    app = create_app(jobs=Jobs(1), timeout=1.0)
    try:
        yield app.test_client()
    finally:
        app.extensions["crewcheck_jobs"].shutdown()


def test_a_condition_kind_that_is_no_string_on_the_web(client: Any) -> None:
    """A condition kind that is a list or an object is a 400 naming ``conditions[0].kind``;
    more conditions than the limit are refused."""
    for kind in (["x"], {"a": 1}):
        got = client.post("/api/deal", json={"deal": {**SMALL, "conditions": [{"kind": kind}]}})
        assert got.status_code == 400
        assert got.get_json()["error"]["field"] == "conditions[0].kind"
    got = client.post("/api/deal", json={"deal": {**SMALL, "conditions": [NO_TRICK] * (MAX_CONDITIONS + 1)}})
    assert got.status_code == 400 and "more than the limit" in got.get_json()["error"]["message"]


def test_a_line_of_deals_posted_is_a_deal(client: Any, tmp_path: Path) -> None:
    """A line ``crewcheck deals`` writes (with its ``id``), posted as the deal, is decided."""
    lines = tmp_path / "deals.jsonl"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["deals", "--players", "3", "--tasks", "1", "--count", "1", "-o", str(lines)]) == 0
    line = lines.read_text().splitlines()[0]
    assert json.loads(line)["id"]
    got = client.post("/api/deal", json={"deal": line})
    assert got.status_code == 200, got.get_json()


def test_options_on_the_api_answers_with_the_methods(client: Any) -> None:
    """``OPTIONS /api/*`` answered an empty HTML page."""
    got = client.open("/api/deal", method="OPTIONS")
    assert got.status_code == 204 and got.headers["Allow"] == "OPTIONS, POST" and got.data == b""
    got = client.open("/api/examples", method="OPTIONS")
    assert "GET" in got.headers["Allow"]
    got = client.open("/api/nope", method="OPTIONS")
    assert got.status_code == 404 and got.get_json()["error"]["type"] == "RequestError"
