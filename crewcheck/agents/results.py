"""Resumable results for ``crewcheck bench agents``: keyed records, written as they come.

:func:`open_store` opens the results store shared with ``crewcheck prove``
(:mod:`crewcheck.store`, SQLite, namespace ``bench-agents/v1``). Each record has a
``"key"``; a run loads the keys already present and skips that work, so an interrupted
sweep resumes where it stopped (every record is committed as it comes).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from crewcheck.store import ResultStore

__all__ = ["SharedStore", "open_store", "NAMESPACE"]

NAMESPACE = "bench-agents/v1"


class SharedStore:
    """The bench's records: one namespace of a :class:`crewcheck.store.ResultStore`."""

    def __init__(self, store: ResultStore, namespace: str = NAMESPACE) -> None:
        self.store = store
        self.namespace = namespace
        self._records: dict[str, dict[str, Any]] = dict(store.get_many(namespace))
        self.path = Path(store.path)

    def __contains__(self, key: str) -> bool:
        return key in self._records

    def get(self, key: str) -> dict[str, Any] | None:
        return self._records.get(key)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self._records.values())

    def __len__(self) -> int:
        return len(self._records)

    def add_many(self, records: Iterable[dict[str, Any]]) -> None:
        for rec in records:
            if rec["key"] in self._records:
                continue
            self.store.put(self.namespace, rec["key"], rec, seconds=float(rec.get("seconds", 0.0)))
            self._records[rec["key"]] = rec


def open_store(directory: str | os.PathLike[str]) -> SharedStore:
    """The bench's records in ``DIR/results.sqlite``."""
    return SharedStore(ResultStore(Path(directory) / "results.sqlite"))
