"""The registry of published claims.

Each :class:`~crewcheck.claims.base.Claim` keeps the paper's number(s) as
``expected`` (a mapping from computed-value name to published value) and a
``compute`` callable that never reads ``expected``.
"""

from __future__ import annotations

from crewcheck.errors import UnknownClaimError

from crewcheck.claims import dejong, reiber, witteveen
from crewcheck.claims.base import Claim

CLAIMS: tuple[Claim, ...] = (
    Claim(
        id="witteveen-thm-3.12",
        source="000 §3.2, Thm 3.12",
        statement="There are 13,696,940,880 2-player 1-task games up to suit permutation "
        "(Burnside: 326,704,870,800 + 1,551,835,152 + 469,875,168 + 9·0 = 328,726,581,120, / 24).",
        expected={"orbits": 13_696_940_880, "sum_fixed_points": 328_726_581_120,
                  "terms": {"identity": 326_704_870_800, "transposition": 1_551_835_152,
                            "3-cycle": 469_875_168, "4-cycle": 0, "double swap": 0}},
        compute=witteveen.thm_3_12,
        notes=witteveen.RULE_NOTES,
    ),
    Claim(
        id="witteveen-lemma-3.13",
        source="000 §3.2, Lemma 3.13",
        statement="With the task suit fixed there are 9 · C(36,18) = 81,676,217,700 games.",
        expected={"games": 81_676_217_700},
        compute=witteveen.lemma_3_13,
    ),
    Claim(
        id="witteveen-thm-3.15",
        source="000 §3.3, Thm 3.15 / Cor 3.16",
        statement="With the task card in player 1's hand, a game is winnable iff P2 holds a "
        "critical card below t, or P1 holds a full suit, or P1 has a directly winning card and "
        "2k_r - 10 + T(k_a) + T(k_b) + T(k_c) >= 0.",
        expected={"disagreements": 0},
        compute=witteveen.thm_3_15,
        notes=witteveen.RULE_NOTES,
    ),
    Claim(
        id="witteveen-thm-3.18",
        source="000 §3.3, Thm 3.18 / Cor 3.19",
        statement="With the task card in player 2's hand, a game is winnable iff P1 holds a "
        "critical card above t, or P1 holds a full non-critical suit, or P1 has a directly "
        "winning card and a majority (not all) of some non-critical suit.",
        expected={"disagreements": 0},
        compute=witteveen.thm_3_18,
        notes=witteveen.RULE_NOTES,
    ),
    Claim(
        id="witteveen-thm-3.17",
        source="000 §3.3, Thm 3.17",
        statement="Losing games with the task card in player 1's hand: S1 = 2037, S2 = 112,402,080.",
        expected={"S1": 2037, "S2": 112_402_080},
        compute=witteveen.thm_3_17,
    ),
    Claim(
        id="witteveen-thm-3.20",
        source="000 §3.3, Thm 3.20",
        statement="Losing games with the task card in player 2's hand: S3 = 2037, S4 = 112,402,080.",
        expected={"S3": 2037, "S4": 112_402_080},
        compute=witteveen.thm_3_20,
    ),
    Claim(
        id="witteveen-cor-3.21",
        source="000 §3.3, Cor 3.21",
        statement="224,808,234 of the 81,676,217,700 games are losing; 81,451,409,466 (99.72%) are winnable.",
        expected={"losing": 224_808_234, "winnable": 81_451_409_466, "winnable_percent": 99.72},
        compute=witteveen.cor_3_21,
    ),
    Claim(
        id="witteveen-thm-3.23",
        source="000 §3.4, Thm 3.23",
        statement="Complementing the critical suit and the task card and swapping the hands maps "
        "the S2 set bijectively onto the S4 set.",
        expected={"is_bijection": True},
        compute=witteveen.thm_3_23,
    ),
    Claim(
        id="dejong-fig-3-free",
        source="001 §5, Figure 3",
        statement="All 220,000 sampled CLASSIC deals with 2..23 free objectives were winnable.",
        expected={"unwinnable": 0},
        compute=dejong.figure_3_free,
        notes=dejong.RULE_NOTES,
        needs=("crewcheck.decide",),
    ),
    Claim(
        id="dejong-fig-3-fixed",
        source="001 §5, Figure 3",
        statement="The fixed-objective winnability curve of Figure 3 (falls as tasks increase).",
        expected={"decreasing": True},
        compute=dejong.figure_3_fixed,
        notes=dejong.RULE_NOTES,
        needs=("crewcheck.decide",),
    ),
)

CLAIMS += (
    Claim(
        id="reiber-thm-3.1",
        source="002 §3, Thm 3.1",
        statement="Single value, β(1,_,_,_), is decidable in O(n²) time (the algorithm is exact).",
        expected={"disagreements": 0},
        compute=reiber.thm_3_1,
        needs=("crewcheck.solvers.special.single_value",),
    ),
    Claim(
        id="reiber-thm-4.1",
        source="002 §4, Thm 4.1",
        statement="Single suit with owned objective cards, β(_,1,_,O*), is decided by the greedy algorithm.",
        expected={"disagreements": 0},
        compute=reiber.thm_4_1,
        needs=("crewcheck.solvers.special.single_suit_owned",),
    ),
    Claim(
        id="reiber-thm-5.3",
        source="002 §5, Thm 5.3",
        statement="Single suit, β(_,1,_,_), is decided in polynomial time by the algorithm of §5.",
        expected={"disagreements": 0},
        compute=reiber.thm_5_3,
        needs=("crewcheck.solvers.special.single_suit",),
    ),
    Claim(
        id="reiber-lemma-6.2",
        source="002 §6, Lemma 6.2",
        statement="The Hamiltonian-path reduction: the constructed deal is winnable iff the graph has "
        "a Hamiltonian path (checked through the 'hampath' back-end).",
        expected={"disagreements": 0},
        compute=reiber.lemma_6_2,
        needs=("crewcheck.solvers.hampath",),
    ),
    Claim(
        id="reiber-cor-6.4",
        source="002 §6, Cor 6.4 (junk count of the text)",
        statement="With trumps dealt to all but one player, the reduction still holds: the deal is "
        "winnable iff the graph has a Hamiltonian path (junk count |V| - deg(v) + 1 as in the text).",
        expected={"disagreements": 0},
        compute=reiber.cor_6_4_text,
        needs=("crewcheck.solvers.hampath",),
    ),
)

BY_ID: dict[str, Claim] = {c.id: c for c in CLAIMS}




def get(claim_id: str) -> Claim:
    """Return the claim called `claim_id` (a unique prefix is accepted).

    Raises
    ------
    UnknownClaimError
        If no claim, or more than one, matches.
    """
    if claim_id in BY_ID:
        return BY_ID[claim_id]
    matches = [c for c in CLAIMS if c.id.startswith(claim_id)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise UnknownClaimError(f"ambiguous claim '{claim_id}'; matches: {', '.join(c.id for c in matches)}")
    raise UnknownClaimError(f"unknown claim '{claim_id}'; available: {', '.join(BY_ID)}")
