"""`state.facts`: the round so far by name, as plugins read it, checked against the history it comes from."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from scoutlab.engine.actions import Scout, ScoutShow, Show
from scoutlab.engine.cards import flipped
from scoutlab.match import make_bots, play_game
from scoutlab.rules import load_rules
from scoutlab.spec import shipped_variants
from scoutlab.testing import installed_plugin, rules_with

DOCS = Path(__file__).resolve().parent.parent / "docs" / "plugins.md"


def recount(state):
    """The facts the slow way: every move of this round in the history, decoded."""
    n = state.players
    counts = {"show": [0] * n, "scout": [0] * n, "scout_and_show": [0] * n}
    for _, seat, code in state.history[state.round_start:]:
        kind = state.rules.codec.kind(code)
        if kind != "flip":
            counts[kind][seat] += 1
    return counts


@pytest.mark.parametrize("variant", [name for name, _ in shipped_variants()])
def test_facts_agree_with_the_history_after_every_action(variant):
    rules = load_rules(variant)
    for seed in range(3):
        rng = random.Random(seed)
        state = rules.new_game(rng.choice(rules.players), seed)
        while not state.is_over:
            round_before = state.round
            seat = state.to_act
            code = rng.choice(state.legal_actions())
            hand_before = list(state.hands[seat])
            active_before = list(state.active)
            state.apply(code)
            if state.round != round_before:
                assert state.facts.turn == 0 and state.facts.last is None  # a new round has no moves yet
                continue
            facts = state.facts
            counts = recount(state)
            assert facts.shows == tuple(counts["show"])
            assert facts.scouts == tuple(counts["scout"])
            assert facts.scout_shows == tuple(counts["scout_and_show"])
            assert facts.turn == state.turn
            if state.rules.codec.kind(code) == "flip":
                continue
            last = facts.last
            action = rules.codec.decode(code)
            assert (last.seat, last.action) == (seat, action)
            if isinstance(action, Show):
                assert last.shown == tuple(hand_before[action.start : action.start + action.length])
                assert last.scouted is None
            else:
                scout = action.scout if isinstance(action, ScoutShow) else action
                assert isinstance(scout, Scout)
                taken = active_before[-1] if scout.end else active_before[0]
                assert last.scouted == taken
                shows = isinstance(action, ScoutShow) and action.show is not None
                assert last.shown == (tuple(state.active) if shows else ())
                if not shows:
                    assert state.hands[seat][scout.gap] == (flipped(taken) if scout.flip else taken)


def the_documented_plugin() -> tuple[str, dict]:
    block = re.search(r"```python\n(from scoutlab import EndCondition, hookimpl\n\n\nclass ThreeScouts:.*?)```", DOCS.read_text(), re.S)
    assert block, "docs/plugins.md lost the three-scouts example"
    namespace: dict = {}
    exec(compile(block.group(1), "docs/plugins.md (ThreeScouts)", "exec"), namespace)
    return block.group(1), namespace


def test_the_documented_end_condition_is_under_ten_lines():
    code, _ = the_documented_plugin()
    assert len([line for line in code.splitlines() if line.strip()]) < 10


def test_the_documented_end_condition_ends_the_round_at_the_third_scout():
    _, namespace = the_documented_plugin()
    with installed_plugin("three-scouts", namespace["ThreeScouts"]()):
        rules = rules_with("official", ["three-scouts"], end_conditions=["hand_emptied", "everyone_scouted", "three_scouts"])
        reasons = []
        for seed in range(20):
            state = rules.new_game(4, seed)
            bots = make_bots(["random"], rules, 4, seed)
            while not state.is_over:
                state.apply(bots[state.to_act].act(state.view(state.to_act)))
                assert max(state.facts.scouts) <= 3  # the round never sees a fourth scout
            reasons += [end.reason for end in state.round_ends]
    assert "three_scouts" in reasons  # random play scouts often: the condition does end rounds


def test_play_game_keeps_the_facts_of_the_round_in_play():
    rules = load_rules("official")
    state = play_game(rules, 3, make_bots(["greedy"], rules, 3, 5), 5)
    assert state.facts.round == state.round
