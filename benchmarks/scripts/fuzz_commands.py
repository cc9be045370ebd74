"""The long hostile-input run, outside CI: every command as a real process, every web route.

Usage (from the repository root)::

    python benchmarks/scripts/fuzz_commands.py [--runs N] [--seconds S] [--seed K] [--limit T] [--out DIR]

Each run draws a case from :mod:`tests.fuzz_inputs` (the generator of the CI fuzz test,
``tests/test_fuzz_commands.py``) for every command of the README's exit-code table in
turn, runs ``python -m crewcheck ...`` in a fresh process with a wall-clock limit of
``--limit`` seconds (default 30: a hang is a failure) and checks what the CI test checks:
an exit code the README's row lists, no traceback, no "internal error", at most one
stderr line for an error. ``--web N`` requests go to the page's application through
Flask's test client. Failures are written to ``--out`` (default
``benchmarks/fuzz-failures``) as ``<command>-<seed>.json`` with the files to reproduce
them; the summary gives the runs, exit codes and failures per command, and the seconds.
The run stops after ``--runs`` cases or ``--seconds`` seconds, whichever comes first.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.fuzz_inputs import COMMANDS, Case, bounds_case, case, documented_codes, request  # noqa: E402


def run_process(c: Case, tmp: str, limit: float) -> tuple[int | None, str, str, float]:
    """Run ``c`` as ``python -m crewcheck``; ``None`` for the exit code of a run killed at
    ``limit`` seconds."""
    paths = {name: os.path.join(tmp, name) for name in c.files}
    for name, data in c.files.items():
        Path(paths[name]).write_bytes(data)
    paths["fifo"] = os.path.join(tmp, "fifo")
    if not os.path.exists(paths["fifo"]):
        os.mkfifo(paths["fifo"])
    paths["out"] = os.path.join(tmp, "out")
    argv = [a.format(**paths) if a.startswith("{") and a.endswith("}") else a for a in c.argv]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    t0 = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "crewcheck", *argv], capture_output=True, timeout=limit,
                              stdin=subprocess.DEVNULL, env=env, cwd=tmp)
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        err = (e.stderr or b"").decode("utf-8", "replace")
        return None, out, err, time.perf_counter() - t0
    return (done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"),
            time.perf_counter() - t0)


def problem(command: str, code: int | None, out: str, err: str, documented: dict[str, set[int]]) -> str | None:
    """What is wrong with a run, or ``None``."""
    if code is None:
        return "did not finish within the limit"
    if code not in documented[command]:
        return f"exit {code} is not in the README's row"
    if "Traceback" in err or "internal error" in err or "InternalError" in out:
        return "traceback or internal error"
    if code == 2 and len(err.splitlines()) > 1 and command != "decide --batch":
        return "more than one stderr line for an error"
    return None


def fuzz_web(n: int, rng: random.Random) -> tuple[int, list[str]]:
    """``n`` hostile requests through the test client; the failures."""
    try:
        from crewcheck.web.app import COOKIE, create_app
        from crewcheck.web.jobs import Jobs
    except ImportError:
        return 0, ["flask is not installed: web routes not fuzzed"]
    app = create_app(jobs=Jobs(1, abandon_after=5), examples=ROOT / "models" / "deals", timeout=1.0)
    client = app.test_client()
    client.set_cookie(COOKIE, "fuzz")
    bad = []
    try:
        for _ in range(n):
            seed = rng.randrange(2 ** 32)
            r = request(random.Random(seed))
            got = client.open(r.path, method=r.method, data=r.body, content_type=r.content_type)
            body = got.get_json(silent=True)
            if got.status_code >= 500:
                bad.append(f"seed {seed}: {r.method} {r.path[:80]}: status {got.status_code}")
            elif got.status_code >= 400 and not (isinstance(body, dict) and "error" in body):
                bad.append(f"seed {seed}: {r.method} {r.path[:80]}: a {got.status_code} without a JSON error")
    finally:
        app.extensions["crewcheck_jobs"].shutdown()
    return n, bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=2000, help="command runs at most (default 2000)")
    ap.add_argument("--seconds", type=float, default=1800, help="stop after this many seconds (default 1800)")
    ap.add_argument("--seed", type=int, default=None, help="master seed (default: random, printed)")
    ap.add_argument("--limit", type=float, default=30.0, help="seconds per run before it counts as a hang")
    ap.add_argument("--web", type=int, default=2000, help="web requests (default 2000)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "fuzz-failures"), help="where failures go")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(2 ** 32)
    rng = random.Random(seed)
    documented = documented_codes((ROOT / "README.md").read_text(encoding="utf-8"))
    codes: dict[str, collections.Counter[int | None]] = {c: collections.Counter() for c in COMMANDS}
    failures: list[str] = []
    slowest: dict[str, float] = collections.defaultdict(float)
    start = time.perf_counter()
    runs = 0
    print(f"fuzz: master seed {seed}", file=sys.stderr)
    while runs < args.runs and time.perf_counter() - start < args.seconds:
        command = COMMANDS[runs % len(COMMANDS)]
        case_seed = rng.randrange(2 ** 32)
        if runs % 4 == 3:  # every fourth run aimed at the bounds (conditions, --resume, outputs)
            c = bounds_case(random.Random(case_seed))
            command = c.command
        else:
            c = case(command, random.Random(case_seed))
        with tempfile.TemporaryDirectory() as tmp:
            code, out, err, seconds = run_process(c, tmp, args.limit)
        runs += 1
        codes[command][code] += 1
        slowest[command] = max(slowest[command], seconds)
        why = problem(command, code, out, err, documented)
        if why is not None:
            failures.append(f"{command} (case seed {case_seed}): {why}")
            out_dir = Path(args.out)
            out_dir.mkdir(parents=True, exist_ok=True)
            (out_dir / f"{command.replace(' ', '-')}-{case_seed}.json").write_text(json.dumps({
                "command": command, "argv": c.argv, "why": why, "exit": code, "stderr": err[-2000:],
                "files": {k: v.decode("latin-1") for k, v in c.files.items()}}, indent=1))
    web_runs, web_bad = fuzz_web(args.web, rng)
    total = time.perf_counter() - start
    print(f"{'command':<16} {'runs':>5}  exit codes (None: killed at the limit)   slowest run")
    for command in COMMANDS:
        counts = ", ".join(f"{k}: {v}" for k, v in sorted(codes[command].items(), key=lambda kv: str(kv[0])))
        print(f"{command:<16} {sum(codes[command].values()):>5}  {counts:<38} {slowest[command]:.2f} s")
    print(f"web: {web_runs} requests, {len(web_bad)} failure(s)")
    for line in failures + web_bad:
        print(f"FAIL {line}")
    print(f"{runs} command runs and {web_runs} requests in {total:.0f} s (master seed {seed}): "
          f"{len(failures) + len(web_bad)} failure(s)")
    return 1 if failures or web_bad else 0


if __name__ == "__main__":
    sys.exit(main())
