"""docs/claims.md is exactly what the committed records generate (never edited by hand)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewcheck.cli import main

ROOT = Path(__file__).resolve().parents[2]


# the full runs' in-process parts (dejong-lemma-1, witteveen-thm-3.12, ...) take minutes on a
# busy 2-core machine: CI's slow step
@pytest.mark.slow
def test_committed_ledger_is_what_the_records_generate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """`crewcheck prove --docs DIR --records-only` from the repository alone gives the
    committed docs/claims.md, byte for byte; a hand edit or a stale record fails here."""
    monkeypatch.chdir(ROOT)
    main(["prove", "--docs", str(tmp_path), "--records-only", "--no-store", "--json"])
    capsys.readouterr()
    generated = (tmp_path / "claims.md").read_text(encoding="utf-8")
    committed = (ROOT / "docs" / "claims.md").read_text(encoding="utf-8")
    assert generated == committed, ("docs/claims.md differs from what the records generate: run "
                                    "`crewcheck prove --docs docs --records-only` and commit the result")
