"""The ledger runner: compute claims, judge them, compare with the record.

:func:`evaluate` runs one claim's computation and turns it into a
:class:`~crewcheck.claims.claim.Verdict`: OPEN when the computation reports a
reason or raises, REFUTED when it says the statement fails or a computed
value differs from the published one, CONFIRMED otherwise. The verdict the
project has established for each claim is data (:mod:`crewcheck.claims.record`);
:func:`exit_code` compares the two.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Sequence
from typing import Any

from crewcheck.claims.claim import Claim, Computation, Mode, Status, Verdict
from crewcheck.claims.record import load_established

SCHEMA = "crewcheck.claims/1"


def mismatches(claim: Claim, comp: Computation) -> list[str]:
    """Describe every computed value that differs from the published one."""
    out = []
    expected = claim.expected if isinstance(claim.expected, dict) else {}
    for name, published in expected.items():
        try:
            computed = comp.value(name)
        except KeyError:
            out.append(f"{name}: not computed")
            continue
        if isinstance(published, dict) and isinstance(computed, dict):
            for k, p in published.items():
                if computed.get(k) != p:
                    out.append(f"{name}[{k}]: computed {_fmt(computed.get(k))}, published {_fmt(p)}")
        elif computed != published:
            out.append(f"{name}: computed {_fmt(computed)}, published {_fmt(published)}")
    return out


def _fmt(x: Any) -> str:
    return f"{x:,}" if isinstance(x, int) and not isinstance(x, bool) else str(x)


def evaluate(claim: Claim, mode: Mode, established: Status | None = None) -> Verdict:
    """Compute `claim` in `mode` and judge it."""
    start = time.perf_counter()
    try:
        comp = claim.compute(mode)
    except Exception as exc:  # noqa: BLE001 - a failing computation is reported, not raised
        tb = traceback.format_exc(limit=3).strip().splitlines()[-1]
        return Verdict(claim, Status.OPEN, established, None, time.perf_counter() - start, mode,
                       reason=f"computation failed: {type(exc).__name__}: {exc} ({tb})")
    seconds = time.perf_counter() - start
    if comp.open_reason is not None:
        return Verdict(claim, Status.OPEN, established, comp, seconds, mode, reason=comp.open_reason)
    diffs = mismatches(claim, comp)
    if comp.holds is False or diffs:
        reason = "; ".join(diffs)
        return Verdict(claim, Status.REFUTED, established, comp, seconds, mode, reason=reason)
    return Verdict(claim, Status.CONFIRMED, established, comp, seconds, mode)


def run(claims: Sequence[Claim], mode: Mode, *, established: dict[str, Status] | None = None) -> list[Verdict]:
    """Evaluate every claim in order."""
    est = load_established() if established is None else established
    return [evaluate(c, mode, est.get(c.id)) for c in claims]


def exit_code(verdicts: Sequence[Verdict]) -> int:
    """0: every verdict matches the record; 1: one changed; 3: one could not finish.

    A claim that is OPEN although its established verdict is not counts as
    "could not finish" (3); any other difference from the record is a change
    (1), which takes precedence. A claim without a record counts as a change
    unless it is CONFIRMED.
    """
    changed = unfinished = False
    for v in verdicts:
        if v.established is None:
            changed |= v.status is not Status.CONFIRMED
        elif v.status is Status.OPEN and v.established is not Status.OPEN:
            unfinished = True
        elif v.status is not v.established:
            changed = True
    return 1 if changed else 3 if unfinished else 0


# -- rendering ------------------------------------------------------------------
def _short(v: Verdict) -> str:
    comp = v.computation
    if v.status is Status.OPEN:
        return v.reason
    if v.status is Status.REFUTED:
        return v.reason or (comp.evidence if comp else "")
    if comp is None:
        return ""
    expected = v.claim.expected if isinstance(v.claim.expected, dict) else {}
    shown = [f"{k}={_fmt(comp.value(k))}" for k in expected if not isinstance(expected[k], dict)]
    return ", ".join(shown)


def render_table(verdicts: Sequence[Verdict]) -> str:
    """Plain-text ledger, verdict first, one line per claim."""
    lines = []
    width = max((len(v.claim.id) for v in verdicts), default=10)
    for v in verdicts:
        flag = "" if not v.changed else f"  [was {v.established.name}]" if v.established else ""
        lines.append(f"{v.status.name:<9}  {v.claim.id:<{width}}  {v.seconds:7.1f} s  {_short(v)}{flag}")
    return "\n".join(lines)


def to_json(verdicts: Sequence[Verdict], run_info: dict[str, Any]) -> dict[str, Any]:
    """The JSON document written by ``prove --json``."""
    return {"schema": SCHEMA, "run": run_info, "exit_code": exit_code(verdicts),
            "claims": [v.to_dict() for v in verdicts]}


def _md_value(x: Any) -> str:
    if isinstance(x, dict):
        return "<br>".join(f"{k}: {_md_value(v)}" for k, v in x.items())
    return _fmt(x)


def render_markdown(verdicts: Sequence[Verdict], run_info: dict[str, Any], plots: dict[str, str]) -> str:
    """The regenerated ``docs/claims.md``."""
    out = [
        "# Claims ledger",
        "",
        "Generated by `crewcheck prove --docs DIR` — do not edit by hand. Every number below was",
        "recomputed; the published value is only compared against. Rerun a claim's derivation",
        "with `crewcheck prove CLAIM`.",
        "",
        (f"Run: mode `{run_info.get('mode')}`, {run_info.get('date')}, wall time "
         f"{run_info.get('wall_seconds', 0):.1f} s, executor: {run_info.get('executor')}, "
         f"{run_info.get('chunks_run', 0)} chunks run, {run_info.get('chunks_from_store', 0)} "
         "taken from the results store."),
        "",
        "| verdict | claim | source | runtime | summary |",
        "| --- | --- | --- | --- | --- |",
    ]
    for v in verdicts:
        summary = _short(v).replace("|", "\\|")
        out.append(f"| **{v.status.name}** | `{v.claim.id}` | {v.claim.source} | {v.seconds:.1f} s | {summary} |")
    out += [
        "",
        "Reproduce: `crewcheck prove --quick` (CI, in-process) or `crewcheck prove --full` (Dask:",
        "a local cluster with one worker per core, or `--scheduler ADDR`; finished chunks are kept",
        "in the user cache folder, `$CREWCHECK_CACHE_DIR` or `$XDG_CACHE_HOME/crewcheck`, so an",
        "interrupted run resumes). Exit status 0 means every verdict matches the one recorded in",
        "`crewcheck/claims/data/established.json`.",
        "",
    ]
    for v in verdicts:
        comp = v.computation
        out += [f"## `{v.claim.id}` — {v.status.name}", "", f"*Source:* {v.claim.source}", "",
                f"*Statement:* {v.claim.statement}", ""]
        if v.established is not None:
            out += [f"*Established verdict:* {v.established.name}" + (" (changed!)" if v.changed else ""), ""]
        if v.reason:
            out += [f"*Reason:* {v.reason}", ""]
        if comp is not None:
            out += ["| value | computed | how |", "| --- | --- | --- |"]
            for val in comp.values:
                out.append(f"| `{val.name}` | {_md_value(val.value)} | {val.method} |")
            out.append("")
            if comp.evidence:
                out += [f"*Evidence:* {comp.evidence}", ""]
            if comp.counterexample:
                out += [f"*Counterexample:* `{comp.counterexample}`", ""]
        notes = list(v.claim.notes) + (list(comp.notes) if comp else [])
        for note in notes:
            out += [f"> Note: {note}", ""]
        if v.claim.id in plots:
            out += [f"![{v.claim.id}]({plots[v.claim.id]})", ""]
    return "\n".join(out) + "\n"
