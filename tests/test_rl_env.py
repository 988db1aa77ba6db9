"""scoutlab.rl: the PettingZoo AEC environment passes PettingZoo's own api_test and seed_test for
every shipped variant, and its masks, observations and rewards say what the engine says."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from scoutlab.engine.actions import SHOW_BASE
from scoutlab.engine.cards import bottom, top
from scoutlab.engine.state import IllegalAction
from scoutlab.rl import Encoding, env, raw_env
from scoutlab.rules import load_rules
from scoutlab.spec.variant import SpecError, shipped_variants

# Every shipped variant at its largest table, and the official rules at every size.
TARGETS = sorted({(name, max(load_rules(name).players)) for name, _ in shipped_variants()}
                 | {("official", n) for n in load_rules("official").players})
# A dict observation (with the action mask) is what PettingZoo's own card games use; its
# api_test whitelists those by name, so for any other env it says so. Nothing else may warn.
EXPECTED_WARNINGS = {
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    "Observation is not a NumPy array",
}


@pytest.mark.parametrize("variant, players", TARGETS)
def test_pettingzoo_api_and_seed_tests(variant, players):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(variant, players), num_cycles=150)
        seed_test(lambda: env(variant, players), num_cycles=60)
    assert {str(w.message) for w in caught} <= EXPECTED_WARNINGS


def play(game, seed: int, on_decision=None) -> None:
    """Random legal play through the env; `on_decision(game, agent, obs)` runs before each live step."""
    rng = random.Random(seed)
    game.reset(seed=seed)
    for agent in game.agent_iter():
        obs, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        if on_decision:
            on_decision(game, agent, obs)
        game.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


@pytest.mark.parametrize("variant, players", [("official", 4), ("two-player-28", 2), ("house-wrap", 3)])
def test_the_masks_reach_exactly_the_engines_legal_actions(variant, players):
    """Every legal engine code is one mask choice (or a scout, then a show) away, and nothing else is."""
    checked = 0

    def compare(game, agent, obs):
        nonlocal checked
        raw = game.unwrapped
        if raw.pending is not None:
            return
        enc = raw.encoding
        reached = set()
        for action in np.flatnonzero(obs["action_mask"]):
            if enc.starts_scout_and_show(int(action), None):
                scout = int(action) - enc.sns_scouts
                follow = enc.mask(raw.game.legal_actions(), scout)
                assert follow.any(), "a Scout & Show scout is offered with no show to follow"
                reached |= {enc.engine_code(int(a), scout) for a in np.flatnonzero(follow)}
            else:
                reached.add(enc.engine_code(int(action), None))
        assert reached == set(raw.game.legal_actions())
        checked += 1

    for seed in range(5):
        play(env(variant, players), seed, compare)
    assert checked > 40


def test_a_scout_and_show_is_two_decisions_of_the_same_seat():
    game = env("official", 4)
    raw = game.unwrapped
    enc = raw.encoding
    rng = random.Random(5)
    game.reset(seed=5)
    while True:  # random play until a Scout & Show scout is on offer
        obs, *_ = game.last()
        choices = np.flatnonzero(obs["action_mask"])
        sns = [int(a) for a in choices if enc.starts_scout_and_show(int(a), None)]
        if sns:
            break
        game.step(rng.choice(choices.tolist()))
    agent, before = game.agent_selection, list(raw.game.history)
    hand = raw.game.view(raw.game.to_act).hand
    game.step(sns[0])
    assert game.agent_selection == agent and raw.game.history == before  # nothing applied yet
    obs, *_ = game.last()
    scout = raw.game.rules.codec.decode(raw.game.rules.codec.scout_base + sns[0] - enc.sns_scouts)
    assert obs["observation"][enc.gap_at + scout.gap] == 1
    assert obs["observation"][enc.hand_at:enc.active_at].reshape(enc.width, enc.slot)[: len(hand) + 1].any(axis=1).all()
    show = int(np.flatnonzero(obs["action_mask"])[0])
    game.step(show)
    _, seat, code = raw.game.history[len(before)]
    assert f"player_{seat}" == agent and code == enc.engine_code(show, sns[0] - enc.sns_scouts)
    assert raw.game.rules.codec.kind(code) == "scout_and_show"


def test_the_observation_is_the_seats_view_and_hides_the_other_hands():
    game = env("official", 3)
    game.reset(seed=2)
    raw = game.unwrapped
    enc = raw.encoding
    state = raw.game
    obs = raw.observe("player_1")
    slots = obs["observation"][enc.hand_at:enc.active_at].reshape(enc.width, enc.slot)
    hand = state.hands[1]
    decoded = [(int(np.argmax(s[:enc.values])) + 1, int(np.argmax(s[enc.values:])) + 1) for s in slots[: len(hand)]]
    assert decoded == [(top(c), bottom(c)) for c in hand] and not slots[len(hand):].any()
    seats = obs["observation"][enc.seats_at:enc.phase_at].reshape(3, -1)
    assert seats[:, 0].tolist() == [len(state.hands[(1 + i) % 3]) for i in range(3)]  # own seat first
    assert not obs["action_mask"].any() and raw.observe(game.agent_selection)["action_mask"].any()
    # Deal the two other seats each other's hands (dealt hands have equal sizes): player_1 cannot tell.
    state.hands[0], state.hands[2] = state.hands[2], state.hands[0]
    state.refresh()
    assert np.array_equal(raw.observe("player_1")["observation"], obs["observation"])


@pytest.mark.parametrize("reward", ["score", "win"])
def test_rewards_add_up_to_the_totals_or_the_shared_win(reward):
    game = env("official", 4, reward=reward)
    got = dict.fromkeys(game.possible_agents, 0.0)
    rng = random.Random(1)
    game.reset(seed=1)
    for agent in game.agent_iter():
        obs, cumulative, terminated, truncated, _ = game.last()
        got[agent] += cumulative
        game.step(None if terminated or truncated else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    state = game.unwrapped.game
    if reward == "score":
        assert [got[a] for a in game.possible_agents] == [float(t) for t in state.totals]
    else:
        winners = state.winners()
        assert [got[a] for a in game.possible_agents] == [1 / len(winners) if s in winners else 0.0 for s in range(4)]


def test_an_illegal_action_is_refused_with_the_rule_and_changes_nothing():
    game = env("official", 3)
    game.reset(seed=4)
    for _ in range(3):
        game.step(0)  # every seat keeps its hand
    raw = game.unwrapped
    before = list(raw.game.history)
    scout = raw.game.rules.codec.scout(0, False, 0)
    with pytest.raises(IllegalAction, match=r"player_0: action .* is not legal here"):
        game.step(scout)  # nothing on the table to scout
    with pytest.raises(IllegalAction, match="'none' only answers a Scout & Show scout"):
        game.step(raw.encoding.none)
    assert raw.game.history == before and game.agent_selection == "player_0"


def test_the_sizes_are_fixed_per_variant_and_documented():
    for name, _ in shipped_variants():
        rules = load_rules(name)
        sizes = {Encoding(rules, n).size for n in rules.players}
        assert sizes == {rules.codec.sns_base + rules.codec.scout_count + 1}
    official = Encoding(load_rules("official"), 4)
    assert official.size == 2396 and official.length == 2 * 45 * 20 + 4 * 9 + 3 + 2 + 46
    for players in (3, 5):
        game = raw_env("official", players)
        assert game.observation_space("player_0")["observation"].shape == (Encoding(game.rules, players).length,)
    assert SHOW_BASE == 2  # keep and flip are actions 0 and 1, as docs/rl.md says


def test_bad_arguments_say_what_is_wrong():
    with pytest.raises(SpecError, match="no-such-variant"):
        env("no-such-variant")
    with pytest.raises(ValueError, match="variant 'two-player' is for 2 players, not 4"):
        env("two-player", 4)
    with pytest.raises(ValueError, match="reward must be one of score, win, not 'points'"):
        env("official", 4, reward="points")


def test_render_shows_the_last_action_and_the_table():
    game = env("official", 3, render_mode="ansi")
    game.reset(seed=1)
    game.step(1)
    text = game.render()
    assert text.startswith("P1 flip\n<GameState official round 1/3 flip")


def test_the_example_plays_and_reports_both_policies(capsys):
    import runpy
    from pathlib import Path

    example = Path(__file__).resolve().parent.parent / "examples" / "rl_random_vs_masked.py"
    module = runpy.run_path(str(example))
    module["main"](["--games", "3", "--players", "3", "--seed", "7"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["game 1", "game 2", "game 3"]
    summary = {line.split(":")[0].strip(): line.split(":")[1] for line in lines[3:]}
    assert set(summary) == {"random", "masked greedy"}
    wins = [float(text.split(" wins")[0]) for text in summary.values()]
    assert sum(wins) == pytest.approx(3)  # every game has its winners, ties shared
    assert all("mean final score" in text for text in summary.values())


def test_the_bare_environment_refuses_an_action_outside_the_space():
    game = raw_env("official", 3)
    game.reset(seed=1)
    for action in (-1, game.encoding.size):
        with pytest.raises(IllegalAction, match=f"actions are 0 to {game.encoding.size - 1}"):
            game.step(action)


def test_the_wrapped_environment_refuses_an_action_outside_the_space_saying_why():
    """env() keeps only PettingZoo's order guard: the range check is the bare environment's, with its reason."""
    game = env("official", 3)
    with pytest.raises(AttributeError, match="before reset"):
        game.agent_selection  # noqa: B018 (the order guard's refusal is the point)
    with pytest.raises(AttributeError, match="before reset"):
        game.last()  # answered by the environment itself once reset, refused before as the guard would
    game.reset(seed=1)
    observation, reward, terminated, truncated, info = game.last()
    agent = game.agent_selection
    assert (reward, terminated, truncated, info) == (0.0, False, False, {})
    assert (observation["action_mask"] == game.observe(agent)["action_mask"]).all()
    size = game.unwrapped.encoding.size
    for action in (-1, size):
        with pytest.raises(IllegalAction, match=f"actions are 0 to {size - 1}"):
            game.step(action)
