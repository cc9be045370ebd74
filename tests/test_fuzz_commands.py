"""A bounded fuzz of every command and web route with hostile input (CI; a few seconds).

Each command of the README's exit-code table runs in this process on inputs drawn from
:mod:`tests.fuzz_inputs` (mutated and malformed deal files, devices, a named pipe, solver
models, graphs, numbers in forms ``int()`` would take): it must exit with a code its
row lists, print no traceback and no "internal error", and write at most one line on
stderr when it fails. Every web route answers below 500 with JSON, an ``error`` object
for a 4xx. ``benchmarks/scripts/fuzz_commands.py`` runs the same generator much longer, as real
processes with a time limit each (hangs included).
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from crewcheck.cli import main
from tests import fuzz_inputs
from tests.fuzz_inputs import COMMANDS, ROOT, case, documented_codes, request

DOCUMENTED = documented_codes((ROOT / "README.md").read_text(encoding="utf-8"))


def run_case(c: fuzz_inputs.Case, tmp: str) -> tuple[int, str, str]:
    """Write the case's files into ``tmp`` and run it through :func:`main`."""
    paths = {name: os.path.join(tmp, name) for name in c.files}
    for name, data in c.files.items():
        Path(paths[name]).write_bytes(data)
    fifo = os.path.join(tmp, "fifo")
    if not os.path.exists(fifo) and hasattr(os, "mkfifo"):
        os.mkfifo(fifo)
    paths["fifo"] = fifo
    paths["out"] = os.path.join(tmp, "out")
    argv = [a.format(**paths) if a.startswith("{") and a.endswith("}") else a for a in c.argv]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def test_the_table_has_a_row_for_every_command() -> None:
    assert set(DOCUMENTED) == set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_fuzz_every_command(command: str, seed: int) -> None:
    c = case(command, random.Random(seed))
    note(f"argv {c.argv}; files {dict((k, v[:300]) for k, v in c.files.items())}")
    with tempfile.TemporaryDirectory() as tmp:
        code, out, err = run_case(c, tmp)
    note(f"exit {code}; stderr {err[:500]!r}")
    assert code in DOCUMENTED[command], f"exit {code} is not in the README's row for {command}"
    assert "Traceback" not in err and "internal error" not in err and "InternalError" not in out
    if code == 2:
        assert len(err.splitlines()) <= 1 or command == "decide --batch", err


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_fuzz_the_bounds(seed: int) -> None:
    """Conditions repeated past their bound, kinds that are no string, a resume with
    another input's record, outputs nothing can be written to: a code of the command's
    row, one line on stderr for an error, never an internal error."""
    c = fuzz_inputs.bounds_case(random.Random(seed))
    note(f"argv {c.argv}; files {dict((k, v[:300]) for k, v in c.files.items())}")
    with tempfile.TemporaryDirectory() as tmp:
        code, out, err = run_case(c, tmp)
    note(f"exit {code}; stderr {err[:500]!r}")
    assert code in DOCUMENTED[c.command], f"exit {code} is not in the README's row for {c.command}"
    assert "Traceback" not in err and "internal error" not in err and "InternalError" not in out
    ran = "--batch" in c.argv and "crewcheck: decided " in err  # its bad lines are in its --out file
    if code == 2 and not out and not ran:
        assert len(err.splitlines()) == 1, err


def test_stdin_from_a_device_and_an_empty_claim_name() -> None:
    """Regressions: ``analyse - </dev/zero`` grew to 7.6 GB; ``prove ""`` ran every claim;
    ``mission ٣`` was mission 3."""
    code, _, err = run_case(fuzz_inputs.Case("prove", ["prove", ""]), tempfile.gettempdir())
    assert code == 2 and "empty claim name" in err
    code, _, err = run_case(fuzz_inputs.Case("mission", ["mission", "٣"]), tempfile.gettempdir())
    assert code == 2 and "mission number" in err




@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_fuzz_every_route(web_client, seed: int) -> None:
    r = request(random.Random(seed))
    note(f"{r.method} {r.path[:200]} {r.content_type} {(r.body or b'')[:300]!r}")
    got = web_client.open(r.path, method=r.method, data=r.body, content_type=r.content_type)
    note(f"status {got.status_code} {got.data[:300]!r}")
    assert got.status_code < 500
    if r.path.startswith("/api/") or got.status_code >= 400:
        body = got.get_json(silent=True)
        assert isinstance(body, dict), got.data[:200]
        if got.status_code >= 400:
            assert "error" in body and "\n" not in body["error"]["message"]


@pytest.fixture(scope="module")
def web_client():
    pytest.importorskip("flask")
    from crewcheck.web.app import COOKIE, create_app
    from crewcheck.web.jobs import Jobs

    app = create_app(jobs=Jobs(1, abandon_after=5), examples=ROOT / "models" / "deals", timeout=1.0)
    client = app.test_client()
    client.set_cookie(COOKIE, "fuzz")
    yield client
    app.extensions["crewcheck_jobs"].shutdown()


def test_show_a_free_assignment_deal_with_a_history(tmp_path: Path) -> None:
    """Found by this fuzz: ``show`` replayed the history as a whole game, which under free
    assignment wants every task's seat (internal error, exit 4)."""
    deal = tmp_path / "deal.json"
    deal.write_bytes(fuzz_inputs.SEED_DEALS[5])
    code, out, err = run_case(fuzz_inputs.Case("show", ["show", str(deal)]), str(tmp_path))
    assert code == 0 and "now:  R2" in out, err


def test_a_mission_that_cannot_be_written_says_one_line() -> None:
    """Regression: ``mission 12 -o /dev/full`` printed its "not modelled" note before the
    write's error, two lines for an error."""
    code, _, err = run_case(fuzz_inputs.Case("mission", ["mission", "12", "-o", "/dev/full"]), tempfile.gettempdir())
    assert code == 2 and err.splitlines() == [err.strip()] and "cannot write" in err
