"""Certificates of whole deals: every unwinnable case of the conformance suite certifies
and checks; damaged, foreign and forged certificates are rejected with one line; any
small deal with conditions, choices, tokens, free assignment or a history certifies and
checks whatever its verdict (against the oracle's verdict); an outside checker, where
installed, agrees."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, example, given, note, settings
from hypothesis import strategies as st

from crewcheck.api import decide
from crewcheck.certificates import rup
from crewcheck.certificates.certfile import Certificate, Part, parse_certificate, write_certificate
from crewcheck.certificates.cnf import ENCODING, build_cnf, deal_digest
from crewcheck.certificates.produce import certify, refute
from crewcheck.certificates.verify import check_certificate, check_file
from crewcheck.errors import InvalidDealError, NotApplicableError
from crewcheck.formats import deal_json
from crewcheck.formats.notation import parse_deal
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Verdict
from tests.certificates import naive
from tests.solvers.hand_checked import HAND_CHECKED
from tests.strategies import condition_instances, covered_instances, playouts

pytest.importorskip("pysat")

ROOT = Path(__file__).resolve().parents[2]
DEALS = ROOT / "models" / "deals"


def _conformance_cases() -> list[Any]:
    """The conformance suite's cases (hand-checked deals, recorded examples, counterexamples)."""
    cases = [pytest.param(parse_deal(n), v, id=f"hand-{i}") for i, (n, v) in enumerate(HAND_CHECKED)]
    for folder in ("deals", "counterexamples"):
        for path in sorted((ROOT / "models" / folder).glob("*.json")):
            data = json.loads(path.read_text())
            if "expected" in data:
                cases.append(pytest.param(deal_json.load(path), Verdict(data["expected"]), id=path.stem))
    return cases


UNWINNABLE = [c for c in _conformance_cases() if c.values[1] is Verdict.UNWINNABLE]


def _certificate(instance: Instance) -> Certificate:
    produced = certify(instance, decide(instance))
    assert produced is not None
    return produced.certificate


def _drat_trim() -> str | None:
    return os.environ.get("CREWCHECK_DRAT_TRIM") or shutil.which("drat-trim")


def test_there_are_unwinnable_cases() -> None:
    """The suite has unwinnable cases with proofs of many lemmas and with a lost history."""
    assert len(UNWINNABLE) >= 8


@pytest.mark.parametrize("deal,expected", UNWINNABLE)
def test_every_unwinnable_conformance_deal_certifies_and_checks(deal: Instance, expected: Verdict,
                                                                tmp_path: Path) -> None:
    """decide -> certify -> write -> check accepts; the proof refutes the rebuilt CNF;
    drat-trim (where installed) verifies the same certificate file."""
    cert = _certificate(deal)
    assert cert.verdict == "unwinnable"
    path = tmp_path / "deal.cert"
    write_certificate(cert, path)
    got = check_file(deal, path)
    assert got.accepted, got.message
    assert got.verdict == "unwinnable"
    drat = _drat_trim()
    if drat is None or cert.parts[0].kind != "drup" or len(cert.parts) != 1:
        return
    cnf = build_cnf(deal)
    dimacs = tmp_path / "deal.cnf"
    dimacs.write_text(f"p cnf {cnf.variables} {len(cnf.clauses)}\n"
                      + "".join(" ".join(map(str, c)) + " 0\n" for c in cnf.clauses))
    out = subprocess.run([drat, str(dimacs), str(path), "-U", "-w"], capture_output=True, text=True, timeout=300)
    assert "s VERIFIED" in out.stdout.splitlines(), out.stdout[-500:]


# -- damaged, foreign and forged certificates ------------------------------------------------
@pytest.fixture(scope="module")
def lost() -> tuple[Instance, Part, list[list[int]]]:
    """An unwinnable Classic deal, its refutation and its CNF."""
    deal = deal_json.load(DEALS / "unwinnable-commander-wins-all.json")
    part = refute(deal)
    assert part.kind == "drup" and part.lemmas > 50
    return deal, part, build_cnf(deal).clauses


def _steps(part: Part) -> list[tuple[bool, tuple[int, ...]]]:
    proof = rup.read_proof(part.proof)
    return list(zip(proof.deleted, proof.clauses))


def _with_steps(part: Part, steps: list[tuple[bool, tuple[int, ...]]]) -> Part:
    text = b"".join((b"d " if d else b"") + " ".join(map(str, (*c, 0))).encode() + b"\n" for d, c in steps)
    return dataclasses.replace(part, proof=text)


def _lemmas_before(steps: list[tuple[bool, tuple[int, ...]]], j: int) -> list[tuple[int, ...]]:
    return [c for d, c in steps[:j] if not d]


def test_a_proof_with_a_needed_lemma_removed_is_rejected(lost: tuple[Instance, Part, list[list[int]]]) -> None:
    """Removing a lemma the proof needs (the last whose removal breaks it) is rejected at a
    later lemma, and the naive propagation confirms that lemma does not follow even from
    every clause the checker could have kept."""
    deal, part, formula = lost
    steps = _steps(part)
    lemmas = [i for i, (d, c) in enumerate(steps) if not d and c]
    for i in reversed(lemmas[-40:]):
        mutant = steps[:i] + steps[i + 1:]
        got = check_certificate(deal, Certificate("unwinnable", deal_digest(deal), [_with_steps(part, mutant)]))
        if not got.accepted:
            break
    else:
        pytest.fail("no lemma among the last 40 is needed: the checker accepts everything?")
    assert "does not follow by unit propagation" in got.message and "\n" not in got.message
    j = int(got.message.split("line ")[1].split()[0]) - 1
    assert not naive.is_rup(formula + [list(c) for c in _lemmas_before(mutant, j)], mutant[j][1])


def test_a_proof_with_an_altered_lemma_is_rejected(lost: tuple[Instance, Part, list[list[int]]]) -> None:
    """A lemma with one literal negated that does not follow (checked by the naive
    propagation from every earlier clause) is rejected, naming its line."""
    deal, part, formula = lost
    steps = _steps(part)
    for j, (d, c) in enumerate(steps):
        if d or len(c) < 2:
            continue
        altered = (-c[0], *c[1:])
        if naive.is_rup(formula + [list(x) for x in _lemmas_before(steps, j)], altered):
            continue
        mutant = steps[:j] + [(False, altered)] + steps[j + 1:]
        got = check_certificate(deal, Certificate("unwinnable", deal_digest(deal), [_with_steps(part, mutant)]))
        assert not got.accepted
        assert got.message.startswith(f"the lemma on line {j + 1} ")
        return
    pytest.fail("no lemma could be altered into one that does not follow")


def test_another_deals_certificate_is_rejected(lost: tuple[Instance, Part, list[list[int]]]) -> None:
    """Another deal's certificate: as it is (another deal), relabelled with this deal's
    digest (another CNF), relabelled with this deal's CNF digest too (the proof fails)."""
    deal, part, _ = lost
    other = deal_json.load(DEALS / "classic-4p-10-tasks-tokens.json")
    cert = Certificate("unwinnable", deal_digest(deal), [part])
    got = check_certificate(other, cert)
    assert not got.accepted and "another deal" in got.message
    relabelled = dataclasses.replace(cert, deal=deal_digest(other))
    got = check_certificate(other, relabelled)
    assert not got.accepted and "not the one the proof refutes" in got.message
    cnf = build_cnf(other)
    forged = dataclasses.replace(relabelled, parts=[dataclasses.replace(part, cnf_digest=cnf.digest)])
    got = check_certificate(other, forged)
    assert not got.accepted and ("does not follow" in got.message or "never derives" in got.message)


def test_forged_proofs_of_a_winnable_deal_are_rejected(lost: tuple[Instance, Part, list[list[int]]]) -> None:
    """A winnable deal's CNF with its correct digests and a forged "proof": the empty
    clause alone, another deal's proof, every clause of the CNF deleted first."""
    won = deal_json.load(DEALS / "classic-4p-free-8-tasks.json")
    assert decide(won).verdict is Verdict.WINNABLE
    cnf = build_cnf(won)
    head = Part("the deal", "drup", ENCODING, cnf.variables, len(cnf.clauses), cnf.digest, "forged", 1, 0, 0.0)
    deletions = b"".join(b"d " + " ".join(map(str, (*c, 0))).encode() + b"\n" for c in cnf.clauses)
    for proof in (b"0\n", lost[1].proof, deletions + b"0\n"):
        cert = Certificate("unwinnable", deal_digest(won), [dataclasses.replace(head, proof=proof)])
        got = check_certificate(won, cert)
        assert not got.accepted, proof[:40]
        assert "\n" not in got.message


def test_a_false_witness_is_rejected() -> None:
    """A winnable certificate whose line loses, or is illegal, or names no card, is rejected."""
    deal = deal_json.load(DEALS / "unwinnable-commander-wins-all.json")
    won = deal_json.load(DEALS / "classic-3p-14-13-13.json")
    good = _certificate(won)
    assert check_certificate(won, good).accepted
    plays = good.witness["plays"]  # type: ignore[index]
    for witness, why in (({"plays": plays[:-3] + plays[-2:] + plays[-3:-2]}, "not a legal game"),
                         ({"plays": ["Q9"]}, "cannot be read"),
                         ({"plays": plays[: len(plays) // 2]}, "does not win")):
        got = check_certificate(won, dataclasses.replace(good, witness=witness))
        assert not got.accepted and why in got.message, got.message
    assert not check_certificate(deal, dataclasses.replace(good, deal=deal_digest(deal))).accepted


def test_parts_must_match_the_variants() -> None:
    """A deal with choices needs one refutation per variant: a missing part is rejected."""
    deal = deal_json.loads(json.dumps({
        "hands": [["B3", "B4"], ["B1", "G2"], ["B2", "G1"]], "lead": 0, "assignment": "decision",
        "tasks": [{"card": "B1"}, {"card": "B2"}]}))
    result = decide(deal)
    assert result.verdict is Verdict.UNWINNABLE
    cert = _certificate(deal)
    assert len(cert.parts) == 2
    assert check_certificate(deal, cert).accepted
    got = check_certificate(deal, dataclasses.replace(cert, parts=cert.parts[:1]))
    assert not got.accepted and "2 variant(s)" in got.message
    swapped = dataclasses.replace(cert, parts=cert.parts[::-1])
    assert not check_certificate(deal, swapped).accepted


# -- any small deal ---------------------------------------------------------------------------
@st.composite
def deals(draw: st.DrawFn) -> Instance:
    """Small deals with every feature the encoding covers: conditions (and chosen seats),
    fixed, free, decision and distribution assignment, tokens, a distress signal, and a
    history (mid-trick, or one that has already ended the game)."""
    inst = draw(condition_instances(choose=True, assignments=("fixed", "free", "decision", "distribution"),
                                    max_cards=9))
    if inst.is_concrete() and draw(st.booleans()):
        inst = inst.with_history(draw(playouts(inst, max_plays=inst.deck.size)))
    elif draw(st.integers(0, 3)) == 0:
        inst = dataclasses.replace(inst, distress=draw(st.sampled_from(["left", "right", "choose"])))
    return inst


@settings(max_examples=60, deadline=None)
@given(inst=deals())
def test_any_small_deal_certifies_and_checks(inst: Instance) -> None:
    """The oracle's verdict (not the encoding's) is certified and the certificate checks:
    so the encoding of every unwinnable deal is unsatisfiable and its proof verifies, and
    every winnable deal's line replays."""
    _certified_and_checked(inst)


def _certified_and_checked(inst: Instance) -> Any:
    """The oracle's verdict of ``inst`` certified, the certificate checked against
    ``inst``; the certificate (a refused deal is no example)."""
    note(deal_json.dumps(inst))
    result = decide(inst, backend="exhaustive")
    try:
        produced = certify(inst, result)
    except NotApplicableError as e:  # refused, and says why: a lost history under free assignment,
        # or a game lost before its history ends (conditions no game of so few tricks meets)
        assert "history has already lost" in str(e) or "before its history ends" in str(e)
        assume(False)
    assert produced is not None
    cert = parse_certificate(_bytes(produced.certificate))
    got = check_certificate(inst, cert)
    assert got.accepted, got.message
    assert got.verdict == result.verdict.value
    return cert


_UNCOVERED_ILLEGAL = (  # its history follows suit only because B3 lies under R1
    '{"schema": "crewcheck-deal/1", "hands": [["B1"], ["B2", "G1", "G2", "G3"], ["B3", "R1", "R2"]], '
    '"trump": "R", "lead": 0, "assignment": "fixed", "order_rule": "strict", "tasks": [{"card": "B1", "seat": 0}], '
    '"covered": [["B3", "R1"]], "played": [{"lead": 0, "cards": ["B1", "B2", "R1"], "winner": 2}]}')


@settings(max_examples=40, deadline=None)
@given(inst=covered_instances())
@example(inst=deal_json.loads(_UNCOVERED_ILLEGAL))
def test_covered_deals_certify_and_check(inst: Instance) -> None:
    """Covered cards (JARVIS's columns): the oracle's verdict certifies and checks, the CNF
    rebuilt from the deal with the cover rule; the same certificate does not check
    against the deal without its covers."""
    cert = _certified_and_checked(inst)
    if not inst.covered:
        return
    try:
        got = check_certificate(dataclasses.replace(inst, covered=()), cert)
    except InvalidDealError:
        return  # without its covers the history breaks the follow-suit rule: no deal to check against
    assert not got.accepted


def _bytes(cert: Certificate) -> bytes:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "c.cert"
        write_certificate(cert, path)
        return path.read_bytes()


def test_another_encoding_and_a_false_replay_claim_are_rejected(lost: tuple[Instance, Part, list[list[int]]]) -> None:
    """A certificate naming another encoding is rejected saying which; a part claiming
    that the history has already lost, for a deal whose history has not, is rejected."""
    deal, part, _ = lost
    other = Certificate("unwinnable", deal_digest(deal), [dataclasses.replace(part, encoding="crewcheck-cnf/0")])
    got = check_certificate(deal, other)
    assert not got.accepted and "'crewcheck-cnf/0'" in got.message and ENCODING in got.message
    claim = Certificate("unwinnable", deal_digest(deal), [Part("the deal", "replay")])
    got = check_certificate(deal, claim)
    assert not got.accepted and "has not" in got.message
