"""What a refutation refutes: the CNF of a deal, and the digests that name it.

A certificate does not carry the CNF (tens of thousands of clauses): it names the
encoding that rebuilds it from the deal (:data:`ENCODING`) and the SHA-256 of the CNF in
DIMACS (:func:`cnf_digest`), and the checker rebuilds the CNF and compares. The CNF is the
one ``crewcheck encode DEAL --format dimacs`` writes: the winnability encoding
(:func:`crewcheck.solvers.logic.encoding.encode`) expanded to clauses with the open tasks as
unit clauses (:func:`crewcheck.solvers.logic.export.to_cnf`), so an outside checker can
be run on the same two files (``drat-trim deal.cnf deal.cert``).
"""

from __future__ import annotations

import gc
import hashlib
import json
from dataclasses import dataclass

from crewcheck.formats.deal_json import to_dict
from crewcheck.model.instance import Instance
from crewcheck.solvers.logic.encoding import encode
from crewcheck.solvers.logic.export import to_cnf

__all__ = ["ENCODING", "DealCNF", "build_cnf", "cnf_digest", "deal_digest"]

ENCODING = "crewcheck-cnf/3"
"""The name of the encoding certificates refer to. A change of the clauses the encoder
writes for a deal must come with a new name (the test ``test_encoding_digests`` pins the
digests of the example deals' CNFs and fails when they change): a certificate then says
which encoding it needs instead of failing as "another deal"."""


@dataclass(frozen=True)
class DealCNF:
    """The CNF of a deal: "the position after the history can be won" is satisfiable."""

    clauses: list[list[int]]
    variables: int
    digest: str
    """``sha256:`` and the hex digest of the DIMACS text (:func:`cnf_digest`)."""


def build_cnf(instance: Instance) -> DealCNF:
    """The CNF of a concrete deal whose history has not ended the game."""
    # The encoder allocates some 100,000 small objects and no cycles; without the cyclic
    # collector it runs about twice as fast in a process holding a large heap (numba's).
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        enc = encode(instance)
        cnf = to_cnf(enc.formula, assume=enc.assumptions)
        clauses = [list(c) for c in cnf.clauses]
    finally:
        if was_enabled:
            gc.enable()
    return DealCNF(clauses, cnf.nv, cnf_digest(clauses, cnf.nv))


def cnf_digest(clauses: list[list[int]], variables: int) -> str:
    """SHA-256 of the CNF as DIMACS without comments: ``p cnf V C`` and one ``... 0`` line
    per clause, each line ending in a newline."""
    h = hashlib.sha256(f"p cnf {variables} {len(clauses)}\n".encode())
    h.update("".join(" ".join(map(str, c)) + " 0\n" for c in clauses).encode())
    return "sha256:" + h.hexdigest()


def deal_digest(instance: Instance) -> str:
    """SHA-256 of the deal's canonical JSON (:func:`~crewcheck.formats.deal_json.to_dict`,
    keys sorted, no spaces): two files of one deal have the same digest."""
    text = json.dumps(to_dict(instance), sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()
