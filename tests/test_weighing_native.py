"""The skilled bot's move scoring (bots/weighing.py): its shortcuts are exact, and its compiled build is its source.

weighing.py weighs a move from tables of the hand's prefixes and suffixes instead of
laying out the hand the move leaves; that must give exactly the structure of the hand
left. The compiled build (`scoutlab.bots._weighing_native`, or a copy compiled here as
tests/compiled_build.py does for legal.py) must give the same values, as floats, for
every move of every decision of real games, so both builds play the same moves. Where
nothing can be compiled the comparison skips, except in CI, where it fails.
"""

from __future__ import annotations

import hashlib
import os
import random
from importlib import resources
from itertools import pairwise

import pytest
from compiled_build import compiled_for_fixture

from scoutlab.bots import skilled, weighing as reference
from scoutlab.bots.hand import HandReader
from scoutlab.bots.skilled import SkilledBot
from scoutlab.engine import native
from scoutlab.engine.actions import KEEP
from scoutlab.rules import load_rules
from scoutlab.spec.variant import shipped_variants

WEIGHTS = reference.Weights({**skilled.DEFAULTS, "set_bonus": 0.5})


def laid_out_structure(tops: list[int], bonus: float) -> float:
    """The structure counted the slow way: every set and run of 2+ adjacent cards, by its length, sets `bonus` more."""
    total = 0.0
    for start in range(len(tops)):
        for stop in range(start + 2, len(tops) + 1):
            show = tops[start:stop]
            steps = {b - a for a, b in pairwise(show)}
            if steps == {0}:
                total += len(show) + bonus
            elif steps in ({1}, {-1}):
                total += len(show)
    return total


def random_hands(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        hand = [rng.randint(1, 6) for _ in range(rng.randint(0, 13))]
        if rng.random() < 0.3:
            hand.sort(reverse=rng.random() < 0.5)
        yield rng, hand


@pytest.mark.parametrize("bonus", [0.5, 0.3, 0.0])
def test_the_one_pass_structure_counts_every_set_and_run(bonus):
    for _, tops in random_hands(1, 3000):
        assert reference.builtin_structure(tops, bonus) == pytest.approx(laid_out_structure(tops, bonus))


def test_a_runs_sum_is_its_shows_lengths():
    assert [reference.runs(k) for k in range(6)] == [0, 0, 2, 7, 16, 30]  # 2: [ab]; 7: ab bc abc; 16: 3*2 + 2*3 + 4
    for k in range(1, 40):
        assert reference.runs(k) == sum((k - j + 1) * j for j in range(2, k + 1))


@pytest.fixture(scope="module")
def compiled(request, tmp_path_factory):
    """The compiled weighing.py: the installed build when the skilled bot runs it, else one built here."""
    if skilled.weighing is not reference:
        return skilled.weighing
    return compiled_for_fixture(request, tmp_path_factory, "scoutlab.bots", "weighing")


@pytest.fixture(params=["source", "compiled"])
def module(request, compiled):
    return reference if request.param == "source" else compiled


def test_a_move_is_weighed_from_the_hands_tables_exactly(module):
    """What a show leaves and what a scout makes, read from the tables, is the structure of that hand laid out."""
    weigher = module.Weigher(14, 0, 0, 0, load_rules("official"), None)
    weights = module.Weights({**skilled.DEFAULTS, "set_bonus": 0.3})
    for rng, tops in random_hands(2, 1500):
        weigher._read(tops)
        for start in range(len(tops)):
            stop = rng.randint(start + 1, len(tops))
            left = tops[:start] + tops[stop:]
            assert weigher._without(weights, tops, start, stop) == module.builtin_structure(left, 0.3)
        for gap in range(len(tops) + 1):
            number = rng.randint(0, 7)
            assert weigher._with(weights, tops, gap, number) == module.builtin_structure(
                tops[:gap] + [number] + tops[gap:], 0.3)


@pytest.mark.parametrize("variant", ["official", "house-wrap", "house-runs-first"])
def test_under_plugins_a_move_is_weighed_from_the_shows_each_card_starts(module, variant):
    """The same under plugins (`ShowTrie`): read through the rules' classified shows, what a move leaves is
    the structure of that hand read whole; under the official rules, exactly the built-in reading's."""
    rules = load_rules(variant)
    weigher = module.Weigher(14, 0, 0, 0, rules, rules.trie)
    weights = module.Weights({**skilled.DEFAULTS, "set_bonus": 0.3})
    rng = random.Random(5)
    for _ in range(1500):
        tops = [rng.randint(1, 10) for _ in range(rng.randint(0, 13))]
        if rng.random() < 0.3:
            tops.sort(reverse=rng.random() < 0.5)
        cases = [(start, rng.randint(start + 1, len(tops)), -1, 0) for start in range(len(tops))]
        cases += [(0, 0, gap, rng.randint(1, 10)) for gap in range(len(tops) + 1)]
        for start, stop, gap, number in cases:
            left = tops[:start] + tops[stop:] if gap < 0 else tops[:gap] + [number] + tops[gap:]
            whole = weigher.structure(weights, left)
            weigher._read(tops)
            found = weigher._shows_without(weights, tops, start, stop) if gap < 0 else weigher._shows_with(
                weights, tops, gap, number)
            assert found == pytest.approx(whole), (tops, start, stop, gap, number)
            if variant == "official":
                assert found == whole == module.builtin_structure(left, 0.3)


@pytest.mark.parametrize("variant", ["official", "house-wrap", "house-runs-first"])
def test_the_shows_a_hand_left_needs_are_its_plan_laid_out(module, variant):
    """The fewest shows that empty the hand a move leaves (the `plan` weight's count), read from the hand's tables
    under the built-in shows and through the rules' trie under plugins, is the plan of that hand laid out
    (`HandReader.plan`, which asks the rules for every show)."""
    rules = load_rules(variant)
    reader = HandReader(rules)
    weighers = [module.Weigher(14, 0, 0, 0, rules, rules.trie)]
    if rules.builtin_shows:
        weighers.append(module.Weigher(14, 0, 0, 0, rules, None))
    rng = random.Random(6)
    for weigher in weighers:
        for _ in range(1000):
            tops = [rng.randint(1, 10) for _ in range(rng.randint(0, 13))]
            if rng.random() < 0.3:
                tops.sort(reverse=rng.random() < 0.5)
            assert weigher.plan(tops) == reader.plan(tops)[0], tops
            weigher._read(tops)
            for start in range(len(tops)):
                stop = rng.randint(start + 1, len(tops))
                assert weigher._plan_without(tops, start, stop) == reader.plan(tops[:start] + tops[stop:])[0], (
                    tops, start, stop)
            for gap in range(len(tops) + 1):
                number = rng.randint(1, 10)
                assert weigher._plan_with(tops, gap, number) == reader.plan(tops[:gap] + [number] + tops[gap:])[0], (
                    tops, gap, number)


def test_a_hands_plan_counts_a_set_or_run_across_a_gap_as_one_show(module):
    """Named cases: taking the 5 out of 4 4 5 4 leaves one set; a 6 put between 5 and 7 7 joins a run of three."""
    weigher = module.Weigher(14, 0, 0, 0, load_rules("official"), None)
    weigher._read([4, 4, 5, 4])
    assert weigher._plan_without([4, 4, 5, 4], 2, 3) == 1
    assert weigher._plan_without([4, 4, 5, 4], 3, 4) == 2 and weigher._plan_without([4, 4, 5, 4], 0, 1) == 2
    weigher._read([5, 7, 7])
    assert weigher._plan_with([5, 7, 7], 1, 6) == 2 and weigher._plan_with([5, 7, 7], 3, 7) == 2
    assert weigher._plan_with([5, 7, 7], 0, 2) == 3


def test_the_moves_weighed_are_all_kept_when_there_are_more_than_the_scratch_holds(module):
    """_weigh keeps its moves in scratch tables of 64 to start with: they grow, and lose nothing."""
    weigher = module.Weigher(14, 0, 0, 0, load_rules("official"), None)
    at = 0
    for i in range(300):
        at = weigher._put(at, i / 2, 1000 + i)
    assert at == 300 and len(weigher.codes) >= 300
    assert [(weigher.values[i], weigher.codes[i]) for i in range(300)] == [(i / 2, 1000 + i) for i in range(300)]


def test_the_module_under_test_is_compiled_from_this_source(compiled):
    assert compiled is not reference and compiled.__file__.endswith((".so", ".pyd")), compiled.__file__
    source = resources.files("scoutlab.bots").joinpath("weighing.py").read_bytes()
    assert hashlib.sha256(source).hexdigest() == compiled.SOURCE_SHA256


def test_the_skilled_bot_runs_the_compiled_scoring_where_the_engine_is_compiled():
    if native.legal is native.reference:
        assert skilled.weighing is reference
    elif os.environ.get("SCOUTLAB_EXPECT_COMPILED"):
        assert skilled.WEIGHING_BUILD == "compiled with mypyc" and skilled.weighing.__file__.endswith((".so", ".pyd"))


CASES = [(name, n) for name, _ in shipped_variants() for n in load_rules(name).players]


@pytest.mark.parametrize("variant, players", CASES)
def test_both_builds_weigh_every_decision_of_a_game_alike(compiled, variant, players):
    """Every value and code of every decision (skilled play, random play mixed in), and the best move, in both builds."""
    rules = load_rules(variant)
    bot = SkilledBot(rules, random.Random(0), {})
    bot.use_weights(players)
    codec = rules.codec
    weighers = {}
    for name, module in (("source", reference), ("compiled", compiled)):
        weigher = module.Weigher(codec.width, codec.scout_base, codec.sns_base, codec.sns_stride, rules,
                                 None if rules.builtin_shows else rules.trie)
        weighers[name] = (weigher, module.Weights(bot.options))
    rng = random.Random(players)
    decisions = 0
    for seed in range(3):
        state = rules.new_game(players, seed)
        while not state.is_over:
            if state.phase != "play":
                state.apply(KEEP)
                continue
            seat, legal = state.to_act, state.legal_actions()
            sizes = [len(hand) for hand in state.hands]
            sns = legal[-1] >= rules.codec.sns_base
            # a rollout's view of the same moves: no Scout & Show listed, only whether one may be legal
            short, open_ = state.shows_and_scouts(), state.scout_and_show_open()
            assert short == [code for code in legal if code < rules.codec.sns_base]
            assert open_ >= sns
            found = {}
            for name, (weigher, weights) in weighers.items():
                values, codes = [], []
                weigher.weigh(weights, legal, sns, state.hands[seat], state.active, sizes, seat, values, codes)
                found[name] = (values, codes, weigher.best(weights, legal, sns, state.hands[seat], state.active, sizes, seat))
                # the rollout's way (weighing.play_out) weighs the same moves the same
                values, codes = [], []
                weigher.weigh(weights, short, open_, state.hands[seat], state.active, sizes, seat, values, codes)
                assert (values, codes) == found[name][:2], state.where()
            assert found["source"] == found["compiled"], state.where()
            assert set(found["source"][1]) <= set(legal)
            decisions += 1
            state.apply(found["source"][2] if rng.random() < 0.7 else rng.choice(legal))
    assert decisions > 20


@pytest.mark.parametrize("variant, players", CASES)
def test_a_rollout_plays_the_moves_a_checked_game_plays(compiled, variant, players):
    """`play_out` lists no Scout & Show and skips apply's check (`apply_in_rollout`); played move by move with every
    legal action listed and each move checked, the same rounds give the same history, in both builds."""
    rules = load_rules(variant)
    bot = SkilledBot(rules, random.Random(0), {})
    bot.use_weights(players)
    codec = rules.codec
    for module in (reference, compiled):
        weigher = module.Weigher(codec.width, codec.scout_base, codec.sns_base, codec.sns_stride, rules,
                                 None if rules.builtin_shows else rules.trie)
        weights = module.Weights(bot.options)
        for seed in range(3):
            state = rules.new_game(players, seed)
            while state.phase == "flip":
                state.apply(KEEP)
            rolled, checked = state.clone(), state.clone()
            weigher.play_out(weights, rolled, -1, 0)
            while not checked.round_ends:
                legal, seat = checked.legal_actions(), checked.to_act
                sizes = [len(hand) for hand in checked.hands]
                checked.apply(weigher.best(weights, legal, legal[-1] >= codec.sns_base, checked.hands[seat],
                                           checked.active, sizes, seat))
            assert len(rolled.history) > 5
            assert rolled.history == checked.history and rolled.round_ends == checked.round_ends
