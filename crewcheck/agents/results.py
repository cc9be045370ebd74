"""A minimal resumable results store: one JSON object per line, keyed.

Used by ``crewcheck bench agents`` until the shared store of ``crewcheck prove`` lands
(it was not on main when this was written). Each record has a ``"key"``; a run loads
the keys already present and skips that work, so an interrupted sweep resumes where it
stopped. Appends are line-buffered and flushed per record; a torn last line (killed
mid-write) is ignored on load.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

__all__ = ["ResultsStore"]


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
                if rec["key"] in self._records:
                    continue
                f.write(json.dumps(rec, sort_keys=True) + "\n")
                self._records[rec["key"]] = rec
            f.flush()
