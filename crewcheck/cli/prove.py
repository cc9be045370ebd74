"""crewcheck prove: recompute the published claims and print the ledger.

Each claim is re-derived by independent computation and judged CONFIRMED,
REFUTED (with the corrected value or a counterexample) or OPEN (with a
reason). Exit status: 0 when every verdict matches the established one, 1
when one changed, 3 when a claim could not finish, 2 on usage errors. Chunk results
committed in the package (crewcheck/claims/data/records) are never computed again;
--records-only computes nothing else (a job the records lack makes its claim OPEN).
Files are written only when asked: the ledger with --docs DIR, the verdicts with
--record, the chunk records with --save-records; finished chunks are also kept in the
user cache folder.

examples:
  crewcheck prove --quick                         # CI: every claim on reduced inputs
  crewcheck prove --docs docs --records-only      # regenerate docs/claims.md from the records
  crewcheck prove dejong --full --save-records    # compute what the records lack, record it
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import sys
import time
from pathlib import Path
from typing import Any

from crewcheck.claims.record import CHECKOUT_ESTABLISHED
from crewcheck.claims.records import CHECKOUT_RECORDS
from crewcheck.cli import int_arg, report, scheduler_arg
from crewcheck.errors import UnknownClaimError
from crewcheck.runtime.paths import CACHE_ENV
from crewcheck.runtime.store import ResultStore

# The claims themselves (numpy, the papers' code) are imported when ``prove`` runs, not
# here: every ``crewcheck`` command loads this module to build its parser.

DESCRIPTION = __doc__


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``prove`` subcommand on an argparse `subparsers` object."""
    parser: argparse.ArgumentParser = subparsers.add_parser("prove", help="recompute the published claims",
                                   description=DESCRIPTION,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    _add_arguments(parser)
    parser.set_defaults(func=run)
    return parser


def add_parsers(subparsers: Any) -> None:
    """Hook used by :mod:`crewcheck.cli` (one subcommand: ``prove``)."""
    add_parser(subparsers)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("claims", nargs="*", metavar="CLAIM",
                        help="claim ids or id prefixes (default: all); see --list")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", dest="mode", action="store_const", const="quick",
                      help="bounded checks, a few minutes in total (default)")
    mode.add_argument("--full", dest="mode", action="store_const", const="full",
                      help="the real thing: large enumerations and samples, on every core (or Dask with --scheduler)")
    parser.set_defaults(mode=None)
    parser.add_argument("--json", action="store_true", help="write one JSON object to stdout")
    parser.add_argument("--workers", type=int_arg(0, 1024), default=None, metavar="N",
                        help="worker processes (with --scheduler local, the local Dask cluster's) "
                        "(default: one per core with --full; --quick runs in-process unless N > 1)")
    parser.add_argument("--scheduler", type=scheduler_arg, default=None, metavar="ADDR",
                        help="run the chunks on Dask: 'local' starts a local cluster, else the address "
                        "of a running scheduler (default: local worker processes)")
    parser.add_argument("--store", default=None, metavar="PATH",
                        help="results store for finished chunks (default: results.sqlite in the user "
                        f"cache folder: ${CACHE_ENV}, else $XDG_CACHE_HOME/crewcheck)")
    parser.add_argument("--no-store", action="store_true", help="keep chunk results in memory only")
    parser.add_argument("--docs", default=None, metavar="DIR",
                        help="write claims.md, claims-ledger.json and plots to DIR (default: no files)")
    parser.add_argument("--record", action="store_true",
                        help=f"record the computed verdicts as the established ones, in {CHECKOUT_ESTABLISHED} "
                        "of the checkout in the current directory")
    parser.add_argument("--records-only", action="store_true",
                        help="full mode from the committed records alone: compute no chunk (a claim whose "
                        "records are incomplete is OPEN, saying what is missing)")
    parser.add_argument("--save-records", action="store_true",
                        help=f"write the chunk results of every job that ran into {CHECKOUT_RECORDS} of the "
                        "checkout in the current directory (commit them: the ledger is generated from them)")
    parser.add_argument("--list", action="store_true", help="list the claims and exit")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def _select(names: list[str]) -> list[Any]:
    from crewcheck.claims.registry import CLAIMS

    if not names:
        return list(CLAIMS)
    chosen = []
    for name in names:
        if not name.strip():
            raise UnknownClaimError("empty claim name; give a claim id or its prefix (see 'crewcheck prove --list')")
        matches = [c for c in CLAIMS if c.id == name] or [c for c in CLAIMS if c.id.startswith(name)]
        if not matches:
            raise UnknownClaimError(f"unknown claim '{name}'; available: {', '.join(c.id for c in CLAIMS)}")
        chosen += [c for c in matches if c not in chosen]
    return chosen


def _error(args: argparse.Namespace, message: str) -> int:
    return report(args, message)


def run(args: argparse.Namespace) -> int:
    """Run ``prove`` with parsed `args`; return the exit status."""
    from crewcheck.claims import ledger
    from crewcheck.claims.execution import Executor, using
    from crewcheck.claims.plots import write_plots
    from crewcheck.claims.record import save_established
    from crewcheck.claims.records import Records, save_record

    try:
        claims = _select(args.claims)
    except UnknownClaimError as exc:
        return _error(args, str(exc))
    if args.list:
        if args.json:
            print(json.dumps({"schema": "crewcheck.claims-list/1", "claims": [
                {"id": c.id, "source": c.source, "statement": c.statement} for c in claims]}))
            return 0
        for c in claims:
            print(f"{c.id:<30} {c.source:<30} {c.statement}")
        return 0
    if args.records_only and args.mode == "quick":
        return _error(args, "--records-only reads the full run's records; it cannot go with --quick")
    args.mode = "full" if args.records_only else args.mode or "quick"
    if args.save_records and not CHECKOUT_RECORDS.is_dir():
        return _error(args, f"--save-records writes {CHECKOUT_RECORDS} of a checkout; run it from the "
                      "repository's root")
    if args.workers is not None and args.workers < 0:
        return _error(args, "--workers must be at least 0")
    if args.record and not CHECKOUT_ESTABLISHED.is_file():
        return _error(args, f"--record writes {CHECKOUT_ESTABLISHED} of a checkout; run it from the "
                      "repository's root")
    store = ResultStore(":memory:" if args.no_store else args.store)
    parallel = args.mode == "full" and args.workers not in (0, 1) and not args.records_only
    executor = Executor(store=store, workers=args.workers, scheduler=args.scheduler, parallel=parallel,
                        progress=not args.no_progress and (sys.stderr.isatty() or args.mode == "full"),
                        records=Records(), records_only=args.records_only)
    start = time.perf_counter()
    try:
        with using(executor):
            verdicts = ledger.run(claims, args.mode)
    finally:
        executor.close()
        store.close()
    wall = time.perf_counter() - start
    run_info = {
        "mode": args.mode,
        "date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "wall_seconds": round(wall, 1),
        "executor": executor.pool.describe(),
        "chunks_run": executor.chunks_run,
        "chunks_from_store": executor.chunks_cached,
        "chunks_from_records": executor.chunks_recorded,
        "claims": [c.id for c in claims],
        "records_summary": _records_summary(verdicts),
    }
    document = ledger.to_json(verdicts, run_info)
    if args.docs is not None:
        docs_dir = Path(args.docs)
        docs_dir.mkdir(parents=True, exist_ok=True)
        plots = write_plots(verdicts, docs_dir)
        (docs_dir / "claims.md").write_text(ledger.render_markdown(verdicts, run_info, plots))
        (docs_dir / "claims-ledger.json").write_text(json.dumps(document, indent=2) + "\n")
    if args.record:
        save_established(verdicts, CHECKOUT_ESTABLISHED)
    if args.save_records:
        for namespace, chunks in sorted(executor.results.items()):
            path = save_record(namespace, chunks, CHECKOUT_RECORDS)
            print(f"recorded {len(chunks):,} chunks of {namespace} in {path}", file=sys.stderr)
    if args.json:
        print(json.dumps(document))
    else:
        print(ledger.render_table(verdicts))
        print(f"\n{len(verdicts)} claims, {wall:.1f} s wall ({run_info['executor']}, "
              f"{executor.chunks_run} chunks run, {executor.chunks_cached} from the store, "
              f"{executor.chunks_recorded} from the records)")
    return 0 if args.record else ledger.exit_code(verdicts)


def _records_summary(verdicts: list[Any]) -> str:
    jobs = {ns: (n, t) for v in verdicts for ns, n, t in v.jobs}
    chunks = sum(n for n, _ in jobs.values())
    hours = sum(t for _, t in jobs.values()) / 3600
    return (f"{len(jobs)} chunked jobs, {chunks:,} chunks, {hours:.1f} h of recorded compute "
            "(summed over the chunks, where each ran).")


def main(argv: list[str] | None = None) -> int:
    """Standalone entry point: ``python -m crewcheck.cli.prove [args]``."""
    parser = argparse.ArgumentParser(prog="crewcheck prove", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    _add_arguments(parser)
    args = parser.parse_args(argv)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
