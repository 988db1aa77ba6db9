"""Tests of the house rule, with the helpers scoutlab ships for plugin authors (scoutlab.testing).

Run them with the plugin installed (`pip install -e .`): scoutlab finds it by its entry point,
exactly as a user's spec will.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scoutlab.host.manager import installed_plugins
from scoutlab.rules import load_rules
from scoutlab.spec.variant import SpecError
from scoutlab.testing import check_invariants, run_scenario_file

HERE = Path(__file__).resolve().parent
SPEC = str(HERE.parent / "ones-beat-all.yaml")


def test_the_plugin_is_installed_under_its_entry_point():
    assert installed_plugins()["ones-beat-all"].load().__name__ == "ones_beat_all"


def test_three_ones_trump_everything_else(scoutlab_rules):
    rules = scoutlab_rules("official", ["ones-beat-all"])
    assert rules.beats((1, 1, 1), (2, 3, 4, 5, 6, 7))
    assert not rules.beats((9, 9, 9, 9), (1, 1, 1))
    assert rules.beats((1, 1, 1, 1), (1, 1, 1)) and not rules.beats((1, 1, 1), (1, 1, 1))
    assert not rules.beats((1, 1), (2, 3, 4)) and rules.beats((2, 3, 4), (1, 1))  # two 1s are no trump


def test_the_config_sets_how_many_ones_make_a_trump(scoutlab_rules):
    rules = scoutlab_rules("official", [{"name": "ones-beat-all", "config": {"at_least": 4}}])
    assert not rules.beats((1, 1, 1), (2, 3, 4, 5))
    assert rules.beats((1, 1, 1, 1), (2, 3, 4, 5, 6))


@pytest.mark.parametrize("config, reason", [
    ({"at_least": 1}, "at_least must be a whole number of 2 or more, not 1"),
    ({"at_least": "three"}, "not 'three'"),
    ({"least": 3}, "unknown config keys ['least']"),
])
def test_a_bad_config_is_a_spec_error(scoutlab_rules, config, reason):
    with pytest.raises(SpecError, match=reason.replace("[", r"\[").replace("]", r"\]")):
        scoutlab_rules("official", [{"name": "ones-beat-all", "config": config}])


def test_the_rules_summary_says_what_the_plugin_does():
    from scoutlab.text.summary import render_text, summarize

    # `summary` lives in the module, while make_plugin returns an object: scoutlab finds it there
    assert "ones-beat-all: a set of three or more 1s beats any other show" in render_text(summarize(load_rules(SPEC)))


def test_the_rules_cases():
    assert run_scenario_file(HERE / "scenarios" / "ones.yaml") == 5


def test_a_position_in_the_spec(scoutlab_position):
    state = scoutlab_position(f"variant: {SPEC}\nhands: ['1/2 1/3 1/4', '5/6 6/7 7/8 8/9', '2/9']\n"
                              "active: '3/4 4/5 5/9 6/1'\nowner: 3\nto_act: 1")
    assert "show 1-3" in [state.format(code) for code in state.legal_actions()]


def test_the_engine_invariants_hold_under_the_house_rule():
    report = check_invariants(load_rules(SPEC), games=1)  # one game for each of 3, 4 and 5 players
    assert report.games == 3 and report.steps > 0
