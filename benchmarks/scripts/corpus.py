"""The seeded benchmark corpus: random Classic deals, one JSONL file per cell.

The deals come from :mod:`crewcheck.model.dealing` (the generator behind ``crewcheck
deals``, which documents the distribution, the order tokens and the seeding), so
``crewcheck deals --cell 4p-fixed-k10 --seed 20261123 --count 100`` writes the committed
file ``benchmarks/corpus/4p-fixed-k10.jsonl`` with a ``"seed"`` key added to each line.
A *cell* is one combination of players (4 or 3), assignment (``fixed`` or ``free``),
task count ``k`` and whether order tokens are drawn.

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
import json
from collections.abc import Iterable, Sequence
from pathlib import Path

from crewcheck.formats.deal_json import from_dict, to_line
from crewcheck.model.dealing import Cell, generate, random_deal
from crewcheck.model.instance import Instance

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

CELLS: tuple[Cell, ...] = (
    tuple(Cell(p, "fixed", k) for p in (4, 3) for k in FIXED_KS)
    + tuple(Cell(p, "free", k) for p in (4, 3) for k in FREE_KS)
    + tuple(Cell(p, "fixed", k, tokens=True) for p in (4, 3) for k in TOKEN_KS)
)
"""Every cell of the standard table."""


def generate_cell(cell: Cell, deals: int = DEFAULT_DEALS, *, seed: int = DEFAULT_SEED) -> list[Instance]:
    """The first ``deals`` deals of ``cell`` (a prefix of any longer run)."""
    return list(generate(cell, deals, seed=seed))


def corpus_path(cell: Cell, directory: Path | str = CORPUS_DIR) -> Path:
    return Path(directory) / f"{cell.name}.jsonl"


def write_cell(cell: Cell, deals: int = DEFAULT_DEALS, *, seed: int = DEFAULT_SEED,
               directory: Path | str = CORPUS_DIR) -> Path:
    """Generate ``cell`` and write it as JSONL; return the path."""
    path = corpus_path(cell, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [to_line(inst, ident=f"{cell.name}/{n}") for n, inst in enumerate(generate_cell(cell, deals, seed=seed))]
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
        d.pop("seed", None)
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
