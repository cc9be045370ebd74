"""``crewcheck decide --batch``: one deal per line, decided on every core or on a Dask
cluster, results in input order, resumable.

The parent process reads the input a line at a time (a 10-million-line file is never held
in memory), hands the raw bytes to the workers (:func:`crewcheck.runtime.fanout.fan_out`),
and writes each worker's finished JSON line in input order; parsing, checking, deciding
and writing the result's JSON happen in the workers, so the parent's cost per deal is a
few tens of microseconds. With ``--out FILE`` the output file is the record of the run:
``--resume`` reads it back (its complete lines are the lines already decided, each checked
against its input line's number and the ``digest`` of its bytes that every result
carries), drops a line cut short by a kill, and goes on from the next input line, so
nothing is lost and nothing is written twice. The inputs and ``--out`` are checked before
any worker starts (a regular file whose first byte can be read; an output folder that
exists, and no device).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.util
import json
import os
import statistics
import sys
import time
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, BinaryIO

from crewcheck.api import decide
from crewcheck.cli import EXIT_BACKEND, EXIT_OK, EXIT_USAGE, one_line, time_left
from crewcheck.errors import BackendError, CrewcheckError, InvalidDealError, InvalidInputError, NotApplicableError
from crewcheck.formats import deal_json
from crewcheck.formats.reading import MAX_DEAL_BYTES, decode, open_regular, parse_json, short_repr, standard_input
from crewcheck.model.instance import Instance
from crewcheck.reports.results import RESULT_SCHEMA, error_result, internal_error_to_dict, result_to_dict
from crewcheck.runtime.fanout import DASK_MISSING, Finished, Workers, fan_out
from crewcheck.runtime.progress import Progress
from crewcheck.solvers import registry
from crewcheck.solvers.base import Verdict

__all__ = ["BatchOptions", "Line", "Decided", "decide_line", "run_batch", "line_digest", "MAX_SKIPPED_BYTES",
           "DIGEST_DIGITS"]

MAX_SKIPPED_BYTES = 64 * MAX_DEAL_BYTES
"""An over-long batch line is skipped up to this many bytes; past that the rest of its
input is given up (an endless stream without a newline must not run forever)."""


DIGEST_DIGITS = 16
"""Hexadecimal digits of an input line's SHA-256 kept in its result (``digest``)."""


class WorkerLostError(BackendError):
    """The worker deciding a line was stopped (over its memory bound) or died."""


class _OutputFailed(Exception):
    """A result could not be written (the run stops: exit 2, one line)."""


@dataclass(frozen=True, slots=True)
class BatchOptions:
    """What every line is decided with (sent to the workers)."""

    backend: str
    timeout: float | None
    certificate: str | None
    proof_solver: str
    files: int
    """How many inputs the run reads (a result names its file when there are several)."""


@dataclass(frozen=True, slots=True)
class Line:
    """One input line on its way to a worker."""

    options: BatchOptions
    source: str
    lineno: int
    raw: bytes | None
    """The line's bytes; ``None`` with ``problem`` set."""
    problem: str | None = None
    """An input problem found while reading (a line over the size limit, a file that
    cannot be read): the line's result is this error."""
    fraction: float | None = None
    """Share of all input read once this line was (for the progress ETA; parent only)."""


@dataclass(frozen=True, slots=True)
class Decided:
    """A line's result as its worker made it."""

    text: str
    """The result's JSON, one line."""
    cell: str | None
    """Cell of the summary (``None`` for an error)."""
    verdict: str | None
    seconds: float
    nodes: int
    outcome: str
    """``"ok"``, ``"input"`` (bad input) or ``"failure"`` (a back-end failed)."""


def _code_for(error: Exception) -> str:
    return "input" if isinstance(error, (InvalidInputError, NotApplicableError)) else "failure"


def _parse(line: str) -> dict[str, Any]:
    """The JSON object on one batch line."""
    data = parse_json(line)
    if not isinstance(data, dict):
        raise InvalidDealError(f"expected a JSON object, got {type(data).__name__}", field="deal")
    return data


def _ident(data: object) -> str | None:
    """The line's ``"id"`` when it is a string (echoed in its result, an error's too)."""
    ident = data.get("id") if isinstance(data, dict) else None
    return ident if isinstance(ident, str) else None


def _certificate(options: BatchOptions, instance: Instance, result: Any, ident: str | None,
                 lineno: int) -> tuple[dict[str, Any], str | None]:
    from crewcheck.cli.check import certificate_error, certificate_path, make_certificate

    assert options.certificate is not None
    try:
        path = certificate_path(options.certificate, True, ident, lineno)
        path.parent.mkdir(parents=True, exist_ok=True)
        return make_certificate(instance, result, path, options.proof_solver), None
    except CrewcheckError as e:
        field, code = certificate_error(e)
        return field, "input" if code == EXIT_USAGE else "failure"
    except OSError as e:
        field, code = certificate_error(InvalidInputError(f"cannot write the certificate: {e.strerror}",
                                                          field=options.certificate))
        return field, "input" if code == EXIT_USAGE else "failure"


def decide_line(line: Line) -> Decided:
    """Decide one batch line: its result (or error object) as one JSON line."""
    t0 = time.perf_counter()
    ident = None
    cell = verdict = None
    seconds, nodes, outcome = 0.0, 0, "ok"
    out: dict[str, Any]
    try:
        if line.problem is not None:
            raise InvalidInputError(line.problem)
        if line.raw is None:
            raise InvalidInputError(f"line longer than the limit of {MAX_DEAL_BYTES:,} bytes")
        data = _parse(decode(line.raw))
        ident = _ident(data)
        instance = deal_json.from_dict(deal_json.split_line(data)[1])
        result = decide(instance, backend=line.options.backend, timeout=time_left(line.options.timeout, t0))
        out = result_to_dict(instance, result)
        if line.options.certificate:
            out["certificate"], failed = _certificate(line.options, instance, result, ident, line.lineno)
            outcome = failed or outcome
        default = "stdin" if line.source == "-" else Path(line.source).stem
        cell = ident.split("/")[0] if ident and "/" in ident else default
        verdict, seconds, nodes = result.verdict.value, result.stats.seconds, result.stats.nodes
    except CrewcheckError as e:
        out = error_result(e)
        out["seconds"] = round(time.perf_counter() - t0, 6)
        outcome = _code_for(e)
    except Exception as e:  # a bug on one line must not lose the others
        out = {"schema": RESULT_SCHEMA, "error": internal_error_to_dict(e)}
        outcome = "failure"
    return Decided(json.dumps(_place(out, line, ident)), cell, verdict, seconds, nodes, outcome)


def _place(out: dict[str, Any], line: Line, ident: str | None) -> dict[str, Any]:
    """``out`` with where it comes from: ``id`` (if any), ``file`` (several inputs), ``line``
    and ``digest`` (of the line's bytes: ``--resume`` checks the input against it)."""
    if ident is not None:
        out["id"] = ident
    if line.options.files > 1 or line.problem is not None:
        out["file"] = line.source
    out["line"] = line.lineno
    if line.raw is not None:
        out["digest"] = line_digest(line.raw)
    return out


def line_digest(raw: bytes) -> str:
    """The ``digest`` of an input line in its result: the first 16 hexadecimal digits of
    the SHA-256 of its bytes, surrounding white space (the newline) left out."""
    return hashlib.sha256(raw.strip()).hexdigest()[:DIGEST_DIGITS]


def _lost(finished: Finished[Line, Decided]) -> Decided:
    """The error object of a line whose worker was lost (memory bound, crash)."""
    failure = finished.failure
    assert failure is not None
    line = finished.item
    ident = None
    if line.raw is not None:
        with contextlib.suppress(Exception):
            ident = _ident(json.loads(line.raw))
    error: Exception = WorkerLostError(failure.message) if failure.kind != "error" else RuntimeError(failure.message)
    out: dict[str, Any] = error_result(error) if failure.kind != "error" else {"schema": RESULT_SCHEMA,
                                                              "error": internal_error_to_dict(error)}
    out["seconds"] = round(float(finished.seconds), 6)
    return Decided(json.dumps(_place(out, line, ident)), None, None, 0.0, 0, "failure")


# -- reading ----------------------------------------------------------------------------
def _open(source: str) -> BinaryIO:
    """A batch input opened for reading bytes: standard input for ``-``, else a regular
    file (``/dev/urandom``, a named pipe or a directory is refused, as for a deal file)."""
    if source == "-":
        stream = standard_input()
        try:  # a reader of its own: the feeding thread may still wait in it when the run ends
            return open(os.dup(stream.fileno()), "rb")
        except (OSError, ValueError, AttributeError):  # not a real file (a test's replacement)
            return stream
    return open_regular(source)


def _raw_lines(stream: BinaryIO) -> Iterator[tuple[int, bytes | None]]:
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


def _unreadable(source: str) -> str | None:
    """Why the batch input ``source`` cannot be read (checked before any worker starts:
    not a regular file, or its first byte cannot be read, as ``/proc/self/mem``), or ``None``."""
    if source == "-":
        return None
    try:
        with open_regular(source) as f:
            f.read(1)
    except CrewcheckError as e:
        return str(e)
    except OSError as e:
        return f"{source}: cannot read file: {e.strerror or e}"
    return None


def _unwritable(path: Path) -> str | None:
    """Why ``--out`` cannot be the run's record: its folder is missing, or it is no
    regular file (``/dev/full``, a directory); ``None`` when it can."""
    shown = short_repr(str(path))
    try:
        if path.exists() and not path.is_file():
            return f"--out: {shown} is not a regular file"
        if not path.parent.is_dir():
            return f"--out: the folder of {shown} does not exist"
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as e:
        return f"--out: cannot write {shown}: {e.strerror or e}"
    return None


def _size(source: str) -> int | None:
    if source == "-":
        return None
    try:
        return os.stat(source).st_size
    except OSError:
        return 0


def _input(options: BatchOptions, sources: list[str]) -> Iterator[Line]:
    """Every non-blank line of every input, in order, with problems as lines of their own."""
    sizes = [_size(s) for s in sources]
    total = None if None in sizes else sum(s or 0 for s in sizes)
    before = 0
    for source, size in zip(sources, sizes):
        try:
            stream = _open(source)
        except CrewcheckError as e:
            yield Line(options, source, 0, None, problem=str(e))
            continue
        with stream if stream is not getattr(sys.stdin, "buffer", None) else contextlib.nullcontext(stream):
            try:
                for lineno, raw in _raw_lines(stream):
                    if raw is not None and not raw.strip():
                        continue
                    fraction = None
                    if total:
                        with contextlib.suppress(OSError, ValueError):
                            fraction = (before + stream.tell()) / total
                    yield Line(options, source, lineno, raw, fraction=fraction)
            except CrewcheckError as e:  # the input itself broke off (an endless line)
                yield Line(options, source, 0, None, problem=str(e))
        before += size or 0


# -- summary ----------------------------------------------------------------------------
class Tally:
    """Counts and per-cell times of a run (16 bytes per deal: seconds and nodes in arrays)."""

    def __init__(self) -> None:
        self.verdicts = {v.value: 0 for v in Verdict}
        self.errors = 0
        self.failures = 0
        self.cells: dict[str, tuple[array[float], array[int], dict[str, int]]] = {}

    def add(self, cell: str | None, verdict: str | None, seconds: float, nodes: int, outcome: str) -> None:
        if verdict is not None and cell is not None:
            self.verdicts[verdict] += 1
            secs, nds, counts = self.cells.setdefault(cell, (array("d"), array("q"), {v.value: 0 for v in Verdict}))
            secs.append(seconds)
            nds.append(nodes)
            counts[verdict] += 1
        if outcome == "input":
            self.errors += 1
        elif outcome == "failure":
            self.failures += 1

    def add_result(self, row: dict[str, Any], default_cell: str) -> None:
        """Count a result line read back from the output of an earlier run (``--resume``)."""
        if "error" in row:
            self.add(None, None, 0.0, 0, "input" if row["error"].get("input_error") else "failure")
            return
        if isinstance(row.get("certificate"), dict) and row["certificate"].get("error"):
            self.add(None, None, 0.0, 0, "failure")
        ident = row.get("id")
        cell = ident.split("/")[0] if isinstance(ident, str) and "/" in ident else default_cell
        self.add(cell, row["verdict"], float(row["seconds"]), int(row["stats"]["nodes"]), "ok")

    @property
    def total(self) -> int:
        return sum(self.verdicts.values()) + self.errors + self.failures

    def cell_lines(self) -> list[str]:
        """One line per cell: seconds per deal (median, p90, p99, max), verdicts, nodes."""
        out = ["cell: deals, seconds per deal median / p90 / p99 / max, winnable / unwinnable / unknown, "
               "nodes median / max"]
        for cell, (secs, nodes, counts) in self.cells.items():
            ordered = sorted(secs)
            n = len(ordered)
            won, lost = counts["winnable"], counts["unwinnable"]
            out.append(f"{cell}: {n}, {statistics.median(ordered):.4f} / {_quantile(ordered, .9):.4f} / "
                       f"{_quantile(ordered, .99):.4f} / {ordered[-1]:.4f} s, {won} ({100 * won / n:.0f} %) / "
                       f"{lost} / {n - won - lost}, {int(statistics.median(nodes))} / {max(nodes)}")
        return out


def _quantile(xs: list[float], q: float) -> float:
    return xs[min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))]


# -- the run ----------------------------------------------------------------------------
def _resume(out_path: Path, sources: list[str], tally: Tally) -> tuple[int, str | None]:
    """Read back an earlier run's output: the number of lines already decided (its
    complete lines, counted into ``tally``), the file cut after the last complete one.
    Returns ``(lines done, error message or None)``."""
    done = 0
    good_bytes = 0
    default = "stdin" if sources[0] == "-" else Path(sources[0]).stem
    with open(out_path, "rb") as f:
        for raw in f:
            if not raw.endswith(b"\n"):
                break  # a line cut short by a kill: decided again
            try:
                row = json.loads(raw)
                if not isinstance(row, dict) or not isinstance(row.get("line"), int):
                    raise ValueError("no line number")
            except (ValueError, RecursionError):  # (nested past the parser's depth)
                return 0, f"line {done + 1} of {out_path} is not a result of decide --batch; not resuming"
            source = row.get("file", sources[0])
            tally.add_result(row, "stdin" if source == "-" else Path(str(source)).stem if len(sources) > 1
                             else default)
            done += 1
            good_bytes += len(raw)
    with open(out_path, "r+b") as f:
        f.truncate(good_bytes)
    return done, None


def _skip(lines: Iterator[Line], done: int, out_path: Path) -> tuple[Iterator[Line], str | None]:
    """Drop the first ``done`` input lines, checking each against its result in the
    output: the same line number and file, and the same ``digest`` of the line's bytes (an
    output without digests, written before results carried them, is refused: ids alone
    do not tell two inputs apart, ``crewcheck deals`` numbers every seed's deals alike)."""
    if not done:
        return lines, None
    with open(out_path, "rb") as f:
        for n, raw in enumerate(f):
            if n >= done:
                break
            row = json.loads(raw)
            line = next(lines, None)
            if line is None:
                return lines, (f"{out_path} holds {done:,} results but the input has only {n:,} lines; "
                               "not resuming (is it the same input?)")
            problem = _mismatch(row, line)
            if problem:
                return lines, f"result {n + 1} of {out_path} {problem}"
    return lines, None


_SAME = "not resuming (is it the same input?)"


def _mismatch(row: dict[str, Any], line: Line) -> str | None:
    """Why the result ``row`` of an earlier run is not the result of input ``line``, or ``None``."""
    where = f"{line.source}:{line.lineno}"
    if row["line"] != line.lineno or row.get("file", line.source) != line.source:
        return f"is for line {row['line']} but input line {where} comes there; {_SAME}"
    if line.raw is None:  # an over-long line: its result is an error object without a digest
        return None if "digest" not in row else f"is for another line than the over-long input line {where}; {_SAME}"
    if "digest" not in row:
        return ("carries no digest of its input line (written by an older crewcheck): it cannot be "
                "checked against the input; not resuming (decide into a new --out)")
    if row["digest"] != line_digest(line.raw):
        return f"is for another line than input line {where} (its digest differs); {_SAME}"
    return None


def workers_of(args: argparse.Namespace) -> Workers:
    """The pool ``--workers``, ``--scheduler`` and ``--memory-limit`` ask for."""
    from crewcheck.runtime.fanout import default_workers

    count = default_workers(registry.busy_processes(args.backend)) if args.workers is None else args.workers
    limit = args.memory_limit
    if limit == "auto":
        limit = _default_memory_limit(max(1, count))
    if args.scheduler not in (None, "local"):
        limit = None  # a running cluster's workers keep the limit they were started with
    return Workers(count, args.scheduler, limit)


def _default_memory_limit(count: int) -> int | None:
    """Three quarters of the machine's memory shared by ``count`` workers."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return None
    return int(total * 0.75 / count)


def _load_kernel(backend: str) -> None:
    """Load the compiled search kernel once, before the workers start (forked workers
    inherit it, so the per-deal times are the warm kernel's), and for the engine the
    kernel that writes its SAT processes' CNF (their forks inherit it)."""
    name = registry.ALIASES.get(backend.lower(), backend.lower())
    if backend != "auto" and name not in ("engine", "search"):
        return
    from crewcheck.solvers.logic.cnf_build import load_kernel as load_cnf_kernel
    from crewcheck.solvers.search import load_compiled

    try:
        loaded = load_compiled()
        if backend == "auto" or name == "engine":
            load_cnf_kernel()
    except Exception as e:  # noqa: BLE001 - each line then reports the failure itself
        print(f"crewcheck: the compiled search kernel failed to load: {type(e).__name__}", file=sys.stderr)
        return
    if loaded is not None:
        print(f"crewcheck: compiled search kernel loaded in {loaded:.2f} s (not in the per-deal times)",
              file=sys.stderr)


def run_batch(args: argparse.Namespace) -> int:
    """Decide every line; a bad line gets an error object and the run goes on. The summary
    is printed in every case: at the end, and after Ctrl-C for the lines finished."""
    options = BatchOptions(args.backend, args.timeout, args.certificate, args.proof_solver, len(args.batch))
    tally = Tally()
    workers = workers_of(args)
    if workers.scheduler is not None and importlib.util.find_spec("distributed") is None:
        return _usage(f"--scheduler: {DASK_MISSING}")
    start = time.perf_counter()
    out_path = Path(args.out) if args.out else None
    problem = next(filter(None, map(_unreadable, args.batch)), None)
    if problem is None and out_path is not None:
        problem = _unwritable(out_path)
    if problem:
        return _usage(problem)
    done = 0
    if out_path is not None and out_path.exists() and out_path.stat().st_size:
        if not args.resume:
            return _usage(f"--out: {out_path} exists; add --resume to continue that run, or remove it")
        done, problem = _resume(out_path, args.batch, tally)
        if problem:
            return _usage(problem)
    lines, problem = _skip(_input(options, args.batch), done, out_path) if out_path else (
        _input(options, args.batch), None)
    if problem:
        return _usage(problem)
    if done:
        print(f"crewcheck: resuming {out_path}: {done:,} line(s) already decided", file=sys.stderr)
    if workers.scheduler is None:
        _load_kernel(args.backend)
    print(f"crewcheck: deciding on {workers.describe()}", file=sys.stderr)
    # (results printed on the terminal show the progress themselves; a bar would garble them)
    shown = out_path is None and getattr(sys.stdout, "isatty", lambda: False)()
    progress = Progress("decide", unit="deal", enabled=not args.no_progress and not shown)
    finished = False
    try:
        with _output(out_path) as sink, _closing(fan_out(decide_line, lines, workers)) as results:
            for item in results:
                got = item.value if item.failure is None else None
                decided = got if got is not None else _lost(item)
                try:
                    sink.write(decided.text + "\n")
                    sink.flush()
                except OSError as e:  # the output cannot take more (a full disk)
                    raise _OutputFailed(e.strerror or str(e)) from None
                tally.add(decided.cell, decided.verdict, decided.seconds, decided.nodes, decided.outcome)
                progress.update(fraction=item.item.fraction)
        finished = True
    except KeyboardInterrupt:
        return 130
    except ConnectionError as e:  # the Dask scheduler cannot be reached
        print(f"crewcheck: error: {one_line(str(e))}", file=sys.stderr)
        return EXIT_BACKEND
    except _OutputFailed as e:
        print(f"crewcheck: error: cannot write the results: {one_line(str(e))}", file=sys.stderr)
        return EXIT_USAGE
    finally:  # the summary of what was done, however the run ends
        progress.close()
        _summary(tally, time.perf_counter() - start, interrupted=not finished, resumed=done)
    if tally.failures:
        return EXIT_BACKEND
    return EXIT_USAGE if tally.errors else EXIT_OK


@contextlib.contextmanager
def _closing(results: Iterator[Finished[Line, Decided]]) -> Iterator[Iterator[Finished[Line, Decided]]]:
    """``results`` closed on the way out (its workers stopped), however the loop ends."""
    try:
        yield results
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()


@contextlib.contextmanager
def _output(path: Path | None) -> Iterator[IO[str]]:
    if path is None:
        yield sys.stdout
        return
    with open(path, "a", encoding="utf-8") as f:
        yield f


def _usage(message: str) -> int:
    print(f"crewcheck: error: {one_line(message)}", file=sys.stderr)
    return EXIT_USAGE


def _summary(tally: Tally, total: float, *, interrupted: bool, resumed: int = 0) -> None:
    """The per-cell lines and the totals (of the whole output file after ``--resume``; the
    time and rate are this run's)."""
    if tally.cells:
        print("\n".join(tally.cell_lines()), file=sys.stderr)
    v = tally.verdicts
    fresh = tally.total - resumed
    rate = f" ({fresh / total:.3g} deals/s)" if total > 0 and fresh else ""
    earlier = f" ({resumed:,} of them by an earlier run)" if resumed else ""
    print(f"crewcheck: {'interrupted after' if interrupted else 'decided'} {tally.total} deal(s){earlier} in "
          f"{total:.2f} s{rate}: {v['winnable']} winnable, {v['unwinnable']} unwinnable, {v['unknown']} unknown, "
          f"{tally.errors} bad input, {tally.failures} back-end failure(s)", file=sys.stderr)
