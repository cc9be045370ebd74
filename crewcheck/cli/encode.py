"""``crewcheck encode | decode``: the winnability encoding for outside SAT / SMT solvers.

``crewcheck encode DEAL.json --format dimacs -o deal.cnf`` writes the pure CNF of the
encoding (de Jong's, generalised: :mod:`crewcheck.solvers.logic.encoding`) with a comment
header naming every variable; ``--format smt2`` writes the same clauses as SMT-LIB 2.
Run any solver on it, then ``crewcheck decode DEAL.json MODEL`` reads the solver's
output (``s``/``v`` lines, signed literals, or an SMT ``(model ...)``), turns the model
into a winning line and checks it with the independent replay checker.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from crewcheck.api import check_witness
from crewcheck.cli import EXIT_BACKEND, EXIT_NO, EXIT_OK, EXIT_USAGE, output_arg, report
from crewcheck.errors import BackendError, CrewcheckError, InvalidInputError
from crewcheck.formats import deal_json
from crewcheck.model.instance import Instance
from crewcheck.reports.results import RESULT_SCHEMA, result_lines, result_to_dict
from crewcheck.solvers.logic.position import Encoding

__all__ = ["add_parsers", "run_encode", "run_decode"]


def add_parsers(sub: Any) -> None:
    e = sub.add_parser(
        "encode", help="write the winnability encoding for a SAT or SMT solver",
        description="Write the deal's winnability encoding (satisfiable <=> winnable from the "
                    "position after the played cards). DIMACS is pure CNF with a comment header "
                    "naming every variable; smt2 is the same clauses over named Booleans.")
    e.add_argument("deal", help="deal JSON file, or - for standard input")
    e.add_argument("--format", choices=("dimacs", "smt2"), default="dimacs",
                   help="output format: dimacs or smt2 (default: dimacs)")
    e.add_argument("-o", "--output", type=output_arg, metavar="FILE", help="write here (default: standard output)")
    e.set_defaults(func=run_encode)

    d = sub.add_parser(
        "decode", help="turn a solver's model of the encoding into a checked winning line",
        description="Read a SAT solver's output ('s SATISFIABLE' / 'v ...' lines, or signed "
                    "literals) or an SMT model ('(define-fun name () Bool true)') for the "
                    "encoding of DEAL, check it against the encoding, decode the winning line and "
                    "replay it. Exit code: 0 a checked win, 1 the solver said unsatisfiable "
                    "(unwinnable), 2 bad input (including a model that is not a model of the "
                    "encoding), 4 a model that does not decode to a win (a bug).")
    d.add_argument("deal", help="deal JSON file the encoding was made from")
    d.add_argument("model", help="solver output file, or - for standard input")
    d.add_argument("--json", action="store_true", help="print one JSON result object")
    d.set_defaults(func=run_decode)


def _fail(args: argparse.Namespace, error: Exception, code: int, where: str = "") -> int:
    return report(args, error, code, where=where, envelope={"schema": RESULT_SCHEMA})


MAX_MODEL_BYTES = 1 << 26
"""Largest solver model read by ``decode`` (64 MiB: a value per variable)."""


def _load(path: str) -> tuple[Instance, Encoding]:
    """The deal at ``path`` and its encoding (every choice the crew has included)."""
    from crewcheck.api import unsupported_rules
    from crewcheck.solvers.logic.choices import encode_deal
    from crewcheck.solvers.logic.encoding import size_limit
    from crewcheck.solvers.logic.sat import SatSolver

    instance = deal_json.load(path)
    if instance.is_concrete():
        state = instance.state()
        if state.end is not None:
            raise InvalidInputError(f"the played history has already ended the game "
                                    f"({state.end.describe(instance)}); nothing to encode")
    missing = unsupported_rules(SatSolver, instance)
    if missing is not None:
        raise InvalidInputError(f"the encoding has no clauses for this deal: {missing}", field="conditions")
    too_big = size_limit(instance)
    if too_big is not None:  # a 4,096-card deal would take minutes and gigabytes
        raise InvalidInputError(too_big)
    return instance, encode_deal(instance)


def run_encode(args: argparse.Namespace) -> int:
    from crewcheck.solvers.logic.export import to_cnf, write_dimacs, write_smt2

    try:
        _, enc = _load(args.deal)
    except CrewcheckError as e:
        return _fail(args, e, EXIT_USAGE, args.deal)
    cnf = to_cnf(enc.formula, assume=enc.assumptions)
    write = write_dimacs if args.format == "dimacs" else write_smt2
    source = "<stdin>" if args.deal == "-" else Path(args.deal).name
    try:
        if args.output:
            with open(args.output, "w", encoding="utf-8") as out:
                write(enc, cnf, out, source=source)
        else:
            write(enc, cnf, sys.stdout, source=source)
    except OSError as e:
        return _fail(args, InvalidInputError(f"cannot write: {e.strerror}"), EXIT_USAGE, args.output)
    print(f"crewcheck: {cnf.nv} variables ({cnf.formula_vars} named), {len(cnf.clauses)} clauses",
          file=sys.stderr)
    return EXIT_OK


def run_decode(args: argparse.Namespace) -> int:
    from crewcheck.solvers.base import Result, Stats, Verdict
    from crewcheck.solvers.logic.choices import decode_deal
    from crewcheck.solvers.logic.export import describe_var
    from crewcheck.solvers.logic.formula import first_violated
    from crewcheck.formats.reading import decode as read_decode
    from crewcheck.formats.reading import read_bytes
    from crewcheck.solvers.logic.export import parse_model

    try:
        instance, enc = _load(args.deal)
    except CrewcheckError as e:
        return _fail(args, e, EXIT_USAGE, args.deal)
    try:
        text = read_decode(read_bytes(args.model, limit=MAX_MODEL_BYTES), args.model)
    except CrewcheckError as e:
        return _fail(args, e, EXIT_USAGE, args.model)
    try:
        values = parse_model(text, enc)
    except CrewcheckError as e:
        return _fail(args, e, EXIT_USAGE, args.model)
    if values is None:
        result = Result(Verdict.UNWINNABLE, None, "decode", instance.rules, Stats(),
                        "the solver reports the encoding unsatisfiable")
        code = EXIT_NO
    else:
        def value(v: int) -> bool:
            return values.get(v, False)

        missing = [enc.formula.pool.name(v) for v in enc.assumptions if not value(v)]
        broken = first_violated(enc.formula, value)
        if missing or broken is not None:
            why = (f"task {missing[0]} is false" if missing else "it breaks a constraint over "
                   + ", ".join(f"{enc.formula.pool.name(abs(x))} ({describe_var(enc, abs(x))})"
                               for x in (*broken.enforce, *broken.lits)[:3]))  # type: ignore[union-attr]
            return _fail(args, InvalidInputError(f"not a model of this deal's encoding: {why}"), EXIT_USAGE,
                         args.model)
        try:
            plays, assignment, choice = decode_deal(enc, value)
            witness = check_witness(instance, instance.history + plays, assignment, "decode", choice)
        except BackendError as e:
            return _fail(args, e, EXIT_BACKEND, args.model)
        result = Result(Verdict.WINNABLE, witness, "decode", instance.rules, Stats(),
                        "the model decodes to a win that the replay checker accepts")
        code = EXIT_OK
    if args.json:
        print(json.dumps(result_to_dict(instance, result)))
    else:
        for line in result_lines(instance, result):
            print(line)
    return code
