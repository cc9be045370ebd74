"""Shared test configuration: hypothesis profiles and the --runslow option.

Tests marked ``slow`` run only with ``--runslow``. CI's slow step runs those not also
marked ``long`` (``-m "slow and not long"``, see ``.ci/run``); ``make slow-all`` runs them
all.

Profiles: ``dev`` (default locally), ``ci`` (bounded examples, no deadline, the seed and
reproduction blob printed; selected when ``CI=true``) and ``thorough``. Choose one with
``HYPOTHESIS_PROFILE=name``.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, Verbosity, settings

settings.register_profile("dev", max_examples=60, deadline=None)
settings.register_profile(
    "ci", max_examples=40, deadline=None, print_blob=True, derandomize=False,
    suppress_health_check=[HealthCheck.too_slow], verbosity=Verbosity.normal,
)
settings.register_profile("thorough", max_examples=2000, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") == "true" else "dev"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False, help="run tests marked slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def pytest_report_header(config: pytest.Config) -> str:
    return f"hypothesis profile: {settings._current_profile}"  # type: ignore[attr-defined]
