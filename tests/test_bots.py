"""The bots: legal play everywhere, determinism, no hidden information, and their key choices."""

from __future__ import annotations

import copy
import gc
import json
import math
import random
import re
import statistics
import weakref

import pytest

from scoutlab.bots import BotError, make_bot
from scoutlab.bots.determinize import Knowledge, Sampler
from scoutlab.engine.actions import FLIP, KEEP
from scoutlab.engine.cards import card, flipped, identity, parse_hand
from scoutlab.match import make_bots, play_game
from scoutlab.rules import load_rules
from scoutlab.spec.variant import shipped_variants

SHIPPED = [("official", 3), ("official", 4), ("official", 5), ("two-player", 2), ("two-player-28", 2)]
# every shipped spec (house rules with plugins included) at every player count it allows
EVERY_SHIPPED = [(name, n) for name, _ in shipped_variants() for n in load_rules(name).players]
# cheap settings so the suite stays fast; the ladder measures the real ones
BOTS = ["greedy", "heuristic", "skilled", "mcts:iterations=6"]


@pytest.fixture(scope="module")
def rules_by_name():
    return {name: load_rules(name) for name in ("official", "two-player", "two-player-28")}


class Checked:
    """Wraps a bot: every answer must be one of the legal codes of the view it was given."""

    def __init__(self, bot):
        self.bot, self.name = bot, bot.name

    def act(self, view):
        code = self.bot.act(view)
        assert code in view.legal, f"{self.name} chose {code}, not legal in {view}"
        return code


@pytest.mark.parametrize("variant,players", EVERY_SHIPPED)
@pytest.mark.parametrize("bot", BOTS)
def test_every_bot_plays_legal_moves_in_every_shipped_variant(variant, players, bot):
    rules = load_rules(variant)
    seed = 11 * players
    # the bot under test in seat 0, greedy elsewhere, so each bot meets a sensible table
    bots = [Checked(b) for b in make_bots([bot] + ["greedy"] * (players - 1), rules, players, seed)]
    state = play_game(rules, players, bots, seed)
    assert state.is_over
    assert all(end.reason != "turn_cap" for end in state.round_ends)


@pytest.mark.parametrize("bot", BOTS)
def test_same_seed_same_game(rules_by_name, bot):
    rules = rules_by_name["official"]
    games = [play_game(rules, 3, make_bots([bot], rules, 3, 5), 5) for _ in range(2)]
    assert games[0].history == games[1].history
    other = play_game(rules, 3, make_bots([bot], rules, 3, 6), 6)
    assert other.history != games[0].history


# -- hidden information ------------------------------------------------------------------------
#
# Design: a bot's choice must be a function of the views it was shown (and its seed). At
# many positions we build a second state that shows the acting seat exactly the same view
# but deals every card that seat cannot see differently, hand the same bot (deep-copied:
# same memory, same random stream) each state's view, and require the same choice. A bot
# that reached the real state in any way (a reference smuggled in, gc, a global) would
# follow the real hidden cards and choose differently somewhere. `Peeking` is such a bot;
# the test shows the check catches it, so the check can fail.


def rehide(state, seat: int, rng: random.Random):
    """A copy of `state` with every card hidden from `seat` dealt again at random."""
    twin = copy.deepcopy(state, {id(state.rules): state.rules})  # the rules are shared, not state
    others = [s for s in range(state.players) if s != seat]
    hidden = [c for s in others for c in twin.hands[s]] + list(twin.set_aside)
    hidden = [flipped(c) if rng.random() < 0.5 else c for c in hidden]
    rng.shuffle(hidden)
    for s in others:
        size = len(twin.hands[s])
        twin.hands[s], hidden = hidden[:size], hidden[size:]
    twin.set_aside = hidden
    twin.refresh()
    return twin


class Peeking:
    """A cheat: plays its greedy choice, except it scouts whenever seat 1 holds a 5."""

    name = "peeking"

    def __init__(self, rules, state_ref):
        self.greedy = make_bot("greedy", rules, 0)
        self.state_ref = state_ref

    def act(self, view):
        scouts = [c for c in view.legal if c >= self.greedy.rules.codec.scout_base]
        if scouts and any(c >> 5 == 5 for c in self.state_ref[0].hands[1]):
            return scouts[0]
        return self.greedy.act(view)


def differing_choices(rules, players, make, seed, positions=30):
    """Play games until `positions` decisions were checked; count the choices that hidden cards changed."""
    rng = random.Random(seed)
    differ = checked = 0
    while checked < positions:
        state = rules.new_game(players, seed + checked)
        state_ref = [state]
        bots = [make(state_ref) for _ in range(players)]
        while not state.is_over and checked < positions:
            seat = state.to_act
            view = state.view(seat)
            twin = rehide(state, seat, rng)
            assert twin.view(seat) == view  # the seat cannot tell the two states apart
            same_bot = bots[seat] if isinstance(bots[seat], Peeking) else copy.deepcopy(bots[seat], {id(rules): rules})
            state_ref[0] = twin
            other = same_bot.act(twin.view(seat))
            state_ref[0] = state
            code = bots[seat].act(view)
            differ += code != other
            checked += 1
            state.apply(code)
    return differ, checked


@pytest.mark.parametrize("variant,players", [("official", 4), ("two-player", 2), ("two-player-28", 2)])
@pytest.mark.parametrize("bot", BOTS)
def test_bots_choose_from_what_their_seat_may_see(rules_by_name, variant, players, bot):
    rules = rules_by_name[variant]
    differ, checked = differing_choices(rules, players, lambda ref: make_bot(bot, rules, 3), seed=21)
    assert checked == 30 and differ == 0


def test_the_hidden_information_check_catches_a_peeking_bot(rules_by_name):
    rules = rules_by_name["official"]
    differ, _ = differing_choices(rules, 4, lambda ref: Peeking(rules, ref), seed=21)
    assert differ > 0


def replay_with_knowledge(rules, players, seed, steps):
    """Greedy play for `steps` actions, every seat remembering its views; the state and knowledge."""
    state = rules.new_game(players, seed)
    bots = make_bots(["greedy"], rules, players, seed)
    knowledge = [Knowledge(rules) for _ in range(players)]
    for _ in range(steps):
        if state.is_over:
            break
        view = state.view(state.to_act)
        knowledge[state.to_act].observe(view)
        state.apply(bots[state.to_act].act(view))
    return state, knowledge


@pytest.mark.parametrize("variant,players", SHIPPED)
def test_samples_agree_with_the_view_and_known_cards_are_true(rules_by_name, variant, players):
    rules = rules_by_name[variant]
    rng = random.Random(1)
    for steps in (0, 7, 19, 33):
        state, knowledge = replay_with_knowledge(rules, players, seed=3, steps=steps)
        for seat in range(players):
            view = state.view(seat)
            slots, _ = knowledge[seat].hands(view)
            for s in range(players):
                for known, real in zip(slots[s], state.hands[s]):
                    assert known is None or known == real  # tracked cards are really there
            sampled = Sampler(rules, view, knowledge[seat]).sample(rng)
            assert sampled.view(seat).legal == view.legal
            assert sampled.view(seat).hand_sizes == view.hand_sizes
            cards = [identity(c) for h in sampled.hands for c in h] + [identity(c) for c in sampled.active]
            assert len(cards) == len(set(cards))


def test_samples_hold_the_real_hidden_cards_no_more_often_than_chance(rules_by_name):
    """Sampled unknown cards match an opponent's real ones at the rate of a blind uniform draw."""
    rules = rules_by_name["official"]
    rng = random.Random(2)
    state, knowledge = replay_with_knowledge(rules, 4, seed=8, steps=14)
    seat = state.to_act
    view = state.view(seat)
    sampler = Sampler(rules, view, knowledge[seat])
    pool = set(sampler.pool)
    overlaps, expected = [], 0.0
    for s in range(4):
        if s == seat:
            continue
        unknown = [i for i, c in enumerate(sampler.slots[s]) if c is None]
        real = {identity(state.hands[s][i]) for i in unknown}
        assert real <= pool  # every real hidden card is possible in the samples
        expected += len(unknown) * len(real) / len(pool)
    for _ in range(400):
        sample = sampler.sample(rng)
        hits = 0
        for s in range(4):
            if s == seat:
                continue
            unknown = [i for i, c in enumerate(sampler.slots[s]) if c is None]
            real = {identity(state.hands[s][i]) for i in unknown}
            hits += sum(identity(sample.hands[s][i]) in real for i in unknown)
        overlaps.append(hits)
    error = statistics.stdev(overlaps) / len(overlaps) ** 0.5
    assert abs(statistics.mean(overlaps) - expected) < 4 * error


# -- constructed positions ---------------------------------------------------------------------


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


def shown(state, code):
    return state.format(code)


def test_greedy_plays_the_strongest_show(rules_by_name):
    rules = rules_by_name["official"]
    # a 3-set of 2s beats a 3-run 7-8-9 under the official order; both beat the active pair
    state = position(rules, 4, "7/1 8/1 9/1 2/3 2/4 2/5 5/6", "4/10 4/6", owner=2)
    bot = make_bot("greedy", rules, 0)
    assert shown(state, bot.act(state.view(0))) == "show 4-6"


def test_greedy_reads_the_order_from_the_rules(tmp_path):
    spec = tmp_path / "runs-first.yaml"
    spec.write_text("extends: official\nname: runs-first\nplugins: [runs-beat-sets]\n")
    rules = load_rules(str(spec))
    state = position(rules, 4, "7/1 8/1 9/1 2/3 2/4 2/5 5/6", "4/10 4/6", owner=2)
    bot = make_bot("greedy", rules, 0)
    assert shown(state, bot.act(state.view(0))) == "show 1-3"  # here the run is the stronger show


def test_greedy_scouts_beside_a_matching_card(rules_by_name):
    rules = rules_by_name["official"]
    # nothing beats a 4-set of 9s; the 3 on the right end joins the pair of 3s
    state = position(rules, 4, "1/5 3/6 3/7 10/2", "9/1 9/2 9/4 9/3 3/8", owner=1)
    bot = make_bot("greedy", rules, 0)
    assert shown(state, bot.act(state.view(0))) in ("scout right 1", "scout right 2", "scout right 3")


@pytest.mark.parametrize("variant", ["official", "two-player-28"])
def test_heuristic_flips_when_the_turned_hand_makes_a_set(rules_by_name, variant):
    rules = rules_by_name[variant]
    players = rules.players[0]
    bot = make_bot("heuristic", rules, 0)
    state = rules.new_game(players, 0)
    scattered = [card(t, 7) for t in (1, 5, 3, 9, 2)] + [card(4, 10), card(6, 8)]
    state.hands[state.to_act] = scattered  # turned over, the first five read 7 7 7 7 7
    assert bot.act(state.view(state.to_act)) == FLIP
    state.hands[state.to_act] = [flipped(c) for c in scattered]
    assert bot.act(state.view(state.to_act)) == KEEP


# -- options -----------------------------------------------------------------------------------


def test_an_option_given_twice_is_refused_and_defaults_read_as_written(rules_by_name):
    rules = rules_by_name["official"]
    with pytest.raises(BotError, match="option 'tempo' is given twice"):  # one of the two was played, silently
        make_bot("skilled:tempo=1,tempo=2", rules, 0)
    with pytest.raises(BotError) as error:
        make_bot("network:x=1", rules, 0)
    assert "weights (default '')" in str(error.value) and "temperature (default 1.0)" in str(error.value)
    with pytest.raises(BotError) as error:
        make_bot("skilled:x=1", rules, 0)
    assert not re.search(r"\d{8}", str(error.value))  # 0.15185, not 0.15184999999999998


def test_unknown_options_are_refused_with_the_known_ones(rules_by_name):
    rules = rules_by_name["official"]
    with pytest.raises(BotError, match=r"no option 'c'.*iterations \(default 300\).*flips \(default true\)"):
        make_bot("mcts:c=3", rules, 0)
    with pytest.raises(BotError, match="iterations=0 must be > 0"):
        make_bot("mcts:iterations=0", rules, 0)
    with pytest.raises(BotError, match=r"spread=.wide. must be a number, like 15\.0"):
        make_bot("mcts:spread=wide", rules, 0)
    with pytest.raises(BotError, match="no option"):
        make_bot("greedy:fast=true", rules, 0)
    with pytest.raises(BotError, match=r"depth=1\.5 must be a whole number, like 0"):
        make_bot("mcts:depth=1.5", rules, 0)
    with pytest.raises(BotError, match="key=value pairs, not 'fast'"):
        make_bot("heuristic:fast", rules, 0)
    with pytest.raises(BotError, match="flips='yes' must be true or false, like true"):
        make_bot("mcts:flips=yes", rules, 0)
    assert make_bot("mcts:iterations=400,spread=10", rules, 0).options["spread"] == 10.0
    assert make_bot("mcts:flips=false", rules, 0).options["flips"] is False


def test_mcts_time_budget_stops_the_search(rules_by_name):
    rules = rules_by_name["official"]
    state = position(rules, 4, "1/5 3/6 3/7 10/2 4/8 6/2", "5/1", owner=1)
    bot = make_bot("mcts:iterations=100000,seconds=0.2", rules, 0)
    assert bot.act(state.view(0)) in state.legal_actions()
    assert 0 < bot.iterations_done < 100000


def test_mcts_with_one_candidate_plays_the_skilled_bots_choice(rules_by_name):
    # the skilled bot is the search's prior: with one candidate there is nothing to search
    rules = rules_by_name["official"]
    state = position(rules, 4, "1/5 3/6 3/7 10/2 4/8 6/2", "5/1", owner=1)
    search, prior = make_bot("mcts:root=1", rules, 0), make_bot("skilled", rules, 0)
    assert search.act(state.view(0)) == prior.act(state.view(0))
    assert search.iterations_done == 0


def test_mcts_halving_keeps_the_best_candidate_and_spends_its_budget(rules_by_name, monkeypatch):
    # rollouts rigged: each candidate's reward is fixed, so sequential halving must end on the best one
    rules = rules_by_name["official"]
    state = position(rules, 4, "1/5 3/6 3/7 10/2 4/8 6/2", "5/1", owner=1)
    bot = make_bot("mcts:iterations=120,root=6", rules, 0)
    bot.policy.use_weights(state.players)  # as act() does: the prior reads the game's player count
    ranked = [code for _, code in bot.policy.ranked(state.view(0))][:6]
    worth = {code: 0.1 * i for i, code in enumerate(ranked)}  # the prior's last candidate is worth most
    monkeypatch.setattr(bot, "rollout", lambda deal, code, seat: worth[code])
    assert bot.act(state.view(0)) == ranked[-1]
    assert 0 < bot.iterations_done <= 120


def test_mcts_rollouts_score_a_finished_round_by_its_scores(rules_by_name):
    # a show that empties the hand ends the round: the reward is the round's real margin, squashed
    rules = rules_by_name["official"]
    state = position(rules, 3, "9/1", "5/2", owner=1)  # seat 0 shows its last card, 9 beats 5
    bot = make_bot("mcts", rules, 0)
    code = next(c for c in state.legal_actions() if state.format(c) == "show 1")
    reward = bot.rollout(state, code, 0)
    end = state.round_ends[-1]
    assert end.reason == "hand_emptied"
    margin = end.scores[0] - (end.scores[1] + end.scores[2]) / 2
    assert reward == pytest.approx(min(1.0, max(0.0, 0.5 + margin / 30)))


def test_mcts_searches_the_keep_or_flip_and_plays_the_better(rules_by_name, monkeypatch):
    # rollouts rigged so that the choice the skilled bot would not make is worth more: the search must play it
    rules = rules_by_name["official"]
    state = rules.new_game(4, 5)
    view = state.view(state.to_act)
    assert view.phase == "flip"
    bot = make_bot("mcts:iterations=40", rules, 0)
    bot.policy.use_weights(4)
    static = bot.policy.choose_flip(view.hand)
    searched = []
    monkeypatch.setattr(bot, "rollout", lambda deal, code, seat: searched.append(code) or float(code != static))
    assert bot.act(view) != static
    assert set(searched) == {KEEP, FLIP} and len(searched) == 40


def test_mcts_without_flips_keeps_or_flips_as_the_skilled_bot_does(rules_by_name, monkeypatch):
    rules = rules_by_name["official"]
    state = rules.new_game(4, 5)
    view = state.view(state.to_act)
    bot = make_bot("mcts:flips=false", rules, 0)
    monkeypatch.setattr(bot, "search", lambda *args: pytest.fail("searched the flip"))
    assert bot.act(view) == make_bot("skilled", rules, 0).choose_flip(view.hand)


@pytest.mark.parametrize("code", [KEEP, FLIP])
def test_mcts_flip_rollouts_let_every_seat_choose_before_the_play(rules_by_name, monkeypatch, code):
    # a rollout of the keep or flip plays the later seats' choices too: the skilled play-out starts in play
    rules = rules_by_name["official"]
    state = rules.new_game(4, 5)
    view = state.view(state.to_act)
    bot = make_bot("mcts", rules, 0)
    bot.policy.use_weights(4)
    phases = []
    play_out = bot.policy.play_out
    monkeypatch.setattr(bot.policy, "play_out", lambda s, *args: phases.append(s.phase) or play_out(s, *args))
    deal = Sampler(rules, view, Knowledge(rules)).sample(random.Random(3))
    assert 0.0 <= bot.rollout(deal, code, view.seat) <= 1.0
    assert phases == ["play"]
    assert len(deal.round_ends) == 1  # played to the round's end


def benchmark(name):
    """A script of benchmarks/ imported as a module."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ladder_wilson_interval_matches_the_formula():
    ladder = benchmark("ladder")
    low, high = ladder.wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)  # the textbook value for 5 of 10
    low, high = ladder.wilson(0, 20)
    assert low == 0.0 and 0.16 < high < 0.17


def test_ratings_recover_the_strengths_the_wins_came_from():
    # rows whose wins are exactly what Luce's rule gives for known strengths: the fit must find them again
    ratings = benchmark("ratings")
    theta = {"greedy": 0.0, "heuristic": 0.8, "skilled": 1.5, "random": -3.0}
    rows = []
    for bot, lower, players in [("heuristic", "greedy", 4), ("skilled", "heuristic", 4), ("skilled", "greedy", 2),
                                ("greedy", "random", 3)]:
        p = 1 / (1 + (players - 1) * math.exp(theta[lower] - theta[bot]))
        rows.append({"bot": bot, "lower": lower, "players": players, "games": 100_000, "wins": p * 100_000})
    fitted = ratings.fit(rows, ["greedy", "heuristic", "random", "skilled"])
    for bot, value in theta.items():
        assert fitted[bot] == pytest.approx(value, abs=0.01)
    table = {bot: (value, low, high) for bot, value, low, high, _ in ratings.ratings(rows, draws=20)}
    assert table["skilled"][1] < table["skilled"][0] < table["skilled"][2]
    assert table["skilled"][0] == pytest.approx(1.5 * 400 / math.log(10), abs=5)
    assert not ratings.connected(rows + [{"bot": "a", "lower": "b", "players": 2, "games": 10, "wins": 5}])


def test_soak_keeps_each_row_and_a_resumed_run_goes_on_where_it_stopped(tmp_path, capsys, monkeypatch):
    soak = benchmark("soak")
    out, whole = tmp_path / "soak.json", tmp_path / "whole.json"
    row = ["--variants", "two-player", "--lineups", "greedy", "--block", "2"]
    assert soak.main(row + ["--games", "3", "--out", str(out)]) == 0
    kept = json.loads(out.read_text())
    assert [(r["variant"], r["players"], r["lineup"], r["games"]) for r in kept] == [("two-player", 2, "greedy", 3)]
    assert kept[0]["rounds"] == 6 and kept[0]["capped"] == 0  # two rounds a game, none capped

    # a row played in two runs is the row played in one: games are seeded by their number
    assert soak.main(row + ["--games", "7", "--out", str(out), "--resume"]) == 0
    assert soak.main(row + ["--games", "7", "--out", str(whole)]) == 0
    parts, once = json.loads(out.read_text())[0], json.loads(whole.read_text())[0]
    assert {k: v for k, v in parts.items() if k != "cpu"} == {k: v for k, v in once.items() if k != "cpu"}

    def replayed(task):
        raise AssertionError(f"a game --out already holds was played again: {task}")

    monkeypatch.setattr(soak, "play_block", replayed)
    assert soak.main(row + ["--games", "7", "--out", str(out), "--resume"]) == 0
    assert soak.main(["--table", str(out)]) == 0
    assert "0 of 14 rounds ended by the turn cap" in capsys.readouterr().out


def test_soak_saves_after_every_block(tmp_path, monkeypatch):
    """A run stopped inside a row keeps the blocks it finished."""
    soak = benchmark("soak")
    out, played = tmp_path / "soak.json", []
    real = soak.play_block

    def stops_after_two(task):
        if len(played) == 2:
            raise KeyboardInterrupt
        played.append(task)
        return real(task)

    monkeypatch.setattr(soak, "play_block", stops_after_two)
    with pytest.raises(KeyboardInterrupt):
        soak.main(["--variants", "two-player", "--lineups", "greedy", "--games", "9", "--block", "2",
                   "--out", str(out)])
    assert [r["games"] for r in json.loads(out.read_text())] == [4]


def test_what_bots_keep_across_games_lets_their_rules_go():
    """A simulation loads the rules again for every block of games: no bot's shared tables may hold them."""
    rules = load_rules("official")
    play_game(rules, 4, make_bots(["heuristic", "greedy", "skilled", "mcts:iterations=10"], rules, 4, 1), 1)
    gone = weakref.ref(rules)
    del rules
    gc.collect()
    assert gone() is None


def test_variant_bots_reads_a_tunings_gain_over_its_start_game_by_game(capsys):
    # a shipped tuning that kept its start: the same bot, so the same games and no gain, read paired
    from scoutlab.bots import tuned

    kept = next(t for t in tuned._shipped().values() if t.result.startswith("start kept:"))
    variant_bots = benchmark("variant_bots")
    assert variant_bots.main(["--start", "--games", "6", "--workers", "1", f"{kept.variant}:{kept.players}"]) == 0
    header, rule, row = capsys.readouterr().out.splitlines()
    assert header.endswith("| start | gain over the start |") and rule.count("|") == header.count("|")
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[:3] == [kept.variant, str(kept.players), "tuned"] and cells[3].split()[0] == cells[6]
    assert cells[7] == "+0.0 points (standard error 0.0)"


def test_variant_bots_plays_another_bot_in_the_seat_when_asked(capsys):
    # the split the 4-player tuning had left, in official points: the defaults' moves, so the same share
    variant_bots = benchmark("variant_bots")
    for bot in ("skilled", "skilled:card=0.6665,tempo=-0.3628"):
        assert variant_bots.main(["--bot", bot, "--games", "8", "--workers", "1", "official:4"]) == 0
    shares = []
    for bot, row in zip(("skilled", "skilled:card=0.6665,tempo=-0.3628"),
                        [line for line in capsys.readouterr().out.splitlines() if line.startswith("| official")]):
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[2] == ("reference" if bot == "skilled" else f"`{bot}`")
        shares.append(cells[3])
    assert shares[0] == shares[1]
