"""A small persistent results store for chunked computations.

Long runs (``crewcheck prove --full``, ``crewcheck bench``) are split into
chunks; each finished chunk's result is written here at once, so an
interrupted run resumes where it stopped and loses nothing. Results are JSON
values keyed by ``(namespace, key)``; the namespace names the job and its
version, the key is a canonical JSON text of the chunk's parameters.

The store is SQLite (standard library only), safe for one writer process;
workers never write, the process that collects their results does. By default it lives
in the user cache folder (:func:`crewcheck.runtime.paths.user_cache_dir`), never in the working
directory.

A key must hold everything that changes a result. A result that depends on a limit (an
"unknown" after a time limit) records the limit in its value, and the job that reads it
back decides whether it still stands (``crewcheck bench`` retries such a result when the
limit grows).

Examples
--------
>>> store = ResultStore(":memory:")
>>> store.put("demo/v1", {"n": 3}, {"count": 30}, seconds=0.1)
>>> store.get("demo/v1", {"n": 3})
{'count': 30}
>>> store.get("demo/v1", {"n": 4}) is None
True
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Self

from crewcheck.runtime.paths import user_cache_dir

def default_path() -> Path:
    """Where ``prove`` keeps results unless told otherwise: ``results.sqlite`` in the user
    cache folder (``$CREWCHECK_CACHE_DIR``, else ``$XDG_CACHE_HOME/crewcheck`` or
    ``~/.cache/crewcheck``), read when called."""
    return user_cache_dir("results.sqlite")


_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    seconds REAL NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (namespace, key)
)
"""


def canonical_key(params: Mapping[str, Any] | str) -> str:
    """Return the canonical JSON text used as a key (sorted keys, no spaces)."""
    if isinstance(params, str):
        return params
    return json.dumps(params, sort_keys=True, separators=(",", ":"))


class ResultStore:
    """Persistent mapping ``(namespace, params) -> JSON value``.

    Parameters
    ----------
    path : str or Path or None
        SQLite file; parent directories are created. ``":memory:"`` gives a
        throw-away store; ``None``, :func:`default_path`.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        if path is None:
            path = default_path()
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path)
        self._db.execute(_SCHEMA)
        self._db.commit()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ResultStore({self.path!r})"

    def close(self) -> None:
        """Close the database connection."""
        self._db.close()

    def get(self, namespace: str, params: Mapping[str, Any] | str) -> Any | None:
        """Return the stored value, or ``None`` when absent."""
        row = self._db.execute(
            "SELECT value FROM results WHERE namespace = ? AND key = ?",
            (namespace, canonical_key(params)),
        ).fetchone()
        return None if row is None else json.loads(row[0])

    def get_many(self, namespace: str) -> dict[str, Any]:
        """Return ``{key: value}`` for every result in `namespace`."""
        rows = self._db.execute(
            "SELECT key, value FROM results WHERE namespace = ?", (namespace,)
        ).fetchall()
        return {k: json.loads(v) for k, v in rows}

    def get_many_timed(self, namespace: str) -> dict[str, tuple[Any, float]]:
        """Return ``{key: (value, seconds)}`` for every result in `namespace`."""
        rows = self._db.execute(
            "SELECT key, value, seconds FROM results WHERE namespace = ?", (namespace,)
        ).fetchall()
        return {k: (json.loads(v), float(t)) for k, v, t in rows}

    def put(self, namespace: str, params: Mapping[str, Any] | str, value: Any, *, seconds: float = 0.0) -> None:
        """Store `value` (JSON-serialisable) and commit at once."""
        self._db.execute(
            "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?)",
            (namespace, canonical_key(params), json.dumps(value), float(seconds), time.time()),
        )
        self._db.commit()

    def namespaces(self) -> Iterator[tuple[str, int]]:
        """Yield ``(namespace, number of results)``."""
        yield from self._db.execute(
            "SELECT namespace, COUNT(*) FROM results GROUP BY namespace ORDER BY namespace"
        )

    def clear(self, namespace: str | None = None) -> None:
        """Delete one namespace, or everything."""
        if namespace is None:
            self._db.execute("DELETE FROM results")
        else:
            self._db.execute("DELETE FROM results WHERE namespace = ?", (namespace,))
        self._db.commit()
