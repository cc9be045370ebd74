"""The fan-out behind every parallel run: order, streaming, failures, the memory bound."""

from __future__ import annotations

import itertools
import os
import signal
import sys
import threading
import time

import pytest

from crewcheck.runtime.fanout import Workers, fan_out, parse_bytes, resident_bytes


def _square(x: int) -> int:
    time.sleep(0.002 * ((7 * x) % 5))  # finish out of order
    return x * x


def _troubled(x: int) -> int:
    if x == 3:
        raise ValueError("three")
    if x == 5:
        os.kill(os.getpid(), signal.SIGKILL)
    return x


_HOG = 150 * 2**20


def _hog(x: int) -> int:
    if x == 1:
        block = bytearray(2 * _HOG)  # resident at once (zeroed pages are written)
        block[::4096] = b"x" * len(block[::4096])
        time.sleep(10)
    return x


@pytest.mark.parametrize("count", [0, 1, 2])
def test_results_come_back_in_input_order(count: int) -> None:
    """Inline, one and two workers: every item once, in input order, whatever order they finish in."""
    got = [f.value for f in fan_out(_square, range(30), Workers(count))]
    assert got == [x * x for x in range(30)]


def test_an_error_and_a_dead_worker_are_the_items_failures_and_the_run_goes_on() -> None:
    """An exception is ``error``, a worker killed from outside is ``died``; a new worker
    takes the next items."""
    got = list(fan_out(_troubled, range(8), Workers(2)))
    assert [f.value for f in got] == [0, 1, 2, None, 4, None, 6, 7]
    assert got[3].failure is not None and got[3].failure.kind == "error" and "three" in got[3].failure.message
    assert got[5].failure is not None and got[5].failure.kind == "died" and "signal 9" in got[5].failure.message


def _own_memory(_: int) -> int:
    return resident_bytes(os.getpid())


def test_a_worker_over_its_memory_bound_is_stopped_and_reported() -> None:
    """The item of a worker going over the bound is ``memory`` (left alone, the hog would
    return 1 after 10 s); the other items are decided."""
    start = max(f.value or 0 for f in fan_out(_own_memory, range(2), Workers(2)))  # a fresh worker's pages
    got = list(fan_out(_hog, range(4), Workers(2, memory_limit=start + _HOG)))
    assert [f.value for f in got] == [0, None, 2, 3]
    assert got[1].failure is not None and got[1].failure.kind == "memory"


def test_an_endless_input_is_read_as_needed() -> None:
    """Streaming: an infinite iterable is consumed a window at a time, and closing the
    results stops the workers."""
    pulled = itertools.count()

    def items() -> itertools.count[int]:
        return pulled

    results = fan_out(_square, items(), Workers(2), window=4)
    first = [next(results).value for _ in range(10)]
    results.close()  # type: ignore[attr-defined]
    assert first == [x * x for x in range(10)]
    assert next(pulled) <= 10 + 2 * 4 + 2  # what was read ahead is bounded by the window


@pytest.mark.parametrize("text, expected", [("4GiB", 4 * 2**30), ("512M", 512 * 2**20), ("2e9", 2 * 10**9),
                                            ("none", None)])
def test_sizes(text: str, expected: int | None) -> None:
    assert parse_bytes(text) == expected


@pytest.mark.parametrize("text", ["", "lots", "-1G", "10", "nan", "1e400"])
def test_bad_sizes(text: str) -> None:
    with pytest.raises(ValueError):
        parse_bytes(text)


def _sat_start_method(_: int) -> tuple[int, str]:
    from crewcheck.solvers.logic import sat_process

    return threading.active_count(), sat_process._context().get_start_method()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_worker_runs_one_thread_so_its_sat_child_is_a_fork() -> None:
    """A worker that dies with its parent through the kernel starts no watcher thread: a
    second thread would make every SAT child of the engine's race a fork server's child."""
    got = [d.value for d in fan_out(_sat_start_method, [0, 1], Workers(1))]
    assert got == [(1, "fork"), (1, "fork")]
