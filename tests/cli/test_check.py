"""``crewcheck decide --certificate`` and ``crewcheck check``: files, one-line answers,
exit codes 0 / 1 / 2, the ``certificate`` field of ``--json`` and ``--batch``."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crewcheck.cli import main

pytest.importorskip("pysat")

ROOT = Path(__file__).resolve().parents[2]
LOST = str(ROOT / "models" / "deals" / "unwinnable-commander-wins-all.json")
WON = str(ROOT / "models" / "deals" / "classic-3p-14-13-13.json")
TOKENS = str(ROOT / "models" / "deals" / "classic-4p-10-tasks-tokens.json")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("deal,code", [(LOST, 1), (WON, 0)])
def test_decide_writes_a_certificate_that_checks(deal: str, code: int, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """decide exits with the verdict's code and names the certificate; check accepts it
    with one line and exit 0."""
    cert = str(tmp_path / "deal.cert")
    got, out, _ = _run(capsys, "decide", deal, "--certificate", cert)
    assert got == code
    assert f"certificate: {cert} (" in out
    got, out, err = _run(capsys, "check", deal, cert)
    assert got == 0, out + err
    assert out.count("\n") == 1 and out.startswith("accepted: ")


def test_json_and_compressed_certificates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--json gets a certificate field (file, kind, sizes, time after the decision); a .gz
    name is compressed and read back; check --json says accepted."""
    cert = tmp_path / "deal.cert.gz"
    code, out, _ = _run(capsys, "decide", LOST, "--certificate", str(cert), "--json")
    assert code == 1
    info = json.loads(out)["certificate"]
    assert info["file"] == str(cert) and info["kind"] == "drup" and info["verdict"] == "unwinnable"
    assert info["lemmas"] > 0 and info["bytes"] == cert.stat().st_size and info["seconds"] > 0
    assert gzip.decompress(cert.read_bytes()).startswith(b"c crewcheck certificate/1\n")
    code, out, _ = _run(capsys, "check", LOST, str(cert), "--json")
    assert code == 0 and json.loads(out)["accepted"] is True


def test_damaged_and_foreign_certificates_are_rejected(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A truncated file, a lemma removed from the end, another deal's certificate: exit 1
    and one line starting with 'rejected:'."""
    cert = tmp_path / "lost.cert"
    assert _run(capsys, "decide", LOST, "--certificate", str(cert))[0] == 1
    data = cert.read_bytes()
    truncated = tmp_path / "truncated.cert"
    truncated.write_bytes(data[: len(data) // 2])
    no_end = tmp_path / "no-end.cert"
    no_end.write_bytes(data[: data.rstrip(b"\n").rfind(b"\n") + 1])  # the empty clause removed
    for path, deal, why in ((truncated, LOST, ""), (no_end, LOST, "never derives the empty clause"),
                            (cert, TOKENS, "another deal")):
        code, out, err = _run(capsys, "check", deal, str(path))
        assert code == 1, out + err
        assert out.count("\n") == 1 and out.startswith("rejected: ") and why in out


@pytest.mark.parametrize("make,message", [
    (lambda p: p.write_text("p cnf 1 1\n1 0\n"), "not a crewcheck certificate"),
    (lambda p: None, "cannot read certificate"),
    (lambda p: p.mkdir(), "not a regular file"),
    (lambda p: p.write_bytes(b"\x1f\x8b\x08garbage"), "damaged gzip data"),
])
def test_bad_input_exits_2_with_one_line(make: object, message: str, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """A file that is no certificate, a missing file, a folder, broken gzip: exit 2, one line."""
    path = tmp_path / "x.cert"
    make(path)  # type: ignore[operator]
    code, out, err = _run(capsys, "check", LOST, str(path))
    assert code == 2
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_a_bad_header_is_a_rejection(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A certificate whose header lines are damaged is rejected (exit 1), naming the line."""
    path = tmp_path / "x.cert"
    path.write_text("c crewcheck certificate/1\nc verdict maybe\n")
    code, out, _ = _run(capsys, "check", LOST, str(path))
    assert code == 1 and "line 2" in out


def test_batch_writes_one_certificate_per_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--batch with --certificate DIR: a file per line named after its id, in the JSON results."""
    lines = []
    for ident, deal in (("cell/lost", LOST), ("cell/won", WON)):
        lines.append(json.dumps({"id": ident, **json.loads(Path(deal).read_text())}))
    batch = tmp_path / "deals.jsonl"
    batch.write_text("\n".join(lines) + "\n")
    folder = tmp_path / "certs"
    code, out, _ = _run(capsys, "decide", "--batch", str(batch), "--certificate", str(folder))
    assert code == 0
    results = [json.loads(x) for x in out.splitlines()]
    assert [r["certificate"]["file"] for r in results] == [str(folder / "cell_lost.cert"),
                                                          str(folder / "cell_won.cert")]
    assert _run(capsys, "check", LOST, str(folder / "cell_lost.cert"))[0] == 0
    assert _run(capsys, "check", WON, str(folder / "cell_won.cert"))[0] == 0


def test_check_help_runs_as_a_command() -> None:
    """The console entry point knows the command (help text, exit 0)."""
    out = subprocess.run([sys.executable, "-m", "crewcheck", "check", "--help"], capture_output=True,
                         text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0 and "exit code: 0 accepted, 1 rejected" in out.stdout.lower().replace("\n", " ")


def test_a_refused_certificate_keeps_the_verdict_and_exits_2(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """A history that has already lost under free assignment gets no certificate: the
    verdict is printed, then one line saying why, exit 2; --json has the reason."""
    deal = tmp_path / "lost.json"
    deal.write_text(json.dumps({
        "hands": [["B2"], ["B1"]], "lead": 0, "assignment": "free", "tasks": [],
        "conditions": [{"kind": "wins_no_tricks", "seat": 0}],
        "played": [{"lead": 0, "cards": ["B2", "B1"], "winner": 0}]}))
    cert = tmp_path / "lost.cert"
    code, out, err = _run(capsys, "decide", str(deal), "--certificate", str(cert))
    assert code == 2 and out.startswith("unwinnable")
    assert err.count("\n") == 1 and "no certificate: the history has already lost" in err
    assert not cert.exists()
    code, out, _ = _run(capsys, "decide", str(deal), "--certificate", str(cert), "--json")
    assert code == 2 and "history has already lost" in json.loads(out)["certificate"]["error"]


@pytest.mark.parametrize("argv,message", [
    (["--certificate", "x.cert", "--proof-solver", "minisat22"], "unknown proof solver 'minisat22'"),
    (["--proof-solver", "cadical195"], "--proof-solver needs --certificate"),
])
def test_proof_solver_is_checked_before_deciding(argv: list[str], message: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A solver that writes no proofs, or the option alone: exit 2, one line, nothing decided."""
    code, out, err = _run(capsys, "decide", LOST, *argv)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_another_proof_solver(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CaDiCaL's proof of the same CNF is accepted too."""
    cert = tmp_path / "c.cert"
    assert _run(capsys, "decide", LOST, "--certificate", str(cert), "--proof-solver", "cadical195")[0] == 1
    assert b"c proof drup cadical195 " in cert.read_bytes()[:2000]
    assert _run(capsys, "check", LOST, str(cert))[0] == 0


def test_a_certificate_path_in_no_folder_is_refused_before_deciding(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """--certificate in a folder that does not exist: exit 2 at once, nothing decided."""
    code, out, err = _run(capsys, "decide", LOST, "--certificate", str(tmp_path / "no" / "x.cert"))
    assert code == 2 and out == "" and "is not the folder" in err


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300), header=st.sampled_from([b"", b"c crewcheck certificate/1\n",
                                                             b"c crewcheck certificate/1\nc verdict unwinnable\n"]))
def test_hostile_certificates(data: bytes, header: bytes, tmp_path: Path) -> None:
    """Whatever the bytes: exit 1 or 2, one line, never a traceback."""
    path = tmp_path / "h.cert"
    path.write_bytes(header + data)
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["check", LOST, str(path)])
    assert code in (1, 2), (code, out.getvalue(), err.getvalue())
    text = out.getvalue() + err.getvalue()
    assert text.count("\n") == 1 and "Traceback" not in text and "internal error" not in text
