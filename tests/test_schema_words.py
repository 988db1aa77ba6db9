"""The one wording of JSON Schema errors (spec/schema_words.py), as a variant spec and a position say them.

The sentences below are the words people read (and the catalogs translate, text/spec_messages.py):
a change to the shared module that changes them fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import scoutlab
from scoutlab.base.errors import SpecError
from scoutlab.records.position import PositionError, load_position
from scoutlab.spec import schema_words
from scoutlab.spec.variant import load_spec_text

HEAD = "schema_version: 1\nname: x\nextends: official\n"

SPECS = [
    ("scout:\n  payment: scout_pay\n",
     "v.yaml:5: $.scout.payment: 'scout_pay' is not one of 'owner_receives', 'scout_pays'; did you mean 'scout_pays'?"),
    ("max_turns_per_round: 3.0\n", "v.yaml:4: $.max_turns_per_round: expected a whole number, got the number 3.0"),
    ("max_turns_per_round: true\n", "v.yaml:4: $.max_turns_per_round: expected a whole number, got true"),
    ("max_turns_per_round: 0\n", "v.yaml:4: $.max_turns_per_round: must be at least 1, got 0"),
    ("scorin: {}\n", "v.yaml:4: $.scorin: unknown key 'scorin'; did you mean 'scoring'?"),
]


@pytest.mark.parametrize("tail, expected", SPECS)
def test_a_spec_words_schema_errors_as_ever(tail, expected):
    with pytest.raises(SpecError) as error:
        load_spec_text(HEAD + tail, "v.yaml")
    assert str(error.value) == expected


def test_a_spec_says_which_schema_version_it_reads():
    with pytest.raises(SpecError) as error:
        load_spec_text(HEAD.replace("schema_version: 1", "schema_version: 2"), "v.yaml")
    assert str(error.value) == "v.yaml:1: $.schema_version: this scoutlab reads schema_version 1; the spec says 2"


HANDS = 'hands: ["1/2", "3/4", "5/6"]\n'

POSITIONS = [
    # The shared words, as a spec would say them too.
    (HANDS + "to_act: P2", "<position>:2: $.to_act: expected a whole number, got the string 'P2'"),
    (HANDS + "phase: deal", "<position>:2: $.phase: 'deal' is not one of 'flip', 'play'"),
    (HANDS + 'activ: "7/8"', "<position>:2: $.activ: unknown key 'activ'; did you mean 'active'?"),
    # A position's own.
    (HANDS + 'active: "7/8"\nowner: 0', "<position>:3: $.owner: 0: seats count from 1 (P1 is 1)"),
    (HANDS + "captured: [true, 0, 0]", "<position>:2: $.captured[0]: expected a whole number or cards (top/bottom), got true"),
    ("schema_version: 2\n" + HANDS, "<position>:1: $.schema_version: this scoutlab reads position schema_version 1, not 2"),
]


@pytest.mark.parametrize("text, expected", POSITIONS)
def test_a_position_words_schema_errors_in_the_same_words(text, expected):
    with pytest.raises(PositionError) as error:
        load_position(text)
    assert str(error.value) == expected


def test_only_a_true_int_is_a_whole_number():
    check = schema_words.validator({"type": "integer"})
    assert [e.validator for e in check.iter_errors(3.0)] == ["type"]
    assert [e.validator for e in check.iter_errors(True)] == ["type"]
    assert list(check.iter_errors(3)) == []


def test_a_long_value_is_quoted_as_an_excerpt():
    (error,) = schema_words.validator({"enum": ["a", "b"]}).iter_errors("x" * 5000)
    ((path, message),) = schema_words.explain(error)
    assert path == () and len(message) < 200 and message.endswith("is not one of 'a', 'b'")


def test_no_document_keeps_a_wording_of_its_own():
    # The shared module is the one place: neither reader defines its own explainer or strict validator.
    core = Path(scoutlab.__file__).parent
    for module in ("spec/variant.py", "records/position.py"):
        source = (core / module).read_text(encoding="utf-8")
        names = {n.name for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef)}
        assert not names & {"_explain", "_describe", "_unknown_key", "_did_you_mean"}, module
        assert "validators.extend" not in source, module
