"""Running chunked computations: inline, on worker processes or on Dask, with a results store.

A :class:`Job` is a list of JSON-able chunk parameters and a top-level
function ``fn(params) -> JSON value``. An :class:`Executor` runs the chunks
neither in the committed records (:mod:`crewcheck.claims.records`) nor in its
:class:`~crewcheck.runtime.store.ResultStore` through
:func:`crewcheck.runtime.fanout.fan_out` (the fan-out of ``decide --batch`` and
``bench`` too): in this process, on local worker processes, or on a Dask cluster
(``scheduler="local"`` or an address). It shows progress on stderr
(:class:`crewcheck.runtime.progress.Progress`) and stores every finished chunk
immediately so an interrupted run resumes where it stopped.

Claims get the executor of the current ledger run from :func:`current`; the
default executor runs inline with a throw-away store.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self

from crewcheck.claims.records import Records
from crewcheck.errors import CrewcheckError
from crewcheck.runtime.fanout import Workers, default_workers, values
from crewcheck.runtime.progress import Progress
from crewcheck.runtime.store import ResultStore, canonical_key


class IncompleteRecordError(CrewcheckError):
    """A job's chunks are not all recorded and the executor may not compute them."""

    def __init__(self, namespace: str, missing: int, total: int) -> None:
        super().__init__(f"the committed record of {namespace!r} lacks {missing:,} of {total:,} chunks "
                         "(compute them with --full, commit them with --save-records)")
        self.namespace = namespace
        self.missing = missing
        self.total = total


@dataclass(frozen=True, slots=True)
class Job:
    """A chunked computation."""

    namespace: str
    """Store namespace: job name and version, e.g. ``"thm-3.15/exhaustive/v1"``."""
    chunks: tuple[Mapping[str, Any], ...]
    """JSON-able parameters of each chunk."""
    fn: Callable[[Mapping[str, Any]], Any] = field(compare=False)
    """Top-level (picklable) function computing one chunk."""
    label: str = ""
    """Progress-bar label."""


class Executor:
    """Run jobs inline, on local worker processes or on Dask, caching chunk results in a store.

    Parameters
    ----------
    store : ResultStore or None
        Where finished chunks go; ``None`` keeps them in memory only.
    workers : int or None
        Worker processes (or the local Dask cluster's workers); ``0`` or ``1`` without
        `scheduler` runs inline. ``None`` means one per core when `parallel` is set.
    scheduler : str or None
        ``"local"`` (a local Dask cluster) or the address of a running Dask scheduler.
    parallel : bool
        Fan out at all (``--full`` does by default).
    progress : bool
        Show progress on stderr.
    records : Records or None
        Committed chunk results, read before the store (``None``: none).
    records_only : bool
        Compute nothing: a job with a chunk missing from the records and the store raises
        :class:`IncompleteRecordError`.
    memory_limit : int or None
        Bytes per worker (see :class:`~crewcheck.runtime.fanout.Workers`).
    """

    def __init__(
        self,
        *,
        store: ResultStore | None = None,
        workers: int | None = None,
        scheduler: str | None = None,
        parallel: bool = False,
        progress: bool = False,
        records: Records | None = None,
        records_only: bool = False,
        memory_limit: int | None = None,
    ) -> None:
        self.store = store if store is not None else ResultStore(":memory:")
        self.workers = workers
        self.scheduler = scheduler
        self.parallel = parallel or scheduler is not None or (workers is not None and workers > 1)
        self.progress = progress
        self.memory_limit = memory_limit
        self.records = records
        self.records_only = records_only
        self.chunks_run = 0
        self.chunks_cached = 0
        self.chunks_recorded = 0
        self.accessed: list[str] = []
        """The namespace of every job run, in order (a claim's jobs are those it ran)."""
        self.results: dict[str, dict[str, tuple[Any, float]]] = {}
        """Every chunk result a job of this executor returned, by namespace: ``{key: (value,
        seconds)}``, what ``--save-records`` writes."""

    @property
    def pool(self) -> Workers:
        """Where the chunks run."""
        if not self.parallel:
            return Workers(0)
        count = self.workers if self.workers is not None else default_workers()
        if self.scheduler is None and count <= 1:
            return Workers(0)
        return Workers(count, self.scheduler, self.memory_limit)

    def close(self) -> None:
        """Nothing to release: every job's workers end with the job."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- running ---------------------------------------------------------------
    def run(self, job: Job, *, partial: bool = False) -> list[Any]:
        """Return the result of every chunk of `job`, in chunk order.

        With `records_only` and `partial`, a chunk neither recorded nor stored is ``None``
        instead of an error (for a job whose missing part a claim can do without).

        Raises
        ------
        IncompleteRecordError
            With `records_only` (and not `partial`), when a chunk is neither recorded nor stored.
        WorkerFailedError
            When a chunk fails (an exception in it, or its worker lost).
        """
        keys = [canonical_key(c) for c in job.chunks]
        self.accessed.append(job.namespace)
        recorded = self.records.get_many(job.namespace) if self.records is not None else {}
        stored = self.store.get_many_timed(job.namespace)
        results: dict[str, tuple[Any, float]] = {}
        for k in keys:
            if k in recorded:
                results[k] = recorded[k]
                self.chunks_recorded += 1
            elif k in stored:
                results[k] = stored[k]
                self.chunks_cached += 1
        todo: dict[str, Mapping[str, Any]] = {}
        for k, c in zip(keys, job.chunks):
            if k not in results:
                todo.setdefault(k, c)  # the same chunk twice in one job runs once
        if todo and self.records_only:
            # what there is still counts for --save-records: a partial record resumes later
            self.results.setdefault(job.namespace, {}).update(results)
            if partial:
                return [results[k][0] if k in results else None for k in keys]
            raise IncompleteRecordError(job.namespace, len(todo), len(set(keys)))
        bar = Progress(job.label or job.namespace, total=len(set(keys)), unit="chunk", enabled=self.progress)
        bar.done = len(set(keys)) - len(todo)
        try:
            for (k, _), value, seconds in values(_call, ((k, (job.fn, c)) for k, c in todo.items()), self.pool):
                self.store.put(job.namespace, k, value, seconds=seconds)
                results[k] = (value, seconds)
                self.chunks_run += 1
                bar.update(1)
        finally:
            bar.close()
        self.results.setdefault(job.namespace, {}).update({k: results[k] for k in keys})
        return [results[k][0] for k in keys]


def _call(task: tuple[str, tuple[Callable[[Mapping[str, Any]], Any], Mapping[str, Any]]]) -> Any:
    """One chunk in a worker: ``fn(params)``."""
    fn, params = task[1]
    return fn(params)


_CURRENT: contextvars.ContextVar[Executor | None] = contextvars.ContextVar("crewcheck_executor", default=None)


def current() -> Executor:
    """Return the executor of the running ledger (inline by default)."""
    ex = _CURRENT.get()
    if ex is None:
        ex = Executor()
        _CURRENT.set(ex)
    return ex


@contextlib.contextmanager
def using(executor: Executor) -> Iterator[Executor]:
    """Make `executor` the current one inside a ``with`` block."""
    token = _CURRENT.set(executor)
    try:
        yield executor
    finally:
        _CURRENT.reset(token)


def run_job(namespace: str, fn: Callable[[Mapping[str, Any]], Any], chunks: Sequence[Mapping[str, Any]], *,
            label: str = "", partial: bool = False) -> list[Any]:
    """Run a job on the current executor (shorthand used by the claims; `partial`: see
    :meth:`Executor.run`)."""
    return current().run(Job(namespace, tuple(chunks), fn, label), partial=partial)
