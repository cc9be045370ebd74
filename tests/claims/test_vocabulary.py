"""The ledger's vocabulary and its honesty rules, checked on every row.

Every row names its object and has a verdict of the written vocabulary; every printed
("published") number occurs in the seed file the row cites; every quotation occurs
there (whitespace-normalised); an ERRATUM row quotes the source's own correction and
names the row judging the intended statement; every row says what would change it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from crewcheck.claims import ledger
from crewcheck.claims.claim import Claim, Computation, Erratum, Status, Subject, Value
from crewcheck.claims.record import load_established
from crewcheck.claims.registry import BY_ID, CLAIMS

ROOT = Path(__file__).resolve().parents[2]
SEEDS = Path(os.environ.get("CREWCHECK_SEEDS", ROOT.parent / "shared" / "seeds"))
"""The seed texts: the project's shared folder beside the checkout (CI has it there), or
``$CREWCHECK_SEEDS``; the tests that read them skip where they are absent."""
LEDGER = json.loads((ROOT / "docs" / "claims-ledger.json").read_text(encoding="utf-8"))

_FILES = {"000": "000_797e882f22b8b9aa.txt", "001": "001_6a2ef34fc15af5ba.txt", "002": "002_e9ff85ea9f289e7a.txt",
          "003": "003_897928b4319ecf94.txt", "004": "004_6f53e8e1272aabff.txt"}


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _seed(claim: Claim) -> str:
    path = SEEDS / _FILES[claim.seed]
    if not path.exists():
        pytest.skip("the seed texts are not on this machine")
    return path.read_text(encoding="utf-8")


def _printed(value: Any, text: str) -> bool:
    """Whether a published number occurs in the seed text (thousands separators and LaTeX
    spacing ignored; a fraction as its numerator and denominator)."""
    digits = re.sub(r"(?<=\d)(,|\\!|\{,\}|\\,)(?=\d)", "", text.replace(",\\!", ","))
    digits = re.sub(r"(?<=\d),(?=\d)", "", digits)
    if isinstance(value, str) and "/" in value:
        a, b = value.split("/")
        return f"\\frac{{{a}}}{{{b}}}" in text or value in text
    if isinstance(value, float):
        return f"{value}" in digits or f"{value}".lstrip("0") in digits
    return re.search(rf"(?<![\d.]){value}(?![\d])", digits) is not None


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.id)
def test_every_row_names_its_object_and_says_what_would_change_it(claim: Claim) -> None:
    assert isinstance(claim.subject, Subject)
    assert claim.quote and claim.would_change
    assert claim.seed in _FILES, claim.source


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.id)
def test_every_quotation_occurs_in_the_named_seed(claim: Claim) -> None:
    text = _norm(_seed(claim))
    assert _norm(claim.quote) in text, claim.quote
    if claim.erratum is not None:
        assert _norm(claim.erratum.contradicted_by) in text


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.id)
def test_published_values_are_printed_in_the_seed(claim: Claim) -> None:
    """A published value is never inferred: every number of ``expected`` is in the seed;
    conditions the statement implies live in ``requires``."""
    text = _seed(claim)
    expected = claim.expected if isinstance(claim.expected, dict) else {}
    flat = [v for value in expected.values() for v in (value.values() if isinstance(value, dict) else [value])]
    for value in flat:
        assert not isinstance(value, bool) and not isinstance(value, list), (claim.id, value)
        if value == 0 and claim.id == "dejong-fig-3-free":
            assert "all of the 220,000 generated games" in text  # "0 unwinnable" is the printed "all winnable"
            continue
        if value == 0:
            continue  # Burnside's printed 9·0 terms
        assert _printed(value, text), (claim.id, value)


def test_ledger_rows_use_the_vocabulary() -> None:
    """Every row of the committed ledger: an object of the vocabulary, a verdict of it, and a
    REFUTED or ERRATUM row never reports an inferred value as published."""
    objects = {s.value for s in Subject}
    for row in LEDGER["claims"]:
        assert row["object"] in objects and row["status"] in Status.__members__
        assert row["published"] == "none printed" or isinstance(row["published"], dict)
        if row["status"] in ("REFUTED", "ERRATUM"):
            claim = BY_ID[row["id"]]
            called_published = re.findall(r"(\w+)(?:\[[^\]]*\])?: computed [^;]*?, published", row["reason"])
            assert set(called_published) <= set(claim.expected), (row["id"], called_published)


def test_erratum_rows_name_an_intended_row_judged_apart() -> None:
    established = load_established()
    errata = [c for c in CLAIMS if c.erratum is not None]
    assert errata
    for claim in errata:
        assert claim.subject in (Subject.PRINTED_NUMBER, Subject.PRINTED_FORMULA)
        intended = BY_ID[claim.erratum.intended]
        assert intended.erratum is None and established[intended.id] is not Status.ERRATUM


def _claim(**kw: Any) -> Claim:
    def compute(mode: str) -> Computation:
        return Computation((Value("x", kw.pop("x", 1), "given"),), holds=None)
    return Claim(id="t", source="001 §1", statement="s", expected=kw.pop("expected", {}), compute=compute, **kw)


def test_judge_names_errata_and_consistent_rows() -> None:
    """A failing printed value the source itself corrects is ERRATUM, not REFUTED; a holding
    statement with nothing quantitative is CONSISTENT, and fails like any other."""
    comp = Computation((Value("x", 1, "given"),), holds=None)
    erratum = _claim(requires={"x": 0}, erratum=Erratum("the next sentence", "t2"),
                     subject=Subject.PRINTED_FORMULA)
    status, reason = ledger.judge(erratum, comp)
    assert status is Status.ERRATUM and "judged in `t2`" in reason and "required 0" in reason
    assert ledger.judge(_claim(requires={"x": 0}), comp)[0] is Status.REFUTED
    assert ledger.judge(_claim(requires={"x": 1}, quantitative=False), comp)[0] is Status.CONSISTENT
    assert ledger.judge(_claim(requires={"x": 2}, quantitative=False), comp)[0] is Status.REFUTED
    assert "published" not in ledger.judge(_claim(requires={"x": 0}), comp)[1]


_HEADING = re.compile(r"^(?:#+\s*)?(\d{1,2}(?:\.\d{1,2})*)[ \t]+[A-Z*]", re.MULTILINE)


def _section_at(text: str, position: int) -> str | None:
    """The number of the last section heading before `position` (``"4.5"``), if any."""
    found = [m.group(1) for m in _HEADING.finditer(text, 0, position)]
    return found[-1] if found else None


def _cited_sections_hold(claim: Claim) -> bool:
    """Whether a section the source cites (``§4.5``) is the section the quotation is in, or
    contains it (``§5`` for a quotation in 5.3)."""
    text = _seed(claim)
    position = _norm(text).index(_norm(claim.quote))
    lines = text.split("\n")
    before, i = 0, 0
    for i, line in enumerate(lines):  # the line of the original holding the normalised position
        before += len(re.sub(r"\s+", " ", line + "\n"))
        if before > position:
            break
    head = "\n".join(lines[:i + 1])
    section = _section_at(head, len(head))
    cited = re.findall(r"§(\d+(?:\.\d+)*)", claim.source)
    return section is not None and any(section == c or section.startswith(c + ".") for c in cited)


@pytest.mark.parametrize("claim", [c for c in CLAIMS if "§" in c.source], ids=lambda c: c.id)
def test_the_cited_section_holds_the_quotation(claim: Claim) -> None:
    assert _cited_sections_hold(claim), claim.source


def test_a_wrong_section_citation_is_caught() -> None:
    """The 220,000 sentence is in §4.5, not §5 (the citation this ledger once had)."""
    claim = BY_ID["dejong-fig-3-free"]
    assert _cited_sections_hold(claim)
    assert not _cited_sections_hold(dataclasses.replace(claim, source="001 §5, Figure 3"))
