"""Stateful model test: play random legal cards and check invariants at every step."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from crewcheck.model import State, replay
from tests.strategies import instances


class PlayMachine(RuleBasedStateMachine):
    """Each step plays one legal card drawn from the state's legal plays."""

    @initialize(inst=instances(history=False, free=False))
    def deal(self, inst):
        self.inst = inst
        self.state = State.initial(inst)
        self.plays: list[int] = []
        self.completed: list[int] = []

    @precondition(lambda self: not self.state.is_terminal())
    @rule(data=st.data())
    def play(self, data):
        legal = [c for c in range(self.inst.deck.size) if self.state.legal_mask() >> c & 1]
        card = data.draw(st.sampled_from(legal))
        before = self.state.done
        self.state = self.state.apply(card)
        self.plays.append(card)
        assert self.state.done & before == before  # tasks are never un-done

    @rule()
    def compare_outcome(self):
        """The replay checker and the engine agree on how the game stands."""
        if not self.inst.tasks:
            assert self.state.end is not None and self.state.end.won
            return
        out = replay(self.inst, self.plays)
        end = self.state.end
        assert (out.won, out.termination) == ((end.won, end.termination) if end else (False, None))

    @invariant()
    def cards_conserved(self):
        held = 0
        for h in self.state.hands:
            assert held & h == 0
            held |= h
        played = 0
        for c in self.plays:
            played |= 1 << c
        total = 0
        for h in self.inst.hands:
            total |= h
        assert held | played == total and not held & played

    @invariant()
    def winners_match_replay(self):
        """The replay checker counts the tricks the engine has played, and the winner of the
        last one leads the next (or leads the trick in progress)."""
        if not self.inst.tasks:
            return
        out = replay(self.inst, self.plays)
        assert len(out.tricks) == self.state.tricks_played
        if out.tricks:
            assert out.tricks[-1].winner == self.state.leader


TestPlayMachine = PlayMachine.TestCase
