"""The one writer of crewcheck's error objects: ``error -> dict`` for every command's
``--json`` output, every ``decide --batch`` line and every route of the web page.

An error object has five fields, whoever writes it (:data:`ERROR_SCHEMA`):

``type``
    The exception's class name (``InvalidDealError``), or ``UsageError`` (a command line
    argparse refuses), ``RequestError`` (a web request refused before any deal is read),
    ``InternalError`` (a bug), ``Busy`` / ``QueueFull`` (the web page's job queue).
``field``
    The JSON path or option of the offending value (``hands[2]``, ``--out``), or ``""``.
``message``
    What is wrong, without the field.
``line``
    The one-line message the command line prints (``field: message``).
``input_error``
    Bad input (exit 2, HTTP 4xx) rather than a failure.

and, where they apply, ``index`` (the illegal card's place in a game's history), ``input``
(the web page's input the error belongs to) and ``job`` (the web job in the way).

Examples
--------
>>> from crewcheck.errors import InvalidDealError
>>> error_to_dict(InvalidDealError("expected an integer", field="lead"))["line"]
'lead: expected an integer'
>>> error_object("UsageError", "missing command")["input_error"]
True
"""

from __future__ import annotations

from typing import Any

from crewcheck.errors import InvalidInputError, NotApplicableError

__all__ = ["ERROR_SCHEMA", "error_object", "error_to_dict", "internal_error_to_dict"]

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["type", "field", "message", "line", "input_error"],
    "properties": {
        "type": {"type": "string", "minLength": 1},
        "field": {"type": "string"},
        "message": {"type": "string"},
        "line": {"type": "string"},
        "input_error": {"type": "boolean"},
        "index": {"type": "integer", "minimum": 0},
        "input": {},
        "job": {"type": "string"},
    },
    "additionalProperties": False,
}
"""The JSON Schema every error object satisfies (the tests validate each writer's)."""


def error_object(type_name: str, message: str, *, field: str = "", line: str | None = None,
                 input_error: bool = True, **extra: Any) -> dict[str, Any]:
    """An error object from its parts; ``line`` defaults to ``field: message``.
    ``extra`` takes the optional fields (``index``, ``input``, ``job``)."""
    unknown = set(extra) - set(ERROR_SCHEMA["properties"])
    if unknown:
        raise TypeError(f"not a field of an error object: {', '.join(sorted(unknown))}")
    shown = line if line is not None else (f"{field}: {message}" if field else message)
    return {"type": type_name, "field": field, "message": message, "line": shown, "input_error": input_error,
            **extra}


def error_to_dict(error: BaseException) -> dict[str, Any]:
    """The error object of ``error``: bad input when it is an
    :class:`~crewcheck.errors.InvalidInputError` or a
    :class:`~crewcheck.errors.NotApplicableError`, or says so itself (an ``input_error``
    attribute, as the command line's usage error); ``index`` when it names a card of a
    game's history."""
    extra: dict[str, Any] = {}
    if getattr(error, "index", None) is not None:
        extra["index"] = error.index  # type: ignore[attr-defined]
    bad_input = getattr(error, "input_error", None)
    if not isinstance(bad_input, bool):
        bad_input = isinstance(error, (InvalidInputError, NotApplicableError))
    return error_object(type(error).__name__, str(getattr(error, "reason", error)), field=getattr(error, "field", ""),
                        line=str(error), input_error=bad_input, **extra)


def internal_error_to_dict(error: BaseException) -> dict[str, Any]:
    """The error object of a bug (an exception that is no
    :class:`~crewcheck.errors.CrewcheckError`): one line, never a traceback."""
    line = " ".join(f"internal error: {type(error).__name__}: {error}".split())
    return error_object("InternalError", line, input_error=False)
