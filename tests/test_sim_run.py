"""Runs: the same seed gives the same numbers on any number of workers, games replay alone,
variants that share a deck share deals, and Ctrl-C keeps what finished."""

import os
import signal

import pytest

from scoutlab.match import make_bots, play_game
from scoutlab.rules import load_rules
from scoutlab.sim import compare, simulate
from scoutlab.sim.backends import InlineBackend, PoolBackend
from scoutlab.sim.compare import deal_difference, differences
from scoutlab.sim.metrics import catalogue, estimate
from scoutlab.sim.observe import end_reasons, observe
from scoutlab.sim.runner import Plan, chunk_size, entrant, game_seed, run_plan
from scoutlab.sim.tally import Tally, unpaired_standard_error
from scoutlab.sim.trace import Lineup, play_traced

NO_FLIP = """\
extends: official
name: no-flip
description: The official rules without the hand flip.
hand_flip:
  allowed: false
"""


def _numbers(report):
    """Everything a report says except how it was run (time, workers, backend)."""
    data = report.to_dict()
    for key in ("seconds", "workers", "backend", "description"):
        data.pop(key)
    return data


def test_same_seed_same_numbers_on_one_and_two_workers():
    options = {"games": 40, "seed": 11, "bots": ["greedy", "random", "random"], "strong": "greedy", "advantage_games": 12}
    one = simulate("official", workers=1, **options)
    two = simulate("official", workers=2, **options)
    assert (one.workers, two.workers) == (1, 2)
    assert _numbers(one) == _numbers(two)
    assert one.variants[0].games == 40 and one.variants[0].advantage_games == 12
    assert _numbers(simulate("official", workers=1, **{**options, "seed": 12})) != _numbers(one)


def test_a_simulated_game_is_the_game_that_scoutlab_game_plays():
    rules = load_rules("two-player")
    seed = game_seed(5, 3)
    lineup = Lineup(["greedy", "random"], rules, 2)
    summary = play_traced(rules, 2, lineup.bots(seed), seed)
    state = play_game(rules, 2, make_bots(["greedy", "random"], rules, 2, seed), seed)
    assert summary.totals == tuple(state.totals)
    assert [r.reason for r in summary.rounds] == [e.reason for e in state.round_ends]
    assert summary.lead[-1] == tuple(state.totals)
    assert sum(r.turns for r in summary.rounds) == summary.decisions


def test_a_run_of_one_game_tallies_that_game():
    report = simulate("two-player", games=1, seed=9, workers=1, strong=None)
    rules = load_rules("two-player")
    seed = game_seed(9, 0)
    state = play_game(rules, 2, make_bots(["skilled"], rules, 2, seed), seed)  # the default lineup
    totals = [report.variants[0].estimate(f"score.{s}").value for s in range(2)]
    assert totals == state.totals


def test_game_seeds_differ_and_do_not_depend_on_anything_else():
    seeds = {game_seed(0, i) for i in range(1000)}
    assert len(seeds) == 1000
    assert game_seed(1, 0) != game_seed(0, 0)
    assert chunk_size(100) == chunk_size(100) and chunk_size(10**6) == 250


def test_variants_with_one_deck_share_deals(tmp_path):
    spec = tmp_path / "no-flip.yaml"
    spec.write_text(NO_FLIP)
    official, no_flip, two = load_rules("official"), load_rules(str(spec)), load_rules("two-player")
    assert deal_difference(official, 3, no_flip, 3) is None
    assert deal_difference(official, 3, official, 4) == "player counts differ (3 vs 4)"
    assert deal_difference(two, 2, load_rules("two-player-28"), 2) == "decks differ (44 vs 28 cards)"
    seed = game_seed(0, 7)
    assert official.new_game(3, seed).deals == no_flip.new_game(3, seed).deals


def test_compare_pairs_shared_deals_and_says_when_it_cannot(tmp_path):
    spec = tmp_path / "no-flip.yaml"
    spec.write_text(NO_FLIP)
    paired = compare([("official", None), (str(spec), None)], games=30, workers=1, strong=None)
    (comparison,) = paired.comparisons
    assert comparison.paired and comparison.why_unpaired is None
    keys = {d.key for d in comparison.rows}
    assert {"win.0", "score.2", "turns", "drama"} <= keys  # same seats: seat metrics compare too
    assert all(d.low <= d.value <= d.high and 0 <= d.p <= d.p_holm <= 1 for d in comparison.rows)

    unpaired = compare([("official", None), ("two-player", None)], games=20, workers=1, strong=None)
    (comparison,) = unpaired.comparisons
    assert not comparison.paired and comparison.why_unpaired == "player counts differ (3 vs 2)"
    keys = {d.key for d in comparison.rows}
    assert "win.0" not in keys and "first_player" in keys  # seats differ: only seat-free metrics
    assert "end.everyone_scouted" not in keys  # two-player has no such end condition


def test_paired_difference_of_identical_variants_is_exactly_zero(tmp_path):
    spec = tmp_path / "same.yaml"
    spec.write_text("extends: official\nname: same\n")
    report = compare([("official", None), (str(spec), None)], games=20, workers=1, strong=None)
    rows = report.comparisons[0].rows
    assert rows and all(d.value == pytest.approx(0, abs=1e-9) and not d.significant for d in rows)
    wins = {"first_player"} | {f"win.{s}" for s in range(3)}
    assert all(d.high - d.low == pytest.approx(0, abs=1e-6) for d in rows if d.key not in wins)
    # Win shares get pseudo-games in their standard error, so even no difference is not certain.
    assert all(d.high - d.low > 0 for d in rows if d.key in wins)


def test_a_bot_that_always_wins_does_not_make_a_certain_difference():
    a, b = Tally(), Tally()
    for _ in range(20):  # always winning is skill depth 1 at any player count
        a.add({"skill_depth": (1, 1), "skill_win": (1, 1)})
        b.add({"skill_depth": (1, 1), "skill_win": (1, 1)})
    metric = next(m for m in catalogue(3, (), skill=("greedy", "random")) if m.key == "skill_depth")
    (row,) = differences([metric], a, b, {"skill_depth": estimate(metric, a)}, {"skill_depth": estimate(metric, b)},
                         None, (3, 2))
    assert row.value == pytest.approx(0)
    assert row.low < 0 < row.high and row.high - row.low > 0.1
    # Both samples are all wins: without the pseudo-games the standard error would be zero.
    assert unpaired_standard_error(a.sums["skill_depth"], b.sums["skill_depth"]) == pytest.approx(0, abs=1e-6)


def test_skill_depth_pseudo_games_are_a_win_and_a_loss_on_the_depth_scale():
    # A pseudo-win is depth 1 and a pseudo-loss -1/(n - 1): for 3 players, 1 and -1/2.
    from scoutlab.sim.compare import _win_and_loss

    metric = next(m for m in catalogue(3, (), skill=("greedy", "random")) if m.key == "skill_depth")
    assert _win_and_loss(metric, 3) == pytest.approx((1.0, -0.5))
    assert _win_and_loss(metric, 2) == pytest.approx((1.0, -1.0))
    first = next(m for m in catalogue(3, ()) if m.key == "first_player")
    assert _win_and_loss(first, 4) == pytest.approx((0.75, -0.25))


def _plan(games=100):
    rules = load_rules("two-player")
    return Plan((entrant("two-player", rules, 2, ["random"]),), games, seed=4)


@pytest.mark.parametrize("make", [InlineBackend, lambda: PoolBackend(2)], ids=["inline", "pool"])
def test_ctrl_c_stops_after_what_finished(make):
    plan = _plan()
    first = []

    def progress(played):
        if not first:
            first.append(played)
            os.kill(os.getpid(), signal.SIGINT)  # as a terminal's Ctrl-C would

    outcome = run_plan(plan, make(), progress)
    assert outcome.interrupted
    assert 0 < outcome.games_done < plan.games
    assert outcome.games_done % chunk_size(plan.games) == 0  # whole chunks, in game order
    full = run_plan(Plan(plan.entrants, outcome.games_done, plan.seed), InlineBackend())
    assert full.tallies[0].sums["turns"] == outcome.tallies[0].sums["turns"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # handler restored


def test_every_game_of_a_variant_observes_the_same_keys():
    rules = load_rules("official")
    lineup = Lineup(["random"], rules, 4)
    keys = {frozenset(observe(play_traced(rules, 4, lineup.bots(s), s), end_reasons(rules))) for s in range(5)}
    assert len(keys) == 1


def test_bad_requests_say_what_is_wrong():
    with pytest.raises(ValueError, match="is for 3, 4, 5 players, not 2"):
        simulate("official", players=2, games=5, workers=1)
    with pytest.raises(ValueError, match="3 players need 3 bots"):
        simulate("official", games=5, workers=1, bots=["random", "random"])
    with pytest.raises(ValueError, match="from 1 to 1,000,000,000, got 0"):
        simulate("official", games=0)
    with pytest.raises(ValueError, match="at least two"):
        compare([("official", None)])
