"""Certified verdicts: a certificate for each answer, and a checker of its own.

A *winnable* verdict is certified by its winning line, which the independent replay
checker accepts (:func:`crewcheck.model.replay.replay`). An *unwinnable* verdict is
certified by a clausal refutation: the deal's CNF, named by its encoding and digest
(:mod:`.cnf`), and a DRUP proof of its unsatisfiability written by a proof-producing SAT
solver (:mod:`.produce`). :mod:`.rup` checks such proofs; it shares no code with the
solvers. :mod:`.certfile` is the file format, :mod:`.verify` the check of a whole
certificate against a deal. See docs/certificates.md.
"""
