"""Reiber's Hamiltonian-path reduction: "G has a Hamiltonian path" == "reduce(G) is winnable".

Ground truth for "winnable" is an exact search independent of Lemma 6.2: the exhaustive
oracle with two sound cuts (:func:`tests.solvers.special.oracles.symmetric_verdict`),
itself checked against the plain oracle on the small graphs below. Ground truth for the
Hamiltonian path is a brute force over vertex orders, independent of the DP.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

nx = pytest.importorskip("networkx")
from networkx.generators.atlas import graph_atlas_g  # noqa: E402

import crewcheck  # noqa: E402
from crewcheck.errors import InvalidInputError, NotApplicableError  # noqa: E402
from crewcheck.formats.deal_json import dumps, load, loads, to_dict  # noqa: E402
from crewcheck.solvers.base import Budget, Verdict  # noqa: E402
from crewcheck.solvers.special.hampath import (  # noqa: E402
    HamPathOptions, HamPathSolver, Variant, hamiltonian_path, recognise, reduce_hampath,
)
from tests.oracle import oracle_verdict  # noqa: E402
from tests.solvers.special.symmetric import symmetric_verdict  # noqa: E402

ROOT = Path(__file__).parents[3]
ATLAS = [g for g in graph_atlas_g() if g.number_of_nodes() >= 2]


def _brute_hp(g: nx.Graph) -> bool:
    return any(all(g.has_edge(a, b) for a, b in zip(p, p[1:])) for p in itertools.permutations(g.nodes))


def _graphs(max_n: int) -> list[nx.Graph]:
    return [g for g in ATLAS if g.number_of_nodes() <= max_n]


@pytest.mark.parametrize("max_n", [6, pytest.param(7, marks=pytest.mark.slow)])
def test_dp_matches_brute_force(max_n: int) -> None:
    """The Hamiltonian path search agrees with brute force on every atlas graph (<= 6 vertices;
    7 in the slow suite)."""
    for g in _graphs(max_n):
        path = hamiltonian_path(g)
        assert (path is not None) == _brute_hp(g), list(g.edges)
        if path is not None:
            assert sorted(path) == sorted(g.nodes) and all(g.has_edge(a, b) for a, b in zip(path, path[1:]))


def test_dfs_matches_dp(monkeypatch: pytest.MonkeyPatch) -> None:
    """Above DP_LIMIT the depth-first search is used; it agrees with the DP."""
    import crewcheck.solvers.special.hampath as hp

    graphs = _graphs(6)
    want = [hp.hamiltonian_path(g) is not None for g in graphs]
    monkeypatch.setattr(hp, "DP_LIMIT", 0)
    assert [hp.hamiltonian_path(g) is not None for g in graphs] == want


def _equivalence(max_n: int, variant: Variant) -> list[str]:
    bad = []
    for g in _graphs(max_n):
        deal = reduce_hampath(g, junk=variant.junk, trumps=variant.trumps, tokens=variant.tokens)
        assert recognise(deal) is not None
        has = hamiltonian_path(g) is not None
        if (symmetric_verdict(deal) is Verdict.WINNABLE) != has:
            bad.append(f"{sorted(g.edges)} on {g.number_of_nodes()} vertices")
    return bad


SOUND = [Variant("figure"), Variant("text"), Variant("figure", trumps=True), Variant("figure", tokens=True),
         Variant("text", tokens=True), Variant("figure", trumps=True, tokens=True)]


@pytest.mark.parametrize("variant", SOUND, ids=str)
def test_equivalence_small(variant: Variant) -> None:
    """Every atlas graph with 2-3 vertices: HP <=> winnable, for every variant that holds."""
    assert _equivalence(3, variant) == []


@pytest.mark.slow
@pytest.mark.parametrize("variant", SOUND, ids=str)
def test_equivalence_four(variant: Variant) -> None:
    """Every atlas graph with 2-4 vertices (17 graphs): HP <=> winnable, for every variant
    that holds (the slow twin of :func:`test_equivalence_small`)."""
    assert _equivalence(4, variant) == []


@pytest.mark.slow
@pytest.mark.parametrize("variant", [Variant("figure"),
                                     pytest.param(Variant("text"), marks=pytest.mark.long)],
                         ids=str)
def test_equivalence_five(variant: Variant) -> None:
    """Every atlas graph with up to 5 vertices (51 graphs): HP <=> winnable (text: a long sweep)."""
    assert _equivalence(5, variant) == []


@pytest.mark.slow
@pytest.mark.long
@pytest.mark.parametrize("variant", SOUND, ids=str)
def test_equivalence_six(variant: Variant) -> None:
    """Every atlas graph with up to 6 vertices (207 graphs): HP <=> winnable."""
    assert _equivalence(6, variant) == []


def test_text_trumps_is_broken() -> None:
    """Pinned finding: text junk count + trumps (Cor 6.4): graphs without a Hamiltonian path
    give winnable deals: every atlas graph with 2-3 vertices and no Hamiltonian path does."""
    bad = _equivalence(3, Variant("text", trumps=True))
    no_hp = [g for g in _graphs(3) if hamiltonian_path(g) is None]
    assert len(bad) == len(no_hp) > 0


def test_counterexample_text_trumps() -> None:
    """The saved counterexample: the paper's answer (no HP, so unwinnable) vs the oracle's."""
    deal = load(ROOT / "models" / "counterexamples" / "hampath_text_trumps.json")
    assert recognise(deal) is not None
    paper = HamPathSolver(HamPathOptions(paper=True)).decide(deal, budget=Budget())
    assert paper.verdict is Verdict.UNWINNABLE
    assert oracle_verdict(deal) is Verdict.WINNABLE
    assert "refuses" in (HamPathSolver().supports(deal) or "")


@pytest.mark.parametrize("variant,max_n", [(Variant("figure"), 3), (Variant("figure", trumps=True), 3),
                                           (Variant("text"), 2), (Variant("text", trumps=True), 2),
                                           (Variant("figure", tokens=True), 2)], ids=str)
def test_symmetric_oracle_matches_plain_oracle(variant: Variant, max_n: int) -> None:
    """The cut search used above agrees with the plain oracle on small reduction deals."""
    if True:
        for g in _graphs(max_n):
            deal = reduce_hampath(g, junk=variant.junk, trumps=variant.trumps, tokens=variant.tokens)
            assert symmetric_verdict(deal) == oracle_verdict(deal), (str(variant), list(g.edges))


@pytest.mark.parametrize("max_n", [5, pytest.param(6, marks=pytest.mark.slow)])
@pytest.mark.parametrize("variant", SOUND, ids=str)
def test_backend_witness(variant: Variant, max_n: int) -> None:
    """The hampath back-end's answers match the HP, and its wins replay (atlas up to 5
    vertices; 6 in the slow suite)."""
    for g in _graphs(max_n):
        deal = reduce_hampath(g, junk=variant.junk, trumps=variant.trumps, tokens=variant.tokens)
        r = crewcheck.decide(deal, backend="hampath")
        assert (r.verdict is Verdict.WINNABLE) == (hamiltonian_path(g) is not None)


def test_junk_readings_hand_sizes() -> None:
    """Both readings deal equal hands: |V| cards (figure) and |V| + 2 (text)."""
    g = nx.path_graph(5)
    for junk, size in (("figure", 5), ("text", 7)):
        deal = reduce_hampath(g, junk=junk)
        assert {h.bit_count() for h in deal.hands} == {size}
        assert deal.lead == "any" and deal.trump is None


def test_refuses_other_deals() -> None:
    """Deals not produced by the reduction are refused; a modified reduction deal too."""
    s = HamPathSolver()
    plain = loads('{"hands": [["B1"], ["B2"]], "lead": "any", "tasks": []}')
    assert "only deals built by Reiber's reduction" in (s.supports(plain) or "")
    d = to_dict(reduce_hampath(nx.path_graph(3)))
    d["lead"] = 0
    assert s.supports(loads(json.dumps(d))) is not None
    with pytest.raises(NotApplicableError):
        s.decide(loads(json.dumps(d)), budget=Budget())


def test_bad_graphs() -> None:
    """Fewer than two vertices is an input error."""
    with pytest.raises(InvalidInputError, match="at least 2 vertices"):
        reduce_hampath(nx.empty_graph(1))


def test_figure_graph() -> None:
    """Figure 2's graph (read back from Figure 3) has no Hamiltonian path; its deal is unwinnable."""
    from crewcheck.cli.reduce import read_graph

    g = read_graph((ROOT / "models" / "graphs" / "figure2.edges").read_text())
    deal = reduce_hampath(g)
    assert crewcheck.decide(deal, backend="hampath").verdict is Verdict.UNWINNABLE
    print(dumps(deal))


@pytest.mark.slow
def test_figure_graph_by_the_reference_search() -> None:
    """Figure 2's deal is unwinnable by the exact reference search too, not only by the
    back-end (:func:`test_figure_graph`)."""
    from crewcheck.cli.reduce import read_graph

    deal = reduce_hampath(read_graph((ROOT / "models" / "graphs" / "figure2.edges").read_text()))
    assert symmetric_verdict(deal) is Verdict.UNWINNABLE
