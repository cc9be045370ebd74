"""A CDCL solve of the winnability encoding in a child process that can be stopped at once.

What it is
    :class:`SatProcess` starts one child process that builds the deal's CNF
    (:func:`crewcheck.solvers.logic.cnf_build.build_cnf`: the clauses of
    :func:`~crewcheck.solvers.logic.export.to_cnf` after
    :func:`~crewcheck.solvers.logic.encoding.encode`, the tasks as unit clauses, written
    by a compiled kernel where the deal allows it and the kernel is loaded), solves it
    with a CDCL solver from PySAT (:data:`SOLVER`, Glucose 4.2, by default; :data:`CPSAT`
    runs OR-Tools CP-SAT on the model instead) and sends back the verdict
    and, for a win, the decoded line. The parent polls :meth:`SatProcess.ready` (a
    ``select`` on a pipe, no GIL held while the child works) and ends the child with
    :meth:`SatProcess.stop` (``SIGKILL``): no solver needs to support interruption, and
    nothing is left running. The child dies with its parent (``PR_SET_PDEATHSIG`` on
    Linux), ignores ``SIGINT`` (Ctrl-C reaches the parent, which stops it), and is a
    daemon process, so an interpreter that exits stops it too.

    Why a process and not a thread: the encoding of the deals the kernel does not
    build is plain Python (up to ~0.6 s on a 36-task deal) and would hold the GIL
    against the search driver; and the fastest
    CDCL solvers in PySAT (CaDiCaL, Kissat) cannot be interrupted, only killed.
Start method
    ``fork`` where the platform has it and the calling process runs a single thread
    (the child starts in about a millisecond and inherits the loaded modules), else
    ``forkserver`` (the instance is pickled; the server imports the encoder and PySAT
    once, :data:`PRELOAD`, and forks every child from itself) or, where there is none,
    ``spawn`` (every start imports crewcheck and PySAT afresh, a few tenths of a second).
    crewcheck's own worker processes run a single thread, so their SAT children are forks.
    From a process's second SAT process on, the solve goes to a *spare* instead
    (:class:`_Spares`): a process made ahead of the deal by the fork server, in a
    background thread, that takes the deal through its pipe and, once it has answered,
    waits for the next one; a spare stopped mid-solve is killed like a fork and a new one
    is made. The searching process then never forks during a race (a fork of a process
    holding the compiled kernel costs milliseconds, more on a busy machine). A stopped
    child is never waited for: it is reaped later.
Exact
    Yes, as the encoding: satisfiable if and only if winnable; a winning line is replayed
    by :func:`crewcheck.decide` like every back-end's.
"""

from __future__ import annotations

import functools
import gc
import importlib.util
import multiprocessing
import multiprocessing.connection
import multiprocessing.util
import os
import signal
import sys
import threading
import time
from typing import Any

from crewcheck.errors import BackendError
from crewcheck.model.instance import Instance
from crewcheck.runtime.processes import die_with_parent, start_without_main
from crewcheck.solvers.base import Answer, Budget, Verdict
from crewcheck.solvers.logic.cnf_build import build_cnf
from crewcheck.solvers.logic.decode import decode

__all__ = ["SatProcess", "SOLVER", "CPSAT", "SOLVES", "PRELOAD", "available"]

CPSAT = "cpsat"
"""The solver name that runs OR-Tools CP-SAT on the winnability model in the child instead
of a CDCL solver on its CNF (the engine's choice on some free-assignment deals:
:func:`crewcheck.solvers.engine.sat_solver_for`); needs ``crewcheck[cpsat]``."""

SOLVER = "glucose42"
"""The PySAT solver the child runs. On the 400 deals of the corpus cells 3p-fixed-k12,
k15, k20 and 4p-fixed-k12 (CNF built once, each solver alone in a child process), Glucose
4.2 had the lowest median (0.043-0.114 s against 0.064-0.219 s) and total time in every
cell, and a worst case within 1.3x of the best of CaDiCaL 1.9.5, Kissat 4.0.4 (both
through PySAT) and CryptoMiniSat 5.17 (docs/performance.md, "The engine")."""


@functools.lru_cache(maxsize=1)
def available() -> str | None:
    """``None`` if PySAT can be imported here, else the install hint."""
    if importlib.util.find_spec("pysat") is None:
        return "the SAT side needs python-sat (a dependency of crewcheck): pip install python-sat"
    return None


def _die_with_parent(parent: int | None) -> None:
    """Ask the kernel to kill this process when its parent dies (Linux), and exit now if
    the parent (``parent``, when this process was forked from it) is already gone. A child
    of the fork server has the server as its parent, which itself exits with ours."""
    die_with_parent(parent)


def _child(instance: Instance, solver: str, conn: multiprocessing.connection.Connection,
           parent: int | None) -> None:
    """The child's whole life: encode, solve, send one message, exit."""
    _die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The objects inherited from the parent go to the permanent generation: a garbage
    # collection in the child (the encoder allocates a lot) then does not walk the
    # parent's whole heap. With a fork of a process holding 200 deals, one such
    # collection doubled the median build time of a 4-player deal (12 ms -> 25 ms).
    # Then no collection at all: the child lives for one solve, and the encoding (lists
    # and tuples, no cycles) is freed by reference counting; the young collections
    # alone cost a quarter of the build (4p-fixed-k12: 20 -> 14.5 ms of CPU a deal).
    gc.freeze()
    gc.disable()
    try:
        conn.send(_solve(instance, solver))
    except BaseException as e:  # reported to the parent, which decides what to do
        try:
            conn.send(("error", f"{type(e).__name__}: {e}"))
        except OSError:
            pass
    finally:
        conn.close()


def _serve(conn: multiprocessing.connection.Connection) -> None:
    """A spare's whole life: solve every ``(instance, solver)`` it is sent, answering each
    with one message, until the pipe closes or its parent kills it mid-solve."""
    _die_with_parent(None)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.freeze()
    gc.disable()  # as in _child; the garbage of a solve is collected after its answer
    while True:
        try:
            instance, solver = conn.recv()
        except (EOFError, OSError):
            return
        try:
            msg = _solve(instance, solver)
        except BaseException as e:  # noqa: BLE001 - reported to the parent
            msg = ("error", f"{type(e).__name__}: {e}")
        try:
            conn.send(msg)
        except OSError:
            return
        del instance
        gc.collect()


def _solve(instance: Instance, solver: str) -> tuple[Any, ...]:
    """The child's message: ``("unwinnable", stats)`` or ``("winnable", stats, plays, assignment)``."""
    return SOLVES.get(solver, _solve_cnf)(instance, solver)


def _solve_cpsat(instance: Instance, solver: str) -> tuple[Any, ...]:
    """OR-Tools CP-SAT on the winnability model with its integer counts, no time limit."""
    from crewcheck.solvers.logic.cpsat import CpSatOptions, CpSatSolver

    t0 = time.perf_counter()
    answer = CpSatSolver(CpSatOptions(explain=False)).decide(instance, budget=Budget())
    stats = {k: v for k, v in answer.extra.items() if k in ("variables", "constraints", "build_seconds")}
    stats["solve_seconds"] = round(time.perf_counter() - t0, 4)
    if answer.verdict is Verdict.WINNABLE:
        return ("winnable", stats, answer.plays, answer.assignment)
    if answer.verdict is Verdict.UNWINNABLE:
        return ("unwinnable", stats)
    raise BackendError("CP-SAT gave no verdict without a time limit")


def _solve_cnf(instance: Instance, solver: str) -> tuple[Any, ...]:
    """The deal's CNF solved by the PySAT solver named ``solver``."""
    from pysat.solvers import Solver  # type: ignore[import-untyped]  # optional: see available()

    t0 = time.perf_counter()
    cnf = build_cnf(instance)
    t1 = time.perf_counter()
    stats = {"variables": cnf.nv, "clauses": len(cnf.clauses), "build_seconds": round(t1 - t0, 4),
             "cnf_builder": cnf.builder}
    with Solver(name=solver, bootstrap_with=cnf.clauses) as sat:
        won = sat.solve()
        stats["solve_seconds"] = round(time.perf_counter() - t1, 4)
        try:
            stats["conflicts"] = sat.accum_stats().get("conflicts", 0)
        except NotImplementedError:  # Kissat in PySAT keeps its statistics to itself
            pass
        if not won:
            return ("unwinnable", stats)
        model = {abs(x): x > 0 for x in sat.get_model() or ()}
    plays, assignment = decode(cnf.encoding(), lambda v: model.get(v, False))
    return ("winnable", stats, plays, assignment)


SOLVES = {CPSAT: _solve_cpsat}
"""The child's solve for a solver name that is not PySAT's (any other name: :func:`_solve_cnf`)."""


def _preload(solver: str) -> None:
    """Import what the child needs into this process, once, after starting a child: later
    children are forked with it loaded (PySAT's import alone is ~30 ms a child, OR-Tools'
    about 0.6 s)."""
    if solver == CPSAT:
        import ortools.sat.python.cp_model  # noqa: F401
    elif "pysat.solvers" not in sys.modules:
        import pysat.solvers  # type: ignore[import-untyped]  # noqa: F401


PRELOAD = ("crewcheck.solvers.logic.sat_process", "pysat.solvers", "crewcheck.solvers.logic.cnf_preload")
"""What a fork server imports before its first child: every child is then a fork with the
encoder, the solver and the compiled CNF kernel loaded, instead of importing them afresh
(about 0.1 s a deal; the kernel, with numba, a few tenths of a second, once per server)."""


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(list(PRELOAD))  # no effect on a server already running
        return ctx
    return multiprocessing.get_context("spawn")


class _Spare:
    """A SAT process started ahead of its deal from the fork server (:data:`PRELOAD`
    loaded), waiting on its pipe (:func:`_serve`)."""

    def __init__(self) -> None:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(list(PRELOAD))
        self.conn, theirs = ctx.Pipe(duplex=True)
        self.proc = ctx.Process(target=_serve, args=(theirs,), name="crewcheck-sat", daemon=True)
        start_without_main(self.proc)
        theirs.close()


class _Spares:
    """At most one idle spare per process, made in a background thread after a SAT
    process was used (:meth:`SatProcess.stop`) so that no deal waits for its making.

    The engine's SAT side starts on every deal the search has not decided in its first
    milliseconds; a fork of the searching process costs the search the fork itself (page
    tables of a process holding the compiled kernel: 1-3 ms on a quiet machine, over
    10 ms on a busy one) and the pages it then writes. A spare costs the search a pickled
    deal through a pipe; one that answered is idle again and serves the next deal.
    Spares are made only from a process's second SAT process on (a process that needed
    the SAT side twice is a batch or a study), never for OR-Tools (:data:`CPSAT`: its
    import, 0.6 s, stays loaded in forks of the parent instead), and only where the
    platform has a fork server."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.idle: _Spare | None = None
        self.making = False
        self.thread: threading.Thread | None = None
        """The thread making a spare, while it runs."""
        self.used = 0
        self.enabled = "forkserver" in multiprocessing.get_all_start_methods()

    def take(self, solver: str) -> _Spare | None:
        """The idle spare, if there is one for ``solver`` (it is then no longer idle)."""
        if solver == CPSAT or not self.enabled:
            return None
        with self.lock:
            spare, self.idle = self.idle, None
        if spare is not None and not spare.proc.is_alive():
            spare.conn.close()
            return None
        return spare

    def give_back(self, spare: _Spare) -> None:
        """A spare that answered and waits again."""
        with self.lock:
            kept = self.idle is None
            if kept:
                self.idle = spare
        if not kept:  # one is idle already: this one is not needed (it ends with its pipe)
            spare.conn.close()

    def replenish(self) -> None:
        """Start making a spare in the background, unless one is idle or being made."""
        with self.lock:
            self.used += 1
            if not self.enabled or self.used < 2 or self.idle is not None or self.making:
                return
            self.making = True
            self.thread = threading.Thread(target=self._make, name="crewcheck-sat-spare", daemon=True)
        self.thread.start()

    def _make(self) -> None:
        try:
            spare: _Spare | None = _Spare()
        except Exception:  # noqa: BLE001 - no process slots, no fork server: a fork per deal
            spare = None
            self.enabled = False
        with self.lock:
            self.making = False
        if spare is not None:
            self.give_back(spare)


SPARES = _Spares()
"""This process's spare SAT processes."""


def _finish_making() -> None:
    """At exit (of the interpreter, or of a ``multiprocessing`` worker): let a spare that is
    being made finish starting, so that it is stopped like any child; a process that
    exits in the middle of the fork server's start leaves that server's child without
    its instructions (it then prints a traceback)."""
    thread = SPARES.thread
    if thread is not None:
        thread.join(10)


multiprocessing.util.Finalize(None, _finish_making, exitpriority=100)


def _forget_spares() -> None:
    """In a forked child: the parent's spare is the parent's (its pipe is not ours)."""
    global SPARES
    SPARES = _Spares()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_spares)


class SatProcess:
    """One CDCL solve of ``instance`` in a child process; a context manager that stops it.

    >>> from crewcheck.formats.deal_json import loads
    >>> deal = loads('{"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}')
    >>> with SatProcess(deal) as child:
    ...     child.wait().verdict
    <Verdict.WINNABLE: 'winnable'>
    """

    def __init__(self, instance: Instance, solver: str = SOLVER) -> None:
        self.solver = solver
        self.started = time.perf_counter()
        self._spare = SPARES.take(solver)
        self._conn: multiprocessing.connection.Connection
        if self._spare is not None:
            self._conn, self._proc = self._spare.conn, self._spare.proc
            try:
                self._conn.send((instance, solver))
            except OSError:  # it died idle: a fork after all
                self._conn.close()
                self._spare = None
        if self._spare is None:
            ctx = _context()
            self._conn, sender = ctx.Pipe(duplex=False)
            parent = os.getpid() if ctx.get_start_method() == "fork" else None
            self._proc = ctx.Process(target=_child, args=(instance, solver, sender, parent),
                                     name="crewcheck-sat", daemon=True)
            start_without_main(self._proc)
            sender.close()
            _preload(solver)
        self._answer: Answer | None = None
        self._done = False
        """Stopped: the child killed, or the spare handed back (its pipe no longer ours)."""
        self.error: str | None = None
        """Why the child gave no verdict (it crashed or was killed), once :meth:`answer` says so."""

    def ready(self) -> bool:
        """Whether the child has answered or died (never blocks)."""
        return self._answer is not None or self.error is not None or self._done or self._conn.poll()

    def answer(self) -> Answer | None:
        """The child's answer once :meth:`ready`; ``None`` (and :attr:`error` set) if it
        died without one, or if it is not ready yet."""
        if self._answer is None and self.error is None and self._done:
            self.error = "the SAT process was stopped before it answered"
        if self._answer is None and self.error is None and self._conn.poll():
            try:
                msg = self._conn.recv()
            except (EOFError, OSError):
                self._proc.join()  # it died: its exit code is ready at once
                code = self._proc.exitcode
                self.error = f"the SAT process ended without an answer (exit code {code})"
                return None
            if msg[0] == "error":
                self.error = f"the SAT process failed: {msg[1]}"
                self.stop()
                return None
            extra = {**msg[1], "sat_solver": self.solver, "sat_seconds":
                     round(time.perf_counter() - self.started, 4)}
            if msg[0] == "winnable":
                self._answer = Answer(Verdict.WINNABLE, tuple(msg[2]),
                                      None if msg[3] is None else tuple(msg[3]), extra=extra)
            else:
                self._answer = Answer(Verdict.UNWINNABLE, extra=extra)
            self.stop()
        return self._answer

    def wait(self, seconds: float | None = None) -> Answer:
        """Block until the child answers (or ``seconds`` pass: then UNKNOWN); a child that
        dies without an answer raises :class:`BackendError`."""
        if not self._done:
            self._conn.poll(seconds)
        got = self.answer()
        if got is None:
            if self.error is not None:
                raise BackendError(self.error)
            return Answer(Verdict.UNKNOWN)
        return got

    def stop(self) -> None:
        """Stop the solve: a spare that has answered waits for the next deal; any other
        child is killed now (if it still runs), reaped if it is gone already, else
        leave it to be reaped later (``multiprocessing`` does at the next start of a child
        and at exit), so the caller never waits for the system to tear down its memory:
        that wait, a few milliseconds for a fork of a process holding the search,
        charged every race its length once more."""
        if self._done:
            return
        self._done = True
        if self._spare is not None and self._answer is not None and self._proc.is_alive():
            SPARES.give_back(self._spare)
            return
        if self._proc.is_alive():
            self._proc.kill()
        self._proc.join(0)
        self._conn.close()
        SPARES.replenish()

    def __enter__(self) -> SatProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
