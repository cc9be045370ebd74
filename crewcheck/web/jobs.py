"""Long decisions for the web page: run in worker threads, one at a time per client,
with progress and cancel.

A *job* is one call of :func:`crewcheck.decide`, :func:`crewcheck.analysis.analyse.analyse` or
:func:`crewcheck.analysis.review.review`. :class:`Jobs` runs them on a small pool of worker
threads (the compiled search runs without the GIL; each worker thread keeps its own
refutation table), refuses a second job from a client whose job is still queued or
running (:class:`Busy`), passes a cancel flag the deciders poll between search rounds
(every 20 ms at most), and cancels a job whose client stopped asking about it (the page
was closed).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from crewcheck.errors import CrewcheckError
from crewcheck.reports.results import error_to_dict, internal_error_to_dict

__all__ = ["Job", "Jobs", "Busy", "QueueFull", "Work"]

Work = Callable[[Callable[[], bool], Callable[..., None]], dict[str, Any]]
"""A job's work: ``work(cancelled, progress) -> JSON-ready result``; ``progress(done,
total, what)`` reports the step, ``progress(..., partial=...)`` also the part of the
result known so far (JSON-ready: the page shows it while the job runs)."""


class QueueFull(Exception):
    """The server already holds as many unfinished jobs as it accepts."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the server is busy ({limit} decisions queued or running); try again later")
        self.limit = limit


class Busy(Exception):
    """The client already has a job queued or running."""

    def __init__(self, job: Job) -> None:
        super().__init__(f"a {job.kind} is already running for this page (job {job.id}); "
                         "cancel it or wait for it to finish")
        self.job = job


@dataclass
class Job:
    """One decision job and what the page polls."""

    id: str
    client: str
    kind: str
    created: float = field(default_factory=time.monotonic)
    started: float | None = None
    finished: float | None = None
    state: str = "queued"
    """``queued``, ``running``, ``done``, ``error`` or ``cancelled``."""
    progress: tuple[int, int, str] = (0, 0, "")
    result: dict[str, Any] | None = None
    partial: dict[str, Any] | None = None
    """What the work has published of its result so far (``progress(..., partial=)``)."""
    error: dict[str, Any] | None = None
    seen: float = field(default_factory=time.monotonic)
    """When the client last asked about this job."""
    cancel_flag: threading.Event = field(default_factory=threading.Event)

    @property
    def active(self) -> bool:
        return self.state in ("queued", "running")

    def to_dict(self) -> dict[str, Any]:
        now = time.monotonic()
        elapsed = 0.0 if self.started is None else (self.finished or now) - self.started
        done, total, what = self.progress
        return {"id": self.id, "kind": self.kind, "state": self.state, "elapsed": round(elapsed, 3),
                "progress": {"done": done, "total": total, "what": what},
                "partial": self.partial if self.active else None, "result": self.result, "error": self.error}


class Jobs:
    """The jobs of one server (see the module docstring).

    Parameters
    ----------
    workers
        Worker threads: how many decisions run at once across all clients.
    abandon_after
        Seconds without a poll after which a running job is cancelled.
    keep
        Finished jobs kept for their clients to read.
    max_active
        Jobs queued or running at once, all clients together (default: four per
        worker); a client rotating its cookie gets :class:`QueueFull` past it.
    """

    def __init__(self, workers: int = 1, *, abandon_after: float = 30.0, keep: int = 64,
                 max_active: int | None = None) -> None:
        self.max_active = max_active if max_active is not None else 4 * workers
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="crewcheck-job")
        self._lock = threading.Lock()
        self._jobs: dict[str, Job] = {}
        self.abandon_after = abandon_after
        self.keep = keep

    def submit(self, client: str, kind: str, work: Work, *, replace: bool = False) -> Job:
        """Queue ``work`` for ``client``; :class:`Busy` if the client has an active job,
        unless ``replace``: that job is then cancelled (it stops at its next poll of the
        cancel flag, within 20 ms) and the new one queued behind it."""
        with self._lock:
            self._sweep()
            for job in self._jobs.values():
                if job.client == client and job.active:
                    if not replace:
                        raise Busy(job)
                    self._cancel(job)
            if sum(1 for job in self._jobs.values() if job.active) >= self.max_active:
                raise QueueFull(self.max_active)
            job = Job(secrets.token_hex(8), client, kind)
            self._jobs[job.id] = job
        self._pool.submit(self._run, job, work)
        return job

    def get(self, client: str, job_id: str) -> Job | None:
        """The client's job (``None`` if unknown or another client's); counts as a poll."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None or job.client != client:
                return None
            job.seen = time.monotonic()
            return job

    def cancel(self, client: str, job_id: str) -> Job | None:
        """Cancel the client's job (``None`` if unknown or another client's)."""
        job = self.get(client, job_id)
        if job is not None and job.active:
            self._cancel(job)
        return job

    @staticmethod
    def _cancel(job: Job) -> None:
        job.cancel_flag.set()
        if job.state == "queued":
            job.state = "cancelled"
            job.finished = time.monotonic()

    def shutdown(self) -> None:
        """Cancel every job and stop the workers."""
        with self._lock:
            for job in self._jobs.values():
                job.cancel_flag.set()
        self._pool.shutdown(wait=True, cancel_futures=True)

    def _sweep(self) -> None:
        """Cancel abandoned jobs and forget the oldest finished ones (lock held)."""
        now = time.monotonic()
        for job in self._jobs.values():
            if job.active and now - job.seen > self.abandon_after:
                job.cancel_flag.set()
        finished = [j for j in self._jobs.values() if not j.active]
        for job in sorted(finished, key=lambda j: j.created)[: max(0, len(finished) - self.keep)]:
            del self._jobs[job.id]

    def _run(self, job: Job, work: Work) -> None:
        if job.cancel_flag.is_set():
            job.state = "cancelled"
            return
        job.state = "running"
        job.started = time.monotonic()

        def cancelled() -> bool:
            if time.monotonic() - job.seen > self.abandon_after:
                job.cancel_flag.set()
            return job.cancel_flag.is_set()

        def progress(done: int, total: int, what: str, partial: dict[str, Any] | None = None) -> None:
            job.progress = (done, total, what)
            if partial is not None:
                job.partial = partial

        try:
            result = work(cancelled, progress)
        except CrewcheckError as e:
            job.error = error_to_dict(e)
            job.state = "error"
        except Exception as e:  # a bug: reported to the page as one line, not a traceback
            job.error = internal_error_to_dict(e)
            job.state = "error"
        else:
            job.result = result
            job.state = "cancelled" if job.cancel_flag.is_set() else "done"
        finally:
            job.finished = time.monotonic()
