"""The search's problem: a deal and its current position as the kernel's ints and arrays,
built once per run from the :class:`~crewcheck.model.instance.Instance` and its
:class:`~crewcheck.model.state.State`.

:class:`DealArrays` is what the kernel reads and never changes, :class:`Workspace` the
scratch arrays it writes, and :class:`Problem` holds both with the start position, of
which each round of the search gets fresh copies (the kernel plays on them). Both are
records of :mod:`.records`, which the kernel reads by field name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crewcheck.model.derived import quotas_left
from crewcheck.model.instance import Instance
from crewcheck.model.state import State
from crewcheck.model.tasks import TokenKind, token_kind
from crewcheck.solvers.search import conditions as search_conditions
from crewcheck.solvers.search.cuts import PRED
from crewcheck.solvers.search.kernel import FRAME_SIZE, MAXM, STAT_SIZE
from crewcheck.solvers.search.partition import applies
from crewcheck.solvers.search.records import DealArrays, Workspace
from crewcheck.solvers.search.table import KEY_WORDS

__all__ = ["Problem"]

_KIND_CODE = {TokenKind.ABSOLUTE: 1, TokenKind.RELATIVE: 2, TokenKind.LAST: 3}


@dataclass(frozen=True, slots=True)
class Problem:
    """One run of the search: the deal's arrays and the start position.

    ``compiled``: arrays are int64 numpy arrays (for the compiled kernel), else lists.
    """

    deal: DealArrays
    hands: tuple[int, ...]
    quota: tuple[int, ...]
    """Tasks each seat still takes (free assignment; zeros otherwise)."""
    trick: tuple[int, ...]
    depth_max: int
    """Search depths: one per card still held, and one more."""
    compiled: bool

    @classmethod
    def build(cls, instance: Instance, state: State, *, compiled: bool, canonical: bool,
              relax: bool = False, partition: bool = False) -> Problem:
        """The problem of deciding ``state`` (a position of ``instance``); ``canonical``
        asks for relative-rank table keys where the key layout allows them (with
        conditions only when all are renamable, :func:`.conditions.renamable`, and their
        memos fit in the key's third word above the cards it holds); ``relax`` leaves out
        the conditions the search cannot judge (:func:`.conditions.build`); ``partition``
        asks for the partition table where the deal allows it (:func:`.partition.applies`)."""
        deck = instance.deck
        p = instance.players
        tasks = instance.tasks
        ntasks = len(tasks)
        free = 1 if instance.rules.assignment == "free" else 0
        quota = list(quotas_left(state) or (0,) * p)
        tseat = [(-1 if t.seat is None else t.seat) for t in tasks]
        tkind = [0] * ntasks
        trank = [0] * ntasks
        for i, t in enumerate(tasks):
            if t.token is not None:
                kind, rank = token_kind(t.token)
                tkind[i] = _KIND_CODE[kind]
                trank[i] = rank
        card_task = [-1] * deck.size
        task_cards = 0
        for i, t in enumerate(tasks):
            card_task[t.card] = i
            task_cards |= 1 << t.card
        own = [0] * p
        for t in tasks:
            if t.seat is not None:
                own[t.seat] |= 1 << t.card
        suit_mask = list(deck.suit_masks)
        in_hands = sum(h.bit_count() for h in state.hands)
        sizes = [m.bit_count() for m in suit_mask]
        cond = search_conditions.build(instance, state, compiled, relax=relax)
        width, per = (3, 20) if p <= 4 else (4, 15)  # the relative key's cards (kernel.position_key)
        taken = width * max(0, in_hands - 2 * per)  # bits of its third word the cards take
        renamed = cond.n == 0 or (taken < 63 and search_conditions.renamable(instance, 63 - taken))
        canon = 1 if (canonical and renamed and p <= 5 and len(sizes) <= 8 and max(sizes) <= 15
                      and in_hands <= 3 * per) else 0
        if canon and cond.n:  # the memos above the cards in that word
            cond = cond._replace(shift=_arrays(compiled)([int(x) + taken for x in cond.shift]))
        arr = _arrays(compiled)
        deal = DealArrays(
            players=p,
            tlen0=len(state.trick),
            leader=-1 if state.leader is None else state.leader,
            done=state.done,
            free=free,
            all_done=(1 << ntasks) - 1,
            tseat=arr(tseat),
            tkind=arr(tkind),
            trank=arr(trank),
            ntasks=ntasks,
            card_task=arr(card_task),
            suit_of=arr(list(deck.suit_of_table)),
            suit_mask=arr(suit_mask),
            trump=-1 if instance.trump_suit is None else instance.trump_suit,
            strict=1 if instance.rules.order_rule == "strict" else 0,
            has_tokens=1 if any(t.token is not None for t in tasks) else 0,
            task_cards=task_cards,
            own_mask=arr(own),
            canon=canon,
            holder=arr(list(instance.holder)),
            covers=arr([c for pair in instance.covered for c in pair] + [-1]),
            covering=_covering(instance),
            cond=cond,
            part=1 if partition and applies(p, sizes, free, cond.n, len(instance.covered)) else 0,
        )
        return cls(deal, tuple(state.hands), tuple(quota), tuple(state.trick), in_hands + 1, compiled)

    def round_arrays(self) -> tuple[Any, Any, Any]:
        """Fresh ``hands``, ``seq`` and ``quota`` for one call of the kernel, which plays on them."""
        arr = _arrays(self.compiled)
        return arr(list(self.hands)), arr(list(self.trick) + [0] * self.depth_max), arr(list(self.quota))

    def workspace(self) -> Workspace:
        """Zeroed scratch arrays for the kernel, sized for this problem."""
        zeros = _zeros(self.compiled)
        d = self.depth_max
        return Workspace(
            key=zeros(KEY_WORDS),
            moves=zeros(d * MAXM),
            scores=zeros(d * MAXM),
            nmoves=zeros(d),
            midx=zeros(d),
            sv_leader=zeros(d),
            sv_seat=zeros(d),
            sv_done=zeros(d),
            sv_qg=zeros(d),
            sv_waste=zeros(d),
            sv_flag=zeros(d),
            release=zeros(2 * PRED),
            cmemo=zeros(self.deal.cond.n + 1),
            sv_cmemo=zeros(d * self.deal.cond.n + 1),
            rel=zeros(d),
            stats=zeros(STAT_SIZE),
            frame=zeros(FRAME_SIZE),
        )


def _covering(instance: Instance) -> int:
    """The cards that cover another (:attr:`~crewcheck.model.instance.Instance.covered`)."""
    out = 0
    for _, high in instance.covered:
        out |= 1 << high
    return out


def _arrays(compiled: bool) -> Any:
    """``list -> int64 array`` for the compiled kernel, ``list -> list`` for the twin.

    numpy is imported here, not at the top: the plain kernel's first try on a fresh
    ``crewcheck decide`` (:data:`~crewcheck.solvers.search.driver.WARM_START_NODES`)
    answers easy deals before numpy and numba are loaded."""
    if compiled:
        import numpy as np

        return lambda values: np.array(values, dtype=np.int64)
    return list


def _zeros(compiled: bool) -> Any:
    if compiled:
        import numpy as np

        return lambda n: np.zeros(n, dtype=np.int64)
    return lambda n: [0] * n
