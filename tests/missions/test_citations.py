"""The reference citations of models/missions/README.md: every special rule cites a line of
Board Game Arena's implementation at commit c57d835, and models/missions/reference_lines.json
quotes each cited line. Without network or a copy of the reference the test checks the form
and that quotes and citations match one to one; with a local git copy of the reference
(``CREWCHECK_REFERENCE_GIT``, or the usual mirror path) it also checks each quote against the line."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "models" / "missions" / "README.md"
LINES = ROOT / "models" / "missions" / "reference_lines.json"
LOGBOOK = ROOT / "crewcheck" / "missions" / "data" / "logbook.json"
COMMIT = "c57d835"
FULL_COMMIT = "c57d8352e9c730e776f5a8087ccd963e2f531768"
CITATION = re.compile(r"`((?:modules/(?:php|js)/[\w/]+|game\w+\.inc)\.(?:php|js)):([1-9]\d*)@([0-9a-f]{7,40})`")
SECTION = "## The special rules and where the reference plays them"
DEFAULT_MIRROR = Path("/work/.mirror/Syarwin+bga-thecrew/repo")


def _rule_rows() -> list[str]:
    text = README.read_text()
    section = text[text.index(SECTION):]
    section = section[:section.index("\n## ", 1)]
    return [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| mission")
            and not line.startswith("| ---")]


def _quotes() -> dict[str, str]:
    doc = json.loads(LINES.read_text())
    assert doc["schema"] == "crewcheck-reference-lines/1"
    assert doc["repository"] == "Syarwin/bga-thecrew" and doc["commit"] == FULL_COMMIT
    lines: dict[str, str] = doc["lines"]
    return lines


def test_every_rule_cites_a_line_at_the_reference_commit() -> None:
    """Each row of the rules table cites at least one file:line@c57d835, and nothing else."""
    rows = _rule_rows()
    assert len(rows) >= 19
    for row in rows:
        cites = CITATION.findall(row)
        assert cites, f"no citation in: {row[:60]}"
        assert {c for _, _, c in cites} == {COMMIT}, row[:60]


def test_every_citation_is_quoted_and_every_quote_cited() -> None:
    """The README's citations and reference_lines.json's keys are the same set; each quote is
    one non-empty line of code."""
    cited = {f"{p}:{n}@{c}" for p, n, c in CITATION.findall(README.read_text())}
    quotes = _quotes()
    assert cited == set(quotes), (sorted(cited - set(quotes)), sorted(set(quotes) - cited))
    for key, text in quotes.items():
        assert CITATION.fullmatch(f"`{key}`"), key
        assert text and text == text.strip() and "\n" not in text, key


def test_quotes_carry_the_rule_they_cite() -> None:
    """Spot checks that the quote is the rule: missions 29 and 34 fail at a lead of 2."""
    quotes = _quotes()
    balanced = quotes[f"modules/php/Missions/AbstractMission.php:179@{COMMIT}"]
    assert "$min + 2 <= $max? MISSION_FAIL" in balanced
    assert "commCard" in quotes[f"modules/php/Player.php:115@{COMMIT}"]
    logbook = json.loads(LOGBOOK.read_text())
    assert FULL_COMMIT in json.dumps(logbook["sources"])
    for m in logbook["missions"]:
        if m["number"] in (29, 34):
            assert m["conditions"][0] == {"kind": "balanced_tricks", "margin": 2}
            assert "AbstractMission.php:179 at c57d835" in m["notes"][0]


def _mirror() -> Path | None:
    path = Path(os.environ.get("CREWCHECK_REFERENCE_GIT", str(DEFAULT_MIRROR)))
    return path if path.is_dir() and shutil.which("git") else None


def test_quotes_match_the_reference_when_a_copy_is_at_hand() -> None:
    """Each quote is the cited line of the file at the commit (needs a git copy of the reference)."""
    mirror = _mirror()
    if mirror is None:
        pytest.skip("no local copy of Syarwin/bga-thecrew (set CREWCHECK_REFERENCE_GIT)")
    files: dict[str, list[str]] = {}
    for key, text in _quotes().items():
        m = CITATION.fullmatch(f"`{key}`")
        assert m is not None
        path, line, commit = m.group(1), int(m.group(2)), m.group(3)
        if path not in files:
            out = subprocess.run(["git", f"--git-dir={mirror}", "show", f"{commit}:{path}"], capture_output=True,
                                 text=True, check=False)
            if out.returncode != 0:
                pytest.skip(f"the local copy lacks {commit}:{path}")
            files[path] = out.stdout.splitlines()
        assert files[path][line - 1].strip() == text, key


def test_the_deep_sea_differences_cite_remigerme_at_its_commit() -> None:
    """models/deepsea/README.md lists remigerme's known deviations card by card, each with
    a file:line at 6a807c9, and describes that code as a port, not a reading to follow."""
    text = (ROOT / "models" / "deepsea" / "README.md").read_text()
    section = text[text.index("## Readings and their sources"):text.index("The other interpretations")]
    assert "not a reading to follow" in section
    for card in ("DS48", "DS49", "DS51, 55, 56", "DS92, 95, 96", "DS11, 13, 15", "DS14", "mid-trick", "3 players"):
        assert card in section, card
    cites = re.findall(r"`(src/[\w/]+\.rs):(\d+(?:-\d+)?)@(\w+)`", section)
    assert len(cites) >= 12 and {c for _, _, c in cites} == {"6a807c9"}
