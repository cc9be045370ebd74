"""``crewcheck reduce hampath GRAPH -o DEAL.json``: Reiber's Hamiltonian-path reduction.

Reads an undirected graph as node-link JSON (``networkx.node_link_data``), as a JSON
list of edges (``[[0, 1], [1, 2]]``), or as a plain edge list (one ``u v`` per line,
``#`` comments), and writes the Crew deal of Reiber's Lemma 6.2 (see
:mod:`crewcheck.solvers.special.hampath`). The deal's ``comment`` records the graph, the
variant and the vertex of each seat (vertices are whole numbers or short names, so no
line of the input is copied into it).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from crewcheck.cli import EXIT_BACKEND, EXIT_OK, EXIT_USAGE, one_line, output_arg
from crewcheck.errors import CrewcheckError, InvalidInputError
from crewcheck.formats.reading import decode, parse_json, read_bytes
from crewcheck.model.limits import MAX_PLAYERS

__all__ = ["add_parsers", "read_graph"]


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("reduce", help="build Crew deals from other problems (hampath)",
                       description="Build a Crew deal from an instance of another problem.")
    rsub = p.add_subparsers(dest="problem", metavar="PROBLEM")
    h = rsub.add_parser(
        "hampath", help="Hamiltonian path -> Crew (Reiber, Lemma 6.2)",
        description="Write Reiber's Crew deal for an undirected graph: the deal is winnable iff the "
                    "graph has a Hamiltonian path (for --junk figure; see docs/special-cases.md). "
                    "Decide it with: crewcheck decide DEAL.json --backend hampath")
    h.add_argument("graph", help="graph file: node-link JSON, a JSON list of edges, or an edge list "
                                 "('u v' per line); - for standard input")
    h.add_argument("-o", "--output", type=output_arg, metavar="DEAL.json", help="output deal file (default: standard output)")
    h.add_argument("--junk", choices=("figure", "text"), default="figure",
                   help="junk cards per vertex: 'figure' = |V| - deg - 1 as in Figure 3 (hands of |V|), "
                        "'text' = |V| - deg + 1 as in the proof's text (hands of |V| + 2) (default: figure)")
    h.add_argument("--trumps", action="store_true", help="add a trump suit R (Corollary 6.4)")
    h.add_argument("--tokens", action="store_true", help="add a seat whose task carries the omega token "
                                                          "(Theorem 6.5)")
    h.set_defaults(func=run_hampath)
    p.set_defaults(func=lambda args: p.error("missing PROBLEM: hampath"))


MAX_NAME = 32
"""Longest vertex name (a vertex is a whole number or a name of letters, digits, ``_``,
``-`` and ``.``): the deal's comment names each seat's vertex."""
_NAME = re.compile(rf"[A-Za-z0-9_.-]{{1,{MAX_NAME}}}")


def read_graph(text: str) -> Any:
    """Parse a graph from node-link JSON, a JSON edge list or a text edge list; refuse a
    file that is no graph (no vertex, or a vertex that is no name: a text file that is not
    an edge list)."""
    graph = _parse_graph(text)
    if graph.number_of_nodes() == 0:
        raise InvalidInputError("not a graph: no vertex (expected node-link JSON, a JSON list of edges, or "
                                "'u v' per line)")
    for v in graph.nodes:
        if isinstance(v, bool) or not (isinstance(v, int) or (isinstance(v, str) and _NAME.fullmatch(v))):
            raise InvalidInputError(f"not a graph: vertex {_shown(v)} is neither a whole number nor a name of "
                                    f"at most {MAX_NAME} letters, digits, '_', '-' or '.'")
    return graph


def _shown(v: object) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _parse_graph(text: str) -> Any:
    import networkx as nx  # type: ignore[import-untyped]

    stripped = text.strip()
    if stripped.startswith("{"):
        data = parse_json(stripped)
        _check_node_link(data)
        try:
            key = "edges" if "edges" in data else "links"
            g = nx.node_link_graph(data, edges=key) if _has_edges_kw() else nx.node_link_graph(data)
        except (KeyError, TypeError, nx.NetworkXError) as e:
            raise InvalidInputError(f"not node-link graph data: {e}") from None
        if g.is_directed():
            raise InvalidInputError("expected an undirected graph, got a directed one")
        return nx.Graph(g)
    if stripped.startswith("["):
        edges = parse_json(stripped)
        g = nx.Graph()
        for k, edge in enumerate(edges):
            if isinstance(edge, list) and len(edge) == 1:
                g.add_node(edge[0])
            elif isinstance(edge, list) and len(edge) == 2 and all(isinstance(v, (int, str)) for v in edge):
                g.add_edge(*edge)
            else:
                raise InvalidInputError(f"[{k}]: expected an edge [u, v] (or [v] for a lone vertex), got {_shown(edge)}")
        return g
    lines = [ln.split("#", 1)[0].strip() for ln in text.splitlines()]
    g = nx.Graph()
    for k, ln in enumerate(lines, start=1):
        if not ln:
            continue
        parts = ln.split()
        if len(parts) > 2 or not all(_NAME.fullmatch(p) for p in parts):
            # (the line itself is not quoted: the file may be anything, a password file too)
            raise InvalidInputError(f"line {k}: expected 'u v' (an edge) or 'v' (a lone vertex) with vertices "
                                    f"named by whole numbers or names of letters, digits, '_', '-' or '.', got "
                                    f"{len(parts)} word(s) of {len(ln)} characters; not an edge list")
        if len(parts) == 1:
            g.add_node(_node(parts[0]))
        else:
            g.add_edge(_node(parts[0]), _node(parts[1]))
    return g


def _check_node_link(data: dict[str, Any]) -> None:
    """Node-link data in the shape networkx reads: a list of node objects with a scalar
    ``id`` and a list of edge objects with scalar ends (else networkx fails obscurely)."""
    key = "edges" if "edges" in data else "links"
    nodes, edges = data.get("nodes"), data.get(key, [])
    if not isinstance(nodes, list) or not all(isinstance(n, dict) and isinstance(n.get("id"), (int, str))
                                              for n in nodes):
        raise InvalidInputError("not node-link graph data: 'nodes' must be a list of objects with an 'id' "
                                "(a number or a string)")
    if not isinstance(edges, list) or not all(
            isinstance(e, dict) and all(isinstance(e.get(end), (int, str)) for end in ("source", "target"))
            for e in edges):
        raise InvalidInputError(f"not node-link graph data: {key!r} must be a list of objects with a "
                                "'source' and a 'target' (numbers or strings)")


def _node(text: str) -> Any:
    body = text[1:] if text.startswith("-") else text
    return int(text) if body.isascii() and body.isdigit() and len(body) <= 30 else text


def _has_edges_kw() -> bool:
    import inspect

    import networkx as nx

    return "edges" in inspect.signature(nx.node_link_graph).parameters


def run_hampath(args: argparse.Namespace) -> int:
    try:
        import networkx  # noqa: F401
    except ImportError:
        print('crewcheck: error: reduce hampath needs networkx: pip install "crewcheck[special]"', file=sys.stderr)
        return EXIT_BACKEND
    from crewcheck.formats.deal_json import to_dict
    from crewcheck.solvers.special.hampath import Variant, hamiltonian_path, reduce_hampath, vertex_order

    where = args.graph
    try:
        text = decode(read_bytes(where), where)
        graph = read_graph(text)
        seats = graph.number_of_nodes() + (1 if args.tokens else 0)
        if seats > MAX_PLAYERS:
            raise InvalidInputError(f"the deal would have {seats} seats (one per vertex); the limit is {MAX_PLAYERS}")
        deal = reduce_hampath(graph, junk=args.junk, trumps=args.trumps, tokens=args.tokens)
    except CrewcheckError as e:
        prefix = "" if str(e).startswith(where) else f"{where}: "
        print(f"crewcheck: error: {one_line(f'{prefix}{e}')}", file=sys.stderr)
        return EXIT_USAGE
    variant = Variant(args.junk, args.trumps, args.tokens)
    order = vertex_order(graph)
    seats = ", ".join(f"{i}={v}" for i, v in enumerate(order))
    comment = (f"Reiber Lemma 6.2 reduction ({variant}) of a graph with {graph.number_of_nodes()} vertices and "
               f"{graph.number_of_edges()} edges; seat=vertex: {seats}")
    if graph.number_of_nodes() <= 16:
        has = hamiltonian_path(graph) is not None
        comment += f"; the graph {'has' if has else 'has no'} Hamiltonian path"
    data = {"schema": "crewcheck-deal/1", "name": f"hampath-{graph.number_of_nodes()}v",
            "comment": comment, **{k: v for k, v in to_dict(deal).items() if k != "schema"}}
    out = json.dumps(data, indent=1) + "\n"
    if args.output:
        try:
            Path(args.output).write_text(out, encoding="utf-8")
        except OSError as e:
            print(f"crewcheck: error: {args.output}: cannot write: {e.strerror}", file=sys.stderr)
            return EXIT_USAGE
    else:
        sys.stdout.write(out)
    return EXIT_OK
