"""Reading untrusted text: the JSON limits at their edges, and parsers that fail only with
an input error whatever the text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crewcheck.errors import InvalidInputError
from crewcheck.formats import deal_json
from crewcheck.formats.notation import parse_deal
from crewcheck.formats.reading import MAX_DEPTH, MAX_INT_DIGITS, decode, json_path, parse_json

DEAL = '{"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}'


def test_nesting_limit_is_exact() -> None:
    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(InvalidInputError, match="nested more than"):
        parse_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))


def test_brackets_inside_strings_do_not_count() -> None:
    text = '["' + "[{" * 100 + '\\"' + "]}" * 100 + '"]'
    assert len(parse_json(text)[0]) == 401


def test_integer_limit_is_exact() -> None:
    assert parse_json("9" * MAX_INT_DIGITS) == int("9" * MAX_INT_DIGITS)
    assert parse_json("-" + "9" * MAX_INT_DIGITS) == -int("9" * MAX_INT_DIGITS)
    with pytest.raises(InvalidInputError, match=r"^a\[1\]: integer of 31 digits"):
        parse_json('{"a": [0, ' + "9" * (MAX_INT_DIGITS + 1) + "]}")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_constants_are_refused(constant: str) -> None:
    with pytest.raises(InvalidInputError, match=f"{constant} is not a JSON number"):
        parse_json(f'{{"x": {constant}}}')


def test_duplicate_key_names_its_object() -> None:
    with pytest.raises(InvalidInputError, match=r"^tasks\[1\]: duplicate key 'card'"):
        parse_json('{"tasks": [{"card": 1}, {"card": 1, "card": 2}]}')


def test_paths_are_one_line() -> None:
    assert json_path(["deck", "B\n", 0]) == "deck['B\\n'][0]"
    assert json_path(["tasks", 0, "seat"]) == "tasks[0].seat"


def test_bytes_and_byte_order_mark() -> None:
    assert deal_json.loads(DEAL.encode()) == deal_json.loads(DEAL)
    assert deal_json.loads(b"\xef\xbb\xbf" + DEAL.encode()) == deal_json.loads(DEAL)
    with pytest.raises(InvalidInputError, match="byte 0xff at offset 3"):
        decode(b"abc\xff")


@given(st.text(max_size=80))
def test_notation_fails_only_with_an_input_error(text: str) -> None:
    """The one-line notation promises InvalidDealError on malformed text (it raised
    KeyError, ValueError and int()'s 4,300-digit error)."""
    try:
        parse_deal(text)
    except InvalidInputError:
        pass


@given(st.sampled_from(["B1 | B2; tasks B1@", "B1 | B2; played ", "B1 B2 | B3 B4; lead "]),
       st.text(alphabet="B0123456789@?:x -", max_size=30))
def test_notation_fields_fail_only_with_an_input_error(prefix: str, rest: str) -> None:
    try:
        parse_deal(prefix + rest)
    except InvalidInputError:
        pass
