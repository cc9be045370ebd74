"""Small deals whose verdicts were worked out by hand (one line of notation each): the
oracle's own test and the conformance suite of every back-end run them."""

from __future__ import annotations

from crewcheck.solvers.base import Verdict

HAND_CHECKED: list[tuple[str, Verdict]] = [
    # A task on the highest card of a suit held by the opponent who must follow: seat 0 wins
    # B3 only if seat 1 plays it while seat 0 leads higher... B4 beats it: winnable.
    ("B1 B4 | B2 B3 ; trump - ; lead 0 ; tasks B3@0 ; strict/fixed", Verdict.WINNABLE),
    # Seat 0 must win B4 but seat 1 holds B4 and seat 0 cannot beat it: unwinnable.
    ("B1 B3 | B2 B4 ; trump - ; lead 0 ; tasks B4@0 ; strict/fixed", Verdict.UNWINNABLE),
    # ... unless seat 0 can trump it once void in B.
    ("B1 R1 | B2 B4 ; trump R ; lead 1 ; tasks B4@0 ; strict/fixed", Verdict.WINNABLE),
    # Tokens: B1 must come before B2 but seat 0 can only win B2 in the first trick.
    ("B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks B1@0:2 B2@0:1 ; strict/fixed", Verdict.WINNABLE),
    ("B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks B1@0:1 G2@1:2 ; strict/fixed", Verdict.WINNABLE),
    ("B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks B1@0:2 G2@1:1 ; strict/fixed", Verdict.WINNABLE),
    # B1 and B2 always fall in the same trick (each seat holds one B and one G):
    # tokens > and >>> together are not consecutive under the strict reading.
    ("B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks B1@0:> B2@0:>>> ; strict/fixed", Verdict.UNWINNABLE),
    ("B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks B1@0:> B2@0:>>> ; lenient/fixed", Verdict.WINNABLE),
    # Same trick, tokens 1 and >: the readings differ.
    ("B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks B1@0:1 B2@0:> ; strict/fixed", Verdict.UNWINNABLE),
    ("B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks B1@0:1 B2@0:> ; lenient/fixed", Verdict.WINNABLE),
    # Free assignment: B1 and B2 always fall in one trick, so one seat takes both; the
    # draft gives one task each (2 tasks, 2 seats): unwinnable. With lead 'any' too.
    ("B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks B1@? B2@? ; strict/free", Verdict.UNWINNABLE),
    ("B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks B1@? G1@? ; strict/free", Verdict.WINNABLE),
    # Free first lead: only seat 1 leading G2 lets seat 1... seat 1 must win G1.
    ("B2 G1 | B1 G2 ; trump - ; lead any ; tasks G1@1 ; strict/fixed", Verdict.WINNABLE),
    ("B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks G1@1 B2@0 ; strict/fixed", Verdict.WINNABLE),
    # Unequal hands (3/2/2): seat 0 can cash Y9 itself, but seat 1 never wins a trick.
    ("B1 B2 Y9 | B3 G1 | B4 G2 ; trump - ; lead 0 ; tasks Y9@0 ; strict/fixed", Verdict.WINNABLE),
    ("B1 B2 Y9 | B3 G1 | B4 G2 ; trump - ; lead 0 ; tasks Y9@1 ; strict/fixed", Verdict.UNWINNABLE),
    # Mid-game: the history already decided the first trick.
    ("B1 B4 | B2 B3 ; trump - ; lead 0 ; tasks B3@0 ; strict/fixed ; played B1 B3", Verdict.UNWINNABLE),
]
