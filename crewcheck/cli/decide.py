"""``crewcheck decide | validate | show | backends``."""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
from pathlib import Path
from collections.abc import Iterator
from typing import Any, BinaryIO

from crewcheck.api import decide
from crewcheck.cli import EXIT_BACKEND, EXIT_NO, EXIT_OK, EXIT_UNKNOWN, EXIT_USAGE, one_line, seconds_arg
from crewcheck.errors import CrewcheckError, InvalidDealError, InvalidInputError, NotApplicableError
from crewcheck.formats import deal_json
from crewcheck.formats.reading import MAX_DEAL_BYTES, decode, open_regular, parse_json, standard_input
from crewcheck.model.instance import Instance
from crewcheck.reports.results import (RESULT_SCHEMA, describe_deal, error_result, internal_error_to_dict, result_lines,
                                       result_to_dict)
from crewcheck.solvers import registry
from crewcheck.solvers.base import Result, Verdict

__all__ = ["add_parsers"]

_EXIT = {Verdict.WINNABLE: EXIT_OK, Verdict.UNWINNABLE: EXIT_NO, Verdict.UNKNOWN: EXIT_UNKNOWN}


def add_parsers(sub: Any) -> None:
    names = ", ".join(["auto", *sorted(registry.BACKENDS)])
    p = sub.add_parser(
        "decide", help="decide whether a deal can be won",
        description="Decide whether a deal can be won (perfect information, cooperative play). "
                    "Prints the verdict first, then a winning line one trick per line. Exit code: "
                    "0 winnable, 1 unwinnable, 2 bad input or usage, 3 unknown (timeout), 4 back-end failure.")
    p.add_argument("deal", nargs="?", help="deal JSON file (a regular file of at most 1 MiB), or - for "
                                           "standard input")
    p.add_argument("--batch", metavar="DEALS.jsonl", nargs="+",
                   help="decide one deal per line (files, or - for standard input); a line may carry "
                        "an \"id\" string, echoed in its result. Writes one JSON result per line in "
                        "input order (an error object for a bad line, and the run goes on), and on "
                        "stderr per cell (the id's part before '/', else the file name) the median, "
                        "p90, p99 and max seconds per deal, the verdicts and nodes, then a summary "
                        "(also after Ctrl-C)")
    p.add_argument("--backend", default="auto", metavar="NAME",
                   help=f"back-end: {names} (default: auto = the best exact one for the deal)")
    p.add_argument("--timeout", type=seconds_arg, metavar="S",
                   help="seconds per deal, a positive number or 'none'; then the answer is 'unknown'. "
                        "The clock starts with the search (loading the compiled kernel is not "
                        "counted) (default: none, no limit)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--certificate", metavar="FILE",
                   help="also write a certificate of the verdict that `crewcheck check DEAL FILE` verifies: "
                        "the winning line, or for an unwinnable deal its CNF's digest and a DRUP proof, made "
                        "after the decision (its time is reported apart). A name ending in .gz is "
                        "compressed. With --batch: a folder, one FILE per line named after its id. "
                        "Adds a 'certificate' field to JSON results")
    p.add_argument("--proof-solver", metavar="NAME", default="glucose42",
                   help="the proof-producing SAT solver of --certificate: glucose42, glucose4, glucose3, "
                        "cadical195, cadical153, lingeling, maplechrono, maplecm, maplesat (default: glucose42)")
    p.set_defaults(func=run_decide)

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
    if getattr(args, "json", False):
        print(json.dumps(error_result(error)))
    prefix = f"{where}: " if where else ""
    print(f"crewcheck: error: {one_line(f'{prefix}{error}')}", file=sys.stderr)
    return code


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
    if args.batch:
        if args.deal:
            return _fail(args, InvalidInputError("give either a deal file or --batch, not both"), EXIT_USAGE)
        if args.batch.count("-") > 1:
            return _fail(args, InvalidInputError("standard input (-) given more than once", field="--batch"),
                         EXIT_USAGE)
        return _run_batch(args)
    if not args.deal:
        return _fail(args, InvalidInputError("missing deal file (or use --batch DEALS.jsonl)"), EXIT_USAGE)
    try:
        instance = deal_json.load(args.deal)
        result = decide(instance, backend=args.backend, timeout=args.timeout)
    except CrewcheckError as e:
        return _fail(args, e, _code_for(e), _where(args.deal, e))
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


def _batch_line(line: str) -> tuple[str | None, Instance]:
    """The deal on one batch line and its optional ``"id"`` (a string, echoed in the result)."""
    ident = None
    data = parse_json(line)
    if isinstance(data, dict) and "id" in data:
        ident = data.pop("id")
        if not isinstance(ident, str):
            raise InvalidDealError("'id' must be a string", field="id")
    if not isinstance(data, dict):
        raise InvalidDealError(f"expected a JSON object, got {type(data).__name__}", field="deal")
    return ident, deal_json.from_dict(data)


def _quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))]


def _cell_summary(rows: dict[str, list[tuple[Verdict, float, int]]]) -> list[str]:
    """One line per cell: seconds per deal (median, p90, p99, max), verdicts, nodes."""
    out = ["cell: deals, seconds per deal median / p90 / p99 / max, winnable / unwinnable / unknown, "
           "nodes median / max"]
    for cell, got in rows.items():
        secs = [t for _, t, _ in got]
        nodes = [n for _, _, n in got]
        won = sum(1 for v, _, _ in got if v is Verdict.WINNABLE)
        lost = sum(1 for v, _, _ in got if v is Verdict.UNWINNABLE)
        unknown = len(got) - won - lost
        out.append(f"{cell}: {len(got)}, {statistics.median(secs):.4f} / {_quantile(secs, .9):.4f} / "
                   f"{_quantile(secs, .99):.4f} / {max(secs):.4f} s, {won} ({100 * won / len(got):.0f} %) / "
                   f"{lost} / {unknown}, {int(statistics.median(nodes))} / {max(nodes)}")
    return out


def _open_batch(source: str) -> BinaryIO:
    """A batch file opened for reading bytes: standard input for ``-``, else a regular file
    (``/dev/urandom``, a named pipe or a directory is refused, as for a deal file)."""
    if source == "-":
        return standard_input()
    return open_regular(source)


MAX_SKIPPED_BYTES = 64 * MAX_DEAL_BYTES
"""An over-long batch line is skipped up to this many bytes; past that the rest of its
input is given up (an endless stream without a newline must not run forever)."""


def _lines(stream: BinaryIO) -> Iterator[tuple[int, bytes | None]]:
    """``(line number, bytes)`` per line; ``None`` for a line longer than
    :data:`~crewcheck.formats.reading.MAX_DEAL_BYTES` (skipped without being held in memory).
    Raises :class:`InvalidInputError` after skipping :data:`MAX_SKIPPED_BYTES` of one line."""
    lineno = 0
    while True:
        line = stream.readline(MAX_DEAL_BYTES + 1)
        if not line:
            return
        lineno += 1
        if len(line) > MAX_DEAL_BYTES and not line.endswith(b"\n"):
            skipped = len(line)
            while True:
                rest = stream.readline(1 << 16)
                skipped += len(rest)
                if not rest or rest.endswith(b"\n"):
                    break
                if skipped > MAX_SKIPPED_BYTES:
                    raise InvalidInputError(f"line {lineno} is longer than {MAX_SKIPPED_BYTES:,} bytes; "
                                            f"the rest of this input is not read")
            yield lineno, None
        else:
            yield lineno, line


def _run_batch(args: argparse.Namespace) -> int:
    """Decide every line; a bad line gets an error object and the run goes on. The summary
    is printed in every case: at the end, and after Ctrl-C for the lines finished."""
    counts = {v: 0 for v in Verdict}
    tally = {"errors": 0, "failures": 0}
    cells: dict[str, list[tuple[Verdict, float, int]]] = {}
    start = time.perf_counter()
    finished = False
    try:
        if args.backend == "auto" or registry.ALIASES.get(args.backend.lower(), args.backend.lower()) in ("engine", "search"):
            from crewcheck.solvers.search import load_compiled

            try:
                loaded = load_compiled()  # once, so the per-deal times are the warm kernel's
            except Exception as e:  # noqa: BLE001 - each line then reports the failure itself
                print(f"crewcheck: the compiled search kernel failed to load: {type(e).__name__}", file=sys.stderr)
                loaded = None
            if loaded is not None:
                print(f"crewcheck: compiled search kernel loaded in {loaded:.2f} s (not in the per-deal times)",
                      file=sys.stderr)
        for source in args.batch:
            _batch_file(args, source, counts, tally, cells)
        finished = True
    except KeyboardInterrupt:
        return 130
    finally:  # the summary of what was done, however the run ends
        _batch_summary(counts, tally, cells, time.perf_counter() - start, interrupted=not finished)
    if tally["failures"]:
        return EXIT_BACKEND
    return EXIT_USAGE if tally["errors"] else EXIT_OK


def _batch_file(args: argparse.Namespace, source: str, counts: dict[Verdict, int], tally: dict[str, int],
                cells: dict[str, list[tuple[Verdict, float, int]]]) -> None:
    """Decide the lines of one batch file, printing one JSON object per line."""
    try:
        stream = _open_batch(source)
    except CrewcheckError as e:
        tally["errors"] += 1
        print(json.dumps({**error_result(e), "file": source}), flush=True)
        return
    default_cell = "stdin" if source == "-" else Path(source).stem
    with contextlib.nullcontext(stream) if source == "-" else stream:
        try:
            _batch_lines(args, source, _lines(stream), default_cell, counts, tally, cells)
        except CrewcheckError as e:  # the input itself broke off (an endless line)
            tally["errors"] += 1
            print(json.dumps({**error_result(e), "file": source}), flush=True)


def _batch_lines(args: argparse.Namespace, source: str, lines: Iterator[tuple[int, bytes | None]],
                 default_cell: str, counts: dict[Verdict, int], tally: dict[str, int],
                 cells: dict[str, list[tuple[Verdict, float, int]]]) -> None:
    """Decide each line of one input, printing one JSON object per line."""
    for lineno, raw in lines:
        if raw is not None and not raw.strip():
            continue
        t0 = time.perf_counter()
        ident = None
        out: dict[str, Any]
        try:
            if raw is None:
                raise InvalidInputError(f"line longer than the limit of {MAX_DEAL_BYTES:,} bytes")
            ident, instance = _batch_line(decode(raw))
            result = decide(instance, backend=args.backend, timeout=args.timeout)
            out = result_to_dict(instance, result)
            if args.certificate:
                out["certificate"], failed = _certificate(args, instance, result, ident, lineno)
                if failed:
                    tally["errors" if failed == EXIT_USAGE else "failures"] += 1
            counts[result.verdict] += 1
            cell = ident.split("/")[0] if ident and "/" in ident else default_cell
            cells.setdefault(cell, []).append((result.verdict, result.stats.seconds, result.stats.nodes))
        except CrewcheckError as e:
            out = error_result(e)
            out["seconds"] = round(time.perf_counter() - t0, 6)
            tally["errors" if _code_for(e) == EXIT_USAGE else "failures"] += 1
        except Exception as e:  # a bug on one line must not lose the others
            out = {"schema": RESULT_SCHEMA, "error": internal_error_to_dict(e)}
            tally["failures"] += 1
        if ident is not None:
            out["id"] = ident
        if len(args.batch) > 1:
            out["file"] = source
        out["line"] = lineno
        print(json.dumps(out), flush=True)


def _batch_summary(counts: dict[Verdict, int], tally: dict[str, int],
                   cells: dict[str, list[tuple[Verdict, float, int]]], total: float, *, interrupted: bool) -> None:
    n = sum(counts.values()) + tally["errors"] + tally["failures"]
    if cells:
        print("\n".join(_cell_summary(cells)), file=sys.stderr)
    print(f"crewcheck: {'interrupted after' if interrupted else 'decided'} {n} deal(s) in {total:.2f} s: "
          f"{counts[Verdict.WINNABLE]} winnable, {counts[Verdict.UNWINNABLE]} unwinnable, "
          f"{counts[Verdict.UNKNOWN]} unknown, {tally['errors']} bad input, "
          f"{tally['failures']} back-end failure(s)", file=sys.stderr)


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

    try:
        instance = deal_json.load(args.deal)
    except CrewcheckError as e:
        return _fail(args, e, EXIT_USAGE, _where(args.deal, e))
    print(format_deal(instance))
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
