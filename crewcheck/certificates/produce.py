"""Making certificates: a witness for a win, clausal refutations for a loss.

What it does
    :func:`certify` turns a decided deal into a :class:`~crewcheck.certificates.certfile.Certificate`.
    Winnable: the winning line :func:`crewcheck.decide` found and replayed (every card, the
    task seats where the crew chose them, the crew's choice). Unwinnable: for every
    variant of the deal (a deal without choices is its own single variant), the CNF of
    the winnability encoding (:func:`~crewcheck.certificates.cnf.build_cnf`) solved again
    by a proof-producing CDCL solver from PySAT, which writes a DRUP proof of its
    unsatisfiability; or, for a variant whose history has already lost, a part that
    says so (the checker replays the history); or, for a variant a counting argument of
    :mod:`crewcheck.certificates.counting` refutes, a part that names it (the checker
    counts again).
Which solver
    :data:`DEFAULT_PROOF_SOLVER`, Glucose 4.2: on the unwinnable deals of the benchmark
    cells it wrote the smallest proofs in the least time of the proof-producing solvers
    PySAT has (docs/certificates.md, "Which proof-producing solver"). Any of
    :data:`PROOF_SOLVERS` can be chosen.
When
    The proof is always a second solve, after the decision, whichever back-end (the
    search or the SAT race) answered: its time is reported apart from the decision's.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from crewcheck.certificates.certfile import Certificate, Part
from crewcheck.certificates.cnf import ENCODING, build_cnf, deal_digest
from crewcheck.certificates.counting import COUNTS
from crewcheck.errors import BackendError, BackendUnavailableError, IllegalPlayError, NotApplicableError
from crewcheck.model.instance import Instance
from crewcheck.model.replay import replay
from crewcheck.model.variants import count_variants, variants
from crewcheck.solvers.base import Result, Verdict
from crewcheck.solvers.logic.encoding import ENCODED_KINDS, size_limit

__all__ = ["PROOF_SOLVERS", "DEFAULT_PROOF_SOLVER", "MAX_PARTS", "Produced", "unsupported", "certify",
           "refute"]

PROOF_SOLVERS: tuple[str, ...] = ("glucose42", "glucose4", "glucose3", "cadical195", "cadical153",
                                  "lingeling", "maplechrono", "maplecm", "maplesat")
"""PySAT solvers that write DRUP proofs (``with_proof=True``)."""

DEFAULT_PROOF_SOLVER = "glucose42"

MAX_PARTS = 1000
"""Most variants an unwinnable certificate refutes one by one."""


@dataclass(frozen=True)
class Produced:
    """A certificate and what making it cost, apart from the decision."""

    certificate: Certificate
    seconds: float
    """Time to produce it (encoding and proof solves), after the decision."""

    @property
    def lemmas(self) -> int:
        return sum(p.lemmas for p in self.certificate.parts)

    @property
    def proof_bytes(self) -> int:
        return sum(len(p.proof) for p in self.certificate.parts)


def unsupported(instance: Instance) -> str | None:
    """Why no certificate can be made for ``instance`` (``None`` if one can): a condition
    kind the encoding does not cover, a too large encoding, too many variants."""
    kinds = sorted({c.kind for c in instance.conditions} - ENCODED_KINDS)
    if kinds:
        return f"the encoding does not cover the condition kind(s) {', '.join(kinds)}"
    n = count_variants(instance)
    if n > MAX_PARTS:
        return f"the deal leaves the crew {n:,} choices; certificates refute at most {MAX_PARTS:,}"
    if instance.is_concrete():
        return size_limit(instance)
    first = next(variants(instance), None)  # the variants differ in hands or seats, not in size
    return None if first is None else size_limit(first[1])


def refute(instance: Instance, solver: str = DEFAULT_PROOF_SOLVER) -> Part:
    """A :class:`Part` refuting the concrete deal ``instance``: a replay part if its history
    has already lost, a counting part if a count of :data:`~crewcheck.certificates.counting.COUNTS`
    refutes it (a pigeonhole that a CDCL solver would take hours over), else its CNF and a
    DRUP proof.

    Raises :class:`BackendError` if the CNF is satisfiable (the deal is winnable: the
    verdict being certified is wrong) or the history has won.
    """
    end = instance.state().end
    if end is not None:
        if end.won:
            raise BackendError("the deal's history has already won the game; nothing to refute")
        if instance.rules.assignment != "fixed":
            # the replay checker judges a whole game with every task's seat; a history that
            # lost before every task had one has no such line to show
            raise NotApplicableError("no certificate: the history has already lost the game under "
                                     f"{instance.rules.assignment} assignment (crewcheck show DEAL tells how)")
        try:
            replayed = replay(instance, instance.history)
        except IllegalPlayError:
            replayed = None
        if replayed is None or replayed.won or replayed.termination is None:
            # e.g. conditions that no game of this many tricks can meet, judged before the
            # first card: the replay checker only judges played tricks
            raise NotApplicableError(f"no certificate: the deal is lost ({end.describe(instance)}) before "
                                     "its history ends a game the replay checker can judge")
        return Part("", "replay")
    for name, count in COUNTS.items():
        if count(instance) is not None:
            return Part("", "count", solver=name)
    try:
        from pysat.solvers import Solver  # type: ignore[import-untyped]  # a core dependency, imported late
    except ImportError:  # pragma: no cover - python-sat is a dependency
        raise BackendUnavailableError("certificates need python-sat: pip install python-sat") from None
    if solver not in PROOF_SOLVERS:
        raise NotApplicableError(f"unknown proof solver {solver!r}; available: {', '.join(PROOF_SOLVERS)}")
    cnf = build_cnf(instance)
    t0 = time.perf_counter()
    with Solver(name=solver, bootstrap_with=cnf.clauses, with_proof=True) as sat:
        if sat.solve():
            raise BackendError("the deal's CNF is satisfiable: the deal is winnable, no refutation exists "
                               "(the verdict to certify is wrong)")
        lines = [line.strip() for line in sat.get_proof() or ()]
    seconds = time.perf_counter() - t0
    lines = [line for line in lines if line]
    if not lines or lines[-1] != "0":
        lines.append("0")  # a CNF refuted while loading gets an empty proof: add the empty clause
    deletions = sum(1 for line in lines if line.startswith("d"))
    proof = ("\n".join(lines) + "\n").encode()
    return Part("", "drup", ENCODING, cnf.variables, len(cnf.clauses), cnf.digest, solver,
                len(lines) - deletions, deletions, seconds, proof)


def certify(instance: Instance, result: Result, *, solver: str = DEFAULT_PROOF_SOLVER,
            progress: Callable[[int, int], None] | None = None) -> Produced | None:
    """The certificate of ``result``, the decision of ``instance``; ``None`` for ``UNKNOWN``.

    ``progress(done, total)`` is called after each refuted variant.

    Raises
    ------
    NotApplicableError
        :func:`unsupported` says why no certificate can be made.
    BackendError
        A variant's CNF is satisfiable though the verdict is unwinnable.
    """
    t0 = time.perf_counter()
    digest = deal_digest(instance)
    if result.verdict is Verdict.UNKNOWN:
        return None
    if result.verdict is Verdict.WINNABLE:
        w = result.witness
        assert w is not None
        card = instance.deck.card
        witness: dict[str, object] = {"plays": [str(card(c)) for c in w.plays], "assignment":
                                      None if w.assignment is None else list(w.assignment)}
        if w.choice is not None:
            witness["seats"] = dict(w.choice.seats)
            if w.choice.passes is not None:
                witness["distress"] = {"direction": w.choice.direction,
                                       "passes": [None if c < 0 else str(card(c)) for c in w.choice.passes]}
            if w.choice.token_move is not None:
                witness["token_move"] = list(w.choice.token_move)
            if w.choice.handover is not None:
                witness["handover"] = list(w.choice.handover)
        cert = Certificate("winnable", digest, witness=witness)
        return Produced(cert, time.perf_counter() - t0)
    why = unsupported(instance)
    if why is not None:
        raise NotApplicableError(f"no certificate: {why}")
    chosen = list(variants(instance))
    parts = []
    for n, (choice, variant) in enumerate(chosen, 1):
        part = refute(variant, solver)
        description = choice.describe(instance) or "the deal"
        parts.append(Part(description, part.kind, part.encoding, part.variables, part.clauses,
                          part.cnf_digest, part.solver, part.lemmas, part.deletions, part.seconds, part.proof))
        if progress is not None:
            progress(n, len(chosen))
    return Produced(Certificate("unwinnable", digest, parts), time.perf_counter() - t0)
