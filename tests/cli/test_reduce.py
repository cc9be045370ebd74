"""``crewcheck reduce hampath``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

nx = pytest.importorskip("networkx")

import crewcheck  # noqa: E402
from crewcheck.cli import main  # noqa: E402
from crewcheck.formats.deal_json import load  # noqa: E402
from crewcheck.solvers.base import Verdict  # noqa: E402
from crewcheck.solvers.special.hampath import Variant, recognise  # noqa: E402

ROOT = Path(__file__).parents[2]


@pytest.mark.parametrize("graph,has_path", [("star3.json", False), ("diamond.json", True),
                                            ("figure2.edges", False), ("petersen.json", True)])
def test_reduce_and_decide(tmp_path: Path, graph: str, has_path: bool) -> None:
    """Each example graph reduces to a deal that hampath decides as the graph's HP says."""
    out = tmp_path / "deal.json"
    assert main(["reduce", "hampath", str(ROOT / "models" / "graphs" / graph), "-o", str(out)]) == 0
    deal = load(out)
    assert "Hamiltonian path" in json.loads(out.read_text())["comment"]
    assert (crewcheck.decide(deal, backend="hampath").verdict is Verdict.WINNABLE) == has_path
    assert main(["decide", str(out), "--backend", "hampath"]) == (0 if has_path else 1)


@pytest.mark.parametrize("flags,variant", [([], Variant()), (["--junk", "text"], Variant("text")),
                                           (["--trumps", "--tokens"], Variant("figure", True, True))])
def test_variants(tmp_path: Path, flags: list[str], variant: Variant) -> None:
    """The options select the reduction variant."""
    src = tmp_path / "g.edges"
    src.write_text("a b\nb c\n")
    out = tmp_path / "d.json"
    assert main(["reduce", "hampath", str(src), "-o", str(out), *flags]) == 0
    found = recognise(load(out))
    assert found is not None and found[1] == variant


def test_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bad graphs give one line on stderr and exit 2."""
    src = tmp_path / "g.json"
    src.write_text("[[0, 1, 2]]")
    assert main(["reduce", "hampath", str(src)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("crewcheck: error: ") and err.count("\n") == 1
    assert main(["reduce", "hampath", str(tmp_path / "missing.json")]) == 2
    src.write_text("0\n")
    assert main(["reduce", "hampath", str(src)]) == 2


@pytest.mark.parametrize(("text", "needle"), [
    ('{"nodes": [1, 2], "links": []}', "'nodes' must be a list of objects"),
    ('{"nodes": "abc", "links": 5}', "'nodes' must be a list of objects"),
    ('{"nodes": [{"id": 1}], "links": [{"source": 1, "target": {"a": 1}}]}', "'links' must be a list"),
    ("[" * 100 + "]" * 100, "nested more than 32 levels"),
    ("[[0, 1], [1, [2]]]", "expected an edge"),
    ('[[0, 1], [1, 2], [1, 2', "malformed JSON"),
    ("[" + ", ".join(f"[{i}, {i + 1}]" for i in range(200)) + "]", "the limit is 64"),
])
def test_reduce_refuses_hostile_graphs_in_one_line(tmp_path, capsys, text, needle):
    """Hostile graph files (node-link data whose nodes are not objects, a deal far beyond
    the model's limits) are refused in one line, not with an internal error (exit 4)."""
    path = tmp_path / "g.json"
    path.write_text(text)
    assert main(["reduce", "hampath", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and needle in err[0]


def test_reduce_refuses_a_device(capsys):
    if not os.path.exists("/dev/urandom"):
        pytest.skip("no /dev/urandom")
    assert main(["reduce", "hampath", "/dev/urandom"]) == 2
    assert "not a regular file" in capsys.readouterr().err
