"""Where crewcheck keeps files nobody asked for by name: the user cache folder.

Commands that keep results between runs (``bench``'s resumable store and tables, the
results store of ``prove``) write there by default, never into the working directory;
an explicit option (``--out``, ``--store``) or :envvar:`CREWCHECK_CACHE_DIR` moves it.

Examples
--------
>>> import os
>>> os.environ["CREWCHECK_CACHE_DIR"] = "/tmp/cc"
>>> str(user_cache_dir("bench-agents"))
'/tmp/cc/bench-agents'
>>> del os.environ["CREWCHECK_CACHE_DIR"]
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["CACHE_ENV", "user_cache_dir"]

CACHE_ENV = "CREWCHECK_CACHE_DIR"
"""Environment variable that overrides the cache folder."""


def user_cache_dir(*parts: str) -> Path:
    """The user cache folder of crewcheck, joined with ``parts`` (not created).

    In order: ``$CREWCHECK_CACHE_DIR``; on Windows ``%LOCALAPPDATA%\\crewcheck\\Cache``;
    on macOS ``~/Library/Caches/crewcheck``; elsewhere ``$XDG_CACHE_HOME/crewcheck``,
    else ``~/.cache/crewcheck`` (the XDG base directory convention).
    """
    root = os.environ.get(CACHE_ENV)
    if root:
        base = Path(root).expanduser()
    elif sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / "crewcheck" / "Cache"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches" / "crewcheck"
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = (Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache") / "crewcheck"
    return base.joinpath(*parts)
