"""The network bot: legal play in every shipped variant, only its seat's view, seeded, its weights file checked, and
the training script end to end."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from test_bots import Checked, differing_choices

from scoutlab.bots import BotError, make_bot, network as network_module
from scoutlab.bots.network import NetworkBot, load
from scoutlab.bots.network_features import CONTEXT, MOVE, Reader
from scoutlab.match import make_bots, play_game
from scoutlab.rules import load_rules
from scoutlab.spec.variant import shipped_variants

ROOT = Path(__file__).resolve().parents[1]
EVERY_SHIPPED = [(name, n) for name, _ in shipped_variants() for n in load_rules(name).players]
SHIPPED = json.loads((Path(network_module.__file__).with_name(network_module.WEIGHTS_FILE)).read_text())


@pytest.mark.parametrize("variant,players", EVERY_SHIPPED)
def test_it_plays_only_legal_moves_in_every_shipped_variant(variant, players):
    rules = load_rules(variant)
    for seed in (3, 4):  # the network in every seat, then beside the skilled bot
        names = ["network"] * players if seed == 3 else ["network", "network:sample=true"] + ["skilled"] * (players - 2)
        bots = [Checked(bot) for bot in make_bots(names, rules, players, seed)]
        state = play_game(rules, players, bots, seed)
        assert state.is_over
        assert all(end.reason != "turn_cap" for end in state.round_ends)


def test_its_candidates_are_legal_and_hold_every_show_and_scout():
    rules = load_rules("official")
    reader = Reader(rules)
    state = rules.new_game(5, 8)
    bots = make_bots(["skilled"], rules, 5, 8)
    seen_scout_shows = 0
    while not state.is_over:
        view = state.view(state.to_act)
        context, codes, rows = reader.read(view, 4)
        assert len(context) == len(CONTEXT) and all(len(row) == len(MOVE) for row in rows)
        assert set(codes) <= set(view.legal) and len(set(codes)) == len(codes)
        assert {c for c in view.legal if c < rules.codec.sns_base} <= set(codes)
        seen_scout_shows += any(c >= rules.codec.sns_base for c in codes)
        state.apply(bots[state.to_act].act(view))
    assert seen_scout_shows  # the Scout & Shows after the best scouts are read too


@pytest.mark.parametrize("variant,players", [("official", 5), ("two-player", 2), ("house-wrap", 4)])
def test_it_chooses_from_what_its_seat_may_see(variant, players):
    rules = load_rules(variant)
    differ, checked = differing_choices(rules, players, lambda ref: make_bot("network", rules, 3), seed=21)
    assert checked == 30 and differ == 0


def test_the_same_seed_plays_the_same_game_and_sampling_follows_the_seed():
    rules = load_rules("official")
    games = [play_game(rules, 5, make_bots(["network:sample=true"], rules, 5, 5), 5) for _ in range(2)]
    assert games[0].history == games[1].history
    greedy = play_game(rules, 5, make_bots(["network"], rules, 5, 5), 5)
    assert greedy.history != games[0].history  # the draws changed some move
    again = play_game(rules, 5, make_bots(["network"], rules, 5, 5), 5)
    assert again.history == greedy.history


def test_the_weights_decide_the_moves(tmp_path):
    rules = load_rules("official")
    flipped = dict(SHIPPED, layers=[*SHIPPED["layers"][:-1], {
        "weight": [[-w for w in row] for row in SHIPPED["layers"][-1]["weight"]], "bias": SHIPPED["layers"][-1]["bias"]}])
    path = tmp_path / "worst.json"
    path.write_text(json.dumps(flipped))
    state = rules.new_game(5, 2)
    view = state.view(state.to_act)
    best = NetworkBot(rules, random.Random(0), {})
    worst = NetworkBot(rules, random.Random(0), {"weights": str(path)})
    assert best.ranked(view)[0][1] == worst.ranked(view)[-1][1]


def test_the_shipped_weights_say_how_they_were_made():
    assert SHIPPED["trained_by"].startswith("python scripts/train_network.py")
    assert SHIPPED["training"]["teacher"] and SHIPPED["training"]["imitation"]["positions"] > 0
    _, document = load()
    assert document["trained_by"] == SHIPPED["trained_by"]


@pytest.mark.parametrize("content,words", [
    (None, "cannot read weights file"),
    ("{not json", "is not JSON (Expecting property name enclosed in double quotes at line 1, column 2)"),
    ("root:x:0:0:root:/root:/bin/bash", "is not JSON (Expecting value at line 1, column 1)"),  # was cut mid-word
    ("\udcff", "not UTF-8 text (bad byte at offset 0)"),  # was the codec's own text
    ("[" * 100 + "]" * 100, "is not JSON (nested deeper than 64 levels of lists and mappings)"),  # was cut at 40
    (json.dumps({"format": "other"}), "is not a network bot's weights"),
    (json.dumps({**SHIPPED, "move": ["x"]}), "other features"),
    (json.dumps({**SHIPPED, "layers": [{"weight": [[1.0]], "bias": [0.0]}]}), "layer 1"),
    (json.dumps({**SHIPPED, "layers": SHIPPED["layers"][:-1]}), "outputs, not one score"),
    (json.dumps({**SHIPPED, "layers": [SHIPPED["layers"][0], {**SHIPPED["layers"][1], "bias": ["x"] * len(
        SHIPPED["layers"][1]["bias"])}, SHIPPED["layers"][2]]}), "not a finite number"),
])
def test_a_bad_weights_file_is_refused_in_one_line(tmp_path, content, words):
    path = tmp_path / "weights.json"
    if content is not None:
        path.write_text(content, errors="surrogateescape")  # \udcff: the byte 0xff, not UTF-8
    with pytest.raises(BotError) as caught:
        make_bot(f"network:weights={path}", load_rules("official"), 0)
    message = str(caught.value)
    assert words in message and "\n" not in message and message.startswith("bot 'network'")


def test_options_are_checked():
    rules = load_rules("official")
    with pytest.raises(BotError, match="temperature"):
        make_bot("network:temperature=0", rules, 0)
    with pytest.raises(BotError, match="no option 'depth'"):
        make_bot("network:depth=3", rules, 0)


def test_a_tiny_training_run_writes_weights_that_load_and_play(tmp_path):
    out = tmp_path / "net.json"
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "train_network.py"), "--players", "4", "--games", "2", "--dagger-games",
         "1", "--epochs", "1", "--label-rate", "0.3", "--teacher", "mcts:iterations=6", "--hidden", "8", "--out", str(out)],
        check=True, capture_output=True, text=True, timeout=300,
    )
    written = json.loads(out.read_text())
    assert written["trained_by"].endswith(f"--hidden 8 --out {out}")
    assert written["training"]["imitation"]["positions"] > 0 and written["training"]["own_positions"]["positions"] > 0
    assert [len(layer["bias"]) for layer in written["layers"]] == [8, 1]
    assert not out.with_suffix(".partial.json").exists()
    rules = load_rules("official")
    state = play_game(rules, 4, [Checked(b) for b in make_bots([f"network:weights={out}"], rules, 4, 1)], 1)
    assert state.is_over


def test_without_numpy_it_computes_the_same_scores_in_plain_python(monkeypatch):
    rules = load_rules("official")
    reader, (fast, _) = Reader(rules), load()
    monkeypatch.setitem(sys.modules, "numpy", None)  # `import numpy` now fails, as where only the web extra is installed
    plain, _ = load()
    assert plain.arrays is None and fast.arrays is not None
    state, bots = rules.new_game(5, 3), make_bots(["skilled"], rules, 5, 3)
    for _ in range(60):
        view = state.view(state.to_act)
        context, _, rows = reader.read(view, 4)
        assert plain.scores(context, rows) == pytest.approx(fast.scores(context, rows), abs=1e-9)
        state.apply(bots[state.to_act].act(view))


def test_a_tuning_plays_its_candidates_against_each_opponent_in_turn(monkeypatch):
    from scoutlab.sim import tune

    lineups = []

    def record(names, rules, players, seed):
        lineups.append(tuple(names))
        return make_bots(["random"], rules, players, seed)

    monkeypatch.setattr(tune, "make_bots", record)
    doc = json.dumps(load_rules("official").spec.doc)
    tune.play_share(doc, 3, "greedy", 1, 0, 12, ("network", "skilled"))
    assert lineups[:6] == [("greedy", "network", "network"), ("network", "greedy", "network"),
                           ("network", "network", "greedy"), ("greedy", "skilled", "skilled"),
                           ("skilled", "greedy", "skilled"), ("skilled", "skilled", "greedy")]
    assert lineups[6:] == lineups[:6]
    lineups.clear()
    tune.play_share(doc, 3, "greedy", 1, 0, 3)
    assert {name for lineup in lineups for name in lineup} == {"greedy", tune.OPPONENT}
