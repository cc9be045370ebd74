"""Property tests in two sizes: a few examples in the default suite, the profile's number
in a slow twin that CI's slow step runs (``--runslow -m "slow and not long"``).

``@few()`` caps a property test at :data:`FEW` examples (fewer if the profile asks for
fewer); :func:`slow_twin` makes, from such a test, the same body with the profile's
number of examples, marked ``slow`` and parametrized again as given. Assign the twin to a
module-level name starting ``test_`` for pytest to collect it.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FEW = 10
"""Examples a property test of the default suite checks (per parametrization)."""

_RELAXED = [HealthCheck.filter_too_much, HealthCheck.too_slow]


def few(n: int = FEW) -> settings:
    """At most ``n`` examples (the profile's number if it is smaller), the filtering and
    slowness health checks off."""
    return settings(max_examples=min(n, settings.default.max_examples), suppress_health_check=_RELAXED)


def slow_twin(test: Any, argname: str | None = None, values: Any = (), *, examples: int | None = None,
              **strategies: Any) -> Any:
    """The slow twin of ``test``: the same body with the profile's number of examples (or
    ``examples``), drawing from ``strategies`` (``data=st.data()`` when none are given),
    marked ``slow``, parametrized over ``argname`` in ``values`` when given."""
    twin = given(**(strategies or {"data": st.data()}))(test.hypothesis.inner_test)
    twin = settings(suppress_health_check=_RELAXED,
                    **({} if examples is None else {"max_examples": examples}))(twin)
    if argname is not None:
        twin = pytest.mark.parametrize(argname, values)(twin)
    return pytest.mark.slow(twin)
