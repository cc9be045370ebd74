"""The ledger runner: compute claims, judge them, compare with the record.

:func:`evaluate` runs one claim's computation and :func:`judge` turns it into a
:class:`~crewcheck.claims.claim.Verdict` by the written rules
(:data:`~crewcheck.claims.claim.VERDICT_RULES`): OPEN when the computation reports a
reason or raises; when the statement fails, ERRATUM (a printed value the source itself
corrects), REFUTED (exact evidence, or a contradiction under every reasonable reading) or
NOT_REPRODUCED; when it holds, CONFIRMED, or CONSISTENT where the source gives nothing
quantitative to compare. The verdict the
project has established for each claim is data (:mod:`crewcheck.claims.record`);
:func:`exit_code` compares the two.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Sequence
from typing import Any

from crewcheck.claims.claim import (PUBLISHED_RULE, STATISTICS_RULE, SUBJECT_RULES, VERDICT_RULES, Claim,
                                    Computation, Mode, Status, Verdict)
from crewcheck.claims.execution import Executor, IncompleteRecordError, current
from crewcheck.claims.record import load_established

SCHEMA = "crewcheck.claims/1"


def mismatches(claim: Claim, comp: Computation) -> list[str]:
    """Describe every computed value that differs from the published (printed) one or from
    what the statement requires (a condition the source implies but does not print)."""
    out = []
    for word, wanted in (("published", claim.expected), ("required", claim.requires)):
        out += _differences(wanted if isinstance(wanted, dict) else {}, comp, word)
    return out


def _differences(expected: dict[str, Any], comp: Computation, word: str) -> list[str]:
    out = []
    for name, published in expected.items():
        try:
            computed = comp.value(name)
        except KeyError:
            out.append(f"{name}: not computed")
            continue
        if isinstance(published, dict) and isinstance(computed, dict):
            for k, p in published.items():
                if computed.get(k) != p:
                    out.append(f"{name}[{k}]: computed {_fmt(computed.get(k))}, {word} {_fmt(p)}")
        elif computed != published:
            out.append(f"{name}: computed {_fmt(computed)}, {word} {_fmt(published)}")
    return out


def _fmt(x: Any) -> str:
    return f"{x:,}" if isinstance(x, int) and not isinstance(x, bool) else str(x)


def judge(claim: Claim, comp: Computation) -> tuple[Status, str]:
    """Apply the written verdict rules (:data:`~crewcheck.claims.claim.VERDICT_RULES`).

    OPEN when the computation gives a reason; otherwise the statement fails when the
    computation says so or a computed value differs from the published or required one. A
    failing exact computation (no ``readings``) is an ERRATUM when the claim names what in
    the source contradicts the printed value, else REFUTED. A failing empirical one is
    REFUTED only when a calibrated test contradicts it under every reading tried and no
    reasonable reading is left untried; else NOT_REPRODUCED. A statement that holds is
    CONFIRMED, or CONSISTENT when the source gives nothing quantitative to compare.
    """
    if comp.open_reason is not None:
        return Status.OPEN, comp.open_reason
    diffs = mismatches(claim, comp)
    if comp.holds is not False and not diffs:
        return (Status.CONFIRMED, "") if claim.quantitative else (
            Status.CONSISTENT, "consistent, nothing quantitative to compare")
    r = comp.readings
    if r is None:
        why = "; ".join(diffs) if diffs else comp.evidence
        if claim.erratum is not None:
            return Status.ERRATUM, (f"{why}; the source itself gives the intended value "
                                    f"(\"{claim.erratum.contradicted_by}\"), judged in `{claim.erratum.intended}`")
        return Status.REFUTED, why
    reason = comp.evidence or "; ".join(diffs)
    if r.contradicted and not r.not_tried and not r.reproducing:
        return Status.REFUTED, f"contradicted under every reading tried ({len(r.tried)}): {reason}"
    untried = f"{len(r.not_tried)} reasonable reading(s) not tried" if r.not_tried else "no reading contradicts it"
    return Status.NOT_REPRODUCED, f"{reason} ({len(r.tried)} reading(s) tried, {untried})"


def evaluate(claim: Claim, mode: Mode, established: Status | None = None) -> Verdict:
    """Compute `claim` in `mode` and judge it (:func:`judge`).

    A computation that raises is OPEN with the error; one whose job lacks committed
    chunks under ``--records-only`` is OPEN saying how many.
    """
    executor = current()
    before = len(executor.accessed)
    start = time.perf_counter()
    try:
        comp = claim.compute(mode)
    except IncompleteRecordError as exc:
        return Verdict(claim, Status.OPEN, established, None, time.perf_counter() - start, mode,
                       reason=str(exc), jobs=_jobs(executor, before))
    except Exception as exc:  # noqa: BLE001 - a failing computation is reported, not raised
        tb = traceback.format_exc(limit=3).strip().splitlines()[-1]
        return Verdict(claim, Status.OPEN, established, None, time.perf_counter() - start, mode,
                       reason=f"computation failed: {type(exc).__name__}: {exc} ({tb})",
                       jobs=_jobs(executor, before))
    seconds = time.perf_counter() - start
    status, reason = judge(claim, comp)
    if (mode == "quick" and comp.readings is not None and established is not None
            and status is not established):
        # an empirical claim on reduced inputs never overturns the full run's verdict
        reason = (f"the reduced run gives {status.label} ({reason or comp.evidence}), the full run's record "
                  f"{established.label}; a reduced run cannot decide: `crewcheck prove {claim.id} --full`")
        status = Status.OPEN
    return Verdict(claim, status, established, comp, seconds, mode, reason=reason,
                   jobs=_jobs(executor, before))


def _jobs(executor: Executor, before: int) -> tuple[tuple[str, int, float], ...]:
    """``(namespace, chunks, recorded seconds)`` of the jobs a claim ran or read."""
    out = []
    for ns in sorted(set(executor.accessed[before:])):
        chunks = executor.results.get(ns, {})
        out.append((ns, len(chunks), round(sum(t for _, t in chunks.values()), 1)))
    return tuple(out)


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
    if v.status in (Status.OPEN, Status.REFUTED, Status.NOT_REPRODUCED, Status.ERRATUM):
        return v.reason or (comp.evidence if comp else "")
    if comp is None:
        return ""
    expected = {**(v.claim.expected if isinstance(v.claim.expected, dict) else {}),
                **(v.claim.requires if isinstance(v.claim.requires, dict) else {})}
    shown = [f"{k}={_fmt(comp.value(k))}" for k in expected if not isinstance(expected[k], dict)]
    return ", ".join(shown) or comp.evidence


def render_table(verdicts: Sequence[Verdict]) -> str:
    """Plain-text ledger, verdict first, one line per claim."""
    lines = []
    width = max((len(v.claim.id) for v in verdicts), default=10)
    for v in verdicts:
        flag = "" if not v.changed else f"  [was {v.established.label}]" if v.established else ""
        lines.append(f"{v.status.label:<14}  {v.claim.id:<{width}}  {v.seconds:7.1f} s  {_short(v)}{flag}")
    return "\n".join(lines)


def to_json(verdicts: Sequence[Verdict], run_info: dict[str, Any]) -> dict[str, Any]:
    """The JSON document written by ``prove --json``."""
    return {"schema": SCHEMA, "run": run_info, "exit_code": exit_code(verdicts),
            "claims": [v.to_dict() for v in verdicts]}


def _md_value(x: Any) -> str:
    if isinstance(x, dict):
        return "<br>".join(f"{k}: {_md_value(v)}" for k, v in x.items())
    return _fmt(x)


def _compute_time(v: Verdict) -> str:
    seconds = sum(t for _, _, t in v.jobs)
    if not v.jobs:
        return "inline"
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds:,.0f} s"


def _section(v: Verdict, plots: dict[str, str]) -> list[str]:
    """One claim's page section: what the source says, what we computed, what would change it."""
    comp, claim = v.computation, v.claim
    out = [f"## `{claim.id}` — {v.status.label} ({claim.subject.value})", "",
           "### What the source says", "", f"*Source:* {claim.source}", ""]
    if claim.quote:
        out += [f"> {claim.quote}", ""]
    out += [f"*Judged ({claim.subject.value}):* {claim.statement}", "",
            f"*Published:* {_md_value(claim.published)}", ""]
    if claim.requires:
        out += [f"*Required by the statement (not printed):* {_md_value(claim.requires)}", ""]
    if claim.erratum is not None:
        out += [f"*The source's own correction:* \"{claim.erratum.contradicted_by}\"; the intended statement "
                f"is judged in `{claim.erratum.intended}`.", ""]
    out += ["### What we computed", ""]
    if v.established is not None:
        out += [f"*Established verdict:* {v.established.label}" + (" (changed!)" if v.changed else ""), ""]
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
        if comp.readings is not None:
            r = comp.readings
            out += ["*Readings tried:*", ""] + [f"- {t}" for t in r.tried] + [""]
            if r.not_tried:
                out += ["*Readings not tried:*", ""] + [f"- {t}" for t in r.not_tried] + [""]
    if v.jobs:
        out += ["*Records:* " + "; ".join(f"`{ns}` ({n:,} chunks, {t:,.0f} s)" for ns, n, t in v.jobs), ""]
    for note in list(claim.notes) + (list(comp.notes) if comp else []):
        out += [f"> Note: {note}", ""]
    if claim.id in plots:
        out += [f"![{claim.id}]({plots[claim.id]})", ""]
    out += ["### What would change the verdict", "", claim.would_change or "(not stated)", ""]
    return out


def render_markdown(verdicts: Sequence[Verdict], run_info: dict[str, Any], plots: dict[str, str]) -> str:
    """The regenerated ``docs/claims.md``.

    Everything in it comes from the verdicts and the records they were computed from
    (chunk results and their recorded compute time), never from the wall clock of the run
    that renders it, so the same records always give the same text.
    """
    out = [
        "# Claims ledger",
        "",
        "Generated by `crewcheck prove --docs DIR` from the records committed in",
        "`crewcheck/claims/data/records/` — do not edit by hand; `tests/claims/test_ledger_docs.py`",
        "fails when this file differs from what the records generate. Every number below was",
        "recomputed; the published value is only compared against.",
        "",
        "## Verdict rules",
        "",
    ]
    out += [f"- **{status.label}**: {text}" for status, text in VERDICT_RULES]
    out += [f"- **Statistics.** {STATISTICS_RULE}", "", "## What a row judges", "",
            "Each row names its object; its verdict is about that object and nothing more:", ""]
    out += [f"- **{subject.value}**: {text}" for subject, text in SUBJECT_RULES]
    out += [f"- **Published.** {PUBLISHED_RULE}", "",
            f"Mode `{run_info.get('mode')}`; {run_info.get('records_summary', '')}", "",
            "| verdict | object | claim | source | recorded compute | summary |",
            "| --- | --- | --- | --- | --- | --- |"]
    for v in verdicts:
        summary = _short(v).replace("|", "\\|")
        out.append(f"| **{v.status.label}** | {v.claim.subject.value} | `{v.claim.id}` | {v.claim.source} | "
                   f"{_compute_time(v)} | {summary} |")
    out += [
        "",
        "Reproduce: `crewcheck prove --docs docs --records-only` regenerates this file from the",
        "committed records alone; `crewcheck prove --quick` re-derives every claim on reduced",
        "inputs (CI; a reduced run never changes a verdict, it reports OPEN where it cannot",
        "decide); `crewcheck prove CLAIM --full --save-records` recomputes what the records lack",
        "(one worker process per core, or Dask with `--scheduler`; finished chunks",
        "are also kept in the user cache folder, so an interrupted run resumes) and writes the",
        "records. Exit status 0 means every verdict matches the one recorded in",
        "`crewcheck/claims/data/established.json`.",
        "",
    ]
    for v in verdicts:
        out += _section(v, plots)
    return "\n".join(out) + "\n"
