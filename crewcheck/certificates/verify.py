"""Checking certificates: ``crewcheck check DEAL CERT``.

A *winnable* certificate is checked by replaying its line with the independent witness
checker (:func:`crewcheck.model.replay.replay`). An *unwinnable* one is checked part by
part against the variants of the deal (:func:`crewcheck.model.variants.variants`; a deal
without choices has one): the CNF is rebuilt from the variant
(:func:`~crewcheck.certificates.cnf.build_cnf`), its digest compared with the certified
one, and the proof verified against the *rebuilt* clauses by the project's own checker
(:mod:`crewcheck.certificates.rup`); a variant whose history has already lost is replayed;
a variant refuted by counting (:mod:`crewcheck.certificates.counting`) is counted again.

Nothing the certificate says about the CNF is trusted: its clauses are never read from
the file. What an accepted certificate rests on is in docs/certificates.md.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from crewcheck.certificates import rup
from crewcheck.certificates.certfile import Certificate, CertificateFormatError, Part, read_certificate
from crewcheck.certificates.cnf import ENCODING, build_cnf, deal_digest
from crewcheck.certificates.counting import COUNTS
from crewcheck.errors import IllegalPlayError, InvalidInputError
from crewcheck.model.cards import Card
from crewcheck.model.instance import Instance
from crewcheck.model.replay import replay
from crewcheck.model.variants import variants

__all__ = ["CheckOutcome", "check_certificate", "check_file"]


@dataclass(frozen=True)
class CheckOutcome:
    """The checker's answer."""

    accepted: bool
    verdict: str
    """What the certificate claims (``"winnable"``, ``"unwinnable"``, ``""`` if unreadable)."""
    message: str
    """One line: what was checked, or why it was rejected."""
    seconds: float
    lemmas: int = 0
    """Lemmas checked (unwinnable certificates)."""


def check_file(instance: Instance, path: str | Path, *, plain: bool = False) -> CheckOutcome:
    """Check the certificate file ``path`` for ``instance``.

    Raises :class:`InvalidInputError` if the file cannot be read or is no certificate; a
    certificate that fails is an answer (``accepted=False``), not an exception.
    """
    t0 = time.perf_counter()
    try:
        cert = read_certificate(path)
    except CertificateFormatError as e:
        return CheckOutcome(False, "", f"malformed certificate: {e}", time.perf_counter() - t0)
    return check_certificate(instance, cert, plain=plain, started=t0)


def check_certificate(instance: Instance, cert: Certificate, *, plain: bool = False,
                      started: float | None = None) -> CheckOutcome:
    """Check ``cert`` for ``instance`` (``plain``: run the checker's plain-Python twin)."""
    t0 = time.perf_counter() if started is None else started
    mine = deal_digest(instance)
    if cert.deal != mine:
        return CheckOutcome(False, cert.verdict, f"the certificate is for another deal ({cert.deal[:19]}..., "
                                                 f"this deal is {mine[:19]}...)", time.perf_counter() - t0)
    if cert.verdict == "winnable":
        message = _check_witness(instance, cert)
        accepted = message.startswith("the line")
        return CheckOutcome(accepted, "winnable", message, time.perf_counter() - t0)
    chosen = list(variants(instance))
    if len(cert.parts) != len(chosen):
        return CheckOutcome(False, "unwinnable", f"the deal has {len(chosen)} variant(s) to refute, the "
                                                 f"certificate refutes {len(cert.parts)}", time.perf_counter() - t0)
    lemmas = 0
    for n, ((choice, variant), part) in enumerate(zip(chosen, cert.parts), 1):
        where = "" if len(chosen) == 1 else f"part {n} ({choice.describe(instance)}): "
        failure, checked = _check_part(variant, part, plain)
        lemmas += checked
        if failure is not None:
            return CheckOutcome(False, "unwinnable", where + failure, time.perf_counter() - t0, lemmas)
    seconds = time.perf_counter() - t0
    counted = [p.solver for p in cert.parts if p.kind == "count"]
    if counted and len(counted) == len(chosen):
        what = "the deal" if len(chosen) == 1 else f"all {len(chosen)} variants"
        return CheckOutcome(True, "unwinnable", f"the {', '.join(sorted(set(counted)))} count refutes {what} "
                                                f"(counted again from the deal)", seconds, lemmas)
    what = "the deal's CNF" if len(chosen) == 1 else f"the CNFs of all {len(chosen)} variants"
    also = f"; {len(counted)} variant(s) refuted by counting" if counted else ""
    return CheckOutcome(True, "unwinnable", f"the proof refutes {what} ({ENCODING}; {lemmas:,} lemma(s) "
                                            f"checked by unit propagation{also})", seconds, lemmas)


def _check_part(variant: Instance, part: Part, plain: bool) -> tuple[str | None, int]:
    """Why ``part`` does not refute ``variant`` (``None`` if it does), and the lemmas checked."""
    end = variant.state().end
    if part.kind == "replay":
        if end is None or end.won:
            return "the certificate says the history has already lost, but it has not", 0
        try:
            outcome = replay(variant, variant.history)
        except IllegalPlayError as e:
            return f"the history does not replay: {e}", 0
        if outcome.won or outcome.termination is None:
            return "the history does not replay to a lost game", 0
        return None, 0
    if part.kind == "count":
        count = COUNTS.get(part.solver)
        if count is None:
            return f"unknown counting argument {part.solver!r} (known: {', '.join(COUNTS)})", 0
        if count(variant) is None:
            return f"the {part.solver} count does not refute this position", 0
        return None, 0
    if end is not None:
        return "the history has already ended the game: no CNF to refute", 0
    if part.encoding != ENCODING:
        return (f"the certificate refutes encoding {part.encoding!r}; this crewcheck builds {ENCODING!r} "
                f"(check it with the crewcheck that made it)"), 0
    cnf = build_cnf(variant)
    if cnf.digest != part.cnf_digest:
        return ("the CNF rebuilt from the deal is not the one the proof refutes (sha256 differs): "
                "a certificate of another deal?"), 0
    try:
        proof = rup.read_proof(part.proof, first_line=part.first_line)
    except rup.ProofError as e:
        return f"unreadable proof: {e}", 0
    got = rup.check_proof(cnf.clauses, proof, plain=plain)
    return (None if got.accepted else got.message), got.lemmas


def _check_witness(instance: Instance, cert: Certificate) -> str:
    """``"the line ..."`` if the witness wins, else why not."""
    w = cert.witness or {}
    deck = instance.deck
    try:
        plays = [deck.index(Card.parse(str(c))) for c in _list(w.get("plays"), "plays")]
        assignment = w.get("assignment")
        if assignment is not None:
            assignment = [_seat(s) for s in _list(assignment, "assignment")]
        seats = w.get("seats")
        if seats is not None and not isinstance(seats, dict):
            raise ValueError("seats is not an object")
        distress = None
        if w.get("distress") is not None:
            d = w["distress"]
            passes = [-1 if c is None else deck.index(Card.parse(str(c))) for c in _list(d.get("passes"), "passes")]
            distress = (int(d["direction"]), passes)
        token_move = handover = None
        if w.get("token_move") is not None:
            i, j = _list(w["token_move"], "token_move")
            token_move = (_seat(i), _seat(j))
        if w.get("handover") is not None:
            giver, receiver = _list(w["handover"], "handover")
            handover = (_seat(giver), _seat(receiver))
        outcome = replay(instance, plays, assignment, seats, distress, token_move=token_move, handover=handover)
    except IllegalPlayError as e:  # (an InvalidInputError too: caught first)
        return f"the witness is not a legal game: {e}"
    except (ValueError, KeyError, TypeError, AttributeError, InvalidInputError) as e:
        return f"the witness cannot be read: {e}"
    if not outcome.won:
        return f"the witness does not win: {outcome.describe(instance)}"
    return f"the line of {len(plays) - len(instance.history)} card(s) replays to a win ({outcome.describe(instance)})"


def _seat(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"seat {value!r} is not a whole number")
    return value


def _list(value: object, name: str) -> list[object]:
    if not isinstance(value, list):
        raise ValueError(f"{name} is not a list")
    return value
