"""Verdicts the project has established for each claim (written by ``prove --record``).

``crewcheck prove`` exits 1 when a recomputed verdict differs from this record.
"""

ESTABLISHED: dict[str, str] = {
    'dejong-fig-3-fixed': 'CONFIRMED',
    'dejong-fig-3-free': 'CONFIRMED',
    'reiber-lemma-6.2': 'CONFIRMED',
    'reiber-thm-3.1': 'CONFIRMED',
    'reiber-thm-4.1': 'CONFIRMED',
    'reiber-cor-6.4': 'REFUTED',
    'reiber-thm-5.3': 'REFUTED',
    'witteveen-cor-3.21': 'CONFIRMED',
    'witteveen-lemma-3.13': 'CONFIRMED',
    'witteveen-thm-3.12': 'REFUTED',
    'witteveen-thm-3.15': 'CONFIRMED',
    'witteveen-thm-3.17': 'CONFIRMED',
    'witteveen-thm-3.18': 'CONFIRMED',
    'witteveen-thm-3.20': 'CONFIRMED',
    'witteveen-thm-3.23': 'CONFIRMED',
}
