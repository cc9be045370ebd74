"""The Flask application behind ``crewcheck serve``.

Routes (JSON in and out; every POST must be ``application/json``, which a page of
another site cannot send without the browser asking this server first):

``GET /``
    The page (static HTML, CSS and JavaScript in ``static/``); sets the client cookie
    that identifies the page to the job routes.
``GET /api/examples``, ``GET /api/examples/NAME``
    The bundled example deals (``models/deals`` of the source tree, or ``--examples``).
``GET /api/missions``
    The 50 logbook missions for the picker (:func:`crewcheck.web.games.mission_list`).
``POST /api/new``
    ``{"game": "mission" | "classic" | "deepsea", ...}`` (:func:`crewcheck.web.games.new_game`):
    the deal of a new game and its layout, or a one-line error naming the parameter.
``POST /api/deal``
    ``{"deal": ...}`` or ``{"fields": {...}}`` (:func:`crewcheck.web.forms.load`), with an
    optional ``"history"`` (card names from the first card of the game, replacing the
    deal's own): the layout of the position, or the loader's one-line error and the
    input it belongs to.
``POST /api/jobs``
    ``{"kind": "decide" | "analyse" | "review", "deal"/"fields": ..., "history": [...],
    "replace": false}`` (``history``: the position to analyse, the game to review):
    starts the job, ``202``, with the position's layout (one request per move);
    ``409`` while the same page has a job queued or running, unless ``replace`` is true
    (that job is then cancelled: the page asks about a new position), ``429`` while the
    server holds as many unfinished jobs as it accepts (:attr:`Jobs.max_active`).
``GET /api/jobs/ID``, ``POST /api/jobs/ID/cancel``
    Poll (state, seconds, progress, then the result as the command line's ``--json``
    writes it, with the board's words for it: ``explain``,
    :func:`crewcheck.web.words.explain_analysis`, and before the first card the crew's
    choices its winning line makes, :func:`crewcheck.web.choices.engine_setup`) and cancel.

Jobs belong to a page: its cookie and the tab named by the ``X-Crewcheck-Tab`` header (a
fresh id per page load), so two tabs of one browser each keep their own job.

Every error is a JSON object ``{"error": {...}}`` (a bad request a ``4xx``), the error
object written by :mod:`crewcheck.reports.errors`; ``OPTIONS`` answers ``204`` with the
route's methods in ``Allow``. A body is
read by the same hardened reader as a deal file (:mod:`crewcheck.formats.reading`), the
``deal`` string too. Requests larger than :data:`MAX_REQUEST_BYTES` are refused with ``413``, and a request
whose ``Host`` is not this machine's loopback name is refused with ``403`` when the
server listens on loopback (against DNS rebinding).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, request, send_from_directory
from werkzeug.exceptions import HTTPException

from crewcheck.api import decide
from crewcheck.errors import CrewcheckError, InvalidInputError
from crewcheck.formats.reading import decode, parse_json, read_bytes, short_repr
from crewcheck.model.instance import Instance
from crewcheck.model.variants import play_state
from crewcheck.analysis.analyse import analyse
from crewcheck.analysis.review import review
from crewcheck.reports.errors import error_object, error_to_dict, internal_error_to_dict
from crewcheck.reports.results import analysis_to_dict, result_to_dict, review_to_dict, summary
from crewcheck.solvers.base import Budget
from crewcheck.web import forms
from crewcheck.web.choices import engine_setup, setup_step
from crewcheck.web.draw import draw_step, drawable
from crewcheck.web.games import mission_list, new_game
from crewcheck.web.jobs import Busy, Jobs, QueueFull, Work
from crewcheck.web.words import Streaming, explain_analysis, words

__all__ = ["create_app", "loopback_hosts", "MAX_REQUEST_BYTES", "COOKIE", "default_examples"]

MAX_REQUEST_BYTES = 64 * 1024
"""The largest request body accepted (a Classic deal with its history is under 3 KB)."""
MAX_EXAMPLE_NAME = 100
"""The longest example name looked up (longer ones are no example: 404)."""
COOKIE = "crewcheck_client"
STATIC = Path(__file__).resolve().parent / "static"
KINDS = ("decide", "analyse", "review", "setup", "draw")
TAB_HEADER = "X-Crewcheck-Tab"
"""The header naming the page's tab (letters and digits): jobs are per cookie and tab."""


def one_line(text: str, limit: int = 300) -> str:
    """``text`` on one line of at most about ``limit`` characters (an error message)."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[:limit - 3] + "..."


def default_examples() -> Path | None:
    """``models/deals`` of the source tree, when crewcheck runs from one."""
    path = Path(__file__).resolve().parents[2] / "models" / "deals"
    return path if path.is_dir() else None


def loopback_hosts(app: Flask, port: int) -> None:
    """Serve only requests addressed to ``127.0.0.1``, ``localhost`` or ``[::1]`` at ``port``."""
    app.config["CREWCHECK_HOSTS"] = {f"{h}:{port}" for h in ("127.0.0.1", "localhost", "[::1]")}


def create_app(*, jobs: Jobs | None = None, examples: Path | None = None, timeout: float | None = None) -> Flask:
    """The application.

    Parameters
    ----------
    jobs
        The job runner (default: one worker thread).
    examples
        Directory of example deal files offered on the page (default:
        :func:`default_examples`).
    timeout
        Seconds per decision (``None``: until decided or cancelled).

    :func:`loopback_hosts` restricts the ``Host`` header the application accepts.
    """
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = MAX_REQUEST_BYTES
    runner = jobs if jobs is not None else Jobs()
    app.extensions["crewcheck_jobs"] = runner
    example_dir = examples if examples is not None else default_examples()

    def fail(error: Exception, status: int = 400, mode: str = "json") -> tuple[Response, int]:
        body = error_to_dict(error)
        body["input"] = forms.input_of(body["field"], mode) if isinstance(error, InvalidInputError) else None
        return jsonify({"error": body}), status

    def plain_error(message: str, status: int) -> tuple[Response, int]:
        return jsonify({"error": error_object("RequestError", message, input=None)}), status

    def client() -> str:
        # one job per tab: the page names its tab in a header (a fresh id per page load)
        tab = request.headers.get(TAB_HEADER, "")
        tab = tab if len(tab) <= 32 and tab.isascii() and tab.isalnum() else ""
        return (request.cookies.get(COOKIE) or f"addr:{request.remote_addr}") + (f":{tab}" if tab else "")

    def body() -> dict[str, Any]:
        # the hardened reader, as for a deal file: depth, digits, duplicate keys, UTF-8
        data = parse_json(decode(request.get_data(cache=True), "request"), "request")
        if not isinstance(data, dict):
            raise InvalidInputError("expected a JSON object", field="request")
        return data

    @app.before_request
    def guard() -> tuple[Response, int] | None:
        hosts = app.config.get("CREWCHECK_HOSTS")
        if hosts is not None and request.host not in hosts:
            return plain_error(f"unexpected host {request.host!r}: this server answers on loopback only", 403)
        if request.method == "POST" and not request.is_json:
            return plain_error("expected a JSON request (Content-Type: application/json)", 415)
        if request.method == "OPTIONS":  # the methods a route takes; no page
            return _options(app)
        return None

    @app.errorhandler(413)
    def too_large(_: Exception) -> tuple[Response, int]:
        return plain_error(f"request too large: at most {MAX_REQUEST_BYTES} bytes", 413)

    @app.errorhandler(404)
    def not_found(_: Exception) -> tuple[Response, int]:
        return plain_error(f"no such page: {one_line(request.path, 120)}", 404)

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException) -> tuple[Response, int]:
        code = e.code or 400
        return plain_error(one_line(f"{e.name}: {e.description}"), code)

    @app.errorhandler(Exception)
    def internal_error(e: Exception) -> tuple[Response, int]:  # a bug: JSON too, never an HTML page
        app.logger.exception("internal error")
        return jsonify({"error": {**internal_error_to_dict(e), "input": None}}), 500

    @app.get("/")
    def index() -> Response:
        response = send_from_directory(STATIC, "index.html")
        if COOKIE not in request.cookies:
            response.set_cookie(COOKIE, secrets.token_hex(16), httponly=True, samesite="Strict")
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/static/<path:name>")
    def static_file(name: str) -> Response:
        return send_from_directory(STATIC, name)

    @app.get("/api/examples")
    def examples_list() -> Response:
        out = []
        if example_dir is not None:
            for path in sorted(example_dir.glob("*.json")):
                try:
                    data = parse_json(decode(read_bytes(path), str(path)))
                except InvalidInputError:
                    continue
                if not isinstance(data, dict):
                    continue
                out.append({"name": path.stem, "comment": data.get("comment", ""),
                            "expected": data.get("expected")})
        return jsonify({"examples": out})

    @app.get("/api/examples/<name>")
    def example(name: str) -> tuple[Response, int] | Response:
        shown = short_repr(name)
        if (example_dir is None or len(name) > MAX_EXAMPLE_NAME
                or not all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in name)):
            return plain_error(f"no example {shown}", 404)
        try:
            text = decode(read_bytes(example_dir / f"{name}.json"), name)
        except InvalidInputError:
            return plain_error(f"no example {shown}", 404)
        return jsonify({"name": name, "text": text})

    @app.get("/api/missions")
    def missions() -> Response:
        return jsonify({"missions": mission_list()})

    @app.post("/api/new")
    def new() -> tuple[Response, int] | Response:
        try:
            game = new_game(body())
            instance, _ = forms.load({"deal": game["deal"]})
        except CrewcheckError as e:
            return fail(e, mode="game")
        return jsonify({"game": game, "layout": forms.layout(instance)})

    @app.post("/api/deal")
    def deal() -> tuple[Response, int] | Response:
        mode = "json"
        try:
            data = body()
            mode = "fields" if "fields" in data else "json"
            instance, mode = forms.load(data)
            if "history" in data:
                instance = forms.with_history(instance, data["history"])
            return jsonify({"layout": forms.layout(instance)})
        except CrewcheckError as e:
            return fail(e, mode=mode)

    @app.post("/api/jobs")
    def start() -> tuple[Response, int]:
        mode = "json"
        try:
            data = body()
            mode = "fields" if "fields" in data else "json"
            kind = data.get("kind")
            if kind not in KINDS:
                raise InvalidInputError(f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}",
                                        field="kind")
            replace = data.get("replace", False)
            if not isinstance(replace, bool):
                raise InvalidInputError(f"expected true or false, got {replace!r}", field="replace")
            instance, mode = forms.load(data)
            if "history" in data:
                instance = forms.with_history(instance, data["history"])
            work = _STEP_WORK[kind](instance, timeout, data) if kind in _STEP_WORK else _work(kind, instance, timeout)
            if kind == "analyse" and "compare" in data:
                work = _compared(work, _other(data), timeout)
        except CrewcheckError as e:
            return fail(e, mode=mode)
        try:
            job = runner.submit(client(), kind, work, replace=replace)
        except Busy as e:
            return jsonify({"error": error_object("Busy", str(e), input_error=False, input=None, job=e.job.id)}), 409
        except QueueFull as e:
            return jsonify({"error": error_object("QueueFull", str(e), input_error=False, input=None)}), 429
        # the position's layout too: the page draws it without asking for it separately
        return jsonify({**job.to_dict(), "layout": forms.layout(instance)}), 202

    @app.get("/api/jobs/<job_id>")
    def poll(job_id: str) -> tuple[Response, int] | Response:
        job = runner.get(client(), job_id)
        if job is None:
            return plain_error(f"no job {job_id!r} for this page", 404)
        return jsonify(job.to_dict())

    @app.post("/api/jobs/<job_id>/cancel")
    def cancel(job_id: str) -> tuple[Response, int] | Response:
        job = runner.cancel(client(), job_id)
        if job is None:
            return plain_error(f"no job {job_id!r} for this page", 404)
        return jsonify(job.to_dict())

    return app


def _options(app: Flask) -> tuple[Response, int]:
    """The answer to ``OPTIONS``: ``204`` with the route's methods in ``Allow``, or the
    JSON ``404`` of a path that is no route."""
    try:
        allowed = app.url_map.bind_to_environ(request.environ).allowed_methods()
    except HTTPException:
        allowed = []
    if not allowed:
        message = f"no such page: {one_line(request.path, 120)}"
        return jsonify({"error": error_object("RequestError", message, input=None)}), 404
    response = Response(status=204)
    response.headers["Allow"] = ", ".join(sorted(set(allowed) | {"OPTIONS"}))
    return response, 204


def _strings(data: dict[str, Any], name: str, default: Any, shape: type) -> Any:
    """``data[name]``: a list of strings or an object of strings (``shape``), else an
    error naming the field."""
    value = data.get(name, default)
    items = value.values() if isinstance(value, dict) else value
    if not isinstance(value, shape) or not all(isinstance(x, str) for x in items) or (
            isinstance(value, dict) and not all(isinstance(k, str) for k in value)):
        what = "a list of card names" if shape is list else "an object of option values (strings)"
        raise InvalidInputError(f"expected {what}", field=name)
    return value


def _setup_work(instance: Instance, timeout: float | None, data: dict[str, Any]) -> Work:
    """The set-up job: the next crew choice after the request's ``"picks"`` (choice kind
    -> option value) and ``"draft"`` (task cards in the order taken), with each option's
    verdict (:func:`crewcheck.web.choices.setup_step`)."""
    picks = _strings(data, "picks", {}, dict)
    draft = _strings(data, "draft", [], list)

    def run(cancelled: Any, progress: Any) -> dict[str, Any]:
        step = setup_step(instance, picks, draft, timeout=timeout, cancelled=cancelled, progress=progress)
        return {"setup": step, "layout": forms.layout(instance)}

    return run


def _draw_work(instance: Instance, timeout: float | None, data: dict[str, Any]) -> Work:
    """Mission 12's draw after the first trick: the request's ``"draw"`` (the card each
    seat gives to the next) with each seat's options decided (:func:`crewcheck.web.draw.draw_step`)."""
    cards = _strings(data, "draw", [], list)
    why = drawable(instance)
    if why is not None:
        raise InvalidInputError(why, field="history")

    def run(cancelled: Any, progress: Any) -> dict[str, Any]:
        step = draw_step(instance, cards, timeout=timeout, cancelled=cancelled, progress=progress)
        return {"draw": step, "layout": forms.layout(instance)}

    return run


def _other(data: dict[str, Any]) -> Instance:
    """The request's ``"compare"`` deal (another reading of the same game) at its
    ``"history"``."""
    try:
        other, _ = forms.load({"deal": data["compare"]})
        return forms.with_history(other, data["history"]) if "history" in data else other
    except CrewcheckError as e:
        raise InvalidInputError(getattr(e, "reason", str(e)), field="compare") from None


def _compared(work: Work, other: Instance, timeout: float | None) -> Work:
    """``work`` (an analysis) with ``"compare"``: the verdict of the same position under
    another reading of the rule, and its reason in the board's words."""

    def run(cancelled: Any, progress: Any) -> dict[str, Any]:
        out = work(cancelled, progress)
        end = play_state(other).end
        if end is not None:
            verdict, why = ("winnable" if end.won else "unwinnable"), words(end.describe(other))
        else:
            result = decide(other, budget=Budget(seconds=timeout, cancel=cancelled))
            verdict, why = result.verdict.value, words(result.explanation)
        return {**out, "compare": {"verdict": verdict, "reason": why}}

    return run


_STEP_WORK: dict[str, Callable[[Instance, float | None, dict[str, Any]], Work]] = {
    "setup": _setup_work,
    "draw": _draw_work,
}
"""Job kind -> the work of a step of the game's set-up (it reads more of the request)."""


def _work(kind: str, instance: Instance, timeout: float | None) -> Work:
    """The job for ``kind``: the same library calls as the command line, same JSON."""

    def run(cancelled: Any, progress: Any) -> dict[str, Any]:
        layout = forms.layout(instance)
        if kind == "decide":
            progress(0, 1, "the position")
            result = decide(instance, budget=Budget(seconds=timeout, cancel=cancelled))
            return {"decide": result_to_dict(instance, result), "layout": layout}
        if kind == "analyse":
            stream = Streaming(instance, progress)
            a = analyse(instance, timeout=timeout, cancel=cancelled, progress=stream.progress, decided=stream.decided)
            explain = {**explain_analysis(a), "setup": engine_setup(instance, a.position.witness)}
            return {"analyse": analysis_to_dict(a), "explain": explain, "layout": layout}
        r = review(instance, timeout=timeout, cancel=cancelled, progress=progress)
        return {"review": {**review_to_dict(r), "summary": summary(r), "words": words(summary(r))},
                "layout": layout}

    return run
