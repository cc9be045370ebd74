"""Fanning work out to worker processes or a Dask cluster, results streamed back in order.

Everything in crewcheck that runs many independent pieces (``decide --batch``, the chunks
of ``prove --full``, the deals of ``bench agents``) goes through :func:`fan_out`: a
top-level function applied to each item of an iterable, on one of three pools
(:class:`Workers`):

inline
    ``count=0``: in this process, one item after the other (tests, tiny jobs).
local processes
    ``count=N``: N worker processes, one item at a time each. They are forked where the
    platform allows (so they inherit the loaded modules and the compiled search kernel)
    and are not daemonic (the engine's race starts a SAT child in each). A worker ignores
    Ctrl-C, which its parent handles, and dies with its parent even after ``kill -9``
    (:func:`crewcheck.runtime.processes.die_with_parent`); its own children (the SAT
    process) die with it.
Dask
    ``scheduler="local"`` starts a local cluster of ``count`` single-threaded worker
    processes; any other ``scheduler`` is the address of a running one
    (``tcp://host:8786``). Items are submitted as they are needed, never all at once.

Streaming
    The iterable is read lazily: at most ``window`` items are in flight or finished but
    not yet handed back, so a 10-million-line input is never held in memory, and the
    results come back in input order.
Memory bound
    ``memory_limit`` bytes per worker (local processes: the resident memory of the worker
    and its children, checked every :data:`MEMORY_POLL` seconds; Dask: the nanny's own
    limit). A worker over it is killed and replaced; its item comes back as a
    :class:`Failure` (``kind="memory"``) and the run goes on. A worker that dies for
    another reason (killed from outside, a crash in compiled code) is replaced the same
    way (``kind="died"``). An exception inside ``fn`` is ``kind="error"``.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import re
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, TypeVar

from crewcheck.runtime.processes import die_with_parent

__all__ = ["Workers", "Failure", "Finished", "fan_out", "scheduler_problem", "values", "WorkerFailedError", "MEMORY_POLL", "DASK_MISSING", "resident_bytes", "parse_bytes",
           "default_workers"]

T = TypeVar("T")
R = TypeVar("R")

_ADDRESS = re.compile(r"(?:(?:tcp|tls|inproc|ucx|ws|wss)://)?(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]):(\d{1,5})")


def scheduler_problem(address: str) -> str | None:
    """What is wrong with a ``--scheduler`` value (``local``, or a Dask scheduler's
    address ``[tcp://]host:port``), or ``None``; checked before anything starts."""
    if address == "local":
        return None
    m = _ADDRESS.fullmatch(address)
    if m is None or not 1 <= int(m.group(1)) <= 65535:
        shown = address if len(address) <= 60 else address[:57] + "..."
        return f"expected 'local' or a scheduler address such as tcp://10.0.0.5:8786, got {shown!r}"
    return None


DASK_MISSING = 'a Dask scheduler needs "distributed": pip install "crewcheck[prove]"'
"""What a Dask run says when Dask is not installed."""

MEMORY_POLL = 0.25
"""Seconds between two checks of the workers' memory (local processes)."""


def default_workers(busy: int = 1) -> int:
    """Workers for the cores this process may use (the scheduler's affinity mask where
    known) when each keeps ``busy`` processes busy at once: never more busy processes than
    cores, and at least one worker."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(1, cores // max(1, busy))


@dataclass(frozen=True, slots=True)
class Workers:
    """Where :func:`fan_out` runs its items."""

    count: int = 1
    """Worker processes (``0``: inline in this process); with ``scheduler="local"`` the
    local cluster's workers."""
    scheduler: str | None = None
    """``None`` (local processes), ``"local"`` (a local Dask cluster) or a Dask scheduler
    address."""
    memory_limit: int | None = None
    """Bytes per worker; ``None``: no bound."""

    def describe(self) -> str:
        """``"2 worker processes"``, ``"inline"``, ``"dask local cluster, 2 workers"``, ..."""
        if self.scheduler == "local":
            where = f"dask local cluster, {self.count} worker{'s' if self.count != 1 else ''}"
        elif self.scheduler is not None:
            where = f"dask scheduler {self.scheduler}"
        elif self.count == 0:
            where = "inline"
        else:
            where = f"{self.count} worker process{'es' if self.count != 1 else ''}"
        if self.memory_limit is not None and self.count != 0:
            where += f", {self.memory_limit / 2**30:.3g} GiB each"
        return where


@dataclass(frozen=True, slots=True)
class Failure:
    """Why an item has no result."""

    kind: str
    """``"memory"`` (its worker went over the bound), ``"died"`` (its worker ended) or
    ``"error"`` (``fn`` raised)."""
    message: str
    """One line: what happened."""


@dataclass(frozen=True, slots=True)
class Finished(Generic[T, R]):
    """One item and what became of it."""

    item: T
    value: R | None
    """``fn(item)``, or ``None`` on failure."""
    failure: Failure | None
    seconds: float
    """Wall time of ``fn(item)`` in its worker (for a failure: from start to failure)."""


def parse_bytes(text: str) -> int | None:
    """``"4GiB"``, ``"512M"``, ``"2e9"``, ``"none"`` -> bytes (``None`` for no bound);
    :class:`ValueError` for anything else."""
    t = text.strip().lower().replace(" ", "")
    if t in ("none", "0"):
        return None
    units = {"kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40, "kb": 10**3, "mb": 10**6, "gb": 10**9,
             "tb": 10**12, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40, "b": 1}
    for unit, scale in units.items():
        if t.endswith(unit):
            number, factor = t[: -len(unit)], scale
            break
    else:
        number, factor = t, 1
    if not number.isascii():
        raise ValueError(text)
    value = float(number) * factor
    if not value >= 2**20 or value != value or value == float("inf"):
        raise ValueError(text)
    return int(value)


def resident_bytes(pid: int) -> int:
    """Resident memory of process ``pid`` and all its descendants (0 if gone; Linux
    ``/proc``, else psutil when installed, else 0)."""
    if sys.platform.startswith("linux"):
        page = os.sysconf("SC_PAGE_SIZE")
        total = 0
        todo = [pid]
        while todo:
            p = todo.pop()
            try:
                with open(f"/proc/{p}/statm", "rb") as f:
                    total += int(f.read().split()[1]) * page
                for task in os.listdir(f"/proc/{p}/task"):
                    with open(f"/proc/{p}/task/{task}/children", "rb") as f:
                        todo.extend(int(c) for c in f.read().split())
            except (OSError, ValueError, IndexError):
                continue
        return total
    try:  # pragma: no cover - not Linux
        import psutil  # type: ignore[import-untyped, unused-ignore]

        proc = psutil.Process(pid)
        return int(sum(p.memory_info().rss for p in [proc, *proc.children(recursive=True)]))
    except Exception:  # pragma: no cover
        return 0


def fan_out(fn: Callable[[T], R], items: Iterable[T], workers: Workers, *,
            window: int | None = None) -> Iterator[Finished[T, R]]:
    """``fn`` applied to every item, on ``workers``; yields :class:`Finished` in input order.

    ``fn`` must be a top-level (picklable) function for anything but inline. ``window``
    bounds the items in flight plus those finished and waiting for an earlier one (default
    ``32 * count``). Closing the generator (or Ctrl-C in it) stops and reaps every worker
    this call started.
    """
    if workers.scheduler is not None:
        return _dask(fn, items, workers, window or 32 * max(1, workers.count))
    if workers.count == 0:
        return _inline(fn, items)
    return _local(fn, items, workers, window or 32 * workers.count)


class WorkerFailedError(RuntimeError):
    """An item of :func:`values` failed (its :class:`Failure` in ``.failure``)."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


def values(fn: Callable[[T], R], items: Iterable[T], workers: Workers, *,
           window: int | None = None) -> Iterator[tuple[T, R, float]]:
    """``(item, fn(item), seconds)`` in input order, for jobs that cannot go on without an
    item: the first failure raises :class:`WorkerFailedError` (after stopping the workers)."""
    results = fan_out(fn, items, workers, window=window)
    try:
        for done in results:
            if done.failure is not None:
                raise WorkerFailedError(done.failure)
            yield done.item, done.value, done.seconds  # type: ignore[misc]
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()


def _timed(fn: Callable[[T], R], item: T) -> tuple[R, float]:
    start = time.perf_counter()
    value = fn(item)
    return value, time.perf_counter() - start


def _inline(fn: Callable[[T], R], items: Iterable[T]) -> Iterator[Finished[T, R]]:
    for item in items:
        start = time.perf_counter()
        try:
            value = fn(item)
        except Exception as e:  # noqa: BLE001 - reported as the item's failure
            yield Finished(item, None, Failure("error", f"{type(e).__name__}: {e}"), time.perf_counter() - start)
        else:
            yield Finished(item, value, None, time.perf_counter() - start)


# -- local processes --------------------------------------------------------------------
def _serve(fn: Callable[[Any], Any], conn: Connection, parent: int) -> None:
    """A worker's loop: ``(index, item)`` in, ``(index, ok, value or message, seconds)`` out."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and ends us
    die_with_parent(parent, watch=True)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        index, item = message
        start = time.perf_counter()
        try:
            reply = (index, True, fn(item), time.perf_counter() - start)
        except Exception as e:  # noqa: BLE001 - the item's failure, not the worker's
            last = traceback.extract_tb(e.__traceback__)[-1:] if e.__traceback__ else []
            where = f" ({last[0].filename.rsplit('/', 1)[-1]}:{last[0].lineno})" if last else ""
            reply = (index, False, f"{type(e).__name__}: {e}{where}", time.perf_counter() - start)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


class _Worker:
    """One worker process and the item it holds."""

    def __init__(self, ctx: Any, fn: Callable[[Any], Any]) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(fn, child, os.getpid()), daemon=False,
                                name="crewcheck-worker")
        self.proc.start()
        child.close()
        self.index: int | None = None
        self.started = 0.0
        self.over_memory = False

    def give(self, index: int, item: Any) -> None:
        self.conn.send((index, item))
        self.index = index
        self.started = time.perf_counter()
        self.over_memory = False

    def stop(self, grace: float = 0.5) -> None:
        """End the process: a polite request when idle, else (or after ``grace``) SIGKILL."""
        if self.proc.is_alive():
            if self.index is None:
                try:
                    self.conn.send(None)
                except (OSError, ValueError):
                    pass
                self.proc.join(grace)
            if self.proc.is_alive():
                self.proc.kill()
        self.proc.join()
        self.conn.close()


class _Feeder:
    """Reads the items in a thread, at most ``window`` ahead, so that a slow source (a
    pipe fed line by line) never holds back results already finished; each item read
    wakes the main loop through a pipe."""

    _END = object()

    def __init__(self, items: Iterable[Any], window: int) -> None:
        self.queue: queue.Queue[Any] = queue.Queue(window)
        self.wake_r, self.wake_w = os.pipe()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(iter(items),), daemon=True,
                                       name="crewcheck-feeder")
        self.thread.start()

    def _run(self, source: Iterator[Any]) -> None:
        try:
            for n, item in enumerate(source):
                self.queue.put((n, item))
                os.write(self.wake_w, b".")
        except BaseException as e:  # noqa: BLE001 - handed to the main loop
            self.error = e
        self.queue.put(self._END)
        try:
            os.write(self.wake_w, b".")
        except OSError:
            pass

    def take(self) -> tuple[int, Any] | None | object:
        """The next ``(index, item)``, ``None`` if none is ready yet, or ``_END``."""
        try:
            got: object = self.queue.get_nowait()
        except queue.Empty:
            return None
        try:
            os.read(self.wake_r, 1)
        except OSError:
            pass
        if got is self._END and self.error is not None:
            raise self.error
        return got

    def close(self) -> None:
        for fd in (self.wake_r, self.wake_w):
            try:
                os.close(fd)
            except OSError:
                pass


def _local(fn: Callable[[T], R], items: Iterable[T], workers: Workers, window: int) -> Iterator[Finished[T, R]]:
    ctx = _context()
    pool: list[_Worker] = []
    pending: dict[int, T] = {}
    done: dict[int, Finished[T, R]] = {}
    next_out = 0
    exhausted = False
    last_poll = time.monotonic()
    feeder: _Feeder | None = None
    try:
        pool.extend(_Worker(ctx, fn) for _ in range(workers.count))  # forked before the feeder thread starts
        feeder = _Feeder(items, window)
        while True:
            for w in pool:  # give idle workers the next items
                if w.index is None and not exhausted and len(pending) + len(done) < window:
                    nxt = feeder.take()
                    if nxt is _Feeder._END:
                        exhausted = True
                    elif isinstance(nxt, tuple):
                        pending[nxt[0]] = nxt[1]
                        w.give(nxt[0], nxt[1])
            while next_out in done:
                yield done.pop(next_out)
                next_out += 1
            busy = [w for w in pool if w.index is not None]
            if not busy and exhausted:  # nothing in flight: everything was handed back
                return
            timeout = MEMORY_POLL if workers.memory_limit is not None else None
            waiting: list[Any] = [w.conn for w in busy] + [w.proc.sentinel for w in busy]
            if not exhausted and len(pending) + len(done) < window and len(busy) < len(pool):
                waiting.append(feeder.wake_r)  # an idle worker waits for the next item
            ready = wait(waiting, timeout)
            for i, w in enumerate(pool):
                if w.index is None or (w.conn not in ready and w.proc.sentinel not in ready):
                    continue
                reply = None
                try:
                    if w.conn.poll():
                        reply = w.conn.recv()
                except (EOFError, OSError):
                    reply = None
                index = w.index
                if reply is not None:
                    _, ok, value, seconds = reply
                    item = pending.pop(index)
                    if ok:
                        done[index] = Finished(item, value, None, seconds)
                    else:
                        done[index] = Finished(item, None, Failure("error", value), seconds)
                    w.index = None
                    continue
                if w.proc.is_alive():
                    continue
                # the worker died holding the item: report it and start another one
                seconds = time.perf_counter() - w.started
                if w.over_memory:
                    failure = Failure("memory", f"the worker went over its memory bound of "
                                                f"{(workers.memory_limit or 0) / 2**30:.3g} GiB and was stopped")
                else:
                    code = w.proc.exitcode
                    how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
                    failure = Failure("died", f"the worker process died ({how})")
                done[index] = Finished(pending.pop(index), None, failure, seconds)
                w.index = None
                w.stop()
                pool[i] = _Worker(ctx, fn)
            if workers.memory_limit is not None and time.monotonic() - last_poll >= MEMORY_POLL:
                last_poll = time.monotonic()
                for w in pool:
                    if w.index is not None and not w.over_memory and \
                            resident_bytes(w.proc.pid or 0) > workers.memory_limit:
                        w.over_memory = True
                        w.proc.kill()
    finally:
        for w in pool:
            w.stop(grace=0.0 if w.index is not None else 0.5)
        if feeder is not None:
            feeder.close()


# -- Dask -------------------------------------------------------------------------------
def _dask(fn: Callable[[T], R], items: Iterable[T], workers: Workers, window: int) -> Iterator[Finished[T, R]]:
    try:
        import dask
        from distributed import Client, LocalCluster, as_completed
    except ImportError as e:  # pragma: no cover - depends on the install
        raise ImportError(DASK_MISSING) from e
    cluster: Any = None
    # non-daemonic workers (the engine's race starts a child process in each), and an item
    # that kills its worker is reported at once rather than tried on another worker
    settings = {"distributed.worker.daemon": False, "distributed.scheduler.allowed-failures": 0}
    with dask.config.set(settings):
        if workers.scheduler == "local":
            cluster = LocalCluster(  # type: ignore[no-untyped-call, unused-ignore]
                n_workers=max(1, workers.count), threads_per_worker=1, processes=True, dashboard_address=None,
                memory_limit=workers.memory_limit or 0)
            client = Client(cluster)  # type: ignore[no-untyped-call, unused-ignore]
        else:
            try:
                client = Client(workers.scheduler, timeout="20s")  # type: ignore[no-untyped-call, unused-ignore]
            except (OSError, TimeoutError) as e:
                raise ConnectionError(f"cannot reach the Dask scheduler {workers.scheduler!r}: {e}") from None
    source = iter(enumerate(items))
    pending: dict[Any, tuple[int, T]] = {}
    done: dict[int, Finished[T, R]] = {}
    next_out = 0
    queue: Any = as_completed()  # type: ignore[no-untyped-call, unused-ignore]
    try:
        def submit() -> bool:
            nxt = next(source, None)
            if nxt is None:
                return False
            fut = client.submit(_timed, fn, nxt[1], pure=False)
            pending[fut] = nxt
            queue.add(fut)  # type: ignore[no-untyped-call, unused-ignore]
            return True

        while len(pending) < window and submit():
            pass
        for fut in queue:
            index, item = pending.pop(fut)
            if fut.status == "finished":
                value, seconds = fut.result()
                done[index] = Finished(item, value, None, seconds)
            else:
                error = fut.exception()
                kind = "died" if type(error).__name__ == "KilledWorker" else "error"
                message = f"{type(error).__name__}: {error}"
                if kind == "died":
                    message = (f"the Dask worker running it died (over its memory bound of "
                               f"{workers.memory_limit / 2**30:.3g} GiB, or killed): {message}"
                               if workers.memory_limit else f"the Dask worker running it died: {message}")
                    kind = "memory" if workers.memory_limit else "died"
                done[index] = Finished(item, None, Failure(kind, message), 0.0)
            while next_out in done:
                yield done.pop(next_out)
                next_out += 1
            while len(pending) + len(done) < window and submit():
                pass
    finally:
        for fut in pending:
            fut.cancel()
        client.close()  # type: ignore[no-untyped-call, unused-ignore]
        if cluster is not None:
            cluster.close()
