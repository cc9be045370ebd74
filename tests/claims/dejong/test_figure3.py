"""de Jong's Figure 3: the chunk that deals and decides."""

from __future__ import annotations

import random

import pytest

from crewcheck.claims.dejong import figure3
from crewcheck.claims.dejong.figure3 import _deal_dict, deal_instance, dejong_chunk
from crewcheck.formats.deal_json import from_dict


def test_dejong_chunk_on_a_small_deck() -> None:
    """The Figure 3 chunk deals, assigns and decides (oracle, 16-card deck)."""
    params = {"objectives": "fixed", "tasks": 2, "seed": 1, "index": 0, "size": 2, "backend": "exhaustive",
              "sizes": {"B": 3, "G": 3, "P": 3, "Y": 3, "R": 4}, "timeout": 30}
    out = dejong_chunk(params)
    assert out["winnable"] + out["unwinnable"] + out["unknown"] == 2


@pytest.mark.parametrize("objectives", ["fixed", "free"])
def test_direct_instance_equals_the_deal_file_reader(objectives: str) -> None:
    """The chunk's direct construction gives exactly the instance the validating reader gives."""
    rng = random.Random(5)
    sizes = {"B": 9, "G": 9, "P": 9, "Y": 9, "R": 4}
    for k in (1, 7, 23, 36):
        deal = _deal_dict(rng, sizes, 4, k, objectives)
        assert deal_instance(deal) == from_dict(deal)


def test_full_chunks_are_the_figure_at_its_size() -> None:
    """Full mode: 10,000 deals for every count, no time limit; the statement's counts and
    the rest of the curve together are every count 1..36."""
    for objectives in ("free", "fixed"):
        deciding = figure3.DECIDING[objectives]
        rest = tuple(k for k in figure3.FULL_COUNTS if k not in deciding)
        chunks = figure3._chunks("full", objectives, "engine", deciding) + figure3._chunks("full", objectives,
                                                                                          "engine", rest)
        assert all(c["timeout"] is None for c in chunks)
        per_k: dict[int, int] = {}
        for c in chunks:
            per_k[c["tasks"]] = per_k.get(c["tasks"], 0) + c["size"]
        assert per_k == {k: figure3.FULL_DEALS for k in range(1, 37)}
    assert figure3.DECIDING["free"] == tuple(range(2, 24))


def test_an_undecided_deal_goes_on_to_the_next_back_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """Full mode: a deal the first step leaves UNKNOWN is decided by the next one, counted in
    ``escalated``; the verdicts are the oracle's whichever step gave them."""
    from crewcheck import decide as real_decide
    from crewcheck.solvers.base import Verdict

    calls: list[tuple[str, float | None]] = []

    def first_gives_up(instance, backend, timeout):  # type: ignore[no-untyped-def]
        calls.append((backend, timeout))
        if backend == "engine":
            return Verdict.UNKNOWN
        return real_decide(instance, backend="exhaustive").verdict

    monkeypatch.setattr(figure3, "_verdict", first_gives_up)
    monkeypatch.setattr(figure3, "ESCALATION", (("engine", 1.0), ("cpsat", None)))
    params = {"objectives": "free", "tasks": 3, "seed": 1, "index": 0, "size": 3, "backend": "engine",
              "sizes": {"B": 3, "G": 3, "P": 3, "Y": 3, "R": 4}, "timeout": None}
    out = dejong_chunk(params)
    assert calls == [("engine", 1.0), ("cpsat", None)] * 3
    assert out["escalated"] == {"cpsat": 3} and out["unknown"] == 0
    monkeypatch.undo()
    want = {k: v for k, v in dejong_chunk({**params, "backend": "exhaustive", "timeout": 30}).items()
            if k in ("winnable", "unwinnable")}
    assert {k: out[k] for k in want} == want
    assert "within 20 s, 3 by cpsat" in figure3._escalation_text(out["escalated"])


def test_the_cp_sat_step_gives_the_oracles_verdict_without_explaining() -> None:
    """The escalation's CP-SAT step (no explanation) agrees with the oracle, both ways."""
    from crewcheck import decide as real_decide
    from crewcheck.formats.notation import parse_deal
    from crewcheck.solvers.base import Verdict

    for text in ("B3 G4 R1 | B1 R2 R3 | B4 G2 G3 ; trump R ; lead 0 ; tasks G2@? G3@? B4@? ; strict/free",
                 "B3 G4 R1 | B1 R2 R3 | B4 G2 G3 ; trump R ; lead 0 ; tasks G3@? B4@? ; strict/free"):
        deal = parse_deal(text)
        assert figure3._verdict(deal, "cpsat", 60.0) is real_decide(deal, backend="exhaustive").verdict
    assert {Verdict.WINNABLE, Verdict.UNWINNABLE} == {
        real_decide(parse_deal(t), backend="exhaustive").verdict for t in (
            "B3 G4 R1 | B1 R2 R3 | B4 G2 G3 ; trump R ; lead 0 ; tasks G2@? G3@? B4@? ; strict/free",
            "B3 G4 R1 | B1 R2 R3 | B4 G2 G3 ; trump R ; lead 0 ; tasks G3@? B4@? ; strict/free")}


def test_the_draft_counts_and_the_counts_no_deal_can_win() -> None:
    """The draft gives the commander the first of ``k`` tasks and round-robin after; a free
    deal needs ceil(count / 4) tricks per seat, more than 10 only at 35 and 36 tasks."""
    for k in range(1, 37):
        counts = figure3.draft_counts(k)
        assert sum(counts) == k and max(counts) - min(counts) <= 1 and list(counts) == sorted(counts, reverse=True)
    assert figure3.draft_counts(34) == (9, 9, 8, 8) and figure3.tricks_needed(34) == 10
    assert figure3.counted_out() == [35, 36]
