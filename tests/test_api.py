"""The Python API checks its arguments: :func:`crewcheck.decide` says what it got, a time
limit follows one rule for every back-end, and constructors refuse negative, boolean and
out-of-range values instead of looping or failing deep inside."""

from __future__ import annotations

import math
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import crewcheck
from crewcheck import Budget, Card, Deck, Instance, Rules, Task, Verdict, decide
from crewcheck.errors import InvalidInputError, UnknownRulesError
from crewcheck.solvers import registry
from crewcheck.solvers.base import time_limit

ROOT = Path(__file__).resolve().parents[1]
FIGURE1 = ROOT / "models" / "deals" / "reiber-figure-1.json"
SMALL = '{"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}'
DECK = Deck.from_sizes({"B": 2})


@contextmanager
def within(seconds: int) -> Iterator[None]:
    """Fail (instead of hanging the suite) if the block takes longer than ``seconds``."""
    def expired(*_: object) -> None:
        raise TimeoutError(f"took more than {seconds} s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# -- decide() and its deal argument ----------------------------------------------------
def test_decide_takes_a_path_or_a_mapping_as_well_as_an_instance() -> None:
    """A path (str or Path) is read with load(), a mapping with from_dict(): the same verdict."""
    deal = crewcheck.load(FIGURE1)
    expected = decide(deal).verdict
    assert decide(str(FIGURE1)).verdict is expected
    assert decide(FIGURE1).verdict is expected
    assert decide(crewcheck.to_dict(deal)).verdict is expected


@pytest.mark.parametrize("bad", [None, 42, b"{}", ["B1"], object()])
def test_decide_refuses_what_is_not_a_deal_with_a_type_error(bad: object) -> None:
    """Not an AttributeError from deep inside: a TypeError naming what decide takes."""
    with pytest.raises(TypeError, match="decide\\(\\) takes an Instance, a deal mapping or a file path"):
        decide(bad)  # type: ignore[arg-type]


def test_decide_on_json_text_points_to_loads() -> None:
    with pytest.raises(TypeError, match="crewcheck.loads"):
        decide(SMALL)


def test_decide_on_a_missing_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="nope.json: cannot read file"):
        decide(str(tmp_path / "nope.json"))


def test_decide_on_an_invalid_mapping_names_the_field() -> None:
    with pytest.raises(InvalidInputError, match=r"tasks\[0\]\.seat"):
        decide({"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 1.0}]})


# -- one rule for a time limit -----------------------------------------------------------
@pytest.mark.parametrize("value", ["abc", True, [1], "1"])
def test_a_timeout_that_is_not_a_number_is_a_type_error(value: object) -> None:
    with pytest.raises(TypeError, match="timeout must be a number of seconds"):
        decide(crewcheck.loads(SMALL), timeout=value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [0, 0.0, -1, -1e-9, math.nan, math.inf, -math.inf, 10**400])
@pytest.mark.parametrize("backend", ["exhaustive", "search", "engine", "z3", "cpsat", "sat"])
def test_every_backend_refuses_the_same_bad_timeouts(value: float, backend: str) -> None:
    """nan, infinity, zero and negatives are refused before any back-end runs, so the
    back-ends cannot disagree on them (left to each, nan would mean "no limit" to search and
    "unknown" to cpsat; -1 "winnable" to z3 and "unknown" to sat; inf an OverflowError)."""
    if registry.missing(backend) is not None:
        pytest.skip(f"{backend} not installed")
    with pytest.raises(InvalidInputError, match="positive finite number of seconds"):
        decide(crewcheck.loads(SMALL), backend=backend, timeout=value)


def test_time_limit_rule() -> None:
    assert time_limit(None) is None and time_limit(3) == 3.0 and time_limit(0.25) == 0.25
    assert time_limit(0, allow_zero=True) == 0.0
    with pytest.raises(InvalidInputError):
        time_limit(0)


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"seconds": math.nan}, InvalidInputError), ({"seconds": math.inf}, InvalidInputError),
    ({"seconds": -1}, InvalidInputError), ({"seconds": "1"}, TypeError), ({"nodes": -1}, InvalidInputError),
    ({"nodes": 1.5}, TypeError), ({"nodes": True}, TypeError)])
def test_budget_checks_its_fields(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        Budget(**kwargs)  # type: ignore[arg-type]


def test_a_spent_budget_is_allowed_inside() -> None:
    """Back-ends pass on what is left of a deadline, which can be nothing."""
    assert Budget(seconds=0).seconds == 0.0


@pytest.mark.parametrize("budget", ["1", 1.0, {"seconds": 1}])
def test_decide_refuses_a_budget_that_is_not_one(budget: object) -> None:
    with pytest.raises(TypeError, match="budget must be a Budget"):
        decide(crewcheck.loads(SMALL), budget=budget)  # type: ignore[arg-type]


# -- constructors ----------------------------------------------------------------------
CONSTRUCTOR_CASES: list[tuple[str, Callable[[], object], type[Exception], str]] = [
    ("negative hand", lambda: Instance(DECK, (-1, 2)), InvalidInputError, r"hands\[0\]"),
    ("hand outside the deck", lambda: Instance(DECK, (1, 6)), InvalidInputError, r"hands\[1\]"),
    ("bool hand", lambda: Instance(DECK, (True, 2)), InvalidInputError, r"hands\[0\]"),
    ("negative history", lambda: Instance(DECK, (1, 2), history=(-1,)), InvalidInputError, "card index"),
    ("history past the deck", lambda: Instance(DECK, (1, 2), history=(5,)), InvalidInputError, "card index"),
    ("bool task seat", lambda: Task(0, True), InvalidInputError, "seat"),
    ("float task seat", lambda: Task(0, 1.0), InvalidInputError, "seat"),  # type: ignore[arg-type]
    ("negative task seat", lambda: Task(0, -1), InvalidInputError, "seat"),
    ("negative task card", lambda: Task(-1, 0), InvalidInputError, "card"),
    ("token not a string", lambda: Task(0, 0, 1), InvalidInputError, "token"),  # type: ignore[arg-type]
    ("unknown order rule", lambda: Rules("weird", "fixed"), UnknownRulesError, "weird"),  # type: ignore[arg-type]
    ("unknown assignment", lambda: Rules("strict", "open"), UnknownRulesError, "open"),  # type: ignore[arg-type]
    ("negative suit size", lambda: Deck.from_sizes({"B": -1}), InvalidInputError, "deck.B"),
    ("zero suit size", lambda: Deck.from_sizes({"B": 0}), InvalidInputError, "deck.B"),
    ("float suit size", lambda: Deck.from_sizes({"B": 2.0}), InvalidInputError, "deck.B"),  # type: ignore[dict-item]
    ("bool suit size", lambda: Deck.from_sizes({"B": True}), InvalidInputError, "deck.B"),
    ("huge suit size", lambda: Deck.from_sizes({"B": 10**9}), InvalidInputError, "limit of 4096 cards"),
    ("values not ascending", lambda: Deck(("B",), ((2, 1),)), InvalidInputError, "ascend"),
    ("suit twice", lambda: Deck(("B", "B"), ((1,), (2,))), InvalidInputError, "twice"),
    ("bad suit name", lambda: Deck(("B1",), ((1,),)), InvalidInputError, "letters"),
    ("card value 0", lambda: Card("B", 0), InvalidInputError, "card value"),
    ("card value bool", lambda: Card("B", True), InvalidInputError, "card value"),
    ("too many seats", lambda: Instance(Deck.from_sizes({"B": 65}), tuple(1 << i for i in range(65))),
     InvalidInputError, "limit of 64"),
]


@pytest.mark.parametrize(("build", "error", "match"), [c[1:] for c in CONSTRUCTOR_CASES],
                         ids=[c[0] for c in CONSTRUCTOR_CASES])
def test_constructors_refuse_bad_values(build: Callable[[], object], error: type[Exception], match: str) -> None:
    """Each is refused at once with the error named, rather than accepted, looping forever
    (``hands=(-1, 2)``) or failing far away (``history=(-1,)``: "negative shift count")."""
    with within(5):
        t0 = time.perf_counter()
        with pytest.raises(error, match=match):
            build()
    assert time.perf_counter() - t0 < 1


def test_card_parse_takes_the_whole_text() -> None:
    """``$`` in a Python regex matches before a final newline: a card is the whole text."""
    assert Card.parse("b4") == Card("B", 4)
    for text in ("B4\n", " B4", "B4 ", "B4\r", "B" + "9" * 5000):
        with pytest.raises(InvalidInputError):
            Card.parse(text)


def test_the_verdict_is_unchanged_by_the_checks() -> None:
    """A valid deal built by hand still decides."""
    deal = Instance(Deck.from_sizes({"B": 4}), (0b0101, 0b1010), (Task(2, 0),))
    assert decide(deal, backend="exhaustive").verdict is Verdict.WINNABLE


@pytest.mark.parametrize("card", [-1, 4, True, 1.0, "B1", None])
def test_apply_and_replay_refuse_what_is_not_a_card_index(card: object) -> None:
    """``State.apply(-1)`` raised "negative shift count"; ``replay`` read ``-1`` as the
    deck's last card (Python's negative indexing) and ``True`` as card 1."""
    from crewcheck.errors import IllegalPlayError

    deal = crewcheck.loads(SMALL)
    with pytest.raises(IllegalPlayError, match="is not a card index of this deal"):
        deal.state().apply(card)  # type: ignore[arg-type]
    with pytest.raises(IllegalPlayError, match="is not a card index of this deal"):
        crewcheck.replay(deal, (card,))  # type: ignore[arg-type]


def test_apply_and_replay_take_numpy_ints() -> None:
    np = pytest.importorskip("numpy")
    deal = crewcheck.loads(SMALL)
    assert deal.state().apply(np.int64(0)) == deal.state().apply(0)
    assert crewcheck.replay(deal, tuple(np.int64(c) for c in (0, 3, 1, 2))).won


def test_a_deal_with_choices_is_not_charged_the_kernel_loading(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal that leaves the crew a choice is timed like a concrete deal: the compiled
    kernel's first loading that a variant's decision reports is left out of the deal's
    seconds and reported as ``kernel_load_seconds``."""
    import dataclasses

    import crewcheck.api as api
    from crewcheck.formats import deal_json

    real = api.decide

    def loading(deal: object, *args: object, **kwargs: object) -> object:
        r = real(deal, *args, **kwargs)  # type: ignore[arg-type]
        if isinstance(deal, Instance) and deal.is_concrete():
            time.sleep(0.2)
            return dataclasses.replace(r, stats=dataclasses.replace(
                r.stats, extra={**r.stats.extra, "kernel_load_seconds": 0.2}))
        return r

    monkeypatch.setattr(api, "decide", loading)
    # the hand-over (five players) leaves the crew a choice; seat 4 can win nothing it needs
    inst = deal_json.from_dict({"hands": [["B1"], ["B2"], ["B3"], ["B4"], ["B5"]], "lead": 0,
                                "tasks": [{"card": "B5", "seat": 0}], "handover": True})
    assert not inst.is_concrete()
    r = loading(inst, backend="exhaustive")
    tried = r.stats.extra["variants_tried"]  # type: ignore[attr-defined]
    assert tried >= 2
    assert r.stats.extra["kernel_load_seconds"] == pytest.approx(0.2 * tried)  # type: ignore[attr-defined]
    assert r.stats.seconds < 0.2  # type: ignore[attr-defined]
