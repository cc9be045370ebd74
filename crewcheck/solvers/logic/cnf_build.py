"""The SAT process's CNF of a deal, by the fastest builder that encodes it.

What it is
    :func:`build_cnf` gives the clauses of ``ClauseFormula`` after ``encode(instance)``
    (:class:`~crewcheck.solvers.logic.export.ClauseFormula`: the clauses of
    :func:`~crewcheck.solvers.logic.export.to_cnf`, the open tasks as unit clauses at the
    end), clause for clause and with the same variable ids, from the first row of
    :data:`BUILDERS` that handles every feature of the deal (:data:`FEATURES`) and is ready
    in this process:

    ``kernel``
        the compiled kernel of :mod:`.cnf_kernel` (well under a millisecond for a 40-card
        deal); the deals of the hard cells and most of the engine's: fixed or free
        assignment, order tokens in either reading, any lead, mid-game positions. Ready
        once the kernel is loaded in this process (:func:`load_kernel`; a SAT process
        forked from a process that loaded it, or from the fork server, which loads it
        first: :data:`crewcheck.solvers.logic.sat_process.PRELOAD`).
    ``clauses``
        ``encode(instance, formula=ClauseFormula())``, the reference, for everything.

    The encoding a model is decoded with (:func:`crewcheck.solvers.logic.decode.decode`)
    comes from :meth:`BuiltCnf.encoding`: for the kernel, the position's variables made
    again on a plain :class:`~crewcheck.solvers.logic.formula.Formula` (the same ids:
    they are the first the encoder makes), only when a model is read.
Exact
    The same CNF either way; ``tests/solvers/logic/test_cnf_build.py`` compares the two on
    the hard cells, on generated deals and on mid-game positions.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from crewcheck.model.instance import Instance
from crewcheck.model.tasks import TokenKind, token_kind
from crewcheck.runtime import kernels
from crewcheck.solvers.logic import cnf_kernel
from crewcheck.solvers.logic.cnf_clauses import ABSOLUTE, LAST, NONE, RELATIVE, UNIQUE, CnfDeal, Ids, Out
from crewcheck.solvers.logic.encoding import encode
from crewcheck.solvers.logic.export import ClauseFormula
from crewcheck.solvers.logic.formula import Formula, Lit
from crewcheck.solvers.logic.position import Encoding, Position, add_variables, position_of

__all__ = ["BuiltCnf", "CnfBuilder", "FEATURES", "BUILDERS", "features_of", "builder_for", "build_cnf",
           "kernel_arrays", "kernel_cnf", "clause_formula_cnf", "load_kernel"]


@dataclass
class BuiltCnf:
    """A deal's CNF as the SAT process hands it to PySAT."""

    nv: int
    """The largest variable id (auxiliaries included)."""
    clauses: list[list[Lit]]
    """Every clause, the open tasks' unit clauses last."""
    builder: str
    """The :data:`BUILDERS` row that built it."""
    _encoding: Callable[[], Encoding]

    def encoding(self) -> Encoding:
        """The encoding a model of :attr:`clauses` is decoded with."""
        return self._encoding()


class CnfBuilder(NamedTuple):
    """One way to build the CNF: the :data:`FEATURES` it handles, whether it can run in
    this process now, and the builder."""

    name: str
    handles: frozenset[str]
    ready: Callable[[], bool]
    build: Callable[[Instance, Position], BuiltCnf]


_CHOICES = ("distress", "token_move", "handover")
_KERNEL_TOKENS = {TokenKind.ABSOLUTE: ABSOLUTE, TokenKind.RELATIVE: RELATIVE,
                  TokenKind.LAST: LAST}
_MAX_CARDS = 63
"""A set of cards is one int64 in the kernel."""


def _task_card_out_of_play(inst: Instance, pos: Position) -> bool:
    cards = pos.cards
    return any(not cards >> inst.tasks[k].card & 1 for k in pos.tasks)


FEATURES: dict[str, Callable[[Instance, Position], bool]] = {
    "conditions": lambda inst, pos: bool(inst.conditions),
    "covered cards": lambda inst, pos: bool(pos.covers),
    "crew choices": lambda inst, pos: (any(getattr(inst, name) for name in _CHOICES)
                                       or inst.rules.assignment not in ("fixed", "free")),
    "over 63 cards": lambda inst, pos: len(inst.deck.cards) > _MAX_CARDS,
    "no trick left": lambda inst, pos: pos.end <= pos.first,
    "a task card out of play": _task_card_out_of_play,
}
"""What a deal may have that not every builder encodes, by name: whether ``instance`` (at
``position``) has it."""


def features_of(instance: Instance, pos: Position) -> frozenset[str]:
    """The :data:`FEATURES` ``instance`` has."""
    return frozenset(name for name, has in FEATURES.items() if has(instance, pos))


def kernel_arrays(pos: Position) -> tuple[CnfDeal, Ids]:
    """The position as the kernel's record, and the (empty) arrays of its variable ids."""
    import numpy as np

    inst = pos.instance
    deck = inst.deck
    p, n, suits = inst.players, len(deck.cards), len(deck.suits)
    tricks = pos.end - pos.first
    trump = -1 if inst.trump_suit is None else inst.trump_suit
    tasks = [inst.tasks[k] for k in pos.tasks]
    nt = len(tasks)
    kind = [-1] * n
    task_of = [-1] * n
    tokens, ranks = [], []
    for i, task in enumerate(tasks):
        tok = None if task.token is None else token_kind(task.token)
        tokens.append(NONE if tok is None else _KERNEL_TOKENS[tok[0]])
        ranks.append(0 if tok is None else tok[1])
        kind[task.card] = UNIQUE if task.token is not None else (p if task.seat is None else task.seat)
        task_of[task.card] = i

    def ints(xs: Any) -> Any:
        return np.array(xs, dtype=np.int64)

    deal = CnfDeal(
        players=p, suits=suits, cards=n, tricks=tricks, leader=-1 if pos.leader is None else pos.leader,
        trump=trump, hands=ints(pos.hands), fixed=ints(list(pos.fixed.values())),
        suit_of=ints([deck.suit_of(c) for c in range(n)]), suit_mask=ints([deck.suit_mask(u) for u in range(suits)]),
        kind=ints(kind), task_card=ints([t.card for t in tasks]),
        task_seat=ints([-1 if t.seat is None else t.seat for t in tasks]), task_token=ints(tokens),
        task_rank=ints(ranks), task_of=ints(task_of), quotas=ints(pos.quotas or ()),
        done_count=pos.done_count, strict=int(inst.rules.order_rule == "strict"))
    numbered = ABSOLUTE in tokens

    def zeros(size: int) -> Any:
        return np.zeros(size, dtype=np.int64)

    ids = Ids(play=zeros(tricks * n), led=zeros(tricks * suits), winner=zeros(tricks * p), done=zeros(tricks * n),
              higher=zeros(tricks * n), win=zeros(tricks * n), trumped=zeros(tricks), lead=zeros(p),
              task=zeros(nt), owner=zeros(nt * p if pos.quotas is not None else 0),
              completed=zeros(tricks * nt if numbered else 0))
    return deal, ids


_ROOM = [1 << 15, 1 << 14]
"""Literals and clauses the last build needed (the next one starts with that much room)."""


def kernel_cnf(instance: Instance, pos: Position, *, kernel: Any = None) -> BuiltCnf:
    """The CNF written by the kernel (``kernel``: :func:`.cnf_kernel.compiled` or its twin;
    default the compiled one)."""
    import numpy as np

    k = cnf_kernel.compiled() if kernel is None else kernel
    deal, ids = kernel_arrays(pos)
    room = 2 * (deal.cards + len(pos.tasks)) + 64
    while True:
        out = Out(lits=np.empty(_ROOM[0], dtype=np.int64), ends=np.empty(_ROOM[1], dtype=np.int64),
                  state=np.zeros(3, dtype=np.int64), scratch=np.empty(room, dtype=np.int64),
                  guard=np.empty(room, dtype=np.int64))
        k.build(deal, ids, out)
        nlits, nclauses, aux = (int(x) for x in out.state)  # (aux: the next auxiliary's id)
        if nlits <= _ROOM[0] and nclauses <= _ROOM[1]:
            break
        _ROOM[0], _ROOM[1] = max(_ROOM[0], nlits + nlits // 4), max(_ROOM[1], nclauses + nclauses // 4)
    lits = out.lits[:nlits].tolist()
    ends = out.ends[:nclauses].tolist()
    clauses = []
    start = 0
    for end in ends:
        clauses.append(lits[start:end])
        start = end

    def encoding() -> Encoding:
        formula = Formula()
        return Encoding(pos, formula, add_variables(formula, pos))

    return BuiltCnf(aux - 1, clauses, "kernel", encoding)


def clause_formula_cnf(instance: Instance, pos: Position) -> BuiltCnf:
    """The reference: :func:`.encoding.encode` written by a :class:`ClauseFormula`."""
    built = ClauseFormula()
    enc = encode(instance, formula=built)
    cnf = built.cnf(assume=enc.assumptions)
    return BuiltCnf(cnf.nv, cnf.clauses, "clauses", lambda: enc)


def _kernel_ready() -> bool:
    return cnf_kernel.is_loaded()


BUILDERS: tuple[CnfBuilder, ...] = (
    CnfBuilder("kernel", frozenset(), _kernel_ready, kernel_cnf),
    CnfBuilder("clauses", frozenset(FEATURES), lambda: True, clause_formula_cnf),
)
"""The builders, fastest first: a deal goes to the first that handles all its features
and is ready."""


def builder_for(instance: Instance, pos: Position) -> CnfBuilder:
    """The :data:`BUILDERS` row that builds the CNF of ``instance``."""
    have = features_of(instance, pos)
    return next(b for b in BUILDERS if have <= b.handles and b.ready())


def build_cnf(instance: Instance) -> BuiltCnf:
    """The CNF of "the position after ``instance.history`` can be won" with the task
    assumptions as unit clauses (module docstring)."""
    pos = position_of(instance)
    return builder_for(instance, pos).build(instance, pos)


def load_kernel() -> float | None:
    """Load the compiled kernel now (import numba, load the cached machine code) by
    building a two-card deal's CNF; the seconds it took, or ``None`` without numba or when
    it is already loaded."""
    if cnf_kernel.is_loaded() or kernels.numba_missing() is not None:
        return None  # (with numba switched off, "compiled" would be the plain twin)
    t0 = time.perf_counter()
    try:
        kernel = cnf_kernel.compiled()
    except ImportError:
        return None
    from crewcheck.model.cards import Deck
    from crewcheck.model.tasks import Task

    tiny = Instance(Deck.from_sizes({"B": 2}), (0b10, 0b01), (Task(0, 0),), lead=0)
    kernel_cnf(tiny, position_of(tiny), kernel=kernel)
    return time.perf_counter() - t0
