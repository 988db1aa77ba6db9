"""The fast observation (read off the state) and the batched games say what the PettingZoo environment says."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from scoutlab.engine.state import IllegalAction
from scoutlab.rl import Encoding, Games, raw_env
from scoutlab.rules import load_rules
from scoutlab.spec.variant import shipped_variants

CASES = [(name, n) for name, _ in shipped_variants() for n in load_rules(name).players]


@pytest.mark.parametrize("variant, players", CASES)
def test_the_fast_observation_is_the_views(variant, players):
    """observe_state(state, seat, pending) == observe(state.view(seat), pending), for every seat at every step."""
    rules = load_rules(variant)
    enc = Encoding(rules, players)
    game = raw_env(rules, players)
    game.reset(seed=5)
    rng, checked = random.Random(5), 0
    while not game.game.is_over:
        for seat in range(players):
            pending = game.pending if seat == game.game.to_act else None
            assert np.array_equal(enc.observe_state(game.game, seat, pending), enc.observe(game.game.view(seat), pending))
            checked += 1
        mask = game.observe(game.agent_selection)["action_mask"]
        game.step(rng.choice(np.flatnonzero(mask).tolist()))
    assert checked > 10


def test_batched_games_play_as_the_environment_does():
    """Each row follows the same rules: its mask is the env's for the same position, its rewards the change of totals."""
    games = Games("official", 4, count=3, seed=2)
    rng = random.Random(2)
    totals = [0.0] * 3
    for _ in range(3000):
        for i, game in enumerate(games.games):
            env = raw_env("official", 4)
            env.reset()
            env.game, env.pending = game, games.pending[i]
            agent = env.possible_agents[game.to_act]
            env.agent_selection = agent
            assert np.array_equal(env.observe(agent)["action_mask"], games.masks[i])
            assert np.array_equal(env.observe(agent)["observation"], games.observations[i])
            assert games.seats[i] == game.to_act
        before = [list(g.totals) for g in games.games]
        actions = [rng.choice(np.flatnonzero(row).tolist()) for row in games.masks]
        games.step(actions)
        for i in range(3):
            if not games.done[i]:
                assert games.rewards[i].tolist() == [a - b for a, b in zip(games.games[i].totals, before[i])]
            totals[i] += games.rewards[i].sum()
        if games.finished >= 2:
            break
    assert games.finished >= 2, "no game came to its end"


def test_an_action_outside_the_mask_is_refused_with_the_game_named():
    games = Games("two-player", 2, count=2)
    bad = int(np.flatnonzero(games.masks[1] == 0)[0])
    before = [list(g.history) for g in games.games]
    with pytest.raises(IllegalAction, match="game 1: action"):
        games.step([int(np.flatnonzero(games.masks[0])[0]), bad])
    assert [list(g.history) for g in games.games] == before, "a refused step played some of its actions"
    with pytest.raises(ValueError, match="one action per game"):
        games.step([0])
