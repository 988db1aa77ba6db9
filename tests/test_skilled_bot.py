"""The skilled bot: its shipped weights, its fast readings against the rules' own, its key choices, its training.

Legal play in every shipped variant, determinism and reading only its seat's View are
checked with the other bots in test_bots.py and test_bot_cycles.py.
"""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest

from scoutlab.bots import make_bot, skilled, tuned
from scoutlab.bots.hand import HandReader
from scoutlab.bots.skilled import SkilledBot, weighing
from scoutlab.engine.actions import KEEP, ScoutShow, Show
from scoutlab.engine.cards import SHIFT, flipped, parse_hand
from scoutlab.match import make_bots, play_game
from scoutlab.rules import load_rules

ROOT = Path(__file__).resolve().parents[1]
TUNED = ["structure", "set_bonus", "capture", "scout", "scout_show", "empty", "shown", "urgency", "card", "tempo", "scout_tempo",
         "plan", "height"]


@pytest.fixture(scope="module")
def official():
    return load_rules("official")


def position(rules, players, hand, active, owner):
    """Seat 0 to act with `hand` against the active set `active` owned by `owner`."""
    state = rules.new_game(players, 0)
    while state.phase == "flip":
        state.apply(KEEP)
    state.hands[0] = parse_hand(hand)
    state.active = parse_hand(active)
    state.active_owner = owner
    state.last_shower = owner
    state.to_act = 0
    state.refresh()
    return state


def test_the_shipped_weights_cover_every_official_count_with_numbers():
    for players in (2, 3, 4, 5):
        weights = skilled.WEIGHTS["counts"][str(players)]
        assert sorted(set(weights) - set(skilled.UNTUNED)) == sorted(TUNED)
        assert all(isinstance(value, (int, float)) and math.isfinite(value) for value in weights.values())
        assert skilled.default_weights(players) is weights and skilled.WEIGHTS["trained_by"][str(players)]
    assert skilled.default_weights(6) is skilled.default_weights(5)  # a house rule's six players: the nearest count
    assert skilled.count_settings(5) == skilled.count_settings(4) == skilled.count_settings(3) == {"sns_scouts": 16}
    assert skilled.count_settings(2) == {}
    assert skilled.reference_variant(2) == "two-player" and skilled.reference_variant(4) == "official"


def test_a_two_player_game_plays_with_the_two_player_weights(official):
    two = load_rules("two-player")
    bot = SkilledBot(two, random.Random(0), {"capture": 7.0})
    state = two.new_game(2, 0)
    bot.act(state.view(state.to_act))
    expected = {**skilled.WEIGHTS["counts"]["2"], "capture": 7.0}
    assert {key: bot.options[key] for key in expected} == expected


def test_a_tuned_set_plays_the_counts_untuned_settings():
    """A house rule's tuning fits weights, not how many Scout & Shows are weighed: at 5 players a tuned set weighs
    as many as the defaults, so a rule whose tuning kept the official weights is played move for move alike."""
    house = load_rules("house-no-exemption")
    assert skilled.tuning(house, 5) == "tuned" and "sns_scouts" not in tuned.find(house, 5).weights
    bot = SkilledBot(house, random.Random(0), {})
    bot.use_weights(5)
    assert bot.options["sns_scouts"] == 16 != skilled.DEFAULTS["sns_scouts"]
    official = load_rules("official")
    for seed in range(3):
        alike = [play_game(rules, 5, make_bots(["skilled"], rules, 5, seed), seed).history for rules in (official, house)]
        assert alike[0] == alike[1], seed


def classified_structure(rules, tops, bonus, sets_first):
    """The structure counted the slow way, by the rules' own verdicts: every run of 2+ cards that is a show
    counts its length, `bonus` more if it is the kind that wins ties of length."""
    total = 0.0
    for start in range(len(tops)):
        for stop in range(start + 2, len(tops) + 1):
            if rules.classify(tuple(tops[start:stop])) is not None:
                total += stop - start + (bonus if (tops[start] == tops[start + 1]) == sets_first else 0.0)
    return total


def test_the_one_pass_structure_matches_the_rules_own_shows(official):
    bot = SkilledBot(official, random.Random(0), {})
    rng = random.Random(7)
    for _ in range(2000):
        numbers = [rng.randint(1, 10) for _ in range(rng.randint(0, 14))]
        if rng.random() < 0.4:
            numbers.sort(reverse=rng.random() < 0.5)
        assert weighing.builtin_structure(numbers, bot.weights.set_bonus) == pytest.approx(
            classified_structure(official, numbers, bot.weights.set_bonus, True))


@pytest.mark.parametrize("variant", ["house-wrap", "house-runs-first"])
def test_under_plugins_the_hand_is_read_by_the_rules(variant):
    rules = load_rules(variant)
    bot = SkilledBot(rules, random.Random(0), {})
    assert not bot.weigher.builtin and not bot.weigher.prune
    rng = random.Random(11)
    for _ in range(1000):
        numbers = [rng.randint(1, 10) for _ in range(rng.randint(0, 14))]
        assert bot.weigher.structure(bot.weights, numbers) == pytest.approx(
            classified_structure(rules, numbers, bot.weights.set_bonus, bot.weigher.sets_first))
    # under the wrap-around plugin 9-10-1 is a run: the built-in reading would miss it
    if variant == "house-wrap":
        builtin = weighing.builtin_structure([9, 10, 1], bot.weights.set_bonus)
        assert bot.weigher.structure(bot.weights, [9, 10, 1]) > builtin


def test_weighing_only_some_gaps_loses_no_scout_value(official):
    """The best scout among the gaps weighed is worth as much as the best over every gap."""
    rng = random.Random(3)
    bot = SkilledBot(official, rng, {})
    everywhere = SkilledBot(official, rng, {})
    everywhere.weigher.prune = False
    for seed in range(60):
        state = official.new_game(4, seed)
        while state.phase == "flip":
            state.apply(KEEP)
        for _ in range(rng.randrange(1, 12)):
            if state.is_over or state.phase != "play":
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_over or not state.active:
            continue
        view = state.view(state.to_act)
        tops = [c >> 5 for c in view.hand]
        pruned, full = scouts(bot, tops, list(view.active)), scouts(everywhere, tops, list(view.active))
        assert max(pruned) == pytest.approx(max(full))
        assert len(pruned) <= len(full)


def scouts(bot, tops, active):
    """The values of the scouts the bot weighs in this hand."""
    bot.weigher._read(tops)  # the hand's tables, which weigh() fills before it weighs the scouts
    count = bot.weigher._scouts(bot.weights, tops, active, 1.0, 0)
    return [bot.weigher.values[i] for i in range(count)]


def test_it_empties_its_hand_when_it_can(official):
    state = position(official, 4, "5/1 6/2 7/3", "2/9", owner=2)
    assert state.format(make_bot("skilled", official, 0).act(state.view(0))) == "show 1-3"


def test_it_captures_a_big_set_rather_than_scout(official):
    # beating the active 3-run with the 3-set of 8s captures three cards; a scout would pay its owner
    state = position(official, 4, "8/1 8/2 8/3 1/4 3/5 10/6", "4/7 5/7 6/9", owner=1)
    assert state.format(make_bot("skilled", official, 0).act(state.view(0))) == "show 1-3"


def test_it_scouts_the_card_that_completes_a_run(official):
    # nothing beats a 4-set; taking its 6 next to the 5 and 7 makes a run of three
    state = position(official, 4, "5/1 7/2 2/3 9/4", "6/8 6/9 6/10 6/3", owner=1)
    code = make_bot("skilled", official, 0).act(state.view(0))
    assert state.format(code).startswith("scout") and state.format(code).endswith(" 1")


@pytest.mark.parametrize("variant", ["official", "house-wrap"])
def test_the_plan_weight_prices_each_show_the_hand_left_needs(variant):
    """Every move weighed (shows, scouts, Scout & Shows) is worth `plan` less per show that empties the hand it
    leaves, that hand played out by the engine and its plan laid out by HandReader (house-wrap: through plugins)."""
    rules = load_rules(variant)
    every = {"sns_scouts": 1000}  # the Scout & Shows after every scout: the best scouts differ between the two
    plain = SkilledBot(rules, random.Random(0), {**every, "plan": 0.0})
    planning = SkilledBot(rules, random.Random(0), {**every, "plan": 1.5})
    plain.use_weights(4)
    planning.use_weights(4)
    reader = HandReader(rules)
    state, checked = rules.new_game(4, 3), 0
    while not state.is_over and checked < 400:
        if state.phase == "flip":
            state.apply(KEEP)
            continue
        seat = state.to_act
        view = state.view(seat)
        without = {code: value for value, code in plain.moves(view)}
        with_plan = {code: value for value, code in planning.moves(view)}
        assert without.keys() == with_plan.keys()
        for code, value in with_plan.items():
            after = state.clone()
            after.apply(code)
            left = [c >> SHIFT for c in after.hands[seat]]
            assert value == pytest.approx(without[code] - 1.5 * reader.plan(left)[0]), state.format(code)
            checked += 1
        state.apply(plain.act(view))
    assert checked >= 400


def shown_numbers(rules, view, code) -> list[int]:
    """The numbers a show or Scout & Show puts down, read from the move and the hand (none for a scout)."""
    action = rules.codec.decode(code)
    hand = list(view.hand)
    if isinstance(action, ScoutShow):
        scout, action = action.scout, action.show
        taken = view.active[-1] if scout.end else view.active[0]
        hand.insert(scout.gap, flipped(taken) if scout.flip else taken)
    if not isinstance(action, Show):
        return []
    return [c >> SHIFT for c in hand[action.start:action.start + action.length]]


@pytest.mark.parametrize("variant", ["official", "house-wrap"])
def test_the_height_weight_prices_the_highest_number_shown(variant):
    """Every show and Scout & Show weighed is worth `height` times its highest number (the deck's lowest 0, its
    highest 1) more; a scout puts nothing down and is worth the same (house-wrap: through plugins)."""
    rules = load_rules(variant)
    every = {"sns_scouts": 1000}  # the Scout & Shows after every scout: the best scouts are the same in both
    plain = SkilledBot(rules, random.Random(0), {**every, "height": 0.0})
    high = SkilledBot(rules, random.Random(0), {**every, "height": -1.5})
    plain.use_weights(4)
    high.use_weights(4)
    span = rules.highest - rules.lowest
    state, shows = rules.new_game(4, 5), 0
    while not state.is_over and shows < 300:
        if state.phase == "flip":
            state.apply(KEEP)
            continue
        view = state.view(state.to_act)
        without = {code: value for value, code in plain.moves(view)}
        with_height = {code: value for value, code in high.moves(view)}
        assert without.keys() == with_height.keys()
        for code, value in with_height.items():
            shown = shown_numbers(rules, view, code)
            extra = -1.5 * (max(shown) - rules.lowest) / span if shown else 0.0
            assert value == pytest.approx(without[code] + extra), state.format(code)
            shows += bool(shown)
        state.apply(plain.act(view))
    assert shows >= 300


def test_a_tiny_training_run_writes_weights_that_load(tmp_path):
    out = tmp_path / "weights.json"
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "train_skilled.py"), "--players", "5", "--generations", "1",
         "--games", "4", "--check-games", "4", "--workers", "1", "--out", str(out)],
        check=True, capture_output=True, text=True, timeout=120,
    )
    written = json.loads(out.read_text())
    weights = written["counts"]["5"]
    assert sorted(set(weights) - {"sns_scouts"}) == sorted(TUNED)
    assert weights["sns_scouts"] == skilled.WEIGHTS["counts"]["5"]["sns_scouts"]  # not fitted: kept as it was
    assert weights["card"] == weights["tempo"] and weights["scout"] == weights["scout_tempo"]  # split in halves
    assert written["counts"]["2"] == skilled.WEIGHTS["counts"]["2"]  # the other counts kept
    assert "train_skilled.py" in written["trained_by"]["5"] and "CMA-ES" in written["trained_by"]["5"]
    bot = SkilledBot(load_rules("official"), random.Random(0), {key: float(v) for key, v in weights.items() if key in TUNED})
    state = load_rules("official").new_game(4, 1)
    assert bot.act(state.view(state.to_act)) in state.legal_actions()


def test_the_kind_that_wins_ties_of_length_earns_the_bonus():
    """Under the official order a set is worth more structure than a run; where runs rank first, a run."""
    official = SkilledBot(load_rules("official"), random.Random(0), {})
    assert official.weigher.structure(official.weights, [4, 4]) > official.weigher.structure(official.weights, [4, 5])
    runs_first = SkilledBot(load_rules("house-runs-first"), random.Random(0), {})
    assert not runs_first.weigher.sets_first
    assert runs_first.weigher.structure(runs_first.weights, [4, 5]) > runs_first.weigher.structure(runs_first.weights, [4, 4])
