"""Where crewcheck keeps files of its own: the user cache folder.

Nothing is written into the working directory unasked: resumable results (``prove``,
``bench``) go to :func:`cache_dir` unless a command is given a path.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["CACHE_ENV", "cache_dir"]

CACHE_ENV = "CREWCHECK_CACHE"
"""Environment variable naming the cache folder (overrides the XDG default)."""


def cache_dir() -> Path:
    """``$CREWCHECK_CACHE``, else ``$XDG_CACHE_HOME/crewcheck``, else ``~/.cache/crewcheck``
    (not created here: whoever writes creates it)."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "crewcheck"
