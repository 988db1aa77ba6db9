"""The action notation: one canonical text per action, round-tripping both ways with the codes."""

import pytest
from hypothesis import given, settings, strategies as st

from scoutlab.engine.actions import (
    FLIP,
    KEEP,
    LEFT,
    RIGHT,
    Codec,
    Flip,
    NotationError,
    Scout,
    ScoutShow,
    Show,
    format_action,
    parse_action,
)

CODEC = Codec(45)  # the official deck: a hand can hold at most all 45 cards


@settings(max_examples=3000)
@given(st.integers(min_value=0, max_value=CODEC.size - 1))
def test_every_code_round_trips_through_the_notation(code):
    try:
        action = CODEC.decode(code)
    except ValueError as exc:  # a show from position i holds at most width - i cards: such codes are unused
        assert "unused" in str(exc)
        return
    assert CODEC.encode(parse_action(format_action(action))) == code


@pytest.mark.parametrize(
    "text, action",
    [
        ("keep", Flip(False)),
        ("flip", Flip(True)),
        ("show 3", Show(2, 1)),
        ("show 3-5", Show(2, 3)),
        ("scout left 4", Scout(LEFT, False, 4)),
        ("scout right flip 0", Scout(RIGHT, True, 0)),
        ("scout left 2 show 1-3", ScoutShow(Scout(LEFT, False, 2), Show(0, 3))),
        ("scout right flip 7 show 8", ScoutShow(Scout(RIGHT, True, 7), Show(7, 1))),
        ("scout left 0 show none", ScoutShow(Scout(LEFT, False, 0), None)),
    ],
)
def test_notation_parses_and_formats_canonically(text, action):
    assert parse_action(text) == action
    assert format_action(action) == text


@pytest.mark.parametrize(
    "loose, canonical",
    [("  SHOW 3 - 5 ", "show 3-5"), ("Scout  Left   Flip 2", "scout left flip 2"), ("FLIP", "flip")],
)
def test_case_and_spacing_are_free_on_input(loose, canonical):
    assert format_action(parse_action(loose)) == canonical


@pytest.mark.parametrize(
    "text, reason",
    [
        ("", "is not a move"),
        ("show", "is not a move"),
        ("show 0", "1 <= I <= J"),
        ("show 5-3", "1 <= I <= J"),
        ("show none", "only follows a scout"),
        ("scout middle 2", "is not a move"),
        ("scout left", "is not a move"),
        ("scout left 2 show", "is not a move"),
        ("pass", "is not a move"),
        ("show \u0663-\u0663", "is not a move"),  # Arabic-Indic digits: int() reads them, the notation is 0-9
        ("show \uff11", "is not a move"),  # a full-width 1
        ("scout left \u06f2", "is not a move"),  # a Persian 2
    ],
)
def test_bad_notation_says_what_was_expected(text, reason):
    with pytest.raises(NotationError, match=reason):
        parse_action(text)


def test_code_blocks_are_laid_out_as_documented():
    assert (KEEP, FLIP) == (0, 1)
    assert CODEC.kind(CODEC.show(0, 1)) == "show"
    assert CODEC.kind(CODEC.scout(RIGHT, True, 45)) == "scout"
    assert CODEC.kind(CODEC.scout_show(LEFT, False, 0, None)) == "scout_and_show"
    assert CODEC.scout_show(RIGHT, True, 45, None) == CODEC.size - 1
    with pytest.raises(ValueError, match="outside"):
        CODEC.decode(CODEC.size)


@pytest.mark.parametrize("text", ["show 1-46", "show 46", "scout left 46", "scout right 3 show 40-46"])
def test_positions_no_hand_can_have_are_refused_not_wrapped_into_other_codes(text):
    with pytest.raises(NotationError, match="no hand"):
        CODEC.encode(parse_action(text))
