"""The proof checker (:mod:`crewcheck.certificates.rup`): its compiled kernel, its plain
twin and a naive third checker (``tests/certificates/naive.py``) agree on proofs of random
small CNFs and on every one-step mutation of them; it reads the DRUP text strictly."""

from __future__ import annotations

import random

import pytest

from crewcheck.certificates import rup
from tests.certificates import naive

pytest.importorskip("pysat")


def _random_unsat(seed: int) -> tuple[list[list[int]], bytes] | None:
    """A random 3-CNF on 10-14 variables and its Glucose DRUP proof, if unsatisfiable."""
    from pysat.solvers import Solver

    rng = random.Random(seed)
    n = rng.randint(10, 14)
    clauses = [[rng.choice((-1, 1)) * v for v in rng.sample(range(1, n + 1), 3)] for _ in range(int(5.5 * n))]
    with Solver(name="glucose42", bootstrap_with=clauses, with_proof=True) as sat:
        if sat.solve():
            return None
        lines = [x.strip() for x in sat.get_proof() or () if x.strip()]
    if not lines or lines[-1] != "0":
        lines.append("0")
    return clauses, ("\n".join(lines) + "\n").encode()


CASES = [case for case in (_random_unsat(seed) for seed in range(40)) if case is not None]


def _steps(proof: rup.Proof) -> list[tuple[bool, tuple[int, ...]]]:
    return list(zip(proof.deleted, proof.clauses))


def _text(steps: list[tuple[bool, tuple[int, ...]]]) -> bytes:
    return b"".join((b"d " if d else b"") + " ".join(map(str, (*c, 0))).encode() + b"\n" for d, c in steps)


def _verdicts(formula: list[list[int]], steps: list[tuple[bool, tuple[int, ...]]]) -> tuple[object, ...]:
    """(compiled, twin, naive) answers as (accepted, index of the deciding proof step)."""
    proof = rup.read_proof(_text(steps))
    got = []
    for plain in (False, True):
        out = rup.check_proof(formula, proof, plain=plain)
        got.append((out.accepted, out.line - 1 if out.line else None))
    status, j = naive.check(formula, steps)
    got.append((status == "accepted", j if status != "no empty clause" else None))
    return tuple(got)


def test_enough_random_cases() -> None:
    """The seeds give a fair number of unsatisfiable CNFs with proofs of several lemmas."""
    assert len(CASES) >= 20
    assert sum(1 for _, p in CASES if p.count(b"\n") > 5) >= 10


@pytest.mark.parametrize("case", range(len(CASES)))
def test_the_three_checkers_agree_on_mutated_proofs(case: int) -> None:
    """On the solver's proof and on every proof with one step removed, one lemma's first
    literal negated, or everything after one step cut off, the compiled kernel, the twin
    and the naive checker give the same verdict at the same step; the solver's proof is
    accepted."""
    formula, text = CASES[case]
    steps = _steps(rup.read_proof(text))
    assert _verdicts(formula, steps)[0][0] is True
    mutants = []
    for i, (deleted, clause) in enumerate(steps):
        mutants.append(steps[:i] + steps[i + 1:])
        mutants.append(steps[:i])
        if clause and not deleted:
            mutants.append(steps[:i] + [(False, (-clause[0], *clause[1:]))] + steps[i + 1:])
    rejected = 0
    for mutant in mutants:
        answers = _verdicts(formula, mutant)
        assert answers[0] == answers[1] == answers[2], (answers, _text(mutant))
        rejected += not answers[0][0]
    assert rejected > 0  # every proof ends with the empty clause: cutting it off is rejected


def test_a_forged_proof_of_a_satisfiable_cnf_is_rejected() -> None:
    """``0`` alone, or units contradicting each other, do not refute a satisfiable CNF."""
    formula = [[1, 2], [-1, 2], [1, -2]]
    for forged in (b"0\n", b"-2 0\n2 0\n0\n", b"d 1 2 0\nd -1 2 0\n0\n"):
        out = rup.check_proof(formula, rup.read_proof(forged))
        assert not out.accepted
        assert "does not follow" in out.message


def test_a_cnf_refuted_by_propagation_needs_only_the_empty_clause() -> None:
    """Units that clash: the empty clause follows at once; without it the proof is incomplete."""
    formula = [[1], [-1, 2], [-2]]
    assert rup.check_proof(formula, rup.read_proof(b"0\n")).accepted
    out = rup.check_proof(formula, rup.read_proof(b""))
    assert not out.accepted and "never derives the empty clause" in out.message


def test_a_deletion_of_a_reason_is_ignored() -> None:
    """Deleting the unit clause behind a top-level assignment must not lose it (the proof
    stays sound either way: a kept clause follows from the CNF)."""
    formula = [[1], [-1, 2], [-2, 3], [-3, -1]]
    proof = rup.read_proof(b"d 1 0\nd -1 2 0\n0\n")
    assert rup.check_proof(formula, proof).accepted


@pytest.mark.parametrize("text,message", [
    (b"1 2 x 0\n", "expected a literal"),
    (b"1 d 2 0\n", "'d' in the middle"),
    (b"1 2 0\n3 -4", "no closing 0"),
    (b"d\n", "no closing 0"),
    (b"1 99999999999 0\n", "out of range"),
])
def test_malformed_proof_text_is_refused_naming_the_line(text: bytes, message: str) -> None:
    """A token that is no literal, a misplaced ``d``, a truncated last clause: one line each."""
    with pytest.raises(rup.ProofError, match=message) as info:
        rup.read_proof(text)
    assert "line" in str(info.value) and "\n" not in str(info.value)


def test_comments_and_line_numbers() -> None:
    """Comment lines are skipped but counted: messages give the file's line numbers."""
    proof = rup.read_proof(b"c header\nc more\n1 0\n\nd 1 0\n0\n", first_line=3)
    assert proof.clauses == [(1,), (1,), ()]
    assert proof.deleted == [False, True, False]
    assert proof.lines == [5, 7, 8]


@pytest.mark.parametrize("lemma", [b"1 5 0", b"4 -4 0", b"3 3 -3 0"])
def test_a_satisfied_or_tautological_lemma_follows(lemma: bytes) -> None:
    """A lemma with a literal true at the top level, or with a literal and its negation,
    follows (its negation cannot be assumed); the three checkers agree."""
    formula = [[1], [2, 3], [-2, 3], [2, -3], [-2, -3]]
    proof = rup.read_proof(lemma + b"\n3 0\n0\n")
    steps = _steps(proof)
    assert _verdicts(formula, steps) == ((True, 2),) * 3


def test_a_huge_variable_is_rejected_before_allocating() -> None:
    """A lemma naming variable 2**31 - 1 would make the kernel's arrays gigabytes long."""
    out = rup.check_proof([[1, 2], [-1]], rup.read_proof(b"2147483647 0\n0\n"))
    assert not out.accepted and "out of range" in out.message
    assert rup.check_proof([[1, 2], [-1, 2], [-2, 3], [-3]], rup.read_proof(b"5 2 0\n0\n")).accepted
