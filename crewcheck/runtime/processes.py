"""Child processes that never outlive their parent.

A worker started by crewcheck (the engine's SAT process, ``bench``'s local worker pool)
calls :func:`die_with_parent` first thing: on Linux the kernel then kills it when its
parent dies (``PR_SET_PDEATHSIG``), even after ``kill -9`` of the parent, and elsewhere
a watcher thread notices that the parent is gone within a second. A parent that is gone
already when the child starts is noticed at once.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

__all__ = ["die_with_parent"]

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
