"""Each metric on small hand-built games whose answers are worked out by hand."""

import math
import statistics

import pytest

from scoutlab.sim import tension
from scoutlab.sim.metrics import catalogue, estimate, estimates, fairness
from scoutlab.sim.observe import histograms, observe, skill
from scoutlab.sim.stats import chi_square_uniform, wilson
from scoutlab.sim.tally import Tally
from scoutlab.sim.trace import GameSummary, RoundFacts

# Three seats. Sole leaders: -, 0, 1, (tie), 0, 2 -> the lead changes hands three times.
HISTORY = [(0, 0, 0), (1, 0, 0), (1, 2, 0), (1, 2, 2), (3, 2, 2), (3, 4, 5)]
WINNER = (2,)


def test_lead_changes_ignore_ties_at_the_top():
    assert tension.lead_changes(HISTORY) == 3
    assert tension.lead_changes([(0, 0), (1, 1), (2, 2)]) == 0
    assert tension.lead_changes([(1, 0), (1, 1), (2, 1)]) == 0  # tied, then the same leader again


def test_rank_estimate_and_threshold():
    assert tension.rank_estimate((1, 2, 2), 2) == 0.75  # beats one, ties one: (1 + 0.5) / 2
    assert tension.drama_threshold(2) == 0.5
    assert tension.drama_threshold(3) == 0.75


def test_drama_and_security_by_hand():
    # Seat 2's rank estimates: .5, .25, 0, .75, .25, 1; below .75 at four of six points.
    severities = [math.sqrt(0.25), math.sqrt(0.5), math.sqrt(0.75), math.sqrt(0.5)]
    assert tension.drama(HISTORY, WINNER) == pytest.approx(sum(severities) / 4)
    assert tension.security(HISTORY, WINNER) == pytest.approx(1 - 4 / 6)
    assert tension.drama([(1, 0), (2, 0)], (0,)) == 0.0  # led throughout: no drama
    assert tension.security([(1, 0), (2, 0)], (0,)) == 1.0


def test_winner_deficit_by_hand():
    # best - winner at each point: 0, 1, 2, 0, 1, 0
    assert tension.winner_deficit(HISTORY, WINNER) == pytest.approx(4 / 6)


def test_decisiveness_by_hand():
    # The loser's peak is 3; the winner first passes it at point 3 of 4 moves.
    assert tension.decisiveness([(0, 0), (2, 0), (2, 1), (5, 1), (5, 3)], (0,)) == 0.75
    # Seat 1 reaches 4 before the winner passes it, and the winner does so only at the end.
    assert tension.decisiveness(HISTORY, WINNER) == 1.0
    assert tension.decisiveness([(0, 0), (1, 1)], (0, 1)) == 1.0  # everyone won: never decided


ROUNDS = (
    RoundFacts("hand_emptied", turns=10, starter=0, scores=(3, -1, 2), captured=4,
               scout_turns=(2, 5), sns_turns=(7,)),
    RoundFacts("everyone_scouted", turns=6, starter=1, scores=(2, 3, 3), captured=2, scout_turns=(1,)),
)
GAME = GameSummary(totals=(5, 2, 5), rounds=ROUNDS, decisions=10, options=50, widest=9, forced=2,
                   lead=((0, 0, 0), (3, -1, 2), (3, -1, 4), (5, 2, 5)))
REASONS = ("hand_emptied", "rule_ii", "turn_cap")


def test_observations_of_a_hand_built_game():
    obs = observe(GAME, REASONS)
    assert GAME.winners == (0, 2)
    assert [obs[f"win.{s}"] for s in range(3)] == [(0.5, 1), (0.0, 1), (0.5, 1)]  # a tie shares the win
    assert obs["first_player"] == pytest.approx((0.5 - 1 / 3, 1))
    assert obs["margin"] == (0, 1)
    assert obs["score"] == (12, 3)
    assert obs["turns"] == (16, 1) and obs["turns_per_round"] == (16, 2) and obs["rounds"] == (2, 1)
    assert [obs[f"end.{r}"] for r in REASONS] == [(1, 2), (1, 2), (0, 2)]
    assert obs["scouts"] == (3, 2) and obs["sns"] == (1, 2)
    assert obs["scout_turn"] == (8, 3) and obs["sns_turn"] == (7, 1)
    assert obs["scout_timing"] == pytest.approx((1.5 / 10 + 4.5 / 10 + 0.5 / 6, 3))
    assert obs["sns_timing"] == pytest.approx((6.5 / 10, 1))
    assert obs["captured"] == (6, 2)
    # Round 1: starter P1 scored 3 against a mean of 0.5; round 2: P2 scored 3 against 2.5.
    assert obs["starter_edge"] == pytest.approx((3.0, 2))
    assert obs["branching"] == (50, 10) and obs["forced"] == (2, 10) and obs["branching_max"] == (9, 1)
    assert obs["lead_changes"] == (1, 1)  # P1 leads alone, then P3, then P1 and P3 tie
    assert obs["lead_change_rate"] == (1 / 3, 1)  # over three moves
    # Per round: the same sums over the game's two rounds (and over players times rounds for scores).
    assert obs["score_round"] == (12, 6) and obs["margin_round"] == (0, 2) and obs["lead_changes_round"] == (1, 2)


def test_rule_ii_is_one_metric_across_its_two_forms():
    two = (RoundFacts("opponent_stuck", turns=8, starter=0, scores=(2, -3), captured=3),
           RoundFacts("hand_emptied", turns=9, starter=1, scores=(1, 4), captured=2))
    game = GameSummary(totals=(3, 1), rounds=two, decisions=17, options=40, widest=5, forced=1,
                       lead=((0, 0), (3, 1)))
    assert observe(game, REASONS)["end.rule_ii"] == (1, 2)  # two-player: the opponent was stuck
    assert observe(GAME, REASONS)["end.rule_ii"] == (1, 2)  # three players: everyone else scouted


def test_histograms_of_a_hand_built_game():
    hist = histograms(GAME)
    assert hist["round_turns"] == [10, 6]
    assert hist["scout_timing"] == [1, 4, 0]  # 0.15, 0.45, 0.083 of the round gone
    assert hist["sns_timing"] == [6]
    assert hist["margin"] == [0]
    assert hist["score.1"] == [2]


def test_skill_observation():
    # Seat 0 shares a win with seat 2 (w = 1/2 of 3 players): depth (1/2 - 1/3) / (2/3) = 1/4, luck 1/2.
    # Compared key by key: pytest.approx takes no tuples inside a dict (pytest 9.2 refuses them).
    for seat, expected in [(0, {"skill_win": (0.5, 1), "skill_depth": (0.25, 1), "luck": (0.5, 1)}),
                           (1, {"skill_win": (0.0, 1), "skill_depth": (-0.5, 1), "luck": (1.0, 1)})]:
        observed = skill(GAME, seat)
        assert observed.keys() == expected.keys()
        for key, value in expected.items():
            assert observed[key] == pytest.approx(value), key


def test_skill_depth_interval_is_the_wilson_interval_rescaled():
    # Newcombe (1998), Table I: 81 of 263, Wilson 95% interval 0.2553 to 0.3662. With four players
    # the fair share is 1/4, so depth = (w - 1/4) / (3/4) and its bounds map the same way.
    tally = Tally()
    four = GameSummary(totals=(1, 0, 0, 0), rounds=ROUNDS, decisions=1, options=1, widest=1, forced=0,
                       lead=((0, 0, 0, 0), (1, 0, 0, 0)))
    for game in range(263):
        tally.add_observations(skill(four, 0 if game < 81 else 1))
    metrics = {m.key: m for m in catalogue(4, REASONS, skill=("heuristic", "greedy"))}
    depth, luck = estimate(metrics["skill_depth"], tally), estimate(metrics["luck"], tally)
    assert depth.value == pytest.approx((81 / 263 - 0.25) / 0.75)
    assert (depth.low, depth.high) == pytest.approx(((0.2553 - 0.25) / 0.75, (0.3662 - 0.25) / 0.75), abs=2e-4)
    assert luck.value == pytest.approx(182 / 263)
    assert (luck.low, luck.high) == pytest.approx((1 - 0.3662, 1 - 0.2553), abs=1e-4)  # Wilson is symmetric


def _tally(games):
    tally = Tally()
    for game in games:
        tally.add(observe(game, REASONS), histograms(game))
    return tally


def _game(totals):
    return GameSummary(totals=totals, rounds=ROUNDS, decisions=10, options=50, widest=9, forced=0,
                       lead=((0, 0, 0), totals))


def test_estimates_from_a_tally():
    games = [_game((5, 1, 0)), _game((0, 5, 1)), _game((5, 0, 1)), _game((2, 2, 0)), _game((9, 0, 0))]
    tally = _tally(games)
    by_key = {e.key: e for e in estimates(tally, 3, REASONS, seed=1)}
    # P1 wins 1 + 0 + 1 + 1/2 + 1 = 3.5 of 5 games
    p1 = by_key["win.0"]
    assert p1.value == pytest.approx(0.7)
    assert (p1.low, p1.high) == pytest.approx(wilson(3.5, 5))
    first = by_key["first_player"]
    assert first.value == pytest.approx(0.7 - 1 / 3)
    assert first.low == pytest.approx(wilson(3.5, 5)[0] - 1 / 3)
    assert by_key["score.0"].value == pytest.approx(21 / 5)
    assert by_key["forced"].value == 0.0 and by_key["forced"].high == pytest.approx(wilson(0, 5)[1])
    spread = by_key["spread.0"]
    assert spread.value == pytest.approx(statistics.stdev([5, 0, 5, 2, 9]))
    assert spread.low < spread.value < spread.high
    assert by_key["sns_timing"].value == pytest.approx(0.65)
    assert [e.key for e in estimates(tally, 3, REASONS)] == [m.key for m in catalogue(3, REASONS)]
    test = fairness(tally, 3)
    # seat wins 3.5, 1.5, 0 against 5/3 each: (11/6)^2 + (1/6)^2 + (5/3)^2 over 5/3 = 3.7
    assert test["chi2"] == pytest.approx(3.7)
    assert (test["chi2"], test["p"]) == pytest.approx(chi_square_uniform([3.5, 1.5, 0.0])[::2])


def test_a_metric_never_observed_has_no_value():
    tally = _tally([GameSummary((1, 0, 0), (RoundFacts("hand_emptied", 3, 0, (1, 0, 0), 0),), 3, 3, 1, 3,
                                ((0, 0, 0), (1, 0, 0)))])
    sns_turn = next(m for m in catalogue(3, REASONS) if m.key == "sns_turn")
    e = estimate(sns_turn, tally)
    assert (e.value, e.low, e.high) == (None, None, None)
    depth_metric = catalogue(3, REASONS, skill=("heuristic", "greedy"))[-2]
    assert depth_metric.key == "skill_depth" and estimate(depth_metric, tally).value is None
