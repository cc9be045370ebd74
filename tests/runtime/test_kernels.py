"""The helpers every compiled kernel shares (:mod:`crewcheck.runtime.kernels`)."""

from __future__ import annotations

import subprocess
import sys
import warnings
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crewcheck.runtime import kernels
from crewcheck.runtime.kernels import popcount

BITS = (kernels.popcount, kernels.lowbit_index, kernels.highbit_index)


def _double(x: int) -> int:
    return 2 * x


def _quadruple(x: int) -> int:
    return _double(_double(x))


def _twice_the_bits(x: int) -> int:
    return _double(popcount(x))


def _bit_kernels() -> list[SimpleNamespace]:
    out = [kernels.twin(BITS)]
    try:
        out.append(kernels.compile_kernel(BITS, cache=True, nogil=True, error_model="numpy"))
    except ImportError:
        pass
    return out


@given(st.integers(0, (1 << 63) - 1))
def test_bit_helpers(x: int) -> None:
    """popcount, lowbit_index and highbit_index agree with Python's int methods, plain
    and compiled."""
    for k in _bit_kernels():
        assert k.popcount(x) == x.bit_count()
        if x:
            assert k.lowbit_index(x) == (x & -x).bit_length() - 1
            assert k.highbit_index(x) == x.bit_length() - 1


@given(st.integers(0, (1 << 63) - 1))
def test_bit_helpers_take_numpy_ints_quietly(x: int) -> None:
    """A plain twin reading int64 arrays passes numpy ints: same answers, no overflow warnings."""
    np = pytest.importorskip("numpy")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert kernels.popcount(np.int64(x)) == x.bit_count()
        if x:
            assert kernels.lowbit_index(np.int64(x)) == (x & -x).bit_length() - 1


def test_compiled_functions_call_compiled_functions() -> None:
    """Inside the compiled kernel a function's callees are the compiled ones, and the twin
    is the plain functions themselves."""
    pytest.importorskip("numba")
    functions = (popcount, _double, _quadruple, _twice_the_bits)  # popcount: from another module
    k = kernels.compile_kernel(functions)
    assert k._quadruple(3) == 12
    assert k._twice_the_bits(0b1011) == 6
    assert k._quadruple.py_func.__globals__["_double"] is k._double
    assert k._twice_the_bits.py_func.__globals__["popcount"] is k.popcount
    assert _quadruple.__globals__["_double"] is _double  # the module is left as it was
    twin = kernels.twin(functions)
    assert twin._quadruple is _quadruple
    assert kernels.is_compiled(functions)
    assert kernels.compile_kernel(functions) is k  # built once


def test_inlined_functions_compile_into_their_callers() -> None:
    """``inline`` compiles a callee into its callers (numba's ``inline="always"``): same results."""
    pytest.importorskip("numba")
    k = kernels.compile_kernel((_double, _quadruple), inline=(_double,))
    assert k._quadruple(5) == 20
    assert k._double.targetoptions.get("inline") == "always"
    assert "inline" not in k._quadruple.targetoptions


def test_names_must_be_unique() -> None:
    """Two kernel functions of one name would bind to one compiled callee: refused."""
    pytest.importorskip("numba")
    twice: Any = _double
    with pytest.raises(ValueError, match="repeat"):
        kernels.compile_kernel((_double, twice))


def test_cache_key_follows_every_source_file_and_option() -> None:
    """The on-disk cache is keyed by the kernel's sources and options, not only by the
    compiled function's own file (numba's own check)."""
    pytest.importorskip("numba")
    a = kernels._cache_class((_double, _quadruple), (), {"nogil": True})
    b = kernels._cache_class((_double, _quadruple), (), {"nogil": False})
    c = kernels._cache_class((_double, _quadruple, *BITS), (), {"nogil": True})
    d = kernels._cache_class((_double, _quadruple), (_double,), {"nogil": True})
    keys = {cls(_double)._index_key((), _Codegen()) for cls in (a, b, c, d)}
    assert len(keys) == 4


class _Codegen:
    def magic_tuple(self) -> tuple[str, ...]:
        return ("test",)


def test_import_crewcheck_never_imports_numba() -> None:
    """numba is imported when a kernel is first compiled, never by importing crewcheck or
    its kernel modules."""
    code = ("import sys, crewcheck, crewcheck.runtime.kernels, crewcheck.solvers.search, crewcheck.agents.fast, "
            "crewcheck.claims.witteveen.kernel; assert 'numba' not in sys.modules, 'numba imported'")
    subprocess.run([sys.executable, "-c", code], check=True)
