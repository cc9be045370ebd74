"""The SAT process's CNF builders (:mod:`crewcheck.solvers.logic.cnf_build`): the compiled
kernel writes exactly the reference's CNF (``ClauseFormula`` after ``encode``: the same
variable ids, the same clauses in the same order) on every deal of the hard cells, on
generated deals of 3-5 seats with small and full decks, tokens or none, fixed or free
assignment, and on mid-game positions; deals it does not handle, and processes where it
is not loaded, go to the reference by the table."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from crewcheck import load
from crewcheck.formats.deal_json import from_dict
from crewcheck.formats.notation import to_notation
from crewcheck.model.cards import Deck, iter_bits
from crewcheck.model.instance import Instance
from crewcheck.model.rules import Rules
from crewcheck.model.tasks import Task
from crewcheck.solvers.logic import cnf_build, cnf_kernel
from crewcheck.solvers.logic.cnf_build import BuiltCnf, build_cnf, builder_for, clause_formula_cnf, kernel_cnf
from crewcheck.solvers.logic.position import position_of
from tests.strategies import instances, playouts

pytest.importorskip("numba")
ROOT = Path(__file__).resolve().parents[3]
HARD = sorted((ROOT / "benchmarks" / "corpus" / "hard").glob("*.jsonl"))
TOKENS = ("1", "2", "3", "4", "5", ">", ">>", ">>>", ">>>>", "omega")


@pytest.fixture(scope="module")
def kernel() -> Any:
    cnf_build.load_kernel()
    return cnf_kernel.compiled()


def _same(inst: Instance, kernel: Any) -> None:
    """The kernel's CNF of ``inst`` is the reference's, clause for clause."""
    pos = position_of(inst)
    assert builder_for(inst, pos).name == "kernel", to_notation(inst)
    want = clause_formula_cnf(inst, pos)
    got = kernel_cnf(inst, pos, kernel=kernel)
    assert got.nv == want.nv, f"{got.nv} variables, the encoder has {want.nv}: {to_notation(inst)}"
    first = next((i for i, (a, b) in enumerate(zip(got.clauses, want.clauses)) if a != b), None)
    assert first is None, f"clause {first}: kernel {got.clauses[first]}, encoder {want.clauses[first]}"
    assert len(got.clauses) == len(want.clauses), to_notation(inst)


def _hard(path: Path) -> list[Instance]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        data = json.loads(line)
        data.pop("id", None)
        data.pop("seed", None)
        out.append(from_dict(data))
    return out


@pytest.mark.parametrize("path", HARD, ids=[p.stem for p in HARD])
def test_the_kernel_writes_the_encoders_cnf_on_the_hard_cells(path: Path, kernel: Any) -> None:
    """Every fifth deal of every hard-set file: the same variable count and the same
    clauses in the same order (so a proof or certificate of one is one of the other)."""
    for inst in _hard(path)[::5]:
        _same(inst, kernel)


@pytest.mark.slow
@pytest.mark.parametrize("path", HARD, ids=[p.stem for p in HARD])
def test_the_kernel_writes_the_encoders_cnf_on_every_hard_deal(path: Path, kernel: Any) -> None:
    """Every deal of every hard-set file (606 deals), as above."""
    for inst in _hard(path):
        _same(inst, kernel)


def test_the_kernel_writes_the_encoders_cnf_mid_game(kernel: Any) -> None:
    """Hard-cell deals after 1 to 13 random legal cards (a trick in progress or not, tasks
    done, the lead after a trick)."""
    rng = random.Random(7)
    for path in HARD[:3]:
        for inst in _hard(path)[:12]:
            state = inst.state()
            plays = []
            for _ in range(rng.randint(1, 13)):
                legal = list(iter_bits(state.legal_mask()))
                if state.is_terminal() or not legal:
                    break
                card = rng.choice(legal)
                after = state.apply(card)
                if after.is_terminal():
                    break
                state = after
                plays.append(card)
            _same(inst.with_history(plays), kernel)


@st.composite
def classic_deals(draw: st.DrawFn) -> Instance:
    """A deal of 3-5 seats on the Classic deck (40 cards) or a small one, every card dealt,
    up to 10 tasks with or without tokens, fixed or free assignment, any lead, sometimes
    after some plays."""
    full = draw(st.booleans())
    deck = Deck.from_sizes({"B": 9, "G": 9, "P": 9, "Y": 9, "R": 4} if full else {"B": 4, "G": 4, "P": 3, "R": 2})
    trump = draw(st.sampled_from(["R", None]))
    players = draw(st.integers(3, 5))
    order = draw(st.permutations(range(deck.size)))
    hands = tuple(sum(1 << c for c in order[s::players]) for s in range(players))
    free = draw(st.booleans())
    cards = draw(st.lists(st.sampled_from(range(deck.size)), unique=True, max_size=10 if full else 5))
    tokens = draw(st.lists(st.sampled_from(TOKENS), unique=True, max_size=len(cards)))
    room = len(cards) - (1 if "omega" in tokens else 0)  # ("omega" is last: no number may be)
    tokens = [t for t in tokens if not t.isdigit() or int(t) <= room]
    tasks = tuple(Task(c, None if free else draw(st.integers(0, players - 1)), tokens[i] if i < len(tokens) else None)
                  for i, c in enumerate(cards))
    lead: Any = draw(st.sampled_from([0, players - 1, "any", *(["rocket"] if trump else [])]))
    rules = Rules("strict" if draw(st.booleans()) else "lenient", "free" if free else "fixed")
    inst = Instance(deck, hands, tasks, trump, lead, rules)
    if draw(st.booleans()):
        inst = inst.with_history(draw(playouts(inst, max_plays=min(12, deck.size))))
    return inst


@settings(max_examples=60, deadline=None)
@given(classic_deals())
def test_the_kernel_writes_the_encoders_cnf_on_generated_deals(inst: Instance) -> None:
    """Generated deals of the kinds the kernel handles, small and full decks, tokens or
    none, fixed or free, mid-game or not."""
    note(to_notation(inst))
    if inst.state().is_terminal():
        return
    cnf_build.load_kernel()
    _same(inst, cnf_kernel.compiled())


@settings(max_examples=60, deadline=None)
@given(instances(min_players=3, max_players=5, max_suits=4, max_values=6, max_cards=24, max_tasks=6))
def test_the_kernel_writes_the_encoders_cnf_on_uneven_deals(inst: Instance) -> None:
    """The house strategy's deals (unequal hands, cards left out, every token mix)."""
    note(to_notation(inst))
    if inst.state().is_terminal():
        return
    cnf_build.load_kernel()
    _same(inst, cnf_kernel.compiled())


def test_the_twin_writes_what_the_compiled_kernel_writes(kernel: Any) -> None:
    """The plain-Python kernel and the compiled one agree (a deal with tokens, one free)."""
    for inst in (load(ROOT / "models" / "deals" / "classic-4p-10-tasks-tokens.json"),
                 load(ROOT / "models" / "deals" / "classic-4p-free-8-tasks.json")):
        pos = position_of(inst)
        a, b = kernel_cnf(inst, pos, kernel=kernel), kernel_cnf(inst, pos, kernel=cnf_kernel.twin())
        assert (a.nv, a.clauses) == (b.nv, b.clauses)


def _unsupported() -> dict[str, Instance]:
    """One deal for each feature the kernel leaves to the reference."""
    deals = ROOT / "models" / "deals"
    plain = load(deals / "classic-4p-10-tasks-tokens.json")
    return {
        "conditions": load(ROOT / "models" / "counterexamples" / "search_arms_absolute_token.json"),
        "covered cards": load(deals / "covered-card-held-back.json"),
        "crew choices": replace(plain, distress="left"),
        "over 63 cards": Instance(Deck.from_sizes({s: 8 for s in "ABCDEFGH"}), (2**32 - 1, 2**64 - 2**32), (Task(0, 0),)),
    }


@pytest.mark.parametrize("feature", sorted(_unsupported()))
def test_deals_the_kernel_does_not_encode_go_to_the_reference(feature: str, kernel: Any) -> None:
    """A deal with a feature the kernel does not handle is built by the encoder (and its
    CNF is the encoder's)."""
    inst = _unsupported()[feature]
    pos = position_of(inst)
    assert feature in cnf_build.features_of(inst, pos)
    assert builder_for(inst, pos).name == "clauses"
    if feature != "over 63 cards":  # (a large encoding: the row alone)
        built = build_cnf(inst)
        assert built.builder == "clauses" and built.clauses == clause_formula_cnf(inst, pos).clauses


def test_positions_without_a_trick_or_with_a_task_card_gone_go_to_the_reference(kernel: Any) -> None:
    """The kernel never sees a position with no trick left, nor one whose open task's card
    is in no hand (the encoder's errors stay the encoder's)."""
    inst = load(ROOT / "models" / "deals" / "classic-4p-10-tasks-tokens.json")
    pos = position_of(inst)
    assert "no trick left" in cnf_build.features_of(inst, replace(pos, end=pos.first))
    gone = inst.tasks[pos.tasks[0]].card
    pos2 = replace(pos, hands=tuple(h & ~(1 << gone) for h in pos.hands))
    assert "a task card out of play" in cnf_build.features_of(inst, pos2)
    assert not cnf_build.features_of(inst, pos)


def test_without_the_loaded_kernel_the_reference_builds(monkeypatch: pytest.MonkeyPatch, kernel: Any) -> None:
    """In a process that has not loaded the kernel (a SAT process forked before it was), a
    deal the kernel handles is built by the encoder, with the same CNF."""
    inst = load(ROOT / "models" / "deals" / "classic-4p-10-tasks-tokens.json")
    fast = build_cnf(inst)
    monkeypatch.setattr(cnf_kernel, "is_loaded", lambda: False)
    slow = build_cnf(inst)
    assert (fast.builder, slow.builder) == ("kernel", "clauses")
    assert (fast.nv, fast.clauses) == (slow.nv, slow.clauses)


def test_the_kernels_encoding_decodes_like_the_encoders(kernel: Any) -> None:
    """:meth:`BuiltCnf.encoding` of the kernel names the variables as the encoder does
    (decoding a model reads ``play``, ``winner``, ``lead`` and ``owner``)."""
    for name in ("classic-4p-10-tasks-tokens.json", "classic-4p-free-8-tasks.json", "classic-4p-midgame.json"):
        inst = load(ROOT / "models" / "deals" / name)
        pos = position_of(inst)
        fast: BuiltCnf = kernel_cnf(inst, pos, kernel=kernel)
        ref = clause_formula_cnf(inst, pos).encoding()
        enc = fast.encoding()
        assert enc.vars.play == ref.vars.play and enc.vars.winner == ref.vars.winner
        assert enc.vars.lead == ref.vars.lead and enc.vars.owner == ref.vars.owner
        assert enc.assumptions == ref.assumptions


def test_a_full_kernel_buffer_is_grown_and_the_build_repeated(monkeypatch: pytest.MonkeyPatch, kernel: Any) -> None:
    """Starting with room for a few clauses only, the build still gives the whole CNF."""
    inst = load(ROOT / "models" / "deals" / "classic-4p-10-tasks-tokens.json")
    pos = position_of(inst)
    monkeypatch.setattr(cnf_build, "_ROOM", [16, 4])
    got = kernel_cnf(inst, pos, kernel=kernel)
    assert got.clauses == clause_formula_cnf(inst, pos).clauses
