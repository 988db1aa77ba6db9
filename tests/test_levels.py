"""The opponents' levels: one table, a real bot at each level, expert by default, a missing bot falls back."""

from __future__ import annotations

import pytest

from scoutlab.bots import levels, make_bot
from scoutlab.bots.levels import DEFAULT_LEVEL, LEVELS, UnknownLevel, find_level, level_bot
from scoutlab.rules import load_rules


def test_the_levels_are_easy_medium_hard_expert_weakest_first():
    assert [level.name for level in LEVELS] == ["easy", "medium", "hard", "expert"]
    assert [level.bot for level in LEVELS[:3]] == ["greedy", "heuristic", "skilled"]
    assert LEVELS[3].bot.startswith("mcts:seconds=")


def test_the_default_is_expert():
    assert DEFAULT_LEVEL == "expert"
    assert level_bot() == find_level("expert").bot


@pytest.mark.parametrize("level", LEVELS, ids=lambda level: level.name)
def test_each_level_makes_a_real_bot_that_plays_legally(level):
    rules = load_rules("official")
    state = rules.new_game(4, 11)
    bots = [make_bot(level.bot if seat == 0 else "random", rules, seat) for seat in range(4)]
    decisions = 0
    while not state.is_over and decisions < 6:  # a few of the level's own choices, flip included
        seat = state.to_act
        view = state.view(seat)
        code = bots[seat].act(view)
        assert code in view.legal
        state.apply(code)
        decisions += seat == 0


def test_a_missing_bot_falls_back_to_the_next_weaker_level(monkeypatch):
    from scoutlab.bots import BUILTIN_BOTS

    without = {name: where for name, where in BUILTIN_BOTS.items() if name not in ("mcts", "skilled")}
    monkeypatch.setattr(levels, "known_bots", lambda: without)
    assert level_bot("expert") == "heuristic"
    assert level_bot("hard") == "heuristic"
    assert level_bot("easy") == "greedy"
    assert [level.name for level in levels.available_levels()] == ["easy", "medium"]
    monkeypatch.setattr(levels, "known_bots", lambda: {"random": "", "skilled": ""})
    assert level_bot("easy") == "skilled", "with no weaker bot, the next stronger level"


def test_an_unknown_level_names_the_levels():
    with pytest.raises(UnknownLevel, match="the levels are easy, medium, hard, expert"):
        find_level("impossible")
    assert find_level(" Hard ").bot == "skilled"
