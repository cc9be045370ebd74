"""Claim records, computations and verdicts for the claims ledger.

A :class:`Claim` pairs a published statement (with the paper's number kept only
as ``expected``) with a ``compute`` callable that re-derives the quantity from
scratch. The callable returns a :class:`Computation`: named computed values,
each saying how it was computed, plus free-form evidence. The ledger runner
(:mod:`crewcheck.claims.ledger`) turns a computation into a :class:`Verdict`. The
claims themselves (statements, published numbers) are data:
``crewcheck/claims/data/claims.json``, read by :mod:`crewcheck.claims.registry`.

References
----------
.. [1] M. Witteveen, bachelor thesis on The Crew, seed ``000``, §3.
.. [2] de Jong, seed ``001``, §4.4 and Figure 3.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

Mode: TypeAlias = Literal["quick", "full"]
"""How much work a computation may do: ``quick`` (CI) or ``full``."""


class Status(enum.Enum):
    """Outcome of re-deriving one claim (the rules: :data:`VERDICT_RULES`)."""

    CONFIRMED = "confirmed"
    """Every independent computation agrees with the published statement."""
    REFUTED = "refuted"
    """An exact computation or a checked counterexample shows the statement false, or an
    empirical result is contradicted under every reasonable reading by a calibrated test."""
    NOT_REPRODUCED = "not reproduced"
    """An empirical result we could not reproduce under the readings tried, while other
    reasonable readings were not tried or do not contradict it."""
    OPEN = "open"
    """The claim could not be decided (missing back-end, budget, incomplete record, error)."""
    ERRATUM = "erratum"
    """A printed number or formula is wrong, and the source itself contradicts it (its own
    figure, table or next sentence): a misprint, judged here; the intended statement is judged
    in its own row."""
    CONSISTENT = "consistent"
    """Consistent, nothing quantitative to compare: the source states no number or point the
    computation could disagree with beyond a qualitative shape, and the computation agrees
    with that shape."""

    @property
    def label(self) -> str:
        """The verdict as the ledger prints it, e.g. ``NOT REPRODUCED``."""
        return self.value.upper()


VERDICT_RULES: tuple[tuple[Status, str], ...] = (
    (Status.CONFIRMED, "every computation agrees with the published statement; for an empirical "
     "result, at least one reasonable reading reproduces it (no published rate differs from ours "
     "after the correction below), and the row names that reading. The check compares something "
     "the source states and fails on a perturbed input (a changed printed number, perturbed "
     "records or inputs: tests/claims/test_can_fail.py)."),
    (Status.REFUTED, "only when an exact computation or a checked counterexample shows the statement "
     "false, or an empirical result is contradicted under every reasonable reading by a calibrated "
     "test (no reasonable reading left untried)."),
    (Status.NOT_REPRODUCED, "an empirical result that no reading we tried reproduces, while other "
     "reasonable readings were not tried; the row lists the readings tried and those not tried."),
    (Status.OPEN, "not decided: a back-end is missing, a budget ran out, a committed record is "
     "incomplete, or a reduced (--quick) run cannot decide."),
    (Status.ERRATUM, "a printed number or formula is wrong by an exact computation, and the source "
     "itself contradicts it (its own figure, table or next sentence, quoted in the row): a misprint, "
     "not a refutation; the row names the row that judges the intended statement."),
    (Status.CONSISTENT, "consistent, nothing quantitative to compare: the source prints no number or "
     "point to compare, only a qualitative shape, and our computation has that shape (a check that "
     "fails on data without it), so it is not CONFIRMED."),
)
"""The written verdict rules; :func:`crewcheck.claims.ledger.evaluate` enforces them and
``docs/claims.md`` prints them."""


class Subject(enum.Enum):
    """What a row judges: its verdict is about this object and nothing more."""

    STATEMENT = "statement"
    """The statement itself (a theorem, lemma, corollary or an empirical result)."""
    PROOF = "proof"
    """The proof or construction given for a statement (e.g. a reduction), not the statement."""
    ALGORITHM = "algorithm"
    """An algorithm the source gives (it decides what it claims to decide), not the complexity
    class the source places the problem in."""
    PRINTED_NUMBER = "printed number"
    """A number (or a set of numbers) printed in the source."""
    PRINTED_FORMULA = "printed formula"
    """A formula printed in the source, as printed."""


SUBJECT_RULES: tuple[tuple[Subject, str], ...] = (
    (Subject.STATEMENT, "the statement as the source words it (quoted in the row)."),
    (Subject.PROOF, "the proof or construction given for a statement; a refuted proof leaves the "
     "statement open."),
    (Subject.ALGORITHM, "an algorithm the source gives: that it decides what it is said to decide; "
     "a refuted algorithm says nothing of the problem's complexity class."),
    (Subject.PRINTED_NUMBER, "a number printed in the source, compared with ours exactly."),
    (Subject.PRINTED_FORMULA, "a formula as printed in the source, evaluated on inputs where its "
     "value is known."),
)
"""The objects a row may judge; ``docs/claims.md`` prints them."""

PUBLISHED_RULE = (
    "A row's *published* value is a quotation or a number printed in the source (every printed "
    "number occurs in the seed file; a test checks it), or *none printed*; a condition the "
    "statement implies (no disagreement with an oracle, a majority) is shown as *required*, "
    "never as published.")
"""What the ledger's "published" column may hold."""

STATISTICS_RULE = (
    "Rates are compared with a two-sample test on the difference (the published rate is itself "
    "a binomial estimate with its own number of games), two-sided at 5 %, Holm-corrected across "
    "the rows of one published table, and reported as the difference with its 95 % interval; "
    "a trained agent is run with several training seeds and a reading reproduces a rate only if "
    "every seed does.")
"""How empirical rows are tested (:mod:`crewcheck.claims.stats`)."""


@dataclass(frozen=True, slots=True)
class Value:
    """One computed quantity and how it was obtained."""

    name: str
    """Short identifier, for example ``"burnside_total"``."""
    value: Any
    """The computed value (JSON-serialisable)."""
    method: str
    """One sentence on how the value was computed."""


@dataclass(frozen=True, slots=True)
class Computation:
    """What a claim's ``compute`` callable returns."""

    values: tuple[Value, ...]
    """Named computed values, each with its method."""
    holds: bool | None
    """Whether the statement holds; ``None``: decide by comparing the values
    named like the keys of the claim's ``expected`` mapping."""
    evidence: str = ""
    """Free-form evidence: corrected value, counterexample path, or reason."""
    notes: tuple[str, ...] = ()
    """Ledger notes, e.g. rule discrepancies between paper and rulebook."""
    counterexample: str | None = None
    """Path of a counterexample file under ``models/counterexamples/``."""
    open_reason: str | None = None
    """Why the claim could not be decided (makes the verdict OPEN)."""
    readings: Readings | None = None
    """For an empirical claim: the readings tried (``None``: an exact computation)."""

    def value(self, name: str) -> Any:
        """Return the value called `name`.

        Raises
        ------
        KeyError
            If no value has that name.
        """
        for v in self.values:
            if v.name == name:
                return v.value
        raise KeyError(f"no computed value named {name!r}")


@dataclass(frozen=True, slots=True)
class Readings:
    """The readings of an under-specified experiment tried for an empirical claim.

    A computation that carries readings is judged by the empirical rules: the statement
    is REFUTED only when `contradicted` is true of every reading tried *and* none is left
    untried; a failing statement otherwise is NOT REPRODUCED.
    """

    tried: tuple[str, ...]
    """Each reading tried, with its result in a few words."""
    not_tried: tuple[str, ...] = ()
    """Reasonable readings not tried, each with why."""
    reproducing: tuple[str, ...] = ()
    """The readings under which the published result is reproduced."""
    contradicted: bool = False
    """Whether a calibrated test contradicts the statement under every reading tried."""


ComputeFn: TypeAlias = Callable[[Mode], Computation]
"""What re-derives a claim: called with the mode, returns the computation."""


@dataclass(frozen=True, slots=True)
class Claim:
    """A published claim and the computation that re-derives it."""

    id: str
    """Stable identifier, e.g. ``"witteveen-thm-3.12"``."""
    source: str
    """Seed file and section, e.g. ``"000 §3.2, Thm 3.12"``."""
    statement: str
    """The claim in words, as published."""
    expected: Any
    """The published value (only ever compared against, never used to compute)."""
    compute: ComputeFn = field(repr=False, compare=False)
    """Re-derive the claim; receives the mode."""
    notes: tuple[str, ...] = ()
    """Standing notes (rule discrepancies, reading of the paper)."""
    subject: Subject = Subject.STATEMENT
    """What the row judges."""
    quote: str = ""
    """The source's own words the row judges (occurs in the seed file, whitespace-normalised)."""
    requires: Any = None
    """Conditions the statement implies but the source does not print (e.g. zero disagreements
    with an oracle), compared like ``expected`` and reported as required, never as published."""
    quantitative: bool = True
    """Whether the source gives something quantitative to compare (else a holding statement is
    CONSISTENT, not CONFIRMED)."""
    erratum: Erratum | None = None
    """For a misprint: what in the source contradicts it and which row judges the intent."""
    would_change: str = ""
    """What would change the verdict, in one or two sentences."""

    @property
    def seed(self) -> str:
        """The seed file number the source names, e.g. ``"001"``."""
        return self.source.split()[0].rstrip(",")

    @property
    def published(self) -> Any:
        """The printed value(s) compared against, or ``"none printed"``."""
        return self.expected if self.expected else "none printed"


@dataclass(frozen=True, slots=True)
class Erratum:
    """What makes a failing printed value a misprint rather than a refutation."""

    contradicted_by: str
    """The source's own words (or figure text) giving the intended value."""
    intended: str
    """The id of the row judging the intended statement."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The ledger line for one claim."""

    claim: Claim
    """The claim."""
    status: Status
    """The verdict (:class:`Status`)."""
    established: Status | None
    """The verdict the project recorded earlier, if any."""
    computation: Computation | None
    """The computation, or ``None`` when it could not run."""
    seconds: float
    """Wall time of the computation."""
    mode: Mode
    """The mode it ran in."""
    reason: str = ""
    """Why the claim is OPEN, REFUTED or NOT_REPRODUCED."""
    jobs: tuple[tuple[str, int, float], ...] = ()
    """``(namespace, chunks, recorded seconds)`` of each chunked job the computation used."""

    @property
    def changed(self) -> bool:
        """Whether the status differs from the established one."""
        return self.established is not None and self.status is not self.established

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-serialisable dictionary."""
        comp = self.computation
        return {
            "id": self.claim.id,
            "source": self.claim.source,
            "statement": self.claim.statement,
            "object": self.claim.subject.value,
            "quote": self.claim.quote,
            "published": self.claim.published,
            "required": self.claim.requires,
            "erratum": None if self.claim.erratum is None else {
                "contradicted_by": self.claim.erratum.contradicted_by, "intended": self.claim.erratum.intended},
            "would_change": self.claim.would_change,
            "status": self.status.name,
            "jobs": [{"namespace": ns, "chunks": n, "seconds": t} for ns, n, t in self.jobs],
            "established": None if self.established is None else self.established.name,
            "changed": self.changed,
            "mode": self.mode,
            "seconds": round(self.seconds, 3),
            "reason": self.reason,
            "values": [] if comp is None else [
                {"name": v.name, "value": v.value, "method": v.method} for v in comp.values
            ],
            "evidence": "" if comp is None else comp.evidence,
            "counterexample": None if comp is None else comp.counterexample,
            "notes": list(self.claim.notes) + ([] if comp is None else list(comp.notes)),
            "readings": None if comp is None or comp.readings is None else {
                "tried": list(comp.readings.tried), "not_tried": list(comp.readings.not_tried),
                "reproducing": list(comp.readings.reproducing),
                "contradicted": comp.readings.contradicted},
        }
