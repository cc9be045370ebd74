"""Child processes that never outlive their parent.

A worker started by crewcheck (the engine's SAT process, ``bench``'s local worker pool)
calls :func:`die_with_parent` first thing: on Linux the kernel then kills it when its
parent dies (``PR_SET_PDEATHSIG``), even after ``kill -9`` of the parent, and elsewhere
a watcher thread notices that the parent is gone within a second. A parent that is gone
already when the child starts is noticed at once.

:func:`start_without_main` starts a ``multiprocessing`` process whose target lives in
crewcheck without running the caller's ``__main__`` again in it: under the
``forkserver`` and ``spawn`` start methods ``multiprocessing`` re-runs the main script
(as ``__mp_main__``) in every child, so a user's script that calls
:func:`crewcheck.decide` at its top level, unguarded by ``if __name__ == "__main__"``,
would run again (printing, writing, deciding) in each SAT process.
"""

from __future__ import annotations

import multiprocessing.process
import multiprocessing.spawn
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["die_with_parent", "start_without_main"]

POLL_SECONDS = 1.0
"""How often the watcher thread (systems without ``PR_SET_PDEATHSIG``) checks the parent."""


def die_with_parent(parent: int | None, *, watch: bool = False) -> None:
    """End this process when its parent dies.

    ``parent`` is the parent's process id as the parent saw it (``os.getpid()`` passed
    down), or ``None`` when unknown (a fork server's child: the server itself dies with
    ours). ``watch``: where the kernel cannot be asked (no ``PR_SET_PDEATHSIG``), start a
    daemon thread that exits the process once the parent id changes. Where it can, no
    thread is started: a process with a second thread can no longer fork its own children
    safely, and the engine's SAT child then costs a fork server's start (a fresh import,
    about 0.1 s a deal) instead of a fork (about a millisecond).
    """
    asked = False
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            asked = libc.prctl(1, signal.SIGKILL) == 0  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if parent is not None and os.getppid() != parent:
        os._exit(0)
    if watch and parent is not None and not asked:
        threading.Thread(target=_watch, args=(parent,), daemon=True, name="crewcheck-parent-watch").start()


def _watch(parent: int) -> None:
    event = threading.Event()
    while not event.wait(POLL_SECONDS):
        if os.getppid() != parent:
            os._exit(0)


_LOCAL = threading.local()
_WRAP_LOCK = threading.Lock()
_MAIN_KEYS = ("init_main_from_path", "init_main_from_name")


def _without_main(prepare: Callable[[str], dict[str, Any]]) -> Callable[[str], dict[str, Any]]:
    def get_preparation_data(name: str) -> dict[str, Any]:
        data = prepare(name)
        if getattr(_LOCAL, "no_main", False):
            for key in _MAIN_KEYS:
                data.pop(key, None)
        return data

    get_preparation_data.crewcheck_wrapped = True  # type: ignore[attr-defined]
    return get_preparation_data


def start_without_main(proc: multiprocessing.process.BaseProcess) -> None:
    """``proc.start()``, but the child does not import the caller's ``__main__``.

    ``multiprocessing`` hands a ``forkserver`` or ``spawn`` child the main script's path
    or module name (:func:`multiprocessing.spawn.get_preparation_data`), and the child
    runs it before the target. For this thread's start only, those two entries are left
    out; other threads' and other callers' processes start as before. The target and its
    arguments must not come from ``__main__``. A ``fork`` child runs nothing again either
    way.
    """
    with _WRAP_LOCK:
        current = multiprocessing.spawn.get_preparation_data
        if not getattr(current, "crewcheck_wrapped", False):
            multiprocessing.spawn.get_preparation_data = _without_main(current)  # type: ignore[assignment]
    _LOCAL.no_main = True
    try:
        proc.start()
    finally:
        _LOCAL.no_main = False
