"""The seeded benchmark corpus: random Classic deals, one JSONL file per cell.

A *cell* is one combination of players (4 or 3), assignment (``fixed`` or ``free``),
task count ``k`` and whether order tokens are drawn. Every deal is a Classic deal:
the 40-card deck (B G P Y 1-9, rockets R 1-4 as trumps), dealt 10/10/10/10 for four
players and 14/13/13 for three (seat 0 gets the 14th card), the commander (holder of
R4) leads the first trick (``"lead": "rocket"``). The ``k`` task cards are drawn
uniformly from the 36 colour cards (as the game's task deck has no rockets) and, under
fixed assignment, given round-robin starting with the commander (de Jong's benchmark
set-up). Under free assignment the tasks name no seat and the per-seat counts follow
the same round-robin draft (:attr:`Instance.task_counts`).

Token cells draw 1-3 order tokens per deal, from one of three schemes chosen at
random: absolute (``"1"``, ``"2"``, ...), relative (``">"``, ``">>"``, ...) or mixed
(``"1"``, ``">"``, ``"omega"``); they are put on randomly chosen tasks.

Everything is a function of the seed: the deals of a cell depend only on the base seed
and the cell's name, so cells can be generated separately and in any order.

Library use (other benchmarks reuse this module)::

    from benchmarks.scripts.corpus import CELLS, Cell, generate_cell, load_cell, corpus_path
    for cell in CELLS:
        deals = load_cell(cell)          # list[Instance], generating the file if missing

    deal = random_deal(random.Random(7), players=4, k=10)   # one Instance

Command line::

    python -m benchmarks.scripts.corpus                     # writes benchmarks/corpus/*.jsonl
    python -m benchmarks.scripts.corpus --deals 20 --out /tmp/corpus --cells 4p-fixed-k10

File format: one deal JSON object per line (:func:`crewcheck.formats.deal_json.to_dict`),
with an extra ``"id"`` key (``"<cell>/<n>"``) that the deal loader ignores when given
to :func:`load_cell`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from crewcheck.formats.deal_json import from_dict, to_dict
from crewcheck.model.cards import CLASSIC_DECK, Mask
from crewcheck.model.instance import Instance
from crewcheck.model.rules import Rules
from crewcheck.model.tasks import Task

__all__ = [
    "Cell", "CELLS", "DEFAULT_SEED", "DEFAULT_DEALS", "CORPUS_DIR", "random_deal",
    "generate_cell", "write_cell", "read_cell", "load_cell", "corpus_path", "find_cells",
]

DEFAULT_SEED = 20261123
"""Base seed of the committed corpus."""
DEFAULT_DEALS = 100
"""Deals per cell in the committed corpus."""
CORPUS_DIR = Path(__file__).resolve().parents[1] / "corpus"
"""Where the corpus files live: ``benchmarks/corpus/<cell>.jsonl``."""

FIXED_KS: tuple[int, ...] = (1, 2, 4, 6, 8, 10, 12, 15, 20)
FREE_KS: tuple[int, ...] = FIXED_KS + (25, 30, 36)
TOKEN_KS: tuple[int, ...] = (4, 8)

_DECK = CLASSIC_DECK
_TRUMP = "R"
_COLOUR_CARDS: tuple[int, ...] = tuple(
    i for i in range(_DECK.size) if _DECK.suits[_DECK.suit_of(i)] != _TRUMP
)
_COMMANDER_CARD = max(i for i in range(_DECK.size) if _DECK.suits[_DECK.suit_of(i)] == _TRUMP)


@dataclass(frozen=True, slots=True, order=True)
class Cell:
    """One cell of the benchmark table."""

    players: int
    """3 or 4."""
    assignment: str
    """``"fixed"`` or ``"free"``."""
    k: int
    """Number of tasks."""
    tokens: bool = False
    """Whether order tokens are drawn."""

    @property
    def name(self) -> str:
        """``"4p-fixed-k10"``, ``"3p-free-k25"``, ``"4p-fixed-k8-tokens"``."""
        return f"{self.players}p-{self.assignment}-k{self.k:02d}" + ("-tokens" if self.tokens else "")

    @classmethod
    def parse(cls, name: str) -> Cell:
        """Inverse of :attr:`name` (the ``k`` may or may not be zero-padded)."""
        parts = name.split("-")
        try:
            players = int(parts[0].rstrip("p"))
            assignment = parts[1]
            k = int(parts[2].lstrip("k"))
        except (IndexError, ValueError):
            raise ValueError(f"bad cell name {name!r}; expected e.g. '4p-fixed-k10'") from None
        tokens = len(parts) > 3 and parts[3] == "tokens"
        if assignment not in ("fixed", "free") or players not in (3, 4):
            raise ValueError(f"bad cell name {name!r}; expected e.g. '4p-fixed-k10'")
        return cls(players, assignment, k, tokens)

    def seed(self, base: int = DEFAULT_SEED) -> int:
        """The cell's own seed: a stable hash of the base seed and the cell name."""
        digest = hashlib.sha256(f"{base}:{self.name}".encode()).digest()
        return int.from_bytes(digest[:8], "big")


CELLS: tuple[Cell, ...] = (
    tuple(Cell(p, "fixed", k) for p in (4, 3) for k in FIXED_KS)
    + tuple(Cell(p, "free", k) for p in (4, 3) for k in FREE_KS)
    + tuple(Cell(p, "fixed", k, tokens=True) for p in (4, 3) for k in TOKEN_KS)
)
"""Every cell of the standard table."""


def _tokens(rng: random.Random, k: int) -> list[str]:
    n = rng.randint(1, min(3, k))
    scheme = rng.choice(("absolute", "relative", "mixed"))
    if scheme == "absolute":
        return [str(i) for i in range(1, n + 1)]
    if scheme == "relative":
        return [">" * i for i in range(1, n + 1)]
    out = ["1", ">", "omega"][:n]
    if "omega" in out and k < 2:  # "1" and "omega" need two tasks
        out.remove("omega")
    return out


def random_deal(rng: random.Random, *, players: int = 4, k: int = 10, assignment: str = "fixed",
                tokens: bool = False, order_rule: str = "strict") -> Instance:
    """One random Classic deal (see the module docstring for the distribution).

    Parameters
    ----------
    rng
        The random source (the only one used).
    players
        3 (hands 14/13/13) or 4 (10 each); any 2..5 also works (cards dealt as evenly
        as possible, seat 0 first).
    k
        Tasks, 0..36, drawn from the colour cards.
    assignment
        ``"fixed"`` (round-robin from the commander) or ``"free"``.
    tokens
        Draw 1-3 order tokens (see the module docstring).
    """
    if not 0 <= k <= len(_COLOUR_CARDS):
        raise ValueError(f"k must be 0..{len(_COLOUR_CARDS)}, got {k}")
    cards = list(range(_DECK.size))
    rng.shuffle(cards)
    hands: list[Mask] = [0] * players
    for n, c in enumerate(cards):
        hands[n % players] |= 1 << c
    commander = next(s for s in range(players) if hands[s] >> _COMMANDER_CARD & 1)
    task_cards = rng.sample(_COLOUR_CARDS, k)
    toks: list[str | None] = [None] * k
    if tokens and k:
        chosen = _tokens(rng, k)
        for pos, tok in zip(rng.sample(range(k), len(chosen)), chosen):
            toks[pos] = tok
    tasks = tuple(
        Task(c, (commander + j) % players if assignment == "fixed" else None, toks[j])
        for j, c in enumerate(task_cards)
    )
    return Instance(_DECK, tuple(hands), tasks, _TRUMP, "rocket", Rules(order_rule, assignment))  # type: ignore[arg-type]


def generate_cell(cell: Cell, deals: int = DEFAULT_DEALS, *, seed: int = DEFAULT_SEED) -> list[Instance]:
    """The first ``deals`` deals of ``cell`` (a prefix of any longer run)."""
    rng = random.Random(cell.seed(seed))
    return [random_deal(rng, players=cell.players, k=cell.k, assignment=cell.assignment,
                        tokens=cell.tokens) for _ in range(deals)]


def corpus_path(cell: Cell, directory: Path | str = CORPUS_DIR) -> Path:
    return Path(directory) / f"{cell.name}.jsonl"


def write_cell(cell: Cell, deals: int = DEFAULT_DEALS, *, seed: int = DEFAULT_SEED,
               directory: Path | str = CORPUS_DIR) -> Path:
    """Generate ``cell`` and write it as JSONL; return the path."""
    path = corpus_path(cell, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    for n, inst in enumerate(generate_cell(cell, deals, seed=seed)):
        d = {"id": f"{cell.name}/{n}", **to_dict(inst)}
        lines.append(json.dumps(d, separators=(",", ":")))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def read_cell(path: Path | str) -> list[tuple[str, Instance]]:
    """``(id, instance)`` for every line of a corpus file."""
    out = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        d = json.loads(line)
        ident = d.pop("id", "")
        out.append((ident, from_dict(d)))
    return out


def load_cell(cell: Cell, deals: int | None = None, *, directory: Path | str = CORPUS_DIR,
              seed: int = DEFAULT_SEED) -> list[Instance]:
    """The deals of ``cell`` from its corpus file (written first if missing)."""
    path = corpus_path(cell, directory)
    if not path.exists():
        write_cell(cell, deals or DEFAULT_DEALS, seed=seed, directory=directory)
    out = [inst for _, inst in read_cell(path)]
    return out if deals is None else out[:deals]


def find_cells(names: Iterable[str] | None = None) -> list[Cell]:
    """The cells named (e.g. ``["4p-fixed-k10"]``), or all of :data:`CELLS`."""
    if not names:
        return list(CELLS)
    return [Cell.parse(n) for n in names]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS, help="deals per cell (default %(default)s)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="base seed (default %(default)s)")
    parser.add_argument("--out", default=str(CORPUS_DIR), help="output directory (default benchmarks/corpus)")
    parser.add_argument("--cells", nargs="*", help="cell names such as 4p-fixed-k10 (default: all)")
    args = parser.parse_args(argv)
    for cell in find_cells(args.cells):
        path = write_cell(cell, args.deals, seed=args.seed, directory=args.out)
        print(f"{cell.name}: {args.deals} deals -> {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
