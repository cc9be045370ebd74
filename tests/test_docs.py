"""The README's examples do what the README says."""

from __future__ import annotations

import contextlib
import io
import os
import re

import pytest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _python_example() -> str:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Python", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_readme_python_example_prints_card_names() -> None:
    """It printed ``Trick(leader=0, cards=(3, 2, 8, 0))``: card indices, not cards."""
    out = io.StringIO()
    cwd = os.getcwd()
    try:
        os.chdir(ROOT)
        with contextlib.redirect_stdout(out):
            exec(compile(_python_example(), "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("winnable (")
    assert lines[1:] and all(re.fullmatch(r"seat \d leads:( [A-Z]+\d+)+ -> seat \d wins", ln) for ln in lines[1:])
    assert "Trick(" not in out.getvalue()


def test_docs_name_the_store_that_is_used() -> None:
    """docs/agents.md said the bench store is ``results.jsonl``; it is ``results.sqlite``."""
    agents = (ROOT / "docs" / "agents.md").read_text()
    assert "`DIR/results.sqlite`" in agents
    assert "is used (`DIR/results.jsonl`" not in agents


def test_readme_counts_the_tests_and_the_durations_ci_prints() -> None:
    """The README's quickstart gives the number of test functions within a tenth of the
    count in ``tests/``, and the number of slowest tests ``.ci/run`` prints as its
    ``--durations``."""
    quickstart = (ROOT / "README.md").read_text().split("## Deciding a deal", 1)[0].replace("\n", " ")
    said = re.search(r"about ([\d,]+) test functions", quickstart)
    assert said is not None, "README: the quickstart does not say how many test functions there are"
    counted = sum(len(re.findall(r"^\s*(?:async )?def test_", path.read_text(encoding="utf-8"), re.M))
                  for path in (ROOT / "tests").rglob("test_*.py"))
    assert abs(int(said.group(1).replace(",", "")) - counted) <= counted // 10, \
        f"README says {said.group(1)} test functions, tests/ has {counted}"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    durations = set(re.findall(r"--durations=(\d+)", ci))
    assert len(durations) == 1, f".ci/run: expected one --durations value on its pytest lines, got {sorted(durations)}"
    assert f"prints the {durations.pop()} slowest tests" in quickstart


def test_readme_test_command_is_the_one_ci_runs() -> None:
    """The quickstart's test command is ``.ci/run``'s first pytest line less the options CI
    adds (no cache, the durations, the seed): a worker option in one and not the other
    made the README's time wrong for whoever typed its command."""
    quickstart = (ROOT / "README.md").read_text().split("## Deciding a deal", 1)[0]
    said = re.search(r"python -m pytest([^\n`]*)\n", quickstart)
    assert said is not None, "README: the quickstart has no `python -m pytest` command"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    run = re.search(r"^python -m pytest([^\n]*)$", ci, re.M)
    assert run is not None, ".ci/run runs no `python -m pytest`"
    ci_only = re.compile(r"-p no:cacheprovider|--durations=\d+|--hypothesis-seed=\S+")
    assert ci_only.sub("", run.group(1)).split() == said.group(1).split(), (said.group(1), run.group(1))


def test_no_merge_conflict_markers() -> None:
    """No tracked text file keeps a merge's conflict markers (a lost block of a merge)."""
    import subprocess

    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False).stdout.split()
    if not files:
        pytest.skip("not a git checkout")
    bad = []
    for name in files:
        path = ROOT / name
        if path.suffix not in {".py", ".md", ".toml", ".json", ".txt", ".html", ".js", ".css", ""} or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if "\n<<<<<<< " in "\n" + text or "\n>>>>>>> " in "\n" + text:
            bad.append(name)
    assert not bad, bad
