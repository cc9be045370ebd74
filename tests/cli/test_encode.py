"""``crewcheck encode`` / ``crewcheck decode``: files a plain SAT solver can read, and back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crewcheck.cli import main

WINNABLE = {
    "hands": [["B1", "B3", "G2", "R1"], ["B2", "B4", "G1", "R2"], ["B5", "G3", "G4", "R3"]],
    "trump": "R", "lead": "rocket", "assignment": "fixed",
    "tasks": [{"card": "B5", "seat": 2}, {"card": "G1", "seat": 2}],
    "played": [{"lead": 2, "cards": ["R3", "R1", "R2"]}], "current": {"lead": 2, "cards": ["G3"]},
}
FREE = {
    "hands": [["B1", "B3", "G2", "Y1"], ["B2", "B4", "G1", "Y3"], ["B5", "G3", "G4", "Y2"]], "lead": "any",
    "assignment": "free", "order_rule": "lenient",
    "tasks": [{"card": "B1", "token": "1"}, {"card": "B3", "token": "omega"}, {"card": "Y1"}],
}
UNWINNABLE = {"hands": [["B1", "B2"], ["B3", "B4"]], "tasks": [{"card": "B4", "seat": 0}]}


def write(tmp_path: Path, name: str, data: dict) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def solve_dimacs(cnf_path: str, model_path: str, solver: str) -> bool:
    """Run a PySAT solver on a DIMACS file; write its output in SAT-competition format."""
    pysat_formula = pytest.importorskip("pysat.formula")
    pysat_solvers = pytest.importorskip("pysat.solvers")
    cnf = pysat_formula.CNF(from_file=cnf_path)
    with pysat_solvers.Solver(name=solver, bootstrap_with=cnf.clauses) as s:
        sat = s.solve()
        text = ("s SATISFIABLE\nv " + " ".join(map(str, s.get_model())) + " 0\n") if sat else "s UNSATISFIABLE\n"
    Path(model_path).write_text(text)
    return bool(sat)


@pytest.mark.parametrize("deal,solver", [(WINNABLE, "cadical153"), (FREE, "glucose4"), (FREE, "cadical153")])
def test_dimacs_round_trip_with_a_plain_sat_solver(tmp_path: Path, capsys, deal: dict, solver: str) -> None:
    """encode -> CaDiCaL/Glucose -> decode gives a win the replay checker accepts (exit 0)."""
    deal_path = write(tmp_path, "deal.json", deal)
    cnf, model = str(tmp_path / "deal.cnf"), str(tmp_path / "deal.model")
    assert main(["encode", deal_path, "--format", "dimacs", "-o", cnf]) == 0
    text = Path(cnf).read_text()
    assert text.startswith("c ") and "\np cnf " in text and "play_t" in text
    assert solve_dimacs(cnf, model, solver)
    capsys.readouterr()
    assert main(["decode", deal_path, model, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "winnable" and out["witness"]


def test_unsatisfiable_decodes_to_unwinnable(tmp_path: Path, capsys) -> None:
    """A solver's UNSATISFIABLE becomes 'unwinnable' with exit code 1."""
    deal_path = write(tmp_path, "deal.json", UNWINNABLE)
    cnf, model = str(tmp_path / "d.cnf"), str(tmp_path / "d.model")
    assert main(["encode", deal_path, "-o", cnf]) == 0
    assert not solve_dimacs(cnf, model, "cadical153")
    assert main(["decode", deal_path, model]) == 1
    assert capsys.readouterr().out.startswith("unwinnable")


def test_smt2_round_trip_with_z3(tmp_path: Path, capsys) -> None:
    """encode --format smt2 -> Z3 (as an outside SMT solver) -> decode."""
    z3 = pytest.importorskip("z3")
    deal_path = write(tmp_path, "deal.json", FREE)
    smt = str(tmp_path / "deal.smt2")
    assert main(["encode", deal_path, "--format", "smt2", "-o", smt]) == 0
    s = z3.Solver()
    s.from_file(smt)
    assert s.check() == z3.sat
    model = tmp_path / "deal.out"
    model.write_text("sat\n" + s.model().sexpr())
    capsys.readouterr()
    assert main(["decode", deal_path, str(model)]) == 0
    assert capsys.readouterr().out.startswith("winnable")


def test_a_wrong_model_is_rejected(tmp_path: Path, capsys) -> None:
    """A model that is not a model of the deal's encoding is bad input (exit 2, one
    line), never 'winnable'."""
    deal_path = write(tmp_path, "deal.json", WINNABLE)
    model = tmp_path / "bad.model"
    model.write_text("v " + " ".join(str(-i) for i in range(1, 200)) + " 0\n")
    assert main(["decode", deal_path, str(model)]) == 2
    err = capsys.readouterr().err
    assert "not a model of this deal's encoding" in err and err.count("\n") == 1


@pytest.mark.parametrize("seed", range(6))
def test_a_model_with_flipped_literals_is_not_a_model(tmp_path: Path, capsys, seed: int) -> None:
    """A solver's model with a few literals flipped: one line, exit 2 (it was a KeyError
    or StopIteration, exit 4)."""
    import random

    deal_path = write(tmp_path, "deal.json", FREE)
    cnf, model = str(tmp_path / "deal.cnf"), str(tmp_path / "deal.model")
    assert main(["encode", deal_path, "-o", cnf]) == 0
    assert solve_dimacs(cnf, model, "glucose4")
    lits = Path(model).read_text().split("\n")[1].split()[1:-1]
    rng = random.Random(seed)
    for i in rng.sample(range(len(lits)), 1 + seed):
        lits[i] = str(-int(lits[i]))
    Path(model).write_text("s SATISFIABLE\nv " + " ".join(lits) + " 0\n")
    capsys.readouterr()
    code = main(["decode", deal_path, model])
    err = capsys.readouterr().err
    assert code in (0, 2), err  # a flip of a free auxiliary can leave a model
    if code == 2:
        assert "not a model of this deal's encoding" in err and err.count("\n") == 1


@pytest.mark.parametrize("number, players, seed, extra", [
    (16, 3, 102, ["--distress", "left"]),  # decide: winnable; the encoding dropped the signal
    (5, 4, 0, []),                          # a "choose" seat
    # a "choose" seat on a deal whose encoding takes long (mission 5 above runs by default)
    pytest.param(50, 4, 0, [], marks=pytest.mark.slow),
    (20, 4, 1, []),                         # the commander's decision
    (24, 4, 1, []),                         # the commander's distribution
])
def test_mission_deals_encode_and_decode_like_decide(tmp_path: Path, capsys, number: int, players: int,
                                                     seed: int, extra: list[str]) -> None:
    """validate, encode and decode take crewcheck's own mission deals, and the decoded
    answer is decide's."""
    deal_path = str(tmp_path / "deal.json")
    assert main(["mission", str(number), "--players", str(players), "--seed", str(seed), *extra,
                 "-o", deal_path]) == 0
    assert main(["validate", deal_path]) == 0
    cnf, model = str(tmp_path / "deal.cnf"), str(tmp_path / "deal.model")
    assert main(["encode", deal_path, "-o", cnf]) == 0
    sat = solve_dimacs(cnf, model, "glucose4")
    capsys.readouterr()
    decided = main(["decide", deal_path, "--timeout", "60"])
    assert decided in (0, 1)
    assert main(["decode", deal_path, model]) == decided
    assert sat == (decided == 0)


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    """A missing deal or an unreadable model is one line on stderr and exit 2."""
    assert main(["encode", str(tmp_path / "missing.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("crewcheck: error:") and err.count("\n") == 1
    deal_path = write(tmp_path, "deal.json", WINNABLE)
    junk = tmp_path / "junk.model"
    junk.write_text("v x y z\n")
    assert main(["decode", deal_path, str(junk)]) == 2


def test_decide_prints_the_explanation(tmp_path: Path, capsys) -> None:
    """`crewcheck decide --backend z3` on an unwinnable deal says why."""
    pytest.importorskip("z3")
    deal_path = write(tmp_path, "deal.json", UNWINNABLE)
    assert main(["decide", deal_path, "--backend", "z3"]) == 1
    assert "why: task B4@0 cannot be completed" in capsys.readouterr().out
