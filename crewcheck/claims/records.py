"""Committed records: the chunk results of full runs, kept in the repository.

A full run of ``crewcheck prove`` is split into chunks (:mod:`crewcheck.claims.execution`);
every finished chunk lands in the results store of the machine that ran it. The chunks
the ledger is generated from are also committed, one JSON file per job namespace, in
``crewcheck/claims/data/records/``, so anyone can regenerate ``docs/claims.md`` from the
repository alone (``crewcheck prove --docs DIR --records-only``) and a test checks that the
committed ledger is exactly what the records give.

A record file::

    {"schema": "crewcheck.claims-record/1", "namespace": "dejong-fig3/free/search/v2",
     "chunks": [[key, value, seconds], ...]}

``key`` is the chunk's canonical parameters (:func:`crewcheck.runtime.store.canonical_key`),
``value`` the chunk's JSON result, ``seconds`` the wall time it took where it ran. The
executor reads records before the store: a recorded chunk is never computed again.
``crewcheck prove --full --save-records`` writes the records of the jobs it ran into the
checkout it is run from (never into an installed package).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

__all__ = ["SCHEMA", "CHECKOUT_RECORDS", "Records", "file_name", "save_record"]

SCHEMA = "crewcheck.claims-record/1"
"""The ``schema`` field of a record file."""

CHECKOUT_RECORDS = Path("crewcheck") / "claims" / "data" / "records"
"""Where ``prove --save-records`` writes, relative to the root of a checkout."""

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def file_name(namespace: str) -> str:
    """The record file of a job namespace: ``/`` becomes ``__``, other odd characters ``-``.

    >>> file_name("dejong-fig3/free/search/v2")
    'dejong-fig3__free__search__v2.json'
    """
    return "__".join(_UNSAFE.sub("-", part) for part in namespace.split("/")) + ".json"


class Records:
    """The committed records, read-only.

    Parameters
    ----------
    directory : Path or None
        A folder of record files; ``None``: the package's own
        (``crewcheck/claims/data/records``).
    """

    def __init__(self, directory: Path | None = None) -> None:
        self._dir: Traversable = (resources.files("crewcheck.claims").joinpath("data", "records")
                                  if directory is None else directory)
        self._cache: dict[str, dict[str, tuple[Any, float]]] = {}

    def get_many(self, namespace: str) -> dict[str, tuple[Any, float]]:
        """``{key: (value, seconds)}`` of every recorded chunk of `namespace` (empty if none)."""
        if namespace not in self._cache:
            entry = self._dir.joinpath(file_name(namespace))
            chunks: dict[str, tuple[Any, float]] = {}
            if entry.is_file():
                data = json.loads(entry.read_text(encoding="utf-8"))
                if data.get("schema") != SCHEMA or data.get("namespace") != namespace:
                    raise ValueError(f"{file_name(namespace)}: not a record of {namespace!r} "
                                     f"(schema {data.get('schema')!r}, namespace {data.get('namespace')!r})")
                chunks = {k: (v, float(t)) for k, v, t in data["chunks"]}
            self._cache[namespace] = chunks
        return self._cache[namespace]

    def namespaces(self) -> Iterator[tuple[str, int, float]]:
        """Yield ``(namespace, chunks, recorded seconds)`` of every record file, by namespace."""
        if not self._dir.is_dir():
            return
        found = []
        for entry in self._dir.iterdir():
            if entry.name.endswith(".json"):
                data = json.loads(entry.read_text(encoding="utf-8"))
                if data.get("schema") == SCHEMA:
                    found.append((data["namespace"], len(data["chunks"]),
                                  sum(float(c[2]) for c in data["chunks"])))
        yield from sorted(found)


def save_record(namespace: str, chunks: Mapping[str, tuple[Any, float]], directory: Path) -> Path:
    """Write the record of `namespace` (every chunk in `chunks`) into `directory`.

    One chunk per line, sorted by key, so a record grows by whole lines in a diff.
    Returns the path written.
    """
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / file_name(namespace)
    lines = [json.dumps([k, v, round(t, 3)], separators=(",", ":")) for k, (v, t) in sorted(chunks.items())]
    body = ",\n".join(lines)
    path.write_text(f'{{"schema": "{SCHEMA}", "namespace": {json.dumps(namespace)},\n"chunks": [\n{body}\n]}}\n',
                    encoding="utf-8")
    return path
