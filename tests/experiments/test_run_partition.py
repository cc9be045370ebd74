"""The node-count script of the partition table (``benchmarks/scripts/run_partition.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.scripts import run_partition


def test_decides_both_variants_and_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two deals of a corpus file, both variants: one record per decision, the same
    verdicts, and a table row per variant that ``--from-raw`` writes again from the records."""
    deals = Path(__file__).resolve().parents[2] / "benchmarks" / "corpus" / "4p-fixed-k10.jsonl"
    raw, md = tmp_path / "raw.jsonl", tmp_path / "t.md"
    assert run_partition.main([str(deals), "--deals", "2", "--nodes", "20000", "--raw", str(raw),
                               "--markdown", str(md)]) == 0
    rows = [json.loads(line) for line in raw.read_text().splitlines()]
    assert [r["variant"] for r in rows] == ["off", "on", "off", "on"]
    assert rows[0]["verdict"] == rows[1]["verdict"] and rows[0]["part_stores"] == 0
    table = md.read_text()
    assert "| 4p-fixed-k10 | off | 2 |" in table and "| 4p-fixed-k10 | on | 2 |" in table
    again = tmp_path / "again.md"
    assert run_partition.main([str(deals), "--from-raw", str(raw), "--markdown", str(again)]) == 0
    assert again.read_text() == table
    capsys.readouterr()
