"""The logic back-ends: one winnability formula (:mod:`.encoding`), its export to CNF,
DIMACS and SMT-LIB (:mod:`.export`), the decide/explain path they share (:mod:`.decide`),
and the solvers behind it: Z3 (:mod:`.smt`), CP-SAT (:mod:`.cpsat`), CaDiCaL/Glucose
(:mod:`.sat`, and :mod:`.sat_process` for a solve in a child process)."""
