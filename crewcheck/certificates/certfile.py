"""The certificate file: a DRUP proof file whose comment lines say what it proves.

Layout (every header line is a DIMACS comment, so for a deal without choices the file is
also a proof file an outside checker reads: ``drat-trim deal.cnf deal.cert``)::

    c crewcheck certificate/1
    c verdict unwinnable
    c deal sha256:<hex>                           the deal (canonical JSON)
    c parts 1                                     one refutation per variant of the deal
    c part 1 of 1: the deal
    c cnf crewcheck-cnf/3 variables 2614 clauses 11258 sha256:<hex>
    c proof drup glucose42 lemmas 6727 deletions 8204 seconds 0.252
    -12 57 0                                      the proof: lemmas and d-deletions
    d 3 -9 0
    ...
    0

A deal that leaves the crew a choice (:mod:`crewcheck.model.variants`) has one part per
variant, in the order :func:`~crewcheck.model.variants.variants` lists them; a variant
whose history has already lost has a part ``c replay`` and no proof. A winnable deal has
``c verdict winnable`` and one line ``c witness {JSON}``: every card played (history
included), the seat of every task where the crew chose it, and the crew's choice.

A name ending in ``.gz`` is written gzip-compressed; a compressed file is recognised
when read whatever its name.
"""

from __future__ import annotations

import gzip
import json
import os
import stat
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from crewcheck.errors import InvalidInputError

__all__ = ["MAGIC", "MAX_CERTIFICATE_BYTES", "Part", "Certificate", "CertificateFormatError",
           "write_certificate", "read_certificate", "parse_certificate"]

MAGIC = "c crewcheck certificate/1"
"""The first line of every certificate."""

MAX_CERTIFICATE_BYTES = 4 << 30
"""Largest certificate read (after decompression): 4 GiB."""


class CertificateFormatError(ValueError):
    """A file that starts as a certificate but whose header is malformed (a rejection)."""


@dataclass(frozen=True)
class Part:
    """One refutation: of the deal, or of one variant of a deal with choices."""

    description: str
    """What it refutes (``"the deal"``, or the variant's choice)."""
    kind: str
    """``"drup"``: a proof of the variant's CNF; ``"replay"``: its history has lost;
    ``"count"``: the counting argument named by :attr:`solver` refutes it
    (:mod:`crewcheck.certificates.counting`)."""
    encoding: str = ""
    variables: int = 0
    clauses: int = 0
    cnf_digest: str = ""
    solver: str = ""
    """The proof-producing solver (informative); for a ``"count"`` part, the argument's name."""
    lemmas: int = 0
    deletions: int = 0
    seconds: float = 0.0
    """The proof's solve time (informative)."""
    proof: bytes = b""
    first_line: int = 1
    """Line of the file the proof starts on."""


@dataclass(frozen=True)
class Certificate:
    """A certificate's content."""

    verdict: str
    """``"winnable"`` or ``"unwinnable"``."""
    deal: str
    """:func:`~crewcheck.certificates.cnf.deal_digest` of the deal it is about."""
    parts: list[Part] = field(default_factory=list)
    witness: dict[str, Any] | None = None


# -- writing --------------------------------------------------------------------------------
def _header(cert: Certificate) -> Iterator[str]:
    yield MAGIC
    yield f"c verdict {cert.verdict}"
    yield f"c deal {cert.deal}"
    if cert.verdict == "winnable":
        yield "c witness " + json.dumps(cert.witness, separators=(",", ":"))
        return
    yield f"c parts {len(cert.parts)}"


def _part_header(part: Part, n: int, total: int) -> Iterator[str]:
    yield f"c part {n} of {total}: {' '.join(part.description.split())}"
    if part.kind == "replay":
        yield "c replay"
        return
    if part.kind == "count":
        yield f"c count {part.solver}"
        return
    yield (f"c cnf {part.encoding} variables {part.variables} clauses {part.clauses} "
           f"{part.cnf_digest}")
    yield (f"c proof drup {part.solver} lemmas {part.lemmas} deletions {part.deletions} "
           f"seconds {part.seconds:.3f}")


def write_certificate(cert: Certificate, path: str | Path) -> int:
    """Write ``cert`` to ``path`` (gzip if it ends in ``.gz``); return the bytes written."""
    compressed = str(path).endswith(".gz")
    with (gzip.open(path, "wb", compresslevel=6) if compressed else open(path, "wb")) as out:
        out.write(("\n".join(_header(cert)) + "\n").encode())
        for n, part in enumerate(cert.parts, 1):
            out.write(("\n".join(_part_header(part, n, len(cert.parts))) + "\n").encode())
            out.write(part.proof)
            if part.proof and not part.proof.endswith(b"\n"):
                out.write(b"\n")
    return os.path.getsize(path)


# -- reading --------------------------------------------------------------------------------
def read_certificate(path: str | Path) -> Certificate:
    """Read a certificate file.

    Raises :class:`InvalidInputError` if the file cannot be read or is no certificate (its
    first line is not :data:`MAGIC`), :class:`CertificateFormatError` if its header is
    malformed.
    """
    where = str(path)
    try:
        stream: BinaryIO = open(where, "rb")  # noqa: SIM115
    except OSError as e:
        raise InvalidInputError(f"cannot read certificate: {e.strerror}", field=where) from None
    with stream:
        if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
            raise InvalidInputError("not a regular file", field=where)
        if stream.read(2) == b"\x1f\x8b":
            stream.seek(0)
            data = _read_gzip(stream, where)
        else:
            stream.seek(0)
            data = stream.read(MAX_CERTIFICATE_BYTES + 1)
    if len(data) > MAX_CERTIFICATE_BYTES:
        raise InvalidInputError(f"more than the limit of {MAX_CERTIFICATE_BYTES:,} bytes", field=where)
    return parse_certificate(data, where)


def _read_gzip(stream: BinaryIO, where: str) -> bytes:
    try:
        with gzip.GzipFile(fileobj=stream) as unzipped:
            return unzipped.read(MAX_CERTIFICATE_BYTES + 1)
    except (OSError, EOFError, zlib.error) as e:
        raise InvalidInputError(f"damaged gzip data: {e}", field=where) from None


def parse_certificate(data: bytes, where: str = "certificate") -> Certificate:
    """The :class:`Certificate` in ``data`` (see :func:`read_certificate` for the errors)."""
    lines = _Lines(data)
    first = lines.next()
    if first is None or first.rstrip("\r") != MAGIC:
        raise InvalidInputError(f"not a crewcheck certificate (the first line is not {MAGIC!r})", field=where)
    verdict = lines.field("verdict")
    if verdict not in ("winnable", "unwinnable"):
        raise CertificateFormatError(f"line 2: verdict {verdict!r} is neither winnable nor unwinnable")
    deal = _digest(lines.field("deal"), lines.number)
    if verdict == "winnable":
        text = lines.field("witness")
        try:
            witness = json.loads(text)
        except ValueError:
            raise CertificateFormatError(f"line {lines.number}: the witness is not JSON") from None
        if not isinstance(witness, dict):
            raise CertificateFormatError(f"line {lines.number}: the witness is not a JSON object")
        return Certificate(verdict, deal, witness=witness)
    total = _count(lines.field("parts"), "parts", lines.number)
    parts = []
    for n in range(1, total + 1):
        head = lines.field("part")
        expected = f"{n} of {total}:"
        if not head.startswith(expected):
            raise CertificateFormatError(f"line {lines.number}: expected 'c part {expected} ...', got "
                                         f"{head[:40]!r} (a part missing?)")
        description = head[len(expected):].strip()
        kind_line = lines.next()
        if kind_line is not None and kind_line.rstrip("\r") == "c replay":
            parts.append(Part(description, "replay"))
            continue
        if kind_line is not None and kind_line.startswith("c count "):
            parts.append(Part(description, "count", solver=kind_line[len("c count "):].strip()))
            continue
        lines.back()
        cnf = lines.field("cnf").split()
        proof = lines.field("proof").split()
        if (len(cnf) != 6 or cnf[1:4:2] != ["variables", "clauses"]
                or len(proof) != 8 or proof[0] != "drup" or proof[2:7:2] != ["lemmas", "deletions", "seconds"]):
            raise CertificateFormatError(f"line {lines.number}: malformed 'c cnf' / 'c proof' lines of part {n}")
        body_start = lines.offset
        body_end = lines.skip_to_part()
        try:
            seconds = float(proof[7])
        except ValueError:
            raise CertificateFormatError(f"line {lines.number}: seconds {proof[7]!r} is not a number") from None
        parts.append(Part(
            description, "drup", encoding=cnf[0], variables=_count(cnf[2], "variables", lines.number),
            clauses=_count(cnf[4], "clauses", lines.number), cnf_digest=_digest(cnf[5], lines.number),
            solver=proof[1], lemmas=_count(proof[3], "lemmas", lines.number),
            deletions=_count(proof[5], "deletions", lines.number), seconds=seconds,
            proof=data[body_start:body_end], first_line=lines.line_at(body_start)))
    rest = lines.next()
    if rest is not None:
        raise CertificateFormatError(f"line {lines.number}: text after the last part")
    return Certificate(verdict, deal, parts)


def _digest(text: str, line: int) -> str:
    hexpart = text[len("sha256:"):]
    if not text.startswith("sha256:") or len(hexpart) != 64 or any(c not in "0123456789abcdef" for c in hexpart):
        raise CertificateFormatError(f"line {line}: expected sha256:<64 hex digits>, got {text[:80]!r}")
    return text


def _count(text: str, what: str, line: int) -> int:
    if not text.isdigit() or len(text) > 12:
        raise CertificateFormatError(f"line {line}: {what} {text[:20]!r} is not a count")
    return int(text)


class _Lines:
    """Header lines of ``data`` read one by one, and the proofs between them skipped."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.offset = 0
        self.number = 0
        self._previous = (0, 0)

    def next(self) -> str | None:
        """The next line (``None`` at the end)."""
        if self.offset >= len(self.data):
            return None
        self._previous = (self.offset, self.number)
        end = self.data.find(b"\n", self.offset)
        end = len(self.data) if end < 0 else end
        raw = self.data[self.offset:end]
        self.offset = end + 1
        self.number += 1
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise CertificateFormatError(f"line {self.number}: not UTF-8 text") from None

    def back(self) -> None:
        """Undo the last :meth:`next`."""
        self.offset, self.number = self._previous

    def field(self, name: str) -> str:
        """The value of the next line, which must be ``c NAME VALUE``."""
        line = self.next()
        prefix = f"c {name} "
        if line is None:
            raise CertificateFormatError(f"the file ends before its 'c {name}' line (truncated?)")
        line = line.rstrip("\r")
        if not line.startswith(prefix):
            raise CertificateFormatError(f"line {self.number}: expected 'c {name} ...', got {line[:40]!r}")
        return line[len(prefix):]

    def skip_to_part(self) -> int:
        """Skip a proof: move to the next ``c part`` line (or the end); its offset."""
        found = self.data.find(b"\nc part ", self.offset - 1)
        end = len(self.data) if found < 0 else found + 1
        self.number += self.data.count(b"\n", self.offset, end)
        self.offset = end
        return end

    def line_at(self, offset: int) -> int:
        return self.data.count(b"\n", 0, offset) + 1
