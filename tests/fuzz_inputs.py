"""Hostile inputs for every command and web route, from a seed: the generator shared by
the bounded fuzz test in CI (``tests/test_fuzz_commands.py``) and the long run outside
it (``benchmarks/scripts/fuzz_commands.py``).

Everything is drawn from a :class:`random.Random`, so a failure is reproduced by its seed.
A case is an argument list for ``crewcheck`` plus the files it names (written by the
caller into a scratch directory), or a web request. What a case must do is the same
everywhere: exit with a code the README's exit-code table lists for the command (checked
against the table itself), no traceback, no "internal error", at most one line on stderr
for an error; a web answer below 500, JSON, with an ``error`` object for a 4xx.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEALS = ROOT / "models" / "deals"

SEED_DEALS: list[bytes] = [(DEALS / name).read_bytes() for name in (
    "reiber-figure-1.json", "witteveen-2p-1-task.json", "unwinnable-commander-wins-all.json",
    "reiber-single-value.json")] + [
    b'{"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}',
    b'{"deck": {"B": 2, "R": 2}, "hands": [["B1", "R2"], ["B2", "R1"]], "trump": "R", "lead": "rocket", '
    b'"tasks": [{"card": "B2", "token": "1"}], "assignment": "free", "played": [], '
    b'"current": {"lead": 0, "cards": ["R2"]}}',
    b'{"hands": [["B1", "G2", "B3"], ["B2", "G1", "G3"], ["B4", "G4", "R1"]], "trump": "R", "lead": 0, '
    b'"tasks": [{"card": "G3"}], "assignment": "decision", "distress": "choose", '
    b'"conditions": [{"kind": "wins_no_tricks", "seat": "choose"}]}',
    b'{"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}], '
    b'"played": [{"lead": 0, "cards": ["B1", "B2"]}]}',
]
"""Small valid deals (every one decided in milliseconds) that mutations start from."""

NASTY_BYTES: list[bytes] = [
    b"", b"\xff\xfe\x00", b"\xef\xbb\xbf{}", b"[" * 5000 + b"]" * 5000, b'{"lead": ' + b"9" * 5000 + b"}",
    b"NaN", b"-Infinity", b"null", b"[]", b'"hands"', b"1e999", b"\x00" * 64, b'{"a": 1, "a": 2}',
    b'{"hands": [["B1"], ["B2"]], "lead": 0, "lead": 1, "tasks": []}', b"{" * 40,
    '{"hands": [["B١"], ["B٢"]], "tasks": []}'.encode(), b'{"hands": [["B1"], ["B2"]], "lead": 1.0}',
    b'{"hands": "' + b"B1 " * 3000 + b'"}', b"\xc3", b"\\ud800", b'{"hands": [[]], "tasks": []}',
]
"""Bytes that broke, or could break, a reader: empty, not UTF-8, deep, long digits..."""

NASTY_ARGS: list[str] = [
    "", " ", "٣", "²", "１", "-1", "0", "-0", "nan", "inf", "-inf", "1e999", "1.5", "9" * 400, "none",
    "x" * 5000, "-", "--", "--json", "B1", "\u202e", "0x10", "1_000", "+3",
]
"""Command-line values that are no number, or a number in a form ``int()`` would take."""

NASTY_SNIPPETS: list[bytes] = [
    b"\xff", b"\x00", b"NaN", b"1e999", b"-0", b"9" * 40, b"1" * 4301, b"[" * 40, b"{", b"}", b",", b'"',
    b"\\", b"\n", b"\\ud800", b'"seat": 1, "seat": 2', b"true", b"2.0", "٣".encode()]

_WORDS = ["B1", "B4\n", "R0", "b2", "X", "", "rocket", "any", "omega", "1", ">>", "free", "strict",
          "classic", "choose", "decision", "distribution", "left", "right", "wins_no_tricks"]
_KEYS = ["hands", "tasks", "card", "seat", "token", "deck", "lead", "trump", "distress", "conditions",
         "kind", "assignment", "played", "current", "B", "x"]


def json_value(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value (small; nested at most 3 deep)."""
    roll = rng.random()
    if depth >= 3 or roll < 0.5:
        return rng.choice([None, True, False, rng.randint(-3, 10), 10 ** rng.randint(1, 40), 2.5,
                           rng.choice(_WORDS)])
    if roll < 0.75:
        return [json_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(_KEYS): json_value(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def mutated_deal(rng: random.Random) -> bytes:
    """A seed deal after a few random edits of its JSON tree and then of its bytes."""
    data = json.loads(rng.choice(SEED_DEALS))
    for _ in range(rng.randint(0, 3)):
        node: Any = data
        path: list[tuple[Any, Any]] = []
        while isinstance(node, (dict, list)) and node and rng.random() < 0.6:
            key = rng.choice(sorted(node) if isinstance(node, dict) else list(range(len(node))))
            path.append((node, key))
            node = node[key]
        action = rng.choice(["replace", "drop", "add"])
        if path and action == "replace":
            parent, key = path[-1]
            parent[key] = json_value(rng)
        elif path and action == "drop":
            parent, key = path[-1]
            del parent[key]
        elif isinstance(node, dict):
            node[rng.choice(_KEYS)] = json_value(rng)
        elif isinstance(node, list):
            node.append(json_value(rng))
    text = json.dumps(data).encode()
    for _ in range(rng.randint(0, 2)):
        at = rng.randint(0, len(text))
        if rng.random() < 0.5:
            text = text[:at] + rng.choice(NASTY_SNIPPETS) + text[at:]
        else:
            text = text[:at] + text[at + rng.randint(1, 8):]
    return text


SEED_CONDITIONS: list[dict[str, Any]] = [
    {"kind": "wins_no_tricks", "seat": 1}, {"kind": "wins_tricks", "seat": 0, "count": 1, "cmp": ">="},
    {"kind": "balanced_tricks", "margin": 1}, {"kind": "wins_no_tricks", "seat": "choose"},
]
"""Conditions that fit the two-seat seed deal (repeated by :func:`conditions_deal`)."""


def conditions_deal(rng: random.Random) -> bytes:
    """A small deal carrying one condition many times (around and far past the bound of
    256), or a condition whose ``kind`` is no string (a list, an object, a number...)."""
    deal: dict[str, Any] = {"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}
    if rng.random() < 0.5:
        count = rng.choice([1, 2, 40, 255, 256, 257, 1000, 5000])
        deal["conditions"] = [rng.choice(SEED_CONDITIONS)] * count
    else:
        kind = rng.choice([["wins_no_tricks"], {"kind": "wins_no_tricks"}, [], {}, 5, 2.5, None, True,
                           json_value(rng)])
        deal["conditions"] = [{"kind": kind, "seat": 0}, *rng.sample(SEED_CONDITIONS, rng.randint(0, 2))]
        rng.shuffle(deal["conditions"])
    return json.dumps(deal).encode()


def deal_bytes(rng: random.Random) -> bytes:
    """A deal file as a hostile user might give it: mostly mutated, some outright nasty."""
    roll = rng.random()
    if roll < 0.2:
        return rng.choice(NASTY_BYTES)
    if roll < 0.3:
        return rng.choice(SEED_DEALS)
    if roll < 0.4:
        return conditions_deal(rng)
    return mutated_deal(rng)


def model_bytes(rng: random.Random) -> bytes:
    """A SAT or SMT solver's output, mangled."""
    n = rng.randint(0, 400)
    lits = " ".join(str(rng.choice([-1, 1]) * rng.randint(1, 10 ** rng.randint(1, 7))) for _ in range(n))
    return rng.choice([
        f"s SATISFIABLE\nv {lits} 0\n", f"{lits}\n", "s UNSATISFIABLE\n", "unsat\n", "v x y z\n",
        "(model (define-fun play_t0_s0_c0 () Bool true))", "(define-fun nope () Bool maybe)", "",
        "v " + "9" * 5000 + " 0\n", "c only comments\n",
    ]).encode() + (rng.choice(NASTY_SNIPPETS) if rng.random() < 0.2 else b"")


def graph_bytes(rng: random.Random) -> bytes:
    """A graph file for ``reduce hampath``: edge lists, node-link JSON, and junk."""
    n = rng.randint(0, 6)
    edges = [[rng.randint(0, n), rng.choice([rng.randint(0, n), "a", "٣", None, [1]])] for _ in range(rng.randint(0, 6))]
    return rng.choice([
        json.dumps(edges), "\n".join(f"{a} {b}" for a, b in edges), '{"nodes": [{"id": 1}], "links": 5}',
        '{"nodes": [], "edges": [{"source": 1}]}', "1 2 3\n", "٣ ²\n", "-1 -2\n", "",
        "root:x:0:0:root:/root:/bin/bash\nalice:s3cret:1000:1000::/home/alice:/bin/sh\n", "# only a comment\n",
    ]).encode() + (rng.choice(NASTY_SNIPPETS) if rng.random() < 0.2 else b"")


def batch_bytes(rng: random.Random) -> bytes:
    """A ``--batch`` file: deal lines, blank lines, an over-long or broken line."""
    lines = [deal_bytes(rng).replace(b"\n", b" ") for _ in range(rng.randint(0, 4))]
    if rng.random() < 0.3:
        lines.insert(rng.randint(0, len(lines)), b"")
    return b"\n".join(lines) + rng.choice([b"\n", b""])


def foreign_results(rng: random.Random) -> bytes:
    """An ``--out`` file for ``--resume`` that is not the run's record: results of another
    input (other digests, no digest, other line numbers), or no results at all."""
    rows = []
    for n in range(1, rng.randint(1, 4) + 1):
        row: dict[str, Any] = {"schema": "crewcheck-result/1", "verdict": rng.choice(["winnable", "unwinnable"]),
                               "seconds": 0.0, "stats": {"nodes": 0}, "line": rng.choice([n, n + 1, 0, "1"])}
        roll = rng.random()
        if roll < 0.5:
            row["digest"] = f"{rng.getrandbits(64):016x}"
        elif roll < 0.7:
            row["id"] = f"cell/{n - 1}"
        rows.append(json.dumps(row).encode())
    if rng.random() < 0.2:
        rows.append(rng.choice(NASTY_BYTES))
    return b"\n".join(rows) + rng.choice([b"\n", b""])


UNWRITABLE: list[str] = ["/nonexistent/dir/f", "/dev/full", ".", "/"]
"""Output paths nothing can be written to (a missing folder, a full device, a folder)."""


@dataclass
class Case:
    """One run of ``crewcheck``: the arguments, with ``{name}`` standing for a file of
    :attr:`files` (written by the caller); :attr:`command` is the README table's row."""

    command: str
    argv: list[str]
    files: dict[str, bytes] = field(default_factory=dict)


def _arg(rng: random.Random) -> str:
    return rng.choice(NASTY_ARGS)


def _file_or_special(rng: random.Random, name: str, content: bytes, files: dict[str, bytes]) -> str:
    """``{name}`` (a file with ``content``), or a path that is no regular file."""
    roll = rng.random()
    if roll < 0.06:
        return rng.choice(["/dev/zero", "/dev/null", ".", "/nonexistent/deal.json", "{fifo}"])
    files[name] = content
    return "{" + name + "}"


def _deal_arg(rng: random.Random, files: dict[str, bytes]) -> str:
    return _file_or_special(rng, "deal", deal_bytes(rng), files)


def _options(rng: random.Random, names: list[str]) -> list[str]:
    out: list[str] = []
    for name in names:
        if rng.random() < 0.3:
            out += [name, _arg(rng)]
    return out


def case(command: str, rng: random.Random) -> Case:
    """A hostile run of ``command`` (a row of the README's exit-code table)."""
    files: dict[str, bytes] = {}
    timeout = ["--timeout", rng.choice(["1", "0.5", "2"])]
    if command == "decide":
        argv = ["decide", _deal_arg(rng, files), *timeout, *rng.choice([[], ["--json"]]),
                *rng.choice([[], [], ["--backend", rng.choice(["sat", "exhaustive", "z3", "nope", "٣", ""])]])]
        if rng.random() < 0.15:
            argv[-2:] = ["--timeout", _arg(rng)] if argv[-2] == "--timeout" else argv[-2:]
    elif command == "decide --batch":
        sources = [_file_or_special(rng, f"batch{i}", batch_bytes(rng), files) for i in range(rng.randint(1, 2))]
        argv = ["decide", "--batch", *sources, *timeout]
        roll = rng.random()
        if roll < 0.2:  # resume with the record of another input
            files["out"] = foreign_results(rng)
            argv += ["--out", "{out}", "--resume"]
        elif roll < 0.35:
            argv += ["--out", rng.choice(UNWRITABLE)]
        elif roll < 0.4:
            argv[2] = rng.choice(["/proc/self/mem", "/dev/full"])
    elif command in ("validate", "show"):
        argv = [command, _deal_arg(rng, files), *(["--json"] if command == "validate" and rng.random() < 0.5 else [])]
    elif command == "encode":
        argv = ["encode", _deal_arg(rng, files), "--format", rng.choice(["dimacs", "smt2"]), "-o", "{out}"]
        if rng.random() < 0.15:
            argv[-1] = rng.choice(["/nonexistent/out.cnf", *UNWRITABLE, ""])
    elif command == "decode":
        if rng.random() < 0.5:
            files["deal"] = rng.choice(SEED_DEALS)
            deal = "{deal}"
        else:
            deal = _deal_arg(rng, files)
        argv = ["decode", deal, _file_or_special(rng, "model", model_bytes(rng), files),
                *rng.choice([[], ["--json"]])]
    elif command in ("analyse", "review"):
        argv = [command, _deal_arg(rng, files), *timeout, *rng.choice([[], ["--json"]])]
    elif command == "reduce hampath":
        argv = ["reduce", "hampath", _file_or_special(rng, "graph", graph_bytes(rng), files),
                *rng.choice([[], ["--trumps"], ["--tokens"]]), "-o", "{out}"]
    elif command == "mission":
        argv = ["mission", rng.choice([_arg(rng), str(rng.randint(1, 50))]), *_options(rng, ["--players", "--seed"]),
                *rng.choice([[], ["--distress", rng.choice(["left", "up", "٣"])],
                             ["--assignment", rng.choice(["free", "x"])]]), "-o", "{out}"]
        if rng.random() < 0.1:
            argv[-1] = rng.choice([*UNWRITABLE, ""])
    elif command == "missions":
        argv = ["missions", *rng.choice([[], ["--json"], ["--bogus"]])]
    elif command == "prove":
        # a claim name that is never a claim (a real one would run for seconds or more)
        argv = ["prove", rng.choice(["", " ", "٣", "x" * 5000, "nope", "-"]), *rng.choice([[], ["--json"]])]
        if rng.random() < 0.3:
            argv = ["prove", "--list", *rng.choice([[], ["--json"]])]
    elif command == "backends":
        argv = ["backends", *rng.choice([[], ["--json"], ["--bogus"]])]
    elif command in ("bench agents", "bench deepsea", "simulate"):
        # always one value argparse refuses, so nothing long starts
        words = command.split()
        flag = {"bench agents": "--deals", "bench deepsea": "--games", "simulate": "--tasks"}[command]
        argv = [*words, flag, rng.choice(["٣", "", "-5", "x", "1.5", "nan"]), *_options(rng, ["--workers", "--players"])]
    elif command == "serve":
        # an examples directory that does not exist: refused before listening
        argv = ["serve", "--examples", "/nonexistent/examples", *_options(rng, ["--port", "--workers", "--timeout"])]
    else:  # pragma: no cover - COMMANDS and this function move together
        raise AssertionError(command)
    return Case(command, argv, files)


def bounds_case(rng: random.Random) -> Case:
    """A run aimed at the bounds: a deal with one condition repeated or a kind that is no
    string, a ``--batch`` of such lines resumed into another input's record, or an output
    nothing can be written to."""
    files: dict[str, bytes] = {}
    roll = rng.random()
    if roll < 0.4:
        files["deal"] = conditions_deal(rng)
        command = rng.choice(["decide", "validate", "show", "analyse", "encode"])
        argv = [command, "{deal}", *(["--timeout", "2"] if command in ("decide", "analyse") else []),
                *(["--json"] if command in ("decide", "validate", "analyse") and rng.random() < 0.5 else [])]
        if command == "encode":
            argv += ["-o", "{out}"]
        return Case(command, argv, files)
    if roll < 0.7:
        files["batch0"] = b"\n".join(conditions_deal(rng) for _ in range(rng.randint(1, 3))) + b"\n"
        argv = ["decide", "--batch", "{batch0}", "--timeout", "2", "--workers", "0", "--no-progress"]
        if rng.random() < 0.7:
            files["out"] = foreign_results(rng)
            argv += ["--out", "{out}", "--resume"]
        else:
            argv += ["--out", rng.choice(UNWRITABLE)]
        return Case("decide --batch", argv, files)
    command = rng.choice(["encode", "mission", "reduce hampath"])
    target = rng.choice([*UNWRITABLE, ""])
    if command == "encode":
        files["deal"] = rng.choice(SEED_DEALS)
        return Case(command, ["encode", "{deal}", "-o", target], files)
    if command == "mission":
        return Case(command, ["mission", str(rng.randint(1, 50)), "-o", target], files)
    files["graph"] = graph_bytes(rng)
    return Case(command, ["reduce", "hampath", "{graph}", "-o", target], files)


COMMANDS: tuple[str, ...] = (
    "decide", "decide --batch", "validate", "show", "encode", "decode", "analyse", "review", "reduce hampath",
    "mission", "missions", "prove", "backends", "bench agents", "bench deepsea", "simulate", "serve")
"""Every row of the README's exit-code table."""


def documented_codes(readme: str) -> dict[str, set[int]]:
    """The exit codes the README's table lists per command (a non-empty cell)."""
    section = readme.split("### Exit codes", 1)[1]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    codes = [int(h) for h in header[1:]]
    out: dict[str, set[int]] = {}
    for line in rows[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        names = re.findall(r"`([^`]+)`", cells[0])
        for name in names:
            out[name] = {code for code, cell in zip(codes, cells[1:]) if cell}
    return out


def big_deal(seed: int = 7) -> dict[str, Any]:
    """Two seats, four suits of 50 values (200 cards, 100 each), six fixed tasks: a valid
    deal whose encoding has 80,608 variables and 1.7 million constraints."""
    rng = random.Random(seed)
    cards = [f"{s}{v}" for s in "BGPY" for v in range(1, 51)]
    rng.shuffle(cards)
    hands = [sorted(cards[:100]), sorted(cards[100:])]
    tasks = [{"card": hands[i % 2][rng.randrange(100)], "seat": (i + 1) % 2} for i in range(6)]
    return {"deck": {s: 50 for s in "BGPY"}, "hands": hands, "lead": 0, "tasks": tasks}


# -- web requests ------------------------------------------------------------------------
@dataclass
class Request:
    """One request to the page's server."""

    method: str
    path: str
    body: bytes | None = None
    content_type: str = "application/json"


def request(rng: random.Random) -> Request:
    """A hostile request to one of the routes."""
    roll = rng.random()
    if roll < 0.15:
        name = rng.choice(["reiber-figure-1", "x" * 5000, "٣", "..%2F..%2Fetc%2Fpasswd", "a b", "", "%00"])
        return Request("GET", f"/api/examples/{name}")
    if roll < 0.25:
        job = rng.choice(["0", "x" * 3000, "٣", "%00"])
        return Request(rng.choice(["GET", "POST"]), f"/api/jobs/{job}" + rng.choice(["", "/cancel"]))
    if roll < 0.3:
        return Request(rng.choice(["GET", "POST", "PUT", "DELETE"]), rng.choice(["/", "/api/examples", "/nope", "/api/deal"]))
    if roll < 0.4:
        game: dict[str, Any] = {"game": rng.choice(["mission", "classic", "deepsea", "nope", None, 5, ["mission"]])}
        for _ in range(rng.randint(0, 4)):
            name = rng.choice(["mission", "players", "seed", "assignment", "tasks", "cards", "owners"])
            game[name] = rng.choice([_arg(rng), json_value(rng), rng.randint(-3, 60), str(rng.randint(-3, 60))])
        raw = json.dumps(game).encode()
        return Request("POST", "/api/new", raw if rng.random() > 0.1 else rng.choice(NASTY_BYTES))
    route = rng.choice(["/api/deal", "/api/jobs"])
    kind = rng.choice(["decide", "analyse", "review", "nope", None, 5])
    body: dict[str, Any] = {"kind": kind}
    pick = rng.random()
    if pick < 0.4:
        body["deal"] = deal_bytes(rng).decode("utf-8", "replace")  # the pasted deal text
    elif pick < 0.6:
        body["deal"] = json_value(rng)
    elif pick < 0.8:
        body["fields"] = {rng.choice(["hands", "tasks", "trump", "lead", "conditions", "played", "assignment"]):
                          rng.choice([_arg(rng), [_arg(rng), "B1 B2"], json_value(rng)])
                          for _ in range(rng.randint(1, 4))}
    else:
        body["deal"] = json.loads(rng.choice(SEED_DEALS))
    if rng.random() < 0.2:
        body["history"] = json_value(rng)
    if rng.random() < 0.1:
        body["replace"] = rng.choice([True, False, json_value(rng)])
    raw = json.dumps(body).encode()
    if rng.random() < 0.15:
        raw = rng.choice(NASTY_BYTES)
    return Request("POST", route, raw, rng.choice(["application/json"] * 9 + ["text/plain"]))
