"""Reiber's claims: the deals drawn, the brute-force Hamiltonian path and the reduction chunk."""

from __future__ import annotations

import random

import pytest

from crewcheck.api import decide
from crewcheck.claims.reiber import theorems
from crewcheck.formats.deal_json import from_dict


def test_reiber_random_deals_are_valid_and_decidable() -> None:
    """Deals drawn for the Reiber differential checks load and the oracle decides them."""
    rng = random.Random(0)
    for case in theorems.CASES.values():
        for _ in range(5):
            inst = from_dict(theorems.random_deal(rng, **case))
            assert decide(inst, backend="exhaustive").verdict.name in {"WINNABLE", "UNWINNABLE"}


def test_brute_force_hamiltonian_path() -> None:
    """Paths and stars of 3 have one, two isolated vertices do not, a 4-star does not."""
    assert theorems.has_hamiltonian_path(3, {(0, 1), (1, 2)})
    assert not theorems.has_hamiltonian_path(2, set())
    assert not theorems.has_hamiltonian_path(4, {(0, 1), (0, 2), (0, 3)})


def test_hampath_chunk_agrees_on_small_graphs() -> None:
    """Reduced deals of random graphs with up to 3 vertices: winnable iff Hamiltonian."""
    pytest.importorskip("networkx")
    out = theorems.hampath_chunk({"seed": 1, "index": 0, "size": 4, "max_vertices": 3})
    assert out["disagree"] == 0 and out["backend_disagree"] == 0
