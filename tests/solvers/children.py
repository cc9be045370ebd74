"""The SAT processes a test leaves behind (shared by the engine's and the SAT process's
tests)."""

from __future__ import annotations

import multiprocessing
import time

from crewcheck.solvers.logic import sat_process


def left_children() -> list[multiprocessing.process.BaseProcess]:
    """The child processes of this test process but the idle spare SAT process, once no
    spare is being made (multiprocessing reaps the dead)."""
    if sat_process.SPARES.making:
        return [multiprocessing.current_process()]  # not yet: a spare is on its way
    idle = sat_process.SPARES.idle
    return [p for p in multiprocessing.active_children() if idle is None or p is not idle.proc]


def no_children() -> bool:
    """No SAT process of this test process is left but the idle spare (which waits on its
    pipe for the next deal and dies with this process). It waits up to 30 s for a spare
    being made: the first one starts the fork server, a new interpreter importing the
    package, which took over 5 s on a machine with twice as many busy processes as cores."""
    deadline = time.monotonic() + 30
    while left_children() and time.monotonic() < deadline:
        time.sleep(0.01)
    return not left_children()
