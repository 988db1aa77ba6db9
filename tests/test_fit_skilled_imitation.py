"""scripts/fit_skilled_imitation.py: its features are the skilled bot's own values, its fit finds known weights,
and a tiny run writes a weights file."""

import importlib.util
import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from scoutlab.bots import make_bot, skilled
from scoutlab.bots.mcts import MctsBot
from scoutlab.bots.skilled import SkilledBot
from scoutlab.match import bot_seed
from scoutlab.rules import load_rules

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("fit_skilled_imitation", ROOT / "scripts" / "fit_skilled_imitation.py")
assert _spec is not None and _spec.loader is not None
fitter = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = fitter  # its dataclasses look their module up by name
_spec.loader.exec_module(fitter)

# A direction well away from the shipped weights (a prototype run's fitted 5-player weights), with a height:
# at height 0 the lower code breaks ties between shows of different heights, which no direction reproduces.
KNOWN = {"structure": 0.289, "set_bonus": 1.84, "card": -0.417, "urgency": 7.52, "capture": 5.3075, "scout": 0.018,
         "scout_show": 0.911, "empty": 0.17, "shown": -0.352, "tempo": 0.0, "scout_tempo": 0.0, "height": -0.8}
# A start far from them: the 5-player weights of self-play, before the imitation fit was shipped.
START = {"structure": 0.194, "set_bonus": 0.6449, "capture": 5.3075, "card": 0.165, "tempo": 0.5876, "scout": 0.8685,
         "scout_tempo": 1.4493, "shown": -0.457, "empty": 0.2015, "urgency": -0.1444, "scout_show": 0.4793}


@pytest.fixture(scope="module")
def rules():
    return load_rules("official")


def views(rules, games):
    """Every decision with a choice in 5-player games of skilled and network bots."""
    for game in games:
        bots = [make_bot("skilled" if seat % 2 else "network", rules, bot_seed(game, seat)) for seat in range(5)]
        state = rules.new_game(5, game)
        while not state.is_over:
            view = state.view(state.to_act)
            if view.phase != "flip" and len(view.legal) > 1:
                yield view
            state.apply(bots[state.to_act].act(view))


def test_features_give_the_bots_own_values(rules):
    """The move value is linear in the weights: features times the 5-player coefficients are the bot's values."""
    featurer, bot = fitter.Featurer(rules), SkilledBot(rules, random.Random(0), {})
    bot.use_weights(5)
    coef = fitter.coefficients(skilled.default_weights(5))
    seen = worst = 0
    for view in views(rules, [400_000, 400_001]):
        codes, rows = featurer.features(view)
        rebuilt = dict(zip(codes, rows @ coef))
        for value, code in bot.moves(view):  # the bot weighs a subset (Scout & Shows after its best scouts only)
            worst = max(worst, abs(rebuilt[code] - value))
            seen += 1
    assert seen > 500
    assert worst < 1e-9


def test_fit_recovers_known_weights(rules):
    """Labels chosen by known weights: the fit finds their direction and their choices, from a start far away."""
    featurer = fitter.Featurer(rules)
    rows = [featurer.features(view)[1] for view in views(rules, range(400_010, 400_030))]  # about 2,400 decisions
    known = fitter.coefficients(KNOWN)
    data = fitter.Arrays.of(rows, [0] * len(rows))
    data.labels = fitter.choices(known, data)
    current = fitter.coefficients(START)
    soft, fitted = fitter.fit(data, current)
    cosine = fitted @ known / np.linalg.norm(fitted) / np.linalg.norm(known)
    assert fitter.agreement(current, data) < 0.9  # the start chooses otherwise: there is something to find
    assert fitter.agreement(soft, data) > 0.98
    assert fitter.agreement(fitted, data) >= fitter.agreement(soft, data)  # the hinge step keeps its best
    assert cosine > 0.98  # the start is at 0.50


def test_tiny_run_writes_a_weights_file(tmp_path, capsys):
    out = tmp_path / "fit.json"
    assert fitter.main(["--games", "4", "--rounds", "1", "--round-games", "3", "--seed", "1006", "--out", str(out)]) == 0
    document = json.loads(out.read_text())
    assert document["players"] == 5
    assert set(document["weights"]) == set(skilled.default_weights(5)) - set(skilled.UNTUNED) == set(fitter.WEIGHT_NAMES)
    assert document["weights"]["capture"] == skilled.default_weights(5)["capture"]
    assert document["trained_by"] == ("python scripts/fit_skilled_imitation.py --players 5 --games 4 --rounds 1 "
                                      "--round-games 3 --seed 1006")
    scores = document["agreement"]
    assert scores["held_out_decisions"] > 0  # game 1009 is held out
    assert 0 <= scores["current"] <= 1 and 0 <= scores["fitted"] <= 1
    SkilledBot(load_rules("official"), random.Random(0), document["weights"])  # valid options
    assert "held-out top-1 agreement" in capsys.readouterr().out


def test_search_teacher_labels_what_the_search_bot_plays(rules):
    """The search teacher's label is the move the search bot plays, given the same stream and the same views."""
    game, seat = 400_040, 2
    teacher = fitter.SearchTeacher(rules, 40).for_game(game, 5)
    # the teacher labels the play only: a search of the keep or flip would draw from the stream it shares
    searcher = MctsBot(rules, random.Random(bot_seed(-1 - game, seat)), {"iterations": 40, "flips": False})
    others = [SkilledBot(rules, random.Random(s), {}) for s in range(5)]
    prior = SkilledBot(rules, random.Random(0), {})
    prior.use_weights(5)
    state = rules.new_game(5, game)
    labels = played = searched_otherwise = 0
    while not state.is_over:
        view = state.view(state.to_act)
        teacher.observe(state.to_act, view)
        if state.to_act != seat:
            state.apply(others[state.to_act].act(view))
            continue
        if view.phase != "flip":
            label = teacher.label(seat, view)
            labels += 1
            searched_otherwise += label != prior.ranked(view)[0][1]
        move = searcher.act(view)
        played += view.phase != "flip" and move == label
        state.apply(move)
    assert labels > 20 and played == labels
    assert searched_otherwise > 0  # the labels are the search's, not the skilled bot's first choices


def test_tiny_run_with_the_search_as_teacher(tmp_path):
    out = tmp_path / "fit.json"
    assert fitter.main(["--games", "2", "--rounds", "1", "--round-games", "1", "--seed", "1006", "--teacher", "mcts",
                        "--iterations", "20", "--out", str(out)]) == 0
    document = json.loads(out.read_text())
    assert document["trained_by"].endswith("--seed 1006 --teacher mcts --iterations 20")
    assert document["agreement"]["train_decisions"] > 0


def test_seeds_stay_below_the_evaluation_games(tmp_path):
    with pytest.raises(SystemExit):
        fitter.main(["--seed", "499000", "--out", str(tmp_path / "x.json")])
