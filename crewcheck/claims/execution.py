"""Running chunked computations: inline, or through Dask, with a results store.

A :class:`Job` is a list of JSON-able chunk parameters and a top-level
function ``fn(params) -> JSON value``. An :class:`Executor` runs the chunks
neither in the committed records (:mod:`crewcheck.claims.records`) nor in its
:class:`~crewcheck.runtime.store.ResultStore`, either in this process
or on a Dask cluster (a local one with one single-threaded worker per core,
or an existing scheduler), shows a progress bar on stderr, and stores every
finished chunk immediately so an interrupted run resumes where it stopped.

Claims get the executor of the current ledger run from :func:`current`; the
default executor runs inline with a throw-away store.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self

from crewcheck.claims.records import Records
from crewcheck.errors import CrewcheckError
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
    """Run jobs inline or on Dask, caching chunk results in a store.

    Parameters
    ----------
    store : ResultStore or None
        Where finished chunks go; ``None`` keeps them in memory only.
    workers : int or None
        Dask workers for a local cluster; ``0`` or ``1`` without `scheduler`
        runs inline. ``None`` means one per core when `use_dask` is set.
    scheduler : str or None
        Address of an existing Dask scheduler.
    use_dask : bool
        Whether to use Dask at all (``--full`` does by default).
    processes : bool
        Local cluster with worker processes (``False``: threads, for tests).
    progress : bool
        Show a tqdm progress bar on stderr.
    records : Records or None
        Committed chunk results, read before the store (``None``: none).
    records_only : bool
        Compute nothing: a job with a chunk missing from the records and the store raises
        :class:`IncompleteRecordError`.
    """

    def __init__(
        self,
        *,
        store: ResultStore | None = None,
        workers: int | None = None,
        scheduler: str | None = None,
        use_dask: bool = False,
        processes: bool = True,
        progress: bool = False,
        records: Records | None = None,
        records_only: bool = False,
    ) -> None:
        self.store = store if store is not None else ResultStore(":memory:")
        self.workers = workers
        self.scheduler = scheduler
        self.use_dask = use_dask or scheduler is not None or (workers is not None and workers > 1)
        self.processes = processes
        self.progress = progress
        self._client: Any = None
        self._cluster: Any = None
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

    # -- Dask ----------------------------------------------------------------
    def _get_client(self) -> Any:
        if self._client is None:
            try:
                from distributed import Client, LocalCluster
            except ImportError as exc:  # pragma: no cover - depends on install
                raise RuntimeError('dask needs "distributed": pip install "crewcheck[prove]"') from exc
            if self.scheduler is not None:
                self._client = Client(self.scheduler)  # type: ignore[no-untyped-call, unused-ignore]
            else:
                import dask

                n = self.workers or os.cpu_count() or 1
                # non-daemonic workers: a chunk may start child processes (the engine races
                # a SAT solver in one), which a daemonic process may not
                with dask.config.set({"distributed.worker.daemon": False}):
                    self._cluster = LocalCluster(  # type: ignore[no-untyped-call, unused-ignore]
                        n_workers=n, threads_per_worker=1, processes=self.processes,
                        dashboard_address=None,
                    )
                self._client = Client(self._cluster)  # type: ignore[no-untyped-call, unused-ignore]
        return self._client

    def close(self) -> None:
        """Shut down a local cluster if this executor started one."""
        if self._client is not None:
            self._client.close()
            self._client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- running ---------------------------------------------------------------
    def _bar(self, job: Job, done: int) -> Any:
        if not self.progress:
            return None
        try:
            from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]
        except ImportError:  # pragma: no cover
            return None
        return tqdm(total=len(job.chunks), initial=done, desc=job.label or job.namespace,
                    file=sys.stderr, leave=False, unit="chunk")

    def run(self, job: Job, *, partial: bool = False) -> list[Any]:
        """Return the result of every chunk of `job`, in chunk order.

        With `records_only` and `partial`, a chunk neither recorded nor stored is ``None``
        instead of an error (for a job whose missing part a claim can do without).

        Raises
        ------
        IncompleteRecordError
            With `records_only` (and not `partial`), when a chunk is neither recorded nor stored.
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
        todo = [(k, c) for k, c in zip(keys, job.chunks) if k not in results]
        if todo and self.records_only:
            # what there is still counts for --save-records: a partial record resumes later
            self.results.setdefault(job.namespace, {}).update(results)
            if partial:
                return [results[k][0] if k in results else None for k in keys]
            raise IncompleteRecordError(job.namespace, len({k for k, _ in todo}), len(set(keys)))
        bar = self._bar(job, len(keys) - len(todo))
        try:
            if todo and self.use_dask:
                from distributed import as_completed

                client = self._get_client()
                futures = {client.submit(_timed, job.fn, c, pure=False): k for k, c in todo}
                for fut in as_completed(futures):  # type: ignore[no-untyped-call, unused-ignore]
                    value, seconds = fut.result()
                    self._finish(job, futures[fut], value, seconds, results, bar)
            else:
                for k, c in todo:
                    if k in results:  # the same chunk twice in one job
                        continue
                    value, seconds = _timed(job.fn, c)
                    self._finish(job, k, value, seconds, results, bar)
        finally:
            if bar is not None:
                bar.close()
        self.results.setdefault(job.namespace, {}).update({k: results[k] for k in keys})
        return [results[k][0] for k in keys]

    def _finish(self, job: Job, key: str, value: Any, seconds: float,
                results: dict[str, tuple[Any, float]], bar: Any) -> None:
        self.store.put(job.namespace, key, value, seconds=seconds)
        results[key] = (value, seconds)
        self.chunks_run += 1
        if bar is not None:
            bar.update(1)


def _timed(fn: Callable[[Mapping[str, Any]], Any], params: Mapping[str, Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    value = fn(params)
    return value, time.perf_counter() - start


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
