"""``crewcheck check`` and the certificates of ``crewcheck decide --certificate``."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from crewcheck.cli import EXIT_BACKEND, EXIT_NO, EXIT_OK, EXIT_USAGE, one_line, report
from crewcheck.errors import CrewcheckError, InvalidInputError, NotApplicableError
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Result

__all__ = ["add_parsers", "run_check", "make_certificate", "certificate_args_error", "certificate_path",
           "describe_certificate", "certificate_error", "CHECK_SCHEMA"]

CHECK_SCHEMA = "crewcheck-check/1"


def add_parsers(sub: Any) -> None:
    c = sub.add_parser(
        "check", help="check a certificate of a verdict (crewcheck decide --certificate)",
        description="Check a certificate against a deal. Winnable: the winning line is replayed by the "
                    "independent replay checker. Unwinnable: the deal's CNF is rebuilt from the deal, "
                    "compared with the certified one, and the DRUP proof is verified against it by "
                    "crewcheck's own RUP checker (forward unit propagation, watched literals; it shares "
                    "no code with the solvers); a pigeonhole certified by a count (c count top-trumps) is "
                    "counted again from the deal. Prints one line. Exit code: 0 accepted, 1 rejected, "
                    "2 bad input (a deal or a file that cannot be read, a file that is no certificate).")
    c.add_argument("deal", help="deal JSON file, or - for standard input")
    c.add_argument("certificate", help="certificate file written by crewcheck decide --certificate "
                                       "(gzip-compressed or not)")
    c.add_argument("--plain", action="store_true",
                   help="run the checker's plain-Python twin instead of its compiled kernel (slow; "
                        "for small proofs and for reading along)")
    c.add_argument("--json", action="store_true", help="print one JSON object instead of the line")
    c.set_defaults(func=run_check)


def run_check(args: argparse.Namespace) -> int:
    from crewcheck.certificates.verify import check_file
    from crewcheck.formats import deal_json
    from crewcheck.formats.reading import require_regular

    try:
        for path in (args.deal, args.certificate):  # both, before either is opened
            require_regular(path)
        instance = deal_json.load(args.deal)
        got = check_file(instance, args.certificate, plain=args.plain)
    except InvalidInputError as e:
        where = "" if str(e).startswith((args.deal, args.certificate)) else args.deal
        return report(args, e, EXIT_USAGE, where=where, envelope={"schema": CHECK_SCHEMA})
    if args.json:
        print(json.dumps({"schema": CHECK_SCHEMA, "accepted": got.accepted, "verdict": got.verdict or None,
                          "message": got.message, "lemmas": got.lemmas, "seconds": round(got.seconds, 6)}))
    else:
        claim = f"{got.verdict}: " if got.verdict else ""
        state = "accepted" if got.accepted else "rejected"
        print(one_line(f"{state}: {claim}{got.message} ({got.seconds:.3g} s)", limit=400))
    return EXIT_OK if got.accepted else EXIT_NO


# -- decide --certificate --------------------------------------------------------------------
def certificate_args_error(args: argparse.Namespace) -> InvalidInputError | None:
    """What is wrong with ``decide``'s ``--certificate`` / ``--proof-solver`` (checked
    before deciding), or ``None``."""
    from crewcheck.certificates.produce import PROOF_SOLVERS

    if not args.certificate:
        return InvalidInputError("--proof-solver needs --certificate FILE")
    if args.proof_solver not in PROOF_SOLVERS:
        return InvalidInputError(f"unknown proof solver {args.proof_solver!r}; available: "
                                 f"{', '.join(PROOF_SOLVERS)}", field="--proof-solver")
    where = Path(args.certificate) if args.batch else Path(args.certificate).parent
    if not (where.is_dir() or (args.batch and not where.exists())):
        what = "a folder" if args.batch else "the folder of the certificate file"
        return InvalidInputError(f"--certificate: {str(where)!r} is not {what}")
    return None


def certificate_path(target: str, batch: bool, ident: str | None, lineno: int) -> Path:
    """Where the certificate goes: ``target`` itself, or in batch mode a file in the
    folder ``target`` named after the line's id (else its line number)."""
    if not batch:
        return Path(target)
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", ident) if ident else f"line-{lineno}"
    return Path(target) / f"{name}.cert"


def make_certificate(instance: Instance, result: Result, path: Path, solver: str) -> dict[str, Any]:
    """Certify ``result``, write the certificate to ``path``, and describe it (the
    ``certificate`` field of ``--json`` results). Raises what
    :func:`crewcheck.certificates.produce.certify` raises."""
    from crewcheck.certificates.certfile import write_certificate
    from crewcheck.certificates.produce import certify

    def progress(done: int, total: int) -> None:
        if total > 1:  # a deal with choices: one refutation per variant, on stderr as they come
            print(f"certificate: {done}/{total} variants refuted", file=sys.stderr, flush=True)

    produced = certify(instance, result, solver=solver, progress=progress)
    if produced is None:
        return {"file": None, "verdict": None, "reason": "the verdict is unknown: nothing to certify"}
    size = write_certificate(produced.certificate, path)
    parts = produced.certificate.parts
    out: dict[str, Any] = {"file": str(path), "verdict": produced.certificate.verdict, "bytes": size,
                           "seconds": round(produced.seconds, 6)}
    if produced.certificate.verdict == "unwinnable" and all(p.kind == "count" for p in parts):
        out.update(kind="count", counts=sorted({p.solver for p in parts}), parts=len(parts), lemmas=0,
                   proof_seconds=0.0)
    elif produced.certificate.verdict == "unwinnable":
        out.update(kind="drup", solver=solver, parts=len(parts), lemmas=produced.lemmas,
                   proof_seconds=round(sum(p.seconds for p in parts), 6))
    else:
        out.update(kind="witness")
    return out


def describe_certificate(info: dict[str, Any]) -> str:
    """The text line of ``crewcheck decide --certificate``."""
    if info.get("file") is None:
        return f"certificate: none ({info.get('reason', '')})"
    if info["kind"] == "witness":
        return f"certificate: {info['file']} (winnable: the winning line, {info['bytes']:,} bytes)"
    parts = f", {info['parts']} variants" if info["parts"] > 1 else ""
    if info["kind"] == "count":
        return (f"certificate: {info['file']} (unwinnable: the {', '.join(info['counts'])} count{parts}, "
                f"{info['bytes']:,} bytes; `crewcheck check` counts again)")
    return (f"certificate: {info['file']} (unwinnable: DRUP proof by {info['solver']}{parts}, "
            f"{info['lemmas']:,} lemmas, {info['bytes']:,} bytes; made in {info['seconds']:.3g} s after "
            f"the decision)")


def certificate_error(error: CrewcheckError) -> tuple[dict[str, Any], int]:
    """The ``certificate`` field and exit code when no certificate could be made."""
    code = EXIT_USAGE if isinstance(error, (InvalidInputError, NotApplicableError)) else EXIT_BACKEND
    return {"file": None, "error": one_line(str(error))}, code
