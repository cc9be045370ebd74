"""``crewcheck prove``: selection, output, and the files it writes (only those asked for)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from crewcheck.claims import ledger, record
from crewcheck.claims.claim import Claim, Mode, Status, Verdict
from crewcheck.claims.registry import CLAIMS
from crewcheck.cli import main, prove
from crewcheck.runtime.paths import CACHE_ENV

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_RECORD = ROOT / record.CHECKOUT_ESTABLISHED


def _confirm_all(claims: Sequence[Claim], mode: Mode, **_: object) -> list[Verdict]:
    """A stand-in for :func:`ledger.run` that computes nothing: every claim CONFIRMED."""
    return [Verdict(c, Status.CONFIRMED, None, None, 0.0, mode) for c in claims]


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory outside any checkout, with the user cache folder in it."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.delenv(CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(ledger, "run", _confirm_all)
    return work


def test_cli_lists_and_rejects_unknown_claims(capsys: pytest.CaptureFixture[str]) -> None:
    """--list exits 0; an unknown claim id is a usage error (2) with a one-line message."""
    assert prove.main(["--list"]) == 0
    assert prove.main(["no-such-claim", "--no-store"]) == 2
    assert "unknown claim 'no-such-claim'" in capsys.readouterr().err


def test_prove_is_registered_with_the_main_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """`crewcheck prove --list` works through crewcheck.cli.main."""
    assert main(["prove", "--list"]) == 0
    assert "witteveen-thm-3.12" in capsys.readouterr().out


def test_cli_json_for_a_counting_claim(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--json prints one object with the recomputed values; Thm 3.12 stays REFUTED as recorded;
    --docs DIR writes the ledger there."""
    code = prove.main(["witteveen-thm-3.12", "--json", "--no-store", "--docs", str(tmp_path)])
    doc = json.loads(capsys.readouterr().out)
    (claim,) = doc["claims"]
    assert claim["status"] == "REFUTED"
    assert {v["name"]: v["value"] for v in claim["values"]}["orbits"] == 13_677_426_756
    assert code == 0
    assert (tmp_path / "claims.md").exists() and (tmp_path / "claims-ledger.json").exists()


def test_prove_writes_nothing_into_the_working_directory(elsewhere: Path, tmp_path: Path) -> None:
    """Every claim run without options writes no docs (the committed full-mode ledger stays
    as it is) and keeps its results store in the user cache folder, not the working
    directory."""
    assert main(["prove", "--quick", "--no-progress"]) == 0
    assert list(elsewhere.iterdir()) == []
    assert (tmp_path / "xdg" / "crewcheck" / "results.sqlite").is_file()


def test_cache_folder_from_the_environment(elsewhere: Path, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """$CREWCHECK_CACHE_DIR overrides the XDG cache folder; --store overrides both."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "mine"))
    assert main(["prove", "witteveen-thm-3.12"]) == 0
    assert (tmp_path / "mine" / "results.sqlite").is_file()
    assert main(["prove", "witteveen-thm-3.12", "--store", str(tmp_path / "given.sqlite")]) == 0
    assert (tmp_path / "given.sqlite").is_file()
    assert not (tmp_path / "xdg").exists() and list(elsewhere.iterdir()) == []


def test_record_writes_the_checkout_never_the_package(elsewhere: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """--record rewrites established.json of the checkout in the working directory and
    nothing else; outside a checkout it is a usage error and writes nothing."""
    package_record = PACKAGE_RECORD.read_bytes()
    assert main(["prove", "witteveen-thm-3.12", "--record"]) == 2
    assert "--record writes crewcheck/claims/data/established.json" in capsys.readouterr().err
    local = elsewhere / record.CHECKOUT_ESTABLISHED
    local.parent.mkdir(parents=True)
    shutil.copy(PACKAGE_RECORD, local)
    assert main(["prove", "witteveen-thm-3.12", "--record"]) == 0
    written = json.loads(local.read_text())
    assert written["witteveen-thm-3.12"] == "CONFIRMED"  # was REFUTED
    assert {k: v for k, v in written.items() if k != "witteveen-thm-3.12"} == {
        k: v.name for k, v in record.load_established().items() if k != "witteveen-thm-3.12"}
    assert PACKAGE_RECORD.read_bytes() == package_record


PAPERS = sorted({c.id.split("-", 1)[0] for c in CLAIMS})  # every claim falls in one
SLOW_GROUPS = {"witteveen-solve": ("witteveen-thm-3.15", "witteveen-thm-3.18")}
"""Claims whose quick run still solves every game of a size (several CPU seconds each):
they are recomputed in CI's slow step, a group of their own; each paper's group in the
default suite holds its other claims."""


def _group(name: str) -> list[str]:
    """The claims of a group: those of ``SLOW_GROUPS``, or a paper's claims but those."""
    if name in SLOW_GROUPS:
        return list(SLOW_GROUPS[name])
    slow = {i for ids in SLOW_GROUPS.values() for i in ids}
    return [c.id for c in CLAIMS if c.id.split("-", 1)[0] == name and c.id not in slow]


def test_the_groups_hold_every_claim_once() -> None:
    """The groups of the quick run below (each paper's, the slow ones) split the claims."""
    ids = [i for name in [*PAPERS, *SLOW_GROUPS] for i in _group(name)]
    assert sorted(ids) == sorted(c.id for c in CLAIMS)


@pytest.mark.parametrize("paper", [*PAPERS, *(pytest.param(g, marks=pytest.mark.slow) for g in SLOW_GROUPS)])
def test_prove_quick_matches_every_established_verdict(paper: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """`crewcheck prove --quick` (what CI runs), one paper's claims at a time (the claims of
    ``SLOW_GROUPS`` in the slow step): every recomputed verdict equals the one the project
    has established, including the refutations; the one allowed difference is a claim
    whose reduced quick run cannot decide what the full run did (OPEN, exit 3, its reason
    says so: empirical rows, such as the Deep Sea rows of seed 004, which a reduced run
    never overturns)."""
    monkeypatch.chdir(ROOT)  # the pinned counterexamples are found from the checkout
    ids = _group(paper)
    code = main(["prove", *ids, "--quick", "--json", "--store", str(tmp_path / "store.sqlite")])
    doc = json.loads(capsys.readouterr().out)
    assert sorted(c["id"] for c in doc["claims"]) == sorted(ids)
    differ = [c for c in doc["claims"] if c["status"] != c["established"]]
    assert all(c["status"] == "OPEN" and "a reduced run cannot decide" in c["reason"] for c in differ), differ
    assert code == (3 if differ else 0)
    if paper == "witteveen":
        assert any(c["id"] == "witteveen-thm-3.12" and c["status"] == "REFUTED" for c in doc["claims"])
