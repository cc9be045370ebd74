"""The table of kinds the search judges (:data:`SEARCH_KINDS`) and the kernel's record of a
deal's conditions (:func:`build`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from crewcheck.model import conditions as C
from crewcheck.model.conditions import Judgement
from crewcheck.model.instance import Instance
from crewcheck.model.state import State
from crewcheck.solvers.search.conditions.codes import (
    CMP_CODES, CMP_GE, CONSECUTIVE_ONLY, KEY_BITS, K_ALL_OF_A_SUIT, K_AS_MANY_TRICKS, K_BALANCED, K_COMPARES_CARDS,
    K_CONSECUTIVE, K_EACH_TRUMP, K_LEADS_NO_CARDS, K_NO_TRICKS_AT, K_NO_TRICK_WON_WITH, K_TASK_IN_TRICK, K_TRICK_WHERE,
    K_TRICK_WON_WITH, K_WINS_ALL_CARDS, K_WINS_CARDS, K_WINS_FEWER, K_WINS_NO_CARDS, K_WINS_NO_TRICKS, K_WINS_TOGETHER,
    K_WINS_TRICKS, K_WINS_TRICKS_AT, SEAT_BITS, TALLY_ZERO, WHERE_HOLDING, WHERE_SUITS, WHERE_TOTAL, WHERE_WON_WITH,
)
from crewcheck.solvers.search.records import CondArrays


Row = tuple[int, int, int, int, int, int]
"""``(seat, other, num, flags, mask, tricks)`` of one condition (unused fields 0; see :class:`CondArrays`)."""


def _count_bits(inst: Instance) -> int:
    return max(1, inst.tricks.bit_length())


def _judgement(memo: Hashable) -> int:
    return int(memo) if isinstance(memo, Judgement) else 0


def _flag(memo: Hashable) -> int:
    return 1 if memo else 0


def _int(memo: Hashable) -> int:
    assert isinstance(memo, int)
    return memo


def _suit_mask(inst: Instance, suit: str) -> int:
    return inst.deck.suit_mask(inst.deck.suit_index(suit))


def trump_mask(inst: Instance) -> int:
    return 0 if inst.trump_suit is None else inst.deck.suit_mask(inst.trump_suit)


def _trick_bits(refs: tuple[C.TrickRef, ...]) -> tuple[int, int]:
    """The listed tricks as a mask (bit t: trick t; bit 0: the last), and the highest number."""
    m, top = 0, 0
    for t in refs:
        if t == "last":
            m |= 1
        else:
            m |= 1 << int(t)
            top = max(top, int(t))
    return m, top


def _balance(memo: Hashable) -> int:
    counts: tuple[int, ...] = memo  # type: ignore[assignment]
    low = min(counts)
    return sum((v - low) << (SEAT_BITS * s) for s, v in enumerate(counts))


@dataclass(frozen=True)
class SearchKind:
    """How the search judges one condition kind (one row of :data:`SEARCH_KINDS`)."""

    code: int
    """The kind's code in :func:`cond_step` and :func:`cond_judge`."""
    encode: Callable[[Any, Instance], Row]
    """The condition's fields as ``(seat, other, num, flags, mask, tricks)``."""
    memo: Callable[[Hashable], int]
    """The model's memo (``Condition.step``'s value) as the kernel's int."""
    bits: Callable[[Any, Instance], int]
    """Bits the kernel's memo can take (its room in the position key)."""
    fits: Callable[[Any, Instance], bool] = lambda cond, inst: True
    """Whether the kernel's ints can hold this condition on ``inst`` (else: not judged here)."""
    extra: Callable[[Any, Instance], tuple[int, ...]] = lambda cond, inst: ()
    """Its further ints, for a kind that needs more than a row (at ``cond.extra[cond.at[i]]``)."""
    renamable: Callable[[Any, Instance], bool] = lambda cond, inst: False
    """Whether the condition sees the cards only through their suits and who wins each
    trick: renaming the cards of a suit in play, keeping their order and holders, changes
    neither its memos nor its judgement (then the relative-rank key may stand for it)."""


_NO_TOTAL = 1 << 40
"""Beyond any total of a trick's values (an unbounded ``total_min`` / ``total_max``)."""


def _where_row(c: C.WinsTrickWhere, inst: Instance) -> Row:
    flags = ((WHERE_WON_WITH if c.won_with is not None else 0) | (WHERE_HOLDING if c.holding is not None else 0)
             | (WHERE_TOTAL if c.total_min is not None or c.total_max is not None else 0)
             | (WHERE_SUITS if c.suit is not None and c.other_suit is not None else 0))
    assert isinstance(c.seat, int), "a concrete deal (the crew's choices made)"
    return (c.seat, 0, 0, flags, C.cards_mask(c.won_with), 0)


def _where_extra(c: C.WinsTrickWhere, inst: Instance) -> tuple[int, ...]:
    """``holding``, ``only`` (-1: every card), ``total_min``, ``total_max``, the two suits' masks."""
    both = c.suit is not None and c.other_suit is not None
    return (C.cards_mask(c.holding), -1 if c.only is None else C.cards_mask(c.only),
            -_NO_TOTAL if c.total_min is None else c.total_min, _NO_TOTAL if c.total_max is None else c.total_max,
            _suit_mask(inst, c.suit) if both and c.suit is not None else 0,
            _suit_mask(inst, c.other_suit) if both and c.other_suit is not None else 0)


def _yes(cond: Any, inst: Instance) -> bool:
    return True


def _whole_suits(mask: int, inst: Instance) -> bool:
    """``mask`` is a union of whole suits of the deck."""
    return all(mask & m in (0, m) for m in inst.deck.suit_masks)


def _target_suits(cond: Any, inst: Instance) -> bool:
    return _whole_suits(cond.target(inst), inst)


def _one(cond: Any, inst: Instance) -> int:
    return 1


def _two(cond: Any, inst: Instance) -> int:
    return 2


def _count(cond: Any, inst: Instance) -> int:
    return _count_bits(inst)


SEARCH_KINDS: dict[str, SearchKind] = {
    "wins_no_tricks": SearchKind(
        K_WINS_NO_TRICKS, lambda c, inst: (c.seat, 0, 0, 0, 0, 0), _flag, _one, renamable=_yes),
    "wins_tricks": SearchKind(
        K_WINS_TRICKS, lambda c, inst: (c.seat, 0, c.count, CMP_CODES[c.cmp], 0, 0), _int, _count,
        renamable=_yes),
    "wins_fewer_tricks_than": SearchKind(
        K_WINS_FEWER, lambda c, inst: (c.seat, c.other, 0, 0, 0, 0),
        lambda m: m[0] | m[1] << 8,  # type: ignore[index]
        lambda c, inst: 16, lambda c, inst: inst.tricks < 256, renamable=_yes),
    "wins_no_cards": SearchKind(
        K_WINS_NO_CARDS, lambda c, inst: (c.seat, 0, 0, 0, c.target(inst), 0), _flag, _one,
        renamable=_target_suits),
    "wins_all_cards": SearchKind(
        K_WINS_ALL_CARDS,
        lambda c, inst: (c.seat, 0, 0, 1 if c.played_only else 0, c.target(inst), 0),
        _flag, _one, renamable=_target_suits),
    "trick_won_with": SearchKind(
        K_TRICK_WON_WITH,
        lambda c, inst: (-1 if c.seat is None else c.seat, 0, c.count, 0,
                         C.value_mask(inst, c.value, c.trump), 0), _int, _count),
    "no_trick_won_with": SearchKind(
        K_NO_TRICK_WON_WITH, lambda c, inst: (0, 0, 0, 0, C.value_mask(inst, c.value), 0), _flag, _one),
    "each_trump_wins_a_trick": SearchKind(
        K_EACH_TRUMP, lambda c, inst: (0, 0, 0, 1 if c.in_order else 0, trump_mask(inst), 0),
        lambda m: _flag(m[0]) | m[1] << 1,  # type: ignore[index]
        lambda c, inst: 1 + max(v for vals in inst.deck.values for v in vals).bit_length()),
    "wins_tricks_at": SearchKind(
        K_WINS_TRICKS_AT,
        lambda c, inst: (c.seat, 0, _trick_bits(c.tricks)[1],
                         (1 if c.only else 0) | (2 if c.not_with_trump else 0), trump_mask(inst),
                         _trick_bits(c.tricks)[0]), _flag, _one,
        lambda c, inst: inst.tricks < 62, renamable=_yes),
    "balanced_tricks": SearchKind(
        K_BALANCED, lambda c, inst: (0, 0, c.margin, 0, 0, 0), _balance,
        lambda c, inst: SEAT_BITS * inst.players,
        lambda c, inst: inst.tricks < (1 << SEAT_BITS) and SEAT_BITS * inst.players <= 62, renamable=_yes),
    "task_in_trick": SearchKind(
        K_TASK_IN_TRICK, lambda c, inst: (0, 0, 0 if c.trick == "last" else c.trick, 0, 1 << c.card, 0),
        _judgement, _two),
    "wins_together": SearchKind(
        K_WINS_TOGETHER, lambda c, inst: (c.seat, 0, 0, 0, C.cards_mask(c.cards), 0), _judgement, _two),
    "wins_cards": SearchKind(
        K_WINS_CARDS, lambda c, inst: (c.seat, 0, c.count, CMP_CODES[c.cmp], c.target(inst), 0), _int,
        lambda c, inst: max(1, c.target(inst).bit_count().bit_length()), renamable=_target_suits),
    "compares_cards_won": SearchKind(
        K_COMPARES_CARDS, lambda c, inst: (c.seat, c.at_least, c.margin, CMP_CODES[c.cmp], c.masks(inst)[0], 0),
        lambda m: m[0] | m[1] << 8,  # type: ignore[index]
        lambda c, inst: 16, lambda c, inst: all(m.bit_count() < 256 for m in c.masks(inst)),
        lambda c, inst: (c.masks(inst)[1],),
        lambda c, inst: all(_whole_suits(m, inst) for m in c.masks(inst))),
    "wins_trick_where": SearchKind(K_TRICK_WHERE, _where_row, _flag, _one, extra=_where_extra),
    "wins_consecutive_tricks": SearchKind(
        K_CONSECUTIVE,
        lambda c, inst: (c.seat, 0, c.count, CMP_CODES[c.cmp] | (CONSECUTIVE_ONLY if c.only else 0), 0, 0),
        lambda m: m[0] | m[1] << 8 | min(m[2], 2) << 16,  # type: ignore[index]
        lambda c, inst: 18, lambda c, inst: inst.tricks < 256, renamable=_yes),
    "wins_no_tricks_at": SearchKind(
        K_NO_TRICKS_AT, lambda c, inst: (c.seat, 0, _trick_bits(c.tricks)[1], 0, 0, _trick_bits(c.tricks)[0]),
        _flag, _one, lambda c, inst: inst.tricks < 62, renamable=_yes),
    "wins_as_many_tricks_as": SearchKind(
        K_AS_MANY_TRICKS, lambda c, inst: (c.seat, c.other, 0, 0, 0, 0),
        lambda m: m[0] - m[1] + TALLY_ZERO,  # type: ignore[index]
        lambda c, inst: 8, lambda c, inst: inst.tricks < TALLY_ZERO, renamable=_yes),
    "wins_more_than_the_rest": SearchKind(  # at least half the tricks and one more: wins_tricks ">="
        K_WINS_TRICKS, lambda c, inst: (c.seat, 0, inst.tricks // 2 + 1, CMP_GE, 0, 0), _int, _count,
        renamable=_yes),
    "wins_all_cards_of_a_suit": SearchKind(
        K_ALL_OF_A_SUIT,
        lambda c, inst: (c.seat, len(inst.deck.suits), sum(1 << u for u in c.suits(inst)), 0, 0, 0), _int,
        lambda c, inst: len(inst.deck.suits), lambda c, inst: len(inst.deck.suits) <= 62,
        lambda c, inst: tuple(inst.deck.suit_masks), _yes),
    "leads_no_cards": SearchKind(
        K_LEADS_NO_CARDS, lambda c, inst: (c.seat, 0, 0, 0, _suit_mask(inst, c.suit), 0), _flag, _one,
        renamable=_yes),
}
"""Every condition kind the search judges itself, by its JSON name."""


def unknown_kinds(instance: Instance) -> list[str]:
    """The kinds of ``instance``'s conditions the search cannot judge (sorted, no repeats):
    no row in :data:`SEARCH_KINDS`, a row whose ints cannot hold it on this deal, or more
    memo bits than the position key has room for."""
    out: set[str] = set()
    bits = 0
    for cond in instance.conditions:
        row = SEARCH_KINDS.get(cond.kind)
        if row is None or not row.fits(cond, instance):
            out.add(cond.kind)
            continue
        need = row.bits(cond, instance)
        if bits // 63 != (bits + need - 1) // 63:
            bits = (bits // 63 + 1) * 63  # a memo never straddles two words
        bits += need
        if bits > KEY_BITS:
            out.add(cond.kind)
    return sorted(out)


def renamable(instance: Instance, room: int = 63) -> bool:
    """Every condition the search judges on ``instance`` is renamable
    (:attr:`SearchKind.renamable`) and their memos fit in ``room`` bits: a relative-rank
    key with the memos added then names one game up to renaming cards."""
    unknown = set(unknown_kinds(instance))
    bits = 0
    for cond in instance.conditions:
        if cond.kind in unknown:
            continue
        row = SEARCH_KINDS[cond.kind]
        if not row.renamable(cond, instance):
            return False
        bits += row.bits(cond, instance)
    return bits <= room


def _arrays(compiled: bool) -> Callable[[list[int]], Any]:
    if compiled:
        import numpy as np

        return lambda values: np.array(values, dtype=np.int64)
    return list


def build(instance: Instance, state: State, compiled: bool, *, relax: bool = False) -> CondArrays:
    """The kernel's record of ``instance``'s conditions, with their memos at ``state``.

    ``relax``: leave out the conditions :func:`unknown_kinds` names (the search then
    decides a relaxation); otherwise such a condition raises :class:`ValueError`.
    """
    unknown = set(unknown_kinds(instance))
    if unknown and not relax:
        raise ValueError(f"the search does not judge the condition kind(s) {', '.join(sorted(unknown))}")
    rows: list[tuple[int, Row]] = []
    memos: list[int] = []
    extra: list[int] = []
    at: list[int] = []
    for cond, memo in zip(instance.conditions, state.memos):
        if cond.kind in unknown:
            continue
        kind = SEARCH_KINDS[cond.kind]
        rows.append((kind.code, kind.encode(cond, instance)))
        memos.append(kind.memo(memo))
        at.append(len(extra))
        extra.extend(kind.extra(cond, instance))
    shifts: list[int] = []
    bits = 0
    for cond in instance.conditions:
        if cond.kind in unknown:
            continue
        need = SEARCH_KINDS[cond.kind].bits(cond, instance)
        if bits // 63 != (bits + need - 1) // 63:
            bits = (bits // 63 + 1) * 63
        shifts.append(bits)
        bits += need
    named = 0
    for cond in instance.conditions:
        named |= cond.named(instance)
    return _record(instance, rows, shifts, memos, named, compiled, at, extra)


def _record(instance: Instance, rows: list[tuple[int, Row]], shifts: list[int], memos: list[int], named: int,
            compiled: bool, at: list[int], extra: list[int]) -> CondArrays:
    arr = _arrays(compiled)
    pad = [0]  # never an empty array: one numba type for every deal

    def col(j: int) -> Any:
        return arr([r[1][j] for r in rows] + pad)

    return CondArrays(
        n=len(rows),
        code=arr([r[0] for r in rows] + pad),
        seat=col(0), other=col(1), num=col(2), flags=col(3), mask=col(4), tricks=col(5),
        at=arr(at + pad), extra=arr(extra + pad),
        shift=arr(shifts + pad),
        memo0=arr(memos + pad),
        value_of=arr([card.value for card in instance.deck.cards]),
        players=instance.players,
        tricks_total=instance.tricks,
        named=named,
    )


def describe_relaxation(instance: Instance) -> str | None:
    """``None`` when the search judges every condition of ``instance``, else which kinds it leaves out."""
    unknown = unknown_kinds(instance)
    if not unknown:
        return None
    return f"the search leaves out the condition kind(s) {', '.join(unknown)} (a relaxation)"
