"""Every game of Witteveen's 2-player 1-task game decided by exact search (Cor 3.21).

Witteveen counts the losing games (224,808,234 of 81,676,217,700 with the task suit
fixed) with the characterisation of Thm 3.15 / 3.18. Here every game is decided by a
game solver that never looks at the characterisation; the characterisation is only
evaluated afterwards, per group of games, to report the losing count per class
(S1..S4) and the disagreements.

The game (:mod:`.reference_search`): 4 suits of ``n`` values, player 1 holds ``2n``
cards, player 2 the rest; no trumps; player 1 leads trick 1; the task card ``t`` lies
in suit 0; the game is won iff player 1 wins the trick containing ``t``. Play is
cooperative with perfect information, so a game is winnable iff some legal play
sequence wins: a winning *line* (the sequence of tricks) is a certificate.

How the ``n * C(4n, 2n)`` games are covered (all steps exact)
--------------------------------------------------------------
**Layouts.** A *layout* is the task value and player 1's holding ``h0`` of suit 0
(``n * 2**n`` of them, 4,608 at ``n = 9``). Each layout is solved on its own: its games
are player 1's holdings ``(h1, h2, h3)`` of the other three suits with
``|h1| + |h2| + |h3| = 2n - |h0|``.

**Suit symmetry.** Relabelling the three non-task suits maps a game to a game with the
same plays (no trumps, nothing names a non-task suit), so only sorted triples
``h1 <= h2 <= h3`` are solved, each counted ``6 / 3 / 1`` times (all distinct / two
equal / all equal): the number of distinct games it stands for.

**Relaxed game (losing for a whole count class).** In the relaxed game the task suit is
played as in the real game, each other suit is only its card counts (player 1's,
player 2's), a player may follow a suit exactly when it has a card of it (count > 0),
and a trick in which both players play the same other suit may be won by either
player, as the search likes. Every legal play of a real game is a legal play of the
relaxed game from its counts, with the same trick winner and the same task-suit
cards, so every winning real line maps to a winning relaxed line. Hence: if the
relaxed game of the counts ``{|h1|, |h2|, |h3|}`` is losing, every real game of the
layout with those counts is losing. The relaxed search is an exact search of that
small game (:func:`.exhaustive_kernel.relaxed_go`: the task suit with the reference
search's touching-card reduction, which holds there for the same reason as in the real
game; positions memoised under a canonical key with the count pairs sorted, the
relaxed game being symmetric in the three suits).

**Winning lines (winnable for a set of games).** The other games are decided by the
exact search of :mod:`.kernel` (depth-first, the reference search's touching-card
reduction) extended to return a winning line (:func:`.exhaustive_kernel.go_line`). A
line found for one game is replayed on other games of the same layout by changing only
which cards of the non-task suits are played. In each non-task suit the line needs:
``p`` tricks where both players play the suit and player 1's card is higher, ``q``
where player 2's is higher, some single cards of each player (a lead of the suit the
other does not follow, or a discard of the suit on another suit's lead), and, at each
trick where the suit is led and the other player plays another suit, that player's
card count in the suit equal to the number of its cards of the suit already played
(it is void then). A holding of the suit meeting these conditions (enough cards, the
void counts, and ``p + q`` disjoint pairs of the right orientation:
:func:`pair_table`) realises the suit's plays: all cards are in the hands from the
start, so the cards of every trick can be chosen up front, each used once; a player
follows the led suit whenever the line has it follow, and plays another suit only
where its count shows it void; each trick keeps its winner (the same player plays the
higher card of a shared suit, and the leader wins a trick the follower does not
follow). The task-suit plays are unchanged (same ``h0``), so the task trick is the
same trick, won by player 1. The three suits' conditions are independent, so the
realised line is a legal winning play sequence of every game whose three holdings
meet them (:func:`.exhaustive_kernel.line_holdings`). Each stored line is kept under
the six orders of the three suits (the suit symmetry again). A test realises lines on
accepted holdings card by card and replays them with an independent rules check.

**Enumeration.** For each sorted pair ``(h1, h2)`` the set of third holdings ``h3`` is a
bit set; the stored lines whose conditions accept ``h1`` and ``h2`` cover part of it
(bit-set union), and each uncovered ``h3`` is decided by the exact search: a losing
verdict is counted, a winning one adds its line to the store. Every game is thus
decided by a proof: a relaxed-game refutation of its count class, an exact search
refutation, or a line that wins it. A full line store only costs speed (more
searches). The games counted are checked against ``n * C(4n, 2n)``.

Validation: every game of 4 x 1..5 compared one by one with the reference searches,
totals for 4 x 1..8 against the characterisation's count, random 4 x 9 layouts against
the reference kernel (``tests/claims/witteveen/test_exhaustive.py``). At 4 x 9 the
run decides all 81,676,217,700 games in 72 chunks in a few minutes on one core:
about 110,000 exact searches, 600,000 stored line orders, 145,000 relaxed searches.

**Memo across games.** The exact search memoises losing positions under the
reference kernel's canonical key (leader, the task suit's owner string of live cards
with the task's place, the sorted owner strings of the other suits). The key
determines the rest of the game up to suit relabelling and rank compression, which
neither changes legality nor trick winners, so a losing position is losing in every
game it appears in and the memo is shared by all games of a chunk (cleared when
70 % full).

**Classes and disagreements.** :func:`.characterisation.losing_class` depends on a
non-task holding only through its size and whether player 1 holds the suit's lowest
cards (its *down-set* flag: full suit, majority and "directly winning card" are
functions of these two). The kernel therefore tallies the games and the losing
games by ``(|h1|, |h2|, down flags of the three suits)`` per layout, and the
characterisation is evaluated once per such cell on a representative: losing
games of class ``S1..S4``, losing games it calls winnable, and winnable games it
calls losing, all exact.

References
----------
.. [1] E. Witteveen, "The Crew, a Strategy Analysis", seed ``000``, §3.3, Thm 3.15,
   3.18, Cor 3.21.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any, NamedTuple

import numpy as np

from crewcheck.claims.witteveen import exhaustive_kernel as ek
from crewcheck.claims.witteveen.characterisation import CLASSES, losing_class
from crewcheck.claims.witteveen.kernel import compact_tables
from crewcheck.runtime.kernels import compile_kernel, numba_missing, twin

SUITS = 4
NAMESPACE = "witteveen-exhaustive/v1"
"""Results-store namespace of the chunks (bump the version when a chunk's result changes)."""
LAYOUTS_PER_CHUNK = 64
"""Task-suit holdings per chunk of the ``n = 9`` run (8 chunks per task value, 72 in all)."""
MEMO_BITS = 24
RELAXED_MEMO_BITS = 20
MAX_LINES = 4096
MAX_EXAMPLES = 5


@cache
def pair_table(values: int) -> np.ndarray:
    """``F[h, p, q] = 1`` when the suit with player-1 holding ``h`` (player 2 the rest) has
    ``p`` pairs (player-1 card above a player-2 card) and ``q`` pairs (player-2 card above)
    using ``2(p + q)`` distinct cards.

    Computed by scanning the cards upwards; an unpaired card may wait for a higher card
    of the other player (a pair's low card) or stay unused.
    """
    size = 1 << values
    out = np.zeros((size, values + 1, values + 1), dtype=np.uint8)
    for h in range(size):
        # states: (open P1 low cards, open P2 low cards, p, q)
        states = {(0, 0, 0, 0)}
        for v in range(values):
            mine = h >> v & 1
            nxt = set()
            for o1, o2, p, q in states:
                nxt.add((o1, o2, p, q))
                if mine:
                    nxt.add((o1 + 1, o2, p, q))
                    if o2:
                        nxt.add((o1, o2 - 1, p + 1, q))
                else:
                    nxt.add((o1, o2 + 1, p, q))
                    if o1:
                        nxt.add((o1 - 1, o2, p, q + 1))
            states = nxt
        for _, _, p, q in states:
            out[h, p, q] = 1
    return out


@cache
def _compiled() -> Any:
    return compile_kernel(ek.KERNEL_FUNCTIONS, cache=True, nogil=True)


def kernel(compiled: bool | None = None) -> Any:
    """The kernel functions: compiled (``True``), plain Python (``False``), or compiled
    when numba works (``None``)."""
    if compiled is None:
        compiled = numba_missing() is None
    return _compiled() if compiled else twin(ek.KERNEL_FUNCTIONS)


class Memo(NamedTuple):
    """An open-addressing memo of the kernel: keys, the game stamp of each slot (a slot of
    another game is empty, so a new game needs no clearing), ``state = [stamp, count]``:
    the current game and its entries."""

    keys: np.ndarray
    stamps: np.ndarray
    state: np.ndarray


class Stacks(NamedTuple):
    """Per-depth scratch of the kernel's two searches (row ``d``: depth ``d``)."""

    buf: np.ndarray
    """Candidate leads and follows (both searches)."""
    st: np.ndarray
    """The exact search's explicit stack (:func:`.exhaustive_kernel.go_line`)."""
    cnts: np.ndarray
    """The relaxed game's card counts of the other suits."""
    kids: np.ndarray
    """The relaxed game's moves (:func:`.exhaustive_kernel.relaxed_moves`)."""
    rst: np.ndarray
    """The relaxed search's stack: (key, moves, next move)."""


class Line(NamedTuple):
    """A winning line: ``path[i] = (leader, led card, followed card)``, ``plen[0]`` tricks."""

    path: np.ndarray
    plen: np.ndarray


class LineStore(NamedTuple):
    """The lines found so far, each as player 1's holdings of the three other suits it
    replays on (``lines[k, s, h]``), the third suit's also as bit words; ``scratch``: one
    line's holdings before they are stored."""

    lines: np.ndarray
    words: np.ndarray
    scratch: np.ndarray


class Tally(NamedTuple):
    """What one layout adds up: games and losing games by class, the statistics, and the
    losing triples when ``record`` has rows (``nrecord[0]`` written)."""

    tot: np.ndarray
    lose: np.ndarray
    stats: np.ndarray
    record: np.ndarray
    nrecord: np.ndarray


class Workspace:
    """Buffers of one solver process: memo tables, line store, tallies (the kernel takes
    them as the records :class:`Memo`, :class:`Stacks`, :class:`Line`, :class:`LineStore`
    and :class:`Tally`; numba passes a named tuple as one argument)."""

    def __init__(self, values: int, *, memo_bits: int = MEMO_BITS, relaxed_bits: int = RELAXED_MEMO_BITS,
                 max_lines: int = MAX_LINES, record: int = 0) -> None:
        if not 1 <= values <= 9:
            raise ValueError(f"values must be 1..9, got {values}")
        self.values = values
        size = 1 << values
        nwords = (size + ek.WORD_BITS - 1) // ek.WORD_BITS
        self.tables = compact_tables(values)[0]
        self.pairs = pair_table(values)
        self.keys = np.zeros(1 << memo_bits, dtype=np.int64)
        self.stamps = np.zeros(1 << memo_bits, dtype=np.int64)
        self.memo = np.array([1, 0], dtype=np.int64)
        self.rkeys = np.zeros(1 << relaxed_bits, dtype=np.int64)
        self.rstamps = np.zeros(1 << relaxed_bits, dtype=np.int64)
        self.rmemo = np.array([1, 0], dtype=np.int64)
        self.buf = np.zeros((ek.MAX_DEPTH, 2, 40), dtype=np.int64)
        self.cnts = np.zeros((ek.MAX_DEPTH, 6), dtype=np.int64)
        self.path = np.zeros((ek.MAX_DEPTH, 3), dtype=np.int64)
        self.plen = np.zeros(1, dtype=np.int64)
        self.st = np.zeros((ek.MAX_DEPTH, 8), dtype=np.int64)
        self.kids = np.zeros((ek.MAX_DEPTH, ek.MAX_KIDS, 9), dtype=np.int64)
        self.rst = np.zeros((ek.MAX_DEPTH, 3), dtype=np.int64)
        self.lines = np.zeros((max_lines, 3, size), dtype=np.uint8)
        self.words = np.zeros((max_lines, nwords), dtype=np.int64)
        self.scratch = np.zeros((3, size), dtype=np.uint8)
        self.popwords = np.zeros((values + 1, nwords), dtype=np.int64)
        for h in range(size):
            self.popwords[h.bit_count(), h // ek.WORD_BITS] |= 1 << (h % ek.WORD_BITS)
        self.record = np.zeros((record, 3), dtype=np.int64)
        self.nrecord = np.zeros(1, dtype=np.int64)

    def concrete(self) -> Memo:
        """The exact search's memo."""
        return Memo(self.keys, self.stamps, self.memo)

    def relaxed(self) -> Memo:
        """The relaxed game's memo."""
        return Memo(self.rkeys, self.rstamps, self.rmemo)

    def stacks(self) -> Stacks:
        return Stacks(self.buf, self.st, self.cnts, self.kids, self.rst)

    def line(self) -> Line:
        return Line(self.path, self.plen)

    def new_tallies(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        shape = (self.values + 1, self.values + 1, 2, 2, 2)
        return np.zeros(shape, dtype=np.int64), np.zeros(shape, dtype=np.int64), np.zeros(ek.N_STATS, dtype=np.int64)


def solve_layout(ws: Workspace, task_value: int, h0: int, fns: Any) -> dict[str, Any]:
    """Decide every game of one layout; return its tallies (see :func:`summarise`)."""
    tot, lose, stats = ws.new_tallies()
    ws.nrecord[0] = 0
    fns.solve_layout(task_value - 1, h0, ws.values, ws.tables, ws.pairs, ws.popwords, ws.concrete(), ws.relaxed(),
                     ws.stacks(), ws.line(), LineStore(ws.lines, ws.words, ws.scratch),
                     Tally(tot, lose, stats, ws.record, ws.nrecord))
    if stats[ek.STAT_ERRORS]:
        raise RuntimeError(f"a winning line does not replay on its own game (layout tv={task_value}, h0={h0})")
    return {"tot": tot, "lose": lose, "stats": stats, "losers": [tuple(int(x) for x in r)
                                                                   for r in ws.record[:int(ws.nrecord[0])]]}


def _representative(k: int, down: int, values: int) -> int:
    """A holding of `k` cards that is a down-set (``down = 1``) or not."""
    low = (1 << k) - 1
    return low if down else low << 1


STAT_NAMES = ("kernel_calls", "kernel_losses", "lines", "lines_dropped", "relaxed_searches",
              "relaxed_losing", "pairs", "errors", "record_overflow")


def _empty() -> dict[str, Any]:
    return {"layouts": 0, "games": 0, "losing": 0, "classes": dict.fromkeys(CLASSES, 0),
            "disagree": {"search_losing_char_winnable": 0, "search_winnable_char_losing": 0},
            "examples": [], "stats": dict.fromkeys(STAT_NAMES, 0)}


def summarise(out: dict[str, Any], task_value: int, h0: int, values: int, res: Mapping[str, Any]) -> None:
    """Add one layout's tallies to `out`, classifying each cell by the characterisation."""
    tot, lose = res["tot"], res["lose"]
    need = 2 * values - h0.bit_count()
    out["layouts"] += 1
    for k1, k2, d1, d2, d3 in zip(*np.nonzero(tot)):
        k3 = need - k1 - k2
        n_all, n_lose = int(tot[k1, k2, d1, d2, d3]), int(lose[k1, k2, d1, d2, d3])
        holdings = [h0, _representative(int(k1), int(d1), values), _representative(int(k2), int(d2), values),
                    _representative(int(k3), int(d3), values)]
        cls = losing_class(holdings, 0, task_value, values)
        out["games"] += n_all
        out["losing"] += n_lose
        if cls is None:
            bad = n_lose
            out["disagree"]["search_losing_char_winnable"] += bad
        else:
            out["classes"][cls] += n_lose
            bad = n_all - n_lose
            out["disagree"]["search_winnable_char_losing"] += bad
        if bad and len(out["examples"]) < MAX_EXAMPLES:
            out["examples"].append({"task_value": task_value, "h0": h0, "counts": [int(k1), int(k2), int(k3)],
                                    "down": [int(d1), int(d2), int(d3)], "class": cls, "games": bad})
    for name, v in zip(STAT_NAMES, res["stats"]):
        out["stats"][name] += int(v)


def solve_layouts(values: int, layouts: Iterable[tuple[int, int]], *, compiled: bool | None = None,
                  workspace: Workspace | None = None) -> dict[str, Any]:
    """Decide every game of the given ``(task_value, h0)`` layouts; return the summary."""
    ws = workspace or Workspace(values)
    fns = kernel(compiled)
    out = _empty()
    for tv, h0 in layouts:
        summarise(out, tv, h0, values, solve_layout(ws, tv, h0, fns))
    return out


def merge(parts: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Add up chunk summaries."""
    out = _empty()
    for p in parts:
        for k in ("layouts", "games", "losing"):
            out[k] += p[k]
        for group in ("classes", "disagree", "stats"):
            for k, v in p[group].items():
                out[group][k] += v
        out["examples"] += p["examples"][:MAX_EXAMPLES - len(out["examples"])]
    return out


ENGINES = ("numba", "python")
"""``numba``: the compiled kernel; ``python``: its plain-Python twin (same verdicts, slower)."""


def chunks(values: int, per_chunk: int = LAYOUTS_PER_CHUNK, engine: str = "numba") -> list[dict[str, Any]]:
    """The chunks of the run for `values`: task value and a range of task-suit holdings."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    size = 1 << values
    return [{"values": values, "tv": tv, "h0_from": lo, "h0_to": min(size, lo + per_chunk), "engine": engine}
            for tv in range(1, values + 1) for lo in range(0, size, per_chunk)]


_WORKSPACES: dict[int, Workspace] = {}


def chunk(params: Mapping[str, Any]) -> dict[str, Any]:
    """Chunk function (results store, Dask): the layouts ``tv`` x ``h0_from..h0_to - 1``."""
    values, tv = int(params["values"]), int(params["tv"])
    ws = _WORKSPACES.get(values)
    if ws is None:
        ws = _WORKSPACES[values] = Workspace(values)
    layouts = [(tv, h0) for h0 in range(int(params["h0_from"]), int(params["h0_to"]))]
    engine = params.get("engine", "numba")
    if engine == "numba" and numba_missing() is not None:
        raise ImportError(f"the numba engine is not available: {numba_missing()}")
    return solve_layouts(values, layouts, compiled=engine == "numba", workspace=ws)


def disagreeing_game(example: Mapping[str, Any], values: int, limit: int = 100_000) -> dict[str, Any] | None:
    """A concrete game of a disagreeing group (an entry of a summary's ``examples``): player
    1's hand whose exact-search verdict (reference kernel) differs from the characterisation,
    or ``None`` if none is found among the first `limit` games of the group."""
    from crewcheck.claims.witteveen.kernel import decider

    decide = decider()
    tv, h0 = int(example["task_value"]), int(example["h0"])
    options = []
    for k, down in zip(example["counts"], example["down"]):
        low = (1 << k) - 1
        options.append([low] if down else [sum(1 << v for v in c) for c in itertools.combinations(range(values), k)
                                           if sum(1 << v for v in c) != low])
    for i, (a, b, c) in enumerate(itertools.product(*options)):
        if i >= limit:
            break
        hand1 = h0 | a << values | b << (2 * values) | c << (3 * values)
        win = decide(hand1, tv - 1, values, SUITS)
        cls = losing_class([h0, a, b, c], 0, tv, values)
        if win != (cls is None):
            return {"hand1": hand1, "task_value": tv, "values": values, "search_winnable": win, "class": cls,
                    "case": "A" if h0 >> (tv - 1) & 1 else "B"}
    return None


def games_count(values: int) -> int:
    """``n * C(4n, 2n)``: the games with the task suit fixed."""
    return values * math.comb(SUITS * values, 2 * values)


def run(values: int, run_job: Callable[..., list[Any]], *, engine: str = "numba", label: str = "") -> dict[str, Any]:
    """All games of the ``4 x values`` deck through `run_job` (chunked, resumable)."""
    per = LAYOUTS_PER_CHUNK if values == 9 else 1 << values
    return merge(run_job(NAMESPACE, chunk, chunks(values, per, engine), label=label or f"exhaustive 4x{values}"))
