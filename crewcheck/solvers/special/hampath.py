"""Reiber's Hamiltonian-path reduction (Lemma 6.2, Cor 6.4, Thm 6.5) and its decider.

What it is
    :func:`reduce_hampath` builds Reiber's Crew deal from an undirected graph G = (V, E):
    vertex v_i becomes seat i with its own suit ``V<i>``; each neighbour of v_i is dealt
    one of the cards ``1 .. deg(v_i)`` of that suit (lowest value to the neighbour with
    the lowest index: the paper says the order "does not matter"), seat i gets
    ``deg(v_i) + 1`` of it with the task on that card; then every seat gets "junk"
    cards, each of a suit of its own (``J<k>``, value 1: a junk card "does not share a
    suit with any other card"). The first lead is free, no trumps, no tokens.

    Junk count, two readings:
      ``"text"``   |V| - deg(v_i) + 1, as the proof's text says: hands of |V| + 2 cards.
      ``"figure"`` |V| - deg(v_i) - 1, as Figure 3 deals it: hands of |V| cards, which
                   is what the proof then uses ("all players have the same amount of
                   cards, which is also equal to p").
    Both make all hands equal; only ``"figure"`` makes them equal to p, as the proof then
    assumes ("all players have the same amount of cards, which is also equal to p"). With
    ``"text"`` there are two spare tricks, so the proof's "one objective must be
    completed during every trick" is false; the equivalence still holds without trumps
    (a trick led in suit ``V<k>`` is always won by seat k, which holds its top card, and
    every holder of that suit must follow, so the suit is used up; a junk lead keeps the
    lead). With trumps (Cor 6.4) it fails: in a spare trick a seat void in the led junk
    suit trumps it and takes the lead, so the empty graph on 2 vertices, which has no
    Hamiltonian path, gives a winnable deal (``models/counterexamples/hampath_text_trumps.json``,
    ``docs/special-cases.md``).

    ``trumps=True`` (Cor 6.4): a trump suit ``R``; every seat except seat 0 is dealt one
    trump card (values 1, 2, ...). ``tokens=True`` (Thm 6.5): a new seat |V| with |V|
    junk cards ("p - 1" with p = |V| + 1 the new number of players) and the card
    ``W<|V|+1>`` carrying an ``omega`` task (b = O minus its own task: completed last);
    every other seat i is dealt ``W<i+1>``.

    :class:`HamPathSolver` decides deals made by the reduction: it rebuilds G from the
    deal (v_j is adjacent to v_i iff seat j holds a card of suit ``V<i>``), checks that
    reducing that graph gives back exactly this deal (so nothing else is accepted: no
    marker is trusted), finds a Hamiltonian path with a bitmask dynamic programme over
    the networkx graph (depth-first search above :data:`DP_LIMIT` vertices) and maps
    the path to the proof's line of play: v_1 leads its task card, then each v_t leads
    its card of suit ``V<v_{t+1}>`` and v_{t+1} wins it with its task card; everybody
    else follows suit or discards junk.
Rule features
    Deals produced by :func:`reduce_hampath` only (free first lead, unequal hands under
    ``trumps``, ``omega`` token under ``tokens``). By default it refuses the variant
    whose equivalence is false (``junk="text"`` with ``trumps``);
    ``HamPathOptions(paper=True)`` decides it as Lemma 6.2 claims anyway (for pinning the finding).
Exact
    Yes on the variants it accepts by default, by Lemma 6.2's argument (for the text's
    junk count without trumps by the argument in ``docs/special-cases.md``), re-checked
    against an exact search (the oracle with two sound cuts) on every graph of the
    networkx atlas with 2-4 vertices for every variant, 5 for the figure and text
    readings, and 6 for the figure reading with and without trumps (156 graphs, slow suite).
Cost
    O(2^|V| · |V|²) time for the dynamic programme; the reduction is O(|V|²).

References
----------
.. [1] F. Reiber, "The Crew: The Quest for Planet Nine is NP-complete", §6, Lemma 6.2,
   Figure 3, Corollaries 6.3 and 6.4, Theorem 6.5.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from crewcheck.errors import InvalidInputError, NotApplicableError
from crewcheck.model.cards import Card, CardIndex, Deck
from crewcheck.model.instance import Instance, Seat
from crewcheck.model.tasks import Task
from crewcheck.solvers.base import Answer, Budget, BudgetExceeded, Deadline, Verdict
from crewcheck.solvers.special.playout import sequence

if TYPE_CHECKING:
    import networkx as nx  # type: ignore[import-untyped]

__all__ = ["Junk", "Variant", "reduce_hampath", "recognise", "hamiltonian_path", "vertex_order",
           "HamPathSolver", "HamPathOptions", "DP_LIMIT", "BROKEN"]

Junk = Literal["text", "figure"]

DP_LIMIT = 18
"""Largest vertex count for the bitmask dynamic programme (DFS above it)."""

TRUMP = "R"
TOKEN_SUIT = "W"


@dataclass(frozen=True)
class Variant:
    """Which reduction built a deal."""

    junk: Junk = "figure"
    trumps: bool = False
    tokens: bool = False

    def __str__(self) -> str:
        return f"junk={self.junk}" + (",trumps" if self.trumps else "") + (",tokens" if self.tokens else "")


def is_broken(v: Variant) -> bool:
    """Variants whose HP <=> winnable equivalence fails: text junk with trumps (spare tricks
    let a void seat trump a junk lead and take the lead)."""
    return v.junk == "text" and v.trumps


BROKEN = tuple(v for v in (Variant(j, tr, to) for j in ("text", "figure") for tr in (False, True)
                           for to in (False, True)) if is_broken(v))
"""The variants :class:`HamPathSolver` refuses unless ``HamPathOptions(paper=True)``."""


def _letters(i: int) -> str:
    """0 -> 'A', 25 -> 'Z', 26 -> 'BA' (base 26, A = 0)."""
    out = ""
    while True:
        out = chr(ord("A") + i % 26) + out
        i //= 26
        if i == 0:
            return out


def vertex_suit(i: int) -> str:
    return "V" + _letters(i)


def vertex_order(graph: nx.Graph) -> list[Hashable]:
    """Vertices in seat order: numeric order if all are ints, else by their string."""
    nodes = list(graph.nodes)
    if all(isinstance(v, int) and not isinstance(v, bool) for v in nodes):
        return sorted(nodes)
    return sorted(nodes, key=str)


def reduce_hampath(graph: nx.Graph, *, junk: Junk = "figure", trumps: bool = False,
                   tokens: bool = False) -> Instance:
    """Reiber's deal for ``graph`` (see the module docstring); seat i is ``vertex_order(graph)[i]``.

    Raises
    ------
    InvalidInputError
        Fewer than 2 vertices, a self-loop, or an unknown ``junk`` reading.

    Examples
    --------
    >>> import networkx as nx
    >>> deal = reduce_hampath(nx.path_graph(3))
    >>> [len(deal.deck.cards_of(h)) for h in deal.hands], deal.lead
    ([3, 3, 3], 'any')
    """
    if junk not in ("text", "figure"):
        raise InvalidInputError(f"junk: expected 'text' or 'figure', got {junk!r}")
    order = vertex_order(graph)
    n = len(order)
    if n < 2:
        raise InvalidInputError(f"the reduction needs a graph with at least 2 vertices, got {n}")
    index = {v: i for i, v in enumerate(order)}
    adj: list[list[int]] = [[] for _ in range(n)]
    for a, b in graph.edges:
        if a == b:
            raise InvalidInputError(f"graph has a self-loop at vertex {a!r}")
        i, j = index[a], index[b]
        if j not in adj[i]:
            adj[i].append(j)
            adj[j].append(i)
    players = n + (1 if tokens else 0)
    hands: list[list[Card]] = [[] for _ in range(players)]
    tasks: list[tuple[Card, int, str | None]] = []
    for i in range(n):
        suit = vertex_suit(i)
        for value, j in enumerate(sorted(adj[i]), start=1):
            hands[j].append(Card(suit, value))
        top = Card(suit, len(adj[i]) + 1)
        hands[i].append(top)
        tasks.append((top, i, None))
    k = 0
    for i in range(n):
        deg = len(adj[i])
        count = n - deg + 1 if junk == "text" else n - deg - 1
        for _ in range(count):
            hands[i].append(Card("J" + _letters(k), 1))
            k += 1
    if tokens:
        for _ in range(players - 1):
            hands[n].append(Card("J" + _letters(k), 1))
            k += 1
        top = Card(TOKEN_SUIT, players)
        hands[n].append(top)
        tasks.append((top, n, "omega"))
        for i in range(n):
            hands[i].append(Card(TOKEN_SUIT, i + 1))
    if trumps:
        for value, seat in enumerate(range(1, players), start=1):
            hands[seat].append(Card(TRUMP, value))
    deck = Deck.from_cards(c for h in hands for c in h)
    return Instance(deck, tuple(deck.mask_of(h) for h in hands),
                    tuple(Task(deck.index(c), s, tok) for c, s, tok in tasks),
                    TRUMP if trumps else None, "any")


def _graph_of(instance: Instance) -> tuple[Any, int] | None:
    """The graph a reduction deal encodes (vertices 0..n-1), or ``None``."""
    import networkx as nx

    deck = instance.deck
    vsuits = [s for s in deck.suits if s.startswith("V")]
    n = len(vsuits)
    if n < 2 or sorted(vsuits) != sorted(vertex_suit(i) for i in range(n)):
        return None
    g = nx.Graph()
    g.add_nodes_from(range(n))
    for i in range(n):
        s = deck.suit_index(vertex_suit(i))
        mask = deck.suit_mask(s)
        for c in range(deck.size):
            if mask >> c & 1:
                j = instance.holder[c]
                if j != i:
                    if not 0 <= j < n:
                        return None
                    g.add_edge(i, j)
    return g, n


def recognise(instance: Instance) -> tuple[Any, Variant] | None:
    """``(graph, variant)`` if ``instance`` is exactly ``reduce_hampath(graph, **variant)``."""
    found = _graph_of(instance)
    if found is None:
        return None
    g, _ = found
    trumps = instance.trump is not None
    tokens = TOKEN_SUIT in instance.deck.suits
    junk: Junk
    for junk in ("figure", "text"):
        try:
            if reduce_hampath(g, junk=junk, trumps=trumps, tokens=tokens) == instance:
                return g, Variant(junk, trumps, tokens)
        except InvalidInputError:
            return None
    return None


def hamiltonian_path(graph: nx.Graph, deadline: Deadline | None = None) -> list[Hashable] | None:
    """A Hamiltonian path of ``graph`` (a list of its vertices), or ``None`` if none exists.

    Bitmask dynamic programme (Held-Karp) up to :data:`DP_LIMIT` vertices, depth-first
    search with a connectivity cut above. ``deadline`` may raise :class:`BudgetExceeded`.

    Examples
    --------
    >>> import networkx as nx
    >>> hamiltonian_path(nx.star_graph(3)) is None, len(hamiltonian_path(nx.cycle_graph(5)))
    (True, 5)
    """
    nodes = vertex_order(graph)
    n = len(nodes)
    if n == 0:
        return []
    idx = {v: i for i, v in enumerate(nodes)}
    nbr = [0] * n
    for a, b in graph.edges:
        if a != b:
            nbr[idx[a]] |= 1 << idx[b]
            nbr[idx[b]] |= 1 << idx[a]
    path = _held_karp(n, nbr, deadline) if n <= DP_LIMIT else _dfs(n, nbr, deadline)
    return None if path is None else [nodes[i] for i in path]


def _held_karp(n: int, nbr: list[int], deadline: Deadline | None) -> list[int] | None:
    full = (1 << n) - 1
    # reach[mask]: bitmask of end vertices v such that a path covering `mask` ends at v
    reach = [0] * (1 << n)
    for v in range(n):
        reach[1 << v] = 1 << v
    for mask in range(1, full + 1):
        ends = reach[mask]
        if not ends:
            continue
        if deadline is not None and mask & 0xFFF == 0:
            deadline.check()
        e = ends
        while e:
            v = (e & -e).bit_length() - 1
            e &= e - 1
            ext = nbr[v] & ~mask
            while ext:
                w = (ext & -ext).bit_length() - 1
                ext &= ext - 1
                reach[mask | 1 << w] |= 1 << w
    if not reach[full]:
        return None
    # walk back
    path: list[int] = []
    mask, v = full, (reach[full] & -reach[full]).bit_length() - 1
    while True:
        path.append(v)
        rest = mask & ~(1 << v)
        if not rest:
            break
        prev = reach[rest] & nbr[v]
        v = (prev & -prev).bit_length() - 1
        mask = rest
    return path[::-1]


def _dfs(n: int, nbr: list[int], deadline: Deadline | None) -> list[int] | None:
    full = (1 << n) - 1
    count = [0]

    def connected(rest: int, start: int) -> bool:
        seen, todo = 0, nbr[start] & rest
        while todo:
            v = (todo & -todo).bit_length() - 1
            todo &= todo - 1
            if seen >> v & 1:
                continue
            seen |= 1 << v
            todo |= nbr[v] & rest & ~seen
        return seen == rest

    def go(v: int, used: int, path: list[int]) -> bool:
        if used == full:
            return True
        count[0] += 1
        if deadline is not None and count[0] & 0x3FF == 0:
            deadline.check(count[0])
        if not connected(full & ~used, v):
            return False
        ext = nbr[v] & ~used
        while ext:
            w = (ext & -ext).bit_length() - 1
            ext &= ext - 1
            path.append(w)
            if go(w, used | 1 << w, path):
                return True
            path.pop()
        return False

    for s in range(n):
        path = [s]
        if go(s, 1 << s, path):
            return path
    return None


def witness(instance: Instance, path: Sequence[int]) -> tuple[CardIndex, ...]:
    """The proof's line of play for Hamiltonian path ``path`` (seat numbers) of ``instance``."""
    deck = instance.deck
    players = instance.players
    tasks = {t.seat: t.card for t in instance.tasks}
    hands = list(instance.hands)
    junk = [[c for c in range(deck.size) if hands[s] >> c & 1 and deck.suits[deck.suit_of(c)].startswith("J")]
            for s in range(players)]

    def card_of(seat: Seat, suit_name: str) -> CardIndex | None:
        m = hands[seat] & deck.suit_mask(deck.suit_index(suit_name))
        return None if not m else m.bit_length() - 1

    def trick(leader: Seat, led: CardIndex, winner: Seat, top: CardIndex) -> dict[Seat, CardIndex]:
        suit_name = deck.suits[deck.suit_of(top)]
        plays: dict[Seat, CardIndex] = {leader: led, winner: top}
        for s in range(players):
            if s in plays:
                continue
            own = card_of(s, suit_name)
            plays[s] = own if own is not None else junk[s].pop()
        for s, c in plays.items():
            hands[s] &= ~(1 << c)
        return plays

    tricks = []
    first = path[0]
    tricks.append(trick(first, tasks[first], first, tasks[first]))
    for a, b in zip(path, path[1:]):
        led = card_of(a, deck.suits[deck.suit_of(tasks[b])])
        assert led is not None, "consecutive path vertices must be adjacent"
        tricks.append(trick(a, led, b, tasks[b]))
    if players > len(path):  # token variant: the extra seat wins the last trick
        extra = players - 1
        led = card_of(path[-1], TOKEN_SUIT)
        assert led is not None
        tricks.append(trick(path[-1], led, extra, tasks[extra]))
    return sequence(instance, tricks, first)


@dataclass(frozen=True)
class HamPathOptions:
    """Options of the ``hampath`` back-end."""

    paper: bool = False
    """Also decide the variants whose equivalence fails, as Lemma 6.2 claims."""


class HamPathSolver:
    """Decide reduction deals through a Hamiltonian path search; see the module docstring."""

    name: ClassVar[str] = "hampath"
    exact: ClassVar[bool] = True
    requires: ClassVar[tuple[tuple[str, str], ...]] = (("networkx", "special"),)

    def __init__(self, options: HamPathOptions | None = None) -> None:
        self.options = options or HamPathOptions()

    def supports(self, instance: Instance) -> str | None:
        if instance.covered:
            return "hampath needs a deal without covered cards"
        if instance.history:
            return "hampath needs a deal before its first card (no history)"
        found = recognise(instance)
        if found is None:
            return ("hampath decides only deals built by Reiber's reduction (crewcheck reduce hampath); "
                    "this deal is not one")
        _, variant = found
        if is_broken(variant) and not self.options.paper:
            return (f"hampath refuses the {variant} reduction: its junk count leaves spare tricks in which "
                    "a trump passes the lead, so 'winnable' does not imply a Hamiltonian path "
                    "(docs/special-cases.md)")
        return None

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        why = self.supports(instance)
        if why is not None:
            raise NotApplicableError(why)
        found = recognise(instance)
        assert found is not None
        graph, variant = found
        try:
            path = hamiltonian_path(graph, budget.start())
        except BudgetExceeded:
            return Answer(Verdict.UNKNOWN)
        extra = {"variant": str(variant), "vertices": graph.number_of_nodes(), "edges": graph.number_of_edges()}
        if path is None:
            return Answer(Verdict.UNWINNABLE, extra=extra,
                          explanation=f"the graph has no Hamiltonian path (Lemma 6.2, {variant})")
        seats = [int(v) for v in path]  # type: ignore[call-overload]
        return Answer(Verdict.WINNABLE, plays=witness(instance, seats), extra={**extra, "path": seats})
