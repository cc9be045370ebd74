"""Resumable results for ``crewcheck bench agents``: keyed records, written as they come.

:func:`open_store` uses the shared store of ``crewcheck prove`` (:mod:`crewcheck.runtime.store`,
SQLite, file ``DIR/results.sqlite``, namespace ``bench-agents/v1``). :class:`ResultsStore`
is the same interface over one JSON object per line, for reading records elsewhere.
Either way each record has a ``"key"``; a run loads the records already present and
skips the work they settle (:func:`crewcheck.experiments.bench.settled`), so an interrupted
sweep resumes where it stopped. A record written again under its key replaces the old
one (a retried "unknown"). JSONL appends are flushed per batch; a torn last line (killed
mid-write) is ignored on load.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from crewcheck.runtime.store import ResultStore

__all__ = ["SharedStore", "open_store", "NAMESPACE"]

NAMESPACE = "bench-agents/v1"


class ResultsStore:
    """Append-only JSONL records with a ``key`` field."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._records: dict[str, dict[str, Any]] = {}
        if self.path.exists():
            with self.path.open(encoding="utf-8") as f:
                for line in f:
                    line = line.strip()
                    if not line:
                        continue
                    try:
                        rec = json.loads(line)
                    except json.JSONDecodeError:
                        continue  # a torn last line
                    self._records[rec["key"]] = rec

    def __contains__(self, key: str) -> bool:
        return key in self._records

    def get(self, key: str) -> dict[str, Any] | None:
        return self._records.get(key)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self._records.values())

    def __len__(self) -> int:
        return len(self._records)

    def add_many(self, records: Iterable[dict[str, Any]]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as f:
            for rec in records:
                f.write(json.dumps(rec, sort_keys=True) + "\n")
                self._records[rec["key"]] = rec
            f.flush()


class SharedStore:
    """The bench's records: one namespace of a :class:`crewcheck.runtime.store.ResultStore`."""

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
            self.store.put(self.namespace, rec["key"], rec, seconds=float(rec.get("seconds", 0.0)))
            self._records[rec["key"]] = rec


def open_store(directory: str | os.PathLike[str]) -> SharedStore:
    """The shared store of ``DIR``: ``DIR/results.sqlite`` (:mod:`crewcheck.runtime.store`)."""
    return SharedStore(ResultStore(Path(directory) / "results.sqlite"))
