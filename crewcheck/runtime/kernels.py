"""What every compiled kernel of crewcheck shares: the bit helpers and the one way to build
a kernel's compiled version and its plain-Python twin.

A *kernel* is a group of plain-Python functions on ints and int sequences (lists or
int64 numpy arrays) that numba compiles unchanged: the search
(:mod:`crewcheck.solvers.search.kernel`), the agents' playouts
(:mod:`crewcheck.agents.kernel`) and the claims' two-player search
(:mod:`crewcheck.claims.witteveen.kernel`). Each lists its functions, callees before callers, and
gets them back from :func:`twin` as they are (the reference the tests compare with) or
from :func:`compile_kernel` compiled by numba. numba is imported only there, so
``import crewcheck`` never needs it.

Bits
    A set of cards is one non-negative int below ``2**63`` (bit ``i``: card ``i``).
    :func:`popcount` counts the set bits, :func:`lowbit_index` and :func:`highbit_index`
    give the index of the lowest and highest one. The kernels walk a set from its lowest
    card up with one idiom, written out where it is used (numba compiles it to a tight
    loop; a generator would cost a call per card)::

        m = cards
        while m != 0:
            low = m & -m          # the lowest card, as a one-bit mask
            m ^= low
            c = lowbit_index(low)

    On the Python side, :func:`crewcheck.model.cards.iter_bits` is the same walk.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from types import FunctionType, SimpleNamespace
from typing import Any

__all__ = ["popcount", "lowbit_index", "highbit_index", "twin", "compile_kernel", "is_compiled", "numba_missing"]

_DEBRUIJN = 0x03F79D71B4CB0A89
_DB_TABLE = [0] * 64
for _i in range(64):
    _DB_TABLE[((((1 << _i) * _DEBRUIJN) >> 58) & 63)] = _i
DB_TABLE: tuple[int, ...] = tuple(_DB_TABLE)
"""Bit index by the top six bits of ``lowbit * _DEBRUIJN`` (:func:`lowbit_index`)."""
del _i, _DB_TABLE


def popcount(x: int) -> int:
    """Number of set bits of a non-negative int below 2**63."""
    x = int(x)  # a twin's numpy int64 becomes a Python int (its product would overflow); compiled: no-op
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


def lowbit_index(x: int) -> int:
    """Index of the lowest set bit of ``x > 0`` (de Bruijn multiplication).

    Only bits 58..63 of the 64-bit product are used, which are the same whether the
    product wraps (numba int64) or not (Python int).
    """
    x = int(x)  # as in popcount
    return DB_TABLE[((((x & -x) * 0x03F79D71B4CB0A89) >> 58) & 63)]


def highbit_index(x: int) -> int:
    """Index of the highest set bit of ``0 < x < 2**63`` (binary search)."""
    n = 0
    if x >> 32 != 0:
        n += 32
        x >>= 32
    if x >> 16 != 0:
        n += 16
        x >>= 16
    if x >> 8 != 0:
        n += 8
        x >>= 8
    if x >> 4 != 0:
        n += 4
        x >>= 4
    if x >> 2 != 0:
        n += 2
        x >>= 2
    if x >> 1 != 0:
        n += 1
    return n


@functools.lru_cache(maxsize=1)
def numba_missing() -> str | None:
    """``None`` if numba compiles the kernels in this process, else why they run as plain
    Python (much slower): numba not installed, failing to import, or switched off.
    ``crewcheck backends`` reports it; imports numba (about half a second)."""
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return "NUMBA_DISABLE_JIT is set"
    try:
        import numba  # noqa: F401
    except ImportError:
        return "numba is not installed: pip install numba"
    except Exception as e:  # a broken install (numpy too new for numba, ...)
        return f"numba fails to import ({type(e).__name__}: {' '.join(str(e).split())[:120]})"
    return None


def twin(functions: Sequence[Callable[..., Any]]) -> SimpleNamespace:
    """The kernel's functions as plain Python, by name."""
    return SimpleNamespace(**{f.__name__: f for f in functions})


_BUILT: dict[tuple[Any, ...], SimpleNamespace] = {}


def is_compiled(functions: Sequence[Callable[..., Any]], *, inline: Collection[Callable[..., Any]] = (),
                **options: Any) -> bool:
    """Whether :func:`compile_kernel` has already built these functions with these options."""
    return _key(functions, inline, options) in _BUILT


def compile_kernel(functions: Sequence[Callable[..., Any]], *, inline: Collection[Callable[..., Any]] = (),
                   **options: Any) -> SimpleNamespace:
    """The kernel's functions compiled by numba (``numba.njit(**options)``), by name; built
    once per process. Raises :class:`ImportError` without numba.

    Each function is re-created over its module's globals with the name of every function
    of the kernel bound to the compiled version, so a compiled function only ever calls
    compiled functions (call them by their own names: ``from m import f``, not ``as g``).
    Names must be unique within the kernel. The functions in ``inline`` are compiled into
    their callers (numba's ``inline="always"``): a rule split out of a hot function into
    functions of its own then costs no calls.

    ``cache=True`` keeps the machine code on disk (next to the source, as numba does),
    keyed also by a digest of every source file of the kernel and the options: numba
    itself only notices a change to the file of the function it compiles, while a
    compiled function holds the code of its callees from other files.
    """
    key = _key(functions, inline, options)
    built = _BUILT.get(key)
    if built is not None:
        return built
    import numba

    njit: Any = numba.njit
    names = [f.__name__ for f in functions]
    if len(set(names)) != len(names):
        raise ValueError(f"kernel function names repeat: {names}")
    cache = bool(options.pop("cache", False))
    cache_class = _cache_class(functions, inline, options) if cache else None
    spaces: dict[str, dict[str, Any]] = {}
    out: dict[str, Any] = {}
    for f in functions:
        if not isinstance(f, FunctionType):
            raise TypeError(f"{f!r} is not a plain Python function")
        space = spaces.get(f.__module__)
        if space is None:
            space = spaces[f.__module__] = dict(f.__globals__)
            space.update(out)
        clone = FunctionType(f.__code__, space, f.__name__, f.__defaults__, f.__closure__)
        clone.__qualname__ = f.__qualname__
        clone.__module__ = f.__module__
        jit_options = dict(options, inline="always") if f in inline else options
        jitted = njit(**jit_options)(clone)
        if cache_class is not None:
            jitted._cache = cache_class(clone)  # what njit(cache=True) does, with our key
        out[f.__name__] = jitted
        for other in spaces.values():
            other[f.__name__] = jitted
    built = _BUILT[key] = SimpleNamespace(**out)
    return built


def _key(functions: Sequence[Callable[..., Any]], inline: Collection[Callable[..., Any]],
         options: dict[str, Any]) -> tuple[Any, ...]:
    return (tuple(functions), tuple(f.__name__ for f in functions if f in inline), tuple(sorted(options.items())))


def _cache_class(functions: Sequence[Callable[..., Any]], inline: Collection[Callable[..., Any]],
                 options: dict[str, Any]) -> Any:
    """numba's on-disk cache with the kernel's digest in every index key, or ``None`` when
    numba's cache class is not where this numba version is known to keep it (then no
    cache: numba's own would miss changes to the callees' files)."""
    try:
        from numba.core import caching

        base: Any = caching.FunctionCache
    except (ImportError, AttributeError):  # pragma: no cover - other numba layouts
        return None
    h = hashlib.sha256(repr((sorted(f.__name__ for f in inline), sorted(options.items()))).encode())
    for name in sorted({f.__code__.co_filename for f in functions}):
        h.update(name.encode())
        try:
            h.update(Path(name).read_bytes())
        except OSError:  # pragma: no cover - no source on disk: hash the functions' code
            h.update(b"".join(f.__code__.co_code for f in functions if f.__code__.co_filename == name))
    digest = h.hexdigest()

    def index_key(self: Any, sig: Any, codegen: Any) -> Any:
        return (*base._index_key(self, sig, codegen), digest)

    return type("KernelCache", (base,), {"_index_key": index_key})
