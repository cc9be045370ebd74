"""Reading untrusted input: bounded files, UTF-8 text, JSON with limits.

Every way a file can be hostile ends in an :class:`~crewcheck.errors.InvalidInputError`
with a one-line message, never in a traceback, a hang or the machine's memory:

* a file is read only if it is a regular file (not ``/dev/zero``, ``/dev/urandom``, a
  directory or a named pipe; use ``-`` for standard input), and at most
  :data:`MAX_DEAL_BYTES` of it;
* the bytes must be UTF-8 (a leading byte-order mark is allowed);
* the JSON must be standard JSON (no ``NaN``), nested at most :data:`MAX_DEPTH` deep,
  with integers of at most :data:`MAX_INT_DIGITS` digits and no key twice in one object
  (Python's ``json`` module would keep the last one silently).

The messages name the JSON path of the offending value where there is one
(``tasks[0]: duplicate key 'seat'``).

Examples
--------
>>> parse_json('{"a": [1, 2]}')
{'a': [1, 2]}
>>> parse_json('{"a": 1, "a": 2}')
Traceback (most recent call last):
...
crewcheck.errors.InvalidInputError: deal: duplicate key 'a'
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from pathlib import Path
from typing import Any, BinaryIO

from crewcheck.errors import InvalidInputError

__all__ = ["MAX_DEAL_BYTES", "MAX_DEPTH", "MAX_INT_DIGITS", "read_bytes", "open_regular", "require_regular", "standard_input",
           "decode", "parse_json", "json_path", "short_repr"]

MAX_DEAL_BYTES = 1 << 20
"""Largest deal file (or ``--batch`` line) read: 1 MiB. A Classic deal with its whole
history is about 3 KB; Reiber's reduction of a 30-vertex graph about 10 KB."""
MAX_DEPTH = 32
"""Deepest nesting of JSON arrays and objects (a deal file needs 4 levels)."""
MAX_INT_DIGITS = 30
"""Most digits of a JSON integer (seats and deck sizes have at most 4)."""

_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def read_bytes(path: str | Path, *, limit: int = MAX_DEAL_BYTES) -> bytes:
    """The bytes of the regular file ``path`` (``"-"``: standard input), at most ``limit``.

    Raises :class:`InvalidInputError` (field: the path) if the file cannot be read, is
    not a regular file, or is larger than ``limit`` bytes.
    """
    where = str(path)
    if where == "-":
        return _read_limited(standard_input(), limit, "standard input")
    with open_regular(where, limit=limit) as f:
        try:
            return _read_limited(f, limit, where)
        except OSError as e:
            raise InvalidInputError(f"cannot read file: {e.strerror}", field=where) from None


def open_regular(path: str | Path, *, limit: int | None = None) -> BinaryIO:
    """The regular file ``path`` opened for reading bytes, without waiting on a named pipe.

    Raises :class:`InvalidInputError` (field: the path) if it cannot be opened, is not a
    regular file (a directory, ``/dev/zero``, a FIFO) or is larger than ``limit`` bytes.
    """
    where = str(path)
    try:
        # O_NONBLOCK: opening a named pipe must not wait for a writer
        fd = os.open(where, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise InvalidInputError(f"cannot read file: {e.strerror}", field=where) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InvalidInputError("not a regular file (give a file, or - for standard input)", field=where)
        if limit is not None and info.st_size > limit:
            raise InvalidInputError(f"file of {info.st_size:,} bytes is larger than the limit of "
                                    f"{limit:,} bytes", field=where)
        # left non-blocking: a "regular" file that would block (/proc/kmsg) fails at once
        stream = os.fdopen(fd, "rb", closefd=True)
    except OSError as e:
        os.close(fd)
        raise InvalidInputError(f"cannot read file: {e.strerror}", field=where) from None
    except BaseException:
        os.close(fd)
        raise
    return stream


def require_regular(path: str | Path) -> None:
    """Refuse ``path`` if it exists and is no regular file (``-`` excepted), without
    opening it (a named pipe would block the open): :class:`InvalidInputError` naming the
    path. A path that cannot be looked at is left to whoever opens it (its message)."""
    where = str(path)
    if where == "-":
        return
    try:
        mode = os.stat(where).st_mode
    except OSError:
        return
    if not stat.S_ISREG(mode):
        raise InvalidInputError("not a regular file (give a file, or - for standard input)", field=where)


def standard_input() -> BinaryIO:
    """Standard input as bytes; refused when it is a device other than a terminal
    (``< /dev/zero``, ``< /dev/urandom``: endless input). A pipe is read (bounded by the
    caller)."""
    stream = sys.stdin.buffer
    try:
        mode = os.fstat(stream.fileno()).st_mode
    except (OSError, ValueError, AttributeError):  # not a real file (a test's replacement)
        return stream
    if stat.S_ISCHR(mode) and not stream.isatty():
        raise InvalidInputError("standard input is a device, not a file or a pipe")
    if stat.S_ISDIR(mode):
        raise InvalidInputError("standard input is a directory")
    return stream


def _read_limited(stream: BinaryIO, limit: int, where: str) -> bytes:
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise InvalidInputError(f"more than the limit of {limit:,} bytes", field=where)
    return data


def decode(data: bytes, where: str = "") -> str:
    """``data`` as UTF-8 text (a leading byte-order mark dropped); :class:`InvalidInputError`
    naming the first bad byte otherwise."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        bad = data[e.start:e.start + 1].hex()
        raise InvalidInputError(f"not UTF-8 text: byte 0x{bad} at offset {e.start}", field=where) from None
    return text[1:] if text.startswith("\ufeff") else text


class _Object(dict[str, Any]):
    """A JSON object that remembers the keys it was given twice."""

    __slots__ = ("duplicates",)

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(pairs)
        self.duplicates = [] if len(self) == len(pairs) else _repeated(pairs)


def _repeated(pairs: list[tuple[str, Any]]) -> list[str]:
    seen: set[str] = set()
    out = []
    for k, _ in pairs:
        if k in seen:
            out.append(k)
        seen.add(k)
    return out


class _Refused:
    """A JSON value refused while parsing (reported with its path afterwards)."""

    __slots__ = ("why",)

    def __init__(self, why: str) -> None:
        self.why = why

    def __repr__(self) -> str:
        return "<refused>"


def _int(text: str) -> int | _Refused:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        return _Refused(f"integer of {digits:,} digits is too large (at most {MAX_INT_DIGITS} digits)")
    return int(text)


def _constant(name: str) -> _Refused:
    return _Refused(f"{name} is not a JSON number")


def parse_json(text: str, where: str = "") -> Any:
    """Parse JSON text within the limits above; :class:`InvalidInputError` otherwise."""
    deep = _too_deep(text)
    if deep is not None:
        line = text.count("\n", 0, deep) + 1
        column = deep - (text.rfind("\n", 0, deep) + 1) + 1
        raise InvalidInputError(f"JSON nested more than {MAX_DEPTH} levels deep (line {line}, column {column})",
                                field=where)
    try:
        data = json.loads(text, object_pairs_hook=_Object, parse_int=_int, parse_constant=_constant)
    except json.JSONDecodeError as e:
        raise InvalidInputError(f"malformed JSON: {e.msg} (line {e.lineno}, column {e.colno})",
                                field=where) from None
    except RecursionError:  # not reached within MAX_DEPTH; kept as a guard
        raise InvalidInputError("JSON nested too deeply", field=where) from None
    _check_values(data, [])
    return data


def _too_deep(text: str) -> int | None:
    """The offset where the nesting first exceeds :data:`MAX_DEPTH`, or ``None``."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return None
    depth = 0
    for m in _TOKENS.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return m.start()
        elif c in "]}":
            depth -= 1
    return None


def _check_values(value: Any, path: list[str | int]) -> None:
    """Raise for the first refused value or repeated key, naming its path."""
    if isinstance(value, _Refused):
        raise InvalidInputError(value.why, field=json_path(path) or "deal")
    if isinstance(value, dict):
        if isinstance(value, _Object) and value.duplicates:
            raise InvalidInputError(f"duplicate key {value.duplicates[0]!r}", field=json_path(path) or "deal")
        for k, v in value.items():
            if isinstance(v, (dict, list, _Refused)):
                _check_values(v, [*path, k])
    elif isinstance(value, list):
        for i, v in enumerate(value):
            if isinstance(v, (dict, list, _Refused)):
                _check_values(v, [*path, i])


def json_path(parts: Any) -> str:
    """``["tasks", 0, "card"]`` -> ``"tasks[0].card"``; a key that is not a plain name is
    quoted (``deck['B\\n']``), so a path is always one line."""
    out = ""
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif _NAME.fullmatch(str(p)):
            out += f".{p}" if out else str(p)
        else:
            out += f"[{short_repr(p)}]"
    return out


def short_repr(value: object, limit: int = 60) -> str:
    """``repr(value)``, cut to about ``limit`` characters (a message stays short)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
