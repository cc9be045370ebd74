"""Verdicts the project has established for each claim (written by ``prove --record``).

``crewcheck prove`` exits 1 when a recomputed verdict differs from this record.
"""

ESTABLISHED: dict[str, str] = {
    'witteveen-lemma-3.13': 'CONFIRMED',
    'witteveen-thm-3.12': 'REFUTED',
}
