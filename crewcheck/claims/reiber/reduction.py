"""Claims from Reiber (seed ``002``) checked exactly on small inputs: Lemma 5.1, the
variants of the Hamiltonian-path reduction (Cor 6.3, Cor 6.4 as intended, Thm 6.5).

* Lemma 5.1 ("it is optimal to complete as many objectives as possible in a single
  trick") is judged on the one-suit deal the section 5 algorithm gets wrong
  (``models/counterexamples/single_suit_lemma51.json``, found by the census of
  :mod:`crewcheck.claims.reiber.theorems`): every line of play is enumerated here by a
  few lines of code of its own (one suit, free lead, every card playable), independent
  of the project's solvers.
* Cor 6.3: every task card of a reduced deal is held by the seat whose task it is
  (the reduction's objective set is O*), on every graph of the networkx atlas.
* Cor 6.4 with the junk count of Figure 3 and of the proof's next sentence, and Thm 6.5
  (task tokens): the reduced deal is winnable iff the graph has a Hamiltonian path, on
  every graph of the atlas with 2-4 vertices, decided by the oracle (search above 20
  cards), one chunk per vertex count.

References
----------
.. [1] F. Reiber, "The Crew: The Quest for Planet Nine is NP-complete", seed ``002``, §5, §6.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Literal

from crewcheck.api import decide
from crewcheck.claims.claim import Computation, Mode, Value
from crewcheck.claims.execution import run_job
from crewcheck.claims.reiber.theorems import COR_6_4_TIMEOUT, has_hamiltonian_path, tally_reduction

__all__ = ["LEMMA_5_1_DEAL", "lines", "lemma_5_1", "owned_tasks", "cor_6_3", "variant_chunk", "cor_6_4_intended",
           "thm_6_5"]

Deal = tuple[tuple[tuple[int, ...], ...], dict[int, int]]
"""One suit: the values each seat holds, and task card value -> the seat that must win it."""

LEMMA_5_1_DEAL: Deal = (((1, 3), (2, 4)), {1: 1, 2: 1, 4: 1})
"""``models/counterexamples/single_suit_lemma51.json``: seat 0 holds B1 B3, seat 1 B2 B4;
seat 1 must win B1, B2 and B4."""


def lines(deal: Deal) -> Iterator[tuple[bool, tuple[tuple[int, ...], ...]]]:
    """Every line of play of a one-suit deal with a free first lead: (won, the tricks, each
    as the cards in seat order). Every card is playable (one suit); the highest card wins
    and its holder leads next (the lead order does not change who wins a one-suit trick)."""
    hands, tasks = deal

    def rec(left: tuple[tuple[int, ...], ...], played: tuple[tuple[int, ...], ...]) -> Iterator[Any]:
        if not any(left):
            yield True, played
            return
        if not all(left):
            return
        for trick in _tricks(left):
            winner = max(range(len(trick)), key=lambda s: trick[s])
            if any(tasks.get(c, winner) != winner for c in trick):
                yield False, played + (trick,)
                continue
            yield from rec(tuple(tuple(c for c in h if c != trick[s]) for s, h in enumerate(left)), played + (trick,))

    yield from rec(hands, ())


def _tricks(hands: Sequence[tuple[int, ...]]) -> Iterator[tuple[int, ...]]:
    if not hands:
        yield ()
        return
    for card in hands[0]:
        for rest in _tricks(hands[1:]):
            yield (card,) + rest


def lemma_5_1(mode: Mode, deal: Deal = LEMMA_5_1_DEAL) -> Computation:
    """Lemma 5.1: objectives that can be completed in a single trick are best completed in
    one: for every set of objectives a first trick can complete together, some winning line
    (if any) completes them in one trick."""
    tasks = deal[1]
    every = list(lines(deal))
    winning = [t for won, t in every if won]
    together = sorted({frozenset(c for c in t[0] if c in tasks) for won, t in every
                       if t and (won or len(t) > 1)} - {frozenset()}, key=lambda s: (-len(s), sorted(s)))
    together = [s for s in together if len(s) > 1]
    split = [s for s in together if not any(any(s <= set(trick) for trick in t) for t in winning)]
    values = (Value("lines", len(every), "lines of play of the deal (seat 0: 1 3; seat 1: 2 4; seat 1 must win 1, 2 "
                    "and 4), enumerated trick by trick"),
              Value("winning", len(winning), "of those, lines in which every task card is won by its seat"),
              Value("sets_in_one_trick", [sorted(s) for s in together], "sets of two or more objectives a first "
                    "trick completes together without failing a task"),
              Value("never_together_when_won", [sorted(s) for s in split], "of those, sets that no winning line "
                    "completes in one trick"))
    if winning and split:
        return Computation(values, holds=False, evidence=(
            f"the deal is winnable ({' then '.join(map(str, winning[0]))}); objectives {sorted(split[0])} can be "
            "completed in a single trick, but every line that does so loses: completing as many objectives as "
            "possible in one trick is not optimal"))
    return Computation(values, holds=True, evidence="every set completable in one trick is completed together "
                       "by some winning line")


def owned_tasks(instance: Any) -> bool:
    """Whether every task of `instance` is on a card its own seat holds (the bound O*)."""
    return all(t.seat is not None and instance.hands[t.seat] >> t.card & 1 for t in instance.tasks)


def _atlas(low: int, high: int) -> Iterator[Any]:
    import networkx as nx  # type: ignore[import-untyped, unused-ignore]

    for graph in nx.graph_atlas_g()[1:]:
        if low <= graph.number_of_nodes() <= high:
            yield graph


def cor_6_3(mode: Mode) -> Computation:
    """Cor 6.3: the reduction's objective set is O* (each task card held by its seat)."""
    from crewcheck.solvers.special.hampath import reduce_hampath

    high = 4 if mode == "quick" else 6
    graphs = list(_atlas(2, high))
    variants: list[tuple[Literal["text", "figure"], bool, bool]] = [
        (junk, trumps, tokens) for junk in ("text", "figure") for trumps in (False, True) for tokens in (False, True)]
    bad = [(sorted(g.edges()), v) for g in graphs for v in variants
           if not owned_tasks(reduce_hampath(g, junk=v[0], trumps=v[1], tokens=v[2]))]
    values = (Value("deals", len(graphs) * len(variants), f"every graph of the networkx atlas with 2-{high} vertices "
                    "reduced by every variant (junk count of the text / of Figure 3, with and without trumps and "
                    "tokens)"),
              Value("not_owned", len(bad), "reduced deals with a task card held by another seat than its task's"))
    if bad:
        return Computation(values, holds=False, evidence=f"first: {bad[0]}")
    return Computation(values, holds=True, evidence="every task card is held by its own seat")


def variant_chunk(params: Mapping[str, Any]) -> dict[str, Any]:
    """Every graph of ``params["vertices"]`` vertices of the atlas, reduced with the given
    variant, decided and compared with a brute-force Hamiltonian path."""
    n = int(params["vertices"])
    junk: Literal["text", "figure"] = "text" if params["junk"] == "text" else "figure"
    return tally_reduction(_atlas(n, n), n, junk, bool(params["trumps"]), bool(params["tokens"]),
                           float(params["timeout"]))


def _variant(mode: Mode, namespace: str, *, trumps: bool, tokens: bool, what: str) -> Computation:
    high = 3 if mode == "quick" else 4
    chunks = [{"vertices": n, "timeout": COR_6_4_TIMEOUT, "junk": "figure", "trumps": trumps, "tokens": tokens}
              for n in range(2, high + 1)]
    parts = run_job(namespace, variant_chunk, chunks, label=f"reiber {what}")
    return _judge_atlas(parts, high, what)


def _judge_atlas(parts: Sequence[Mapping[str, Any]], high: int, what: str) -> Computation:
    checked = sum(p["checked"] for p in parts)
    disagree = sum(p["disagree"] for p in parts)
    unknown = sum(p["unknown"] for p in parts)
    first = next((p["first"] for p in parts if p["first"]), None)
    values = (Value("checked", checked, f"every graph of the networkx atlas with 2-{high} vertices, reduced {what} "
                    f"(junk count |V| - deg(v) - 1) and decided by the oracle (search above 20 cards, "
                    f"{COR_6_4_TIMEOUT:g} s a graph); Hamiltonian path by brute force"),
              Value("disagreements", disagree, "winnable != has a Hamiltonian path"),
              Value("unknown", unknown, "graphs left undecided (never guessed)"))
    if unknown:
        return Computation(values, holds=None, open_reason=f"{unknown} graphs undecided within the time limit")
    if disagree:
        return Computation(values, holds=False, evidence=f"first: {first}")
    return Computation(values, holds=True, evidence=f"the equivalence held on all {checked} graphs")


def cor_6_4_intended(mode: Mode) -> Computation:
    """Cor 6.4 with the junk count the proof then uses (hands of p cards): the reduction with
    trumps dealt to all seats but one still decides Hamiltonian path."""
    return _variant(mode, "reiber/cor-6.4-figure/v1", trumps=True, tokens=False, what="with trumps")


def thm_6_5(mode: Mode) -> Computation:
    """Thm 6.5: the reduction with the extra seat and its last-task token still decides
    Hamiltonian path."""
    return _variant(mode, "reiber/thm-6.5/v1", trumps=False, tokens=True, what="with task tokens")
