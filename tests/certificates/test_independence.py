"""The proof checker shares no code with the solvers: :mod:`crewcheck.certificates.rup`
imports nothing of crewcheck but :mod:`crewcheck.runtime.kernels` (numba's build step), and no
SAT library."""

from __future__ import annotations

import ast
from pathlib import Path

import crewcheck.certificates.rup as rup


def test_the_checker_imports_only_the_kernel_builder() -> None:
    """Every import of rup.py (lazy ones too) is the standard library, numpy or crewcheck.runtime.kernels."""
    tree = ast.parse(Path(rup.__file__).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.update(f"{node.module}.{a.name}" if node.module in ("crewcheck", "crewcheck.runtime")
                            else node.module for a in node.names)
    allowed = {"__future__", "re", "time", "collections.abc", "dataclasses", "types", "typing", "numpy",
               "crewcheck.runtime.kernels"}
    assert imported <= allowed, imported - allowed


def test_the_checker_is_short() -> None:
    """Small enough to read in one sitting: the kernel and its reader stay under 400 lines."""
    assert len(Path(rup.__file__).read_text().splitlines()) < 400


def test_the_count_shares_no_code_with_the_solvers() -> None:
    """counting.py, the counting parts' checker, reads the deal through the model only."""
    from crewcheck.certificates import counting

    tree = ast.parse(Path(counting.__file__).read_text())
    modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    modules |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    assert all(m == "__future__" or m.startswith("crewcheck.model.") for m in modules), modules


DIGESTS = Path(__file__).resolve().parents[1] / "data" / "certificates" / "cnf-digests.json"


def test_encoding_digests() -> None:
    """The CNF of every bundled deal, and of a few logbook and Deep Sea deals whose
    special rules have clauses of their own ("M-Pp-S": mission or difficulty, players,
    seed; a Deep Sea deal with its cards taken in draw order), is the one recorded for the
    encoding's name: a change of the encoding must come with a new
    :data:`~crewcheck.certificates.cnf.ENCODING` (so old certificates are refused for what
    they are) and new digests in this file."""
    import json

    from crewcheck.certificates.cnf import ENCODING, build_cnf
    from crewcheck.formats.deal_json import from_dict, load
    from crewcheck.missions.deepsea import deal_deepsea_mission
    from crewcheck.missions.logbook import deal_mission

    recorded = json.loads(DIGESTS.read_text())
    deals = Path(__file__).resolve().parents[2] / "models" / "deals"

    def parts(name: str) -> tuple[int, int, int]:
        number, players, seed = (int(x.rstrip("p")) for x in name.split("-"))
        return number, players, seed

    def deepsea(name: str) -> dict[str, object]:
        return {k: v for k, v in deal_deepsea_mission(*parts(name)).items() if k != "comment"}

    now = {"digests": {name: build_cnf(load(deals / f"{name}.json")).digest for name in recorded["digests"]},
           "missions": {name: build_cnf(from_dict(deal_mission(*parts(name)))).digest
                        for name in recorded["missions"]},
           "deepsea": {name: build_cnf(from_dict(deepsea(name))).digest for name in recorded["deepsea"]}}
    assert len(now["digests"]) >= 8 and len(now["missions"]) >= 2 and len(now["deepsea"]) >= 2
    changed = sorted(name for part in now for name in now[part] if now[part][name] != recorded[part][name])
    assert recorded["encoding"] == ENCODING and not changed, (
        f"the CNF of {', '.join(changed)} changed under the name {ENCODING!r}: give the encoding a new "
        f"name (crewcheck/certificates/cnf.py: ENCODING) and record {json.dumps(now)} in {DIGESTS}")
