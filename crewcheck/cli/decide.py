"""``crewcheck decide | validate | show | backends``."""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import textwrap
import time
from pathlib import Path
from collections.abc import Iterator
from typing import Any, BinaryIO

from crewcheck.api import decide
from crewcheck.cli import (EXIT_BACKEND, EXIT_NO, EXIT_OK, EXIT_UNKNOWN, EXIT_USAGE, int_arg, output_arg,
                           report, scheduler_arg, seconds_arg, time_left)
from crewcheck.errors import CrewcheckError, InvalidDealError, InvalidInputError, NotApplicableError
from crewcheck.formats import deal_json
from crewcheck.formats.reading import MAX_DEAL_BYTES, decode, open_regular, parse_json, standard_input
from crewcheck.model.instance import Instance
from crewcheck.reports.results import (RESULT_SCHEMA, describe_deal, internal_error_to_dict, result_lines,
                                       result_to_dict)
from crewcheck.solvers import registry
from crewcheck.solvers.base import Result, Verdict

__all__ = ["add_parsers"]

_EXIT = {Verdict.WINNABLE: EXIT_OK, Verdict.UNWINNABLE: EXIT_NO, Verdict.UNKNOWN: EXIT_UNKNOWN}


_EXAMPLES = """\
examples:
  crewcheck decide deal.json
  crewcheck decide deal.json --json --timeout 10
  crewcheck deals --players 4 --tasks 10 --count 10000 > k10.jsonl
  crewcheck decide --batch k10.jsonl --out k10.results.jsonl          # every core, progress on stderr
  crewcheck decide --batch k10.jsonl --out k10.results.jsonl --resume # after a kill or Ctrl-C
  crewcheck decide --batch k10.jsonl --workers 1 > results.jsonl
  crewcheck decide --batch k10.jsonl --scheduler tcp://10.0.0.5:8786 --out k10.results.jsonl
"""


def _memory_arg(text: str) -> int | str | None:
    """argparse type of ``--memory-limit``: bytes (``4GiB``, ``512M``), ``none`` or ``auto``."""
    from crewcheck.runtime.fanout import parse_bytes

    if text.strip().lower() == "auto":
        return "auto"
    try:
        return parse_bytes(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a size such as 4GiB or 512MiB (at least 1 MiB), 'auto' "
                                         f"or 'none', got {text!r}") from None


def add_parsers(sub: Any) -> None:
    names = ", ".join(["auto", *sorted(registry.BACKENDS)])
    p = sub.add_parser(
        "decide", help="decide whether a deal can be won",
        description=textwrap.fill("Decide whether a deal can be won (perfect information, cooperative play). "
                    "Prints the verdict first, then a winning line one trick per line. Exit code: "
                    "0 winnable, 1 unwinnable, 2 bad input or usage, 3 unknown (timeout), 4 back-end failure."))
    p.add_argument("deal", nargs="?", help="deal JSON file (a regular file of at most 1 MiB), or - for "
                                           "standard input")
    p.add_argument("--batch", metavar="DEALS.jsonl", nargs="+",
                   help="decide one deal per line (files, or - for standard input); a line may carry "
                        "an \"id\" string, echoed in its result. Writes one JSON result per line in "
                        "input order (an error object for a bad line, and the run goes on), and on "
                        "stderr per cell (the id's part before '/', else the file name) the median, "
                        "p90, p99 and max seconds per deal, the verdicts and nodes, then a summary "
                        "(also after Ctrl-C)")
    p.add_argument("--workers", type=int_arg(0, 4096), metavar="N",
                   help="with --batch: worker processes deciding lines side by side, 0 = in this process "
                        "(default: one per core, one per two cores for the engine, whose search races a "
                        "SAT process: never more busy processes than cores); with --scheduler local, the "
                        "local cluster's workers")
    p.add_argument("--scheduler", metavar="ADDR",
                   help="with --batch: decide on a Dask cluster: 'local' starts one on this machine, else "
                        "the address of a running scheduler, e.g. tcp://10.0.0.5:8786 (needs "
                        "crewcheck[prove]) (default: local worker processes)", type=scheduler_arg)
    p.add_argument("--out", type=output_arg, metavar="FILE",
                   help="with --batch: write the results to FILE instead of standard output; FILE is "
                        "the record of the run for --resume")
    p.add_argument("--resume", action="store_true",
                   help="with --out: continue the run FILE holds (after a kill or Ctrl-C): its complete "
                        "lines are kept, and the input goes on from the next line")
    p.add_argument("--memory-limit", type=_memory_arg, default="auto", metavar="SIZE",
                   help="with --batch: memory per worker, e.g. 4GiB or 'none'; a worker going over it "
                        "is stopped, its line gets an error object and the run goes on (default: three "
                        "quarters of the machine's memory shared by the workers; the workers of a running Dask "
                        "cluster keep their own limit)")
    p.add_argument("--no-progress", action="store_true",
                   help="with --batch: no progress on stderr (default: a bar with rate and ETA on a "
                        "terminal, else a line every 30 s)")
    p.add_argument("--backend", default="auto", metavar="NAME",
                   help=f"back-end: {names} (default: auto = the best exact one for the deal)")
    p.add_argument("--timeout", type=seconds_arg, metavar="S",
                   help="seconds per deal, a positive number or 'none'; then the answer is 'unknown'. "
                        "The clock starts when the deal is read (loading the compiled kernel is not "
                        "counted) (default: none, no limit)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--certificate", metavar="FILE",
                   help="also write a certificate of the verdict that `crewcheck check DEAL FILE` verifies: "
                        "the winning line, or for an unwinnable deal its CNF's digest and a DRUP proof (or, for "
                        "a pigeonhole, the name of the count that refutes it), made after the decision (its time "
                        "is reported apart). A name ending in .gz is "
                        "compressed. With --batch: a folder, one FILE per line named after its id. "
                        "Adds a 'certificate' field to JSON results")
    p.add_argument("--proof-solver", metavar="NAME", default="glucose42",
                   help="the proof-producing SAT solver of --certificate: glucose42, glucose4, glucose3, "
                        "cadical195, cadical153, lingeling, maplechrono, maplecm, maplesat (default: glucose42)")
    p.set_defaults(func=run_decide)
    p.epilog = _EXAMPLES
    p.formatter_class = argparse.RawDescriptionHelpFormatter

    v = sub.add_parser("validate", help="check a deal file and report the first problem",
                       description="Check a deal file: exit 0 if valid, 2 with a one-line error if not.")
    v.add_argument("deal", help="deal JSON file, or - for standard input")
    v.add_argument("--json", action="store_true", help="print a JSON object")
    v.set_defaults(func=run_validate)

    s = sub.add_parser("show", help="lay out a deal's hands and tasks for a person",
                       description="Print the hands, tasks and played tricks of a deal.")
    s.add_argument("deal", help="deal JSON file, or - for standard input")
    s.set_defaults(func=run_show)

    b = sub.add_parser("backends", help="list the back-ends and whether they are installed",
                       description="List every back-end, whether it is exact, and whether its "
                                   "dependencies are installed (with the install command if not).")
    b.add_argument("--json", action="store_true", help="print a JSON object")
    b.set_defaults(func=run_backends)


# -- commands ---------------------------------------------------------------------------
def _fail(args: argparse.Namespace, error: Exception, code: int, where: str = "") -> int:
    return report(args, error, code, where=where, envelope={"schema": RESULT_SCHEMA})


def _where(path: str, error: Exception) -> str:
    """Prefix input errors with the file name, once."""
    if isinstance(error, InvalidInputError) and not str(error).startswith(path):
        return path
    return ""


def _code_for(error: Exception) -> int:
    if isinstance(error, (InvalidInputError, NotApplicableError)):
        return EXIT_USAGE
    return EXIT_BACKEND


def run_decide(args: argparse.Namespace) -> int:
    if args.proof_solver != "glucose42" or args.certificate:
        from crewcheck.cli.check import certificate_args_error

        bad = certificate_args_error(args)
        if bad is not None:
            return _fail(args, bad, EXIT_USAGE)
    if not args.batch:
        used = [flag for flag, value in (("--workers", args.workers), ("--scheduler", args.scheduler),
                                         ("--out", args.out), ("--resume", args.resume or None)) if value is not None]
        if used:
            return _fail(args, InvalidInputError(f"{used[0]} goes with --batch"), EXIT_USAGE)
    if args.batch:
        if args.deal:
            return _fail(args, InvalidInputError("give either a deal file or --batch, not both"), EXIT_USAGE)
        if args.batch.count("-") > 1:
            return _fail(args, InvalidInputError("standard input (-) given more than once", field="--batch"),
                         EXIT_USAGE)
        if args.resume and not args.out:
            return _fail(args, InvalidInputError("--resume needs --out FILE (the run to continue)"), EXIT_USAGE)
        from crewcheck.cli.batch import run_batch

        return run_batch(args)
    if not args.deal:
        return _fail(args, InvalidInputError("missing deal file (or use --batch DEALS.jsonl)"), EXIT_USAGE)
    from crewcheck.missions.logbook import verdict_caveats

    start = time.perf_counter()
    try:
        instance, text = deal_json.load_with_text(args.deal)
        result = decide(instance, backend=args.backend, timeout=time_left(args.timeout, start))
    except CrewcheckError as e:
        return _fail(args, e, _code_for(e), _where(args.deal, e))
    for caveat in verdict_caveats(json.loads(text)):  # a mission deal that leaves part of its rule out
        print(f"crewcheck: note: {caveat}", file=sys.stderr)
    out = result_to_dict(instance, result)
    code = _EXIT[result.verdict]
    if args.certificate:
        out["certificate"], failed = _certificate(args, instance, result, None, 0)
        code = failed or code
    if args.json:
        print(json.dumps(out))
    else:
        for line in result_lines(instance, result):
            print(line)
        certificate = out.get("certificate")
        if args.certificate and isinstance(certificate, dict):
            from crewcheck.cli.check import describe_certificate

            if certificate.get("error"):
                print(f"crewcheck: error: no certificate: {certificate['error']}", file=sys.stderr)
            else:
                print(describe_certificate(certificate))
    return code


def _certificate(args: argparse.Namespace, instance: Instance, result: Result, ident: str | None,
                 lineno: int) -> tuple[dict[str, Any], int]:
    """Write the certificate ``--certificate`` asks for: its JSON field, and the exit code
    if none could be made (else 0)."""
    from crewcheck.cli.check import certificate_error, certificate_path, make_certificate

    try:
        path = certificate_path(args.certificate, bool(args.batch), ident, lineno)
        if args.batch:
            path.parent.mkdir(parents=True, exist_ok=True)
        return make_certificate(instance, result, path, args.proof_solver), 0
    except CrewcheckError as e:
        return certificate_error(e)
    except OSError as e:
        return certificate_error(InvalidInputError(f"cannot write the certificate: {e.strerror}",
                                                   field=args.certificate))


def run_validate(args: argparse.Namespace) -> int:
    try:
        instance = deal_json.load(args.deal)
    except CrewcheckError as e:
        return _fail(args, e, EXIT_USAGE, _where(args.deal, e))
    from crewcheck.model.variants import play_state

    state = play_state(instance)  # (a deal with a seat still to choose has no single state)
    status = "" if state.end is None else f"; the played history has already ended the game ({state.end.describe(instance)})"
    if args.json:
        print(json.dumps({"valid": True, "players": instance.players, "cards": instance.deck.size,
                          "tasks": len(instance.tasks), "over": state.end is not None}))
    else:
        print(f"valid: {describe_deal(instance)}{status}")
    return EXIT_OK


def run_show(args: argparse.Namespace) -> int:
    from crewcheck.formats.notation import format_deal

    from crewcheck.formats.reading import decode, read_bytes

    try:
        text = decode(read_bytes(str(args.deal)), str(args.deal))
        instance = deal_json.loads(text)
    except CrewcheckError as e:
        return _fail(args, e, EXIT_USAGE, _where(args.deal, e))
    print(format_deal(instance))
    comment = json.loads(text).get("comment")
    if isinstance(comment, str) and comment:  # a Deep Sea deal names its task cards here
        print(f"comment: {comment}")
    return EXIT_OK


def run_backends(args: argparse.Namespace) -> int:
    rows: list[dict[str, Any]] = []
    for name, missing in registry.available().items():
        exact = None
        summary = ""
        limited = None
        if missing is None:
            cls = registry._load_class(name)
            exact = bool(getattr(cls, "exact", False))
            summary = (getattr(cls, "summary", None)
                       or (sys.modules[cls.__module__].__doc__ or "").strip().splitlines()[0])
            check = getattr(cls, "limitations", None)
            limited = check() if callable(check) else None
        aliases = sorted(a for a, b in registry.ALIASES.items() if b == name)
        rows.append({"name": name, "installed": missing is None, "exact": exact,
                     "summary": summary, "hint": missing, "limited": limited, "aliases": aliases})
    if args.json:
        print(json.dumps({"backends": rows, "aliases": registry.ALIASES}))
        return EXIT_OK
    for r in rows:
        state = "missing  " if not r["installed"] else ("limited  " if r["limited"] else "installed")
        kind = {True: "exact", False: "heuristic"}.get(r["exact"], "")
        detail = r["summary"] if r["installed"] else r["hint"]
        name = r["name"] + (f" ({', '.join(r['aliases'])})" if r["aliases"] else "")
        print(f"{name:<22} {state}  {kind:<9}  {detail}")
        if r["limited"]:
            print(f"{'':<22} {'':<9}  {'':<9}  ! {r['limited']}")
    print(f"aliases: {', '.join(f'{a} -> {b}' for a, b in registry.ALIASES.items())}; "
          f"default (auto): a confirmed special-case decider for the deal's class, else the first of "
          f"{', '.join(registry.DEFAULT_ORDER)} that decides it")
    return EXIT_OK
