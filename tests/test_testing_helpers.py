"""scoutlab.testing, the helpers plugin authors test with: each must work, and each must be able to fail."""

from __future__ import annotations

import itertools
import textwrap

import pytest

from scoutlab.host import manager as plugin_host
from scoutlab.host.hookspecs import hookimpl
from scoutlab.spec.variant import SpecError
from scoutlab.testing import check_invariants, installed_plugin, load_position, rules_with, run_scenario_file


class TwoStepRuns:
    """A house rule for these tests: numbers two apart (3 5 7) make a run too."""

    @hookimpl
    def scoutlab_classify_show(self, values):
        steps = {b - a for a, b in itertools.pairwise(values)}
        return "run" if len(steps) == 1 and steps <= {2, -2} else None


class LosesACard:
    """A broken plugin: its observer drops a card from the hand of the seat that just acted."""

    @hookimpl
    def scoutlab_game_event(self, event, state):
        if event.kind == "action" and state.hands[event.data["seat"]] and state.turn == 3:
            state.hands[event.data["seat"]].pop()


# -- installed_plugin and rules_with ---------------------------------------------------------------


def test_an_installed_plugin_is_found_by_name_only_inside_the_block():
    with installed_plugin("two-step", TwoStepRuns()):
        assert "two-step" in plugin_host.available_plugins()
        rules = rules_with("official", ["two-step"])
        assert rules.classify((3, 5, 7)) == "run" and rules.classify((3, 5, 8)) is None
    assert "two-step" not in plugin_host.installed_plugins()
    with pytest.raises(SpecError, match="unknown plugin 'two-step'"):
        rules_with("official", ["two-step"])


def test_rules_with_changes_the_spec_and_names_it():
    rules = rules_with("official", end_conditions=["hand_emptied"], max_turns_per_round=40)
    assert rules.name == "official" and [name for name, _ in rules.end_conditions] == ["hand_emptied"]
    assert rules.max_turns == 40
    assert rules_with("two-player", ["noop"]).name == "two-player+noop"
    with pytest.raises(SpecError, match="max_turns_per_round"):
        rules_with("official", max_turns_per_round="many")


def test_the_fixtures_come_with_scoutlab(scoutlab_install_plugin, scoutlab_rules, scoutlab_position):
    scoutlab_install_plugin("two-step", TwoStepRuns())
    assert scoutlab_rules("official", ["two-step"]).classify((9, 7)) == "run"
    state = scoutlab_position("hands: ['3/1 5/1 7/1', '2/4', '6/8']")
    assert state.players == 3 and state.to_act == 0


def test_the_install_fixture_undoes_itself():
    assert "two-step" not in plugin_host.installed_plugins()


# -- positions ---------------------------------------------------------------------------------------


def test_a_position_of_a_plugin_variant_from_text(tmp_path):
    (tmp_path / "two-step.yaml").write_text("extends: official\nname: two-step\nplugins: [two-step]\n")
    position = tmp_path / "position.yaml"
    position.write_text(textwrap.dedent("""\
        variant: two-step.yaml
        hands: ["3/1 5/1 7/1 2/9", "4/9 5/8", "6/8"]
    """))
    with installed_plugin("two-step", TwoStepRuns()):
        state = load_position(position)
        assert "show 1-3" in [state.format(code) for code in state.legal_actions()]  # 3 5 7 is a run here
        state.apply_text("show 1-3")
    assert state.active_owner == 0 and state.hands[0] == state.hands[0][:1]


# -- scenario files ----------------------------------------------------------------------------------


SCENARIO = """\
variant: official
cases:
  - id: run-of-two-beats-a-single
    rule: "3A"
    position: {hands: ["2/9 3/9 6/7", "1/7", "5/6"], active: "8/1", owner: 3, to_act: 1}
    action: show 1-2
    expect: {active: "2/9 3/9", owner: 1, captured: [1, 0, 0]}
  - id: equal-is-not-stronger
    rule: "3A"
    position: {hands: ["4/9", "1/7", "5/6"], active: "4/1", owner: 3, to_act: 1}
    action: show 1
    expect: {legal: false, error: "not stronger"}
"""


def test_a_scenario_file_runs_and_counts_its_cases(tmp_path):
    path = tmp_path / "cases.yaml"
    path.write_text(SCENARIO)
    assert run_scenario_file(path) == 2


def test_a_wrong_expectation_fails_with_file_and_line(tmp_path):
    path = tmp_path / "wrong.yaml"
    path.write_text(SCENARIO.replace("captured: [1, 0, 0]", "captured: [0, 0, 0]"))
    with pytest.raises(AssertionError, match=r"wrong.yaml:3: captured"):
        run_scenario_file(path)
    path.write_text(SCENARIO.replace('error: "not stronger"', 'error: "no such reason"'))
    with pytest.raises(AssertionError, match=r"wrong.yaml:8: the refusal gives another reason"):
        run_scenario_file(path)


def test_a_scenario_may_use_a_plugin_variant_next_to_it(tmp_path):
    (tmp_path / "two-step.yaml").write_text("extends: official\nname: two-step\nplugins: [two-step]\n")
    path = tmp_path / "cases.yaml"
    path.write_text(textwrap.dedent("""\
        variant: two-step.yaml
        cases:
          - id: two-apart-is-a-run
            rule: "house"
            position: {hands: ["3/2 5/2 7/2 9/1", "1/8", "4/6"]}
            action: show 1-3
            expect: {active: "3/2 5/2 7/2", owner: 1}
    """))
    with installed_plugin("two-step", TwoStepRuns()):
        assert run_scenario_file(path) == 1


# -- invariants --------------------------------------------------------------------------------------


def test_invariants_hold_for_a_plugin_variant_and_the_report_says_what_was_played():
    with installed_plugin("two-step", TwoStepRuns()):
        report = check_invariants(rules_with("official", ["two-step"]), players=3, games=2, every_legal_share=0.05)
    assert (report.variant, report.games, report.rounds) == ("official+two-step", 2, 6)
    assert report.steps > 50 and report.turn_cap_rounds == 0


def test_every_player_count_by_default_and_a_shipped_name_works():
    report = check_invariants("two-player", games=1)
    assert report.games == 1 and report.rounds == 2


def test_a_plugin_that_loses_a_card_breaks_the_invariants():
    with installed_plugin("loses-a-card", LosesACard()):
        rules = rules_with("official", ["loses-a-card"])
        with pytest.raises(AssertionError, match=r"variant 'official\+loses-a-card', 3 players, seed 0: .*missing"):
            check_invariants(rules, players=3, games=1)


def test_trying_every_legal_action_plays_on_copies():
    from scoutlab.testing import fingerprint
    from scoutlab.testing.invariants import assert_every_legal_action_accepted

    state = rules_with("official").new_game(4, 5)
    for _ in range(12):
        state.apply(state.legal_actions()[-1])
    state.legal_actions()
    before = fingerprint(state)
    assert_every_legal_action_accepted(state)
    assert fingerprint(state) == before
