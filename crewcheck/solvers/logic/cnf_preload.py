"""Imported by the SAT processes' fork server before its first child
(:data:`crewcheck.solvers.logic.sat_process.PRELOAD`): loads the compiled CNF kernel
(:func:`crewcheck.solvers.logic.cnf_build.load_kernel`), so that every spare SAT process
forked from the server builds its CNF with it. Without numba, or with a broken one, it
loads nothing and the spares build with the plain encoder."""

from __future__ import annotations

from crewcheck.solvers.logic.cnf_build import load_kernel

__all__: list[str] = []

try:
    load_kernel()
except Exception:  # noqa: BLE001 - the fork server must start whatever numba does
    pass
