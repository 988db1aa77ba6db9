"""The compiled decision loop (turns.py and legal.py built with mypyc) plays exactly as its source.

turns.py is the reference. This test plays whole random games of every shipped variant
and player count in this process (the compiled build where it is installed) and again in
a child process with SCOUTLAB_PURE=1 (the source), and compares, decision by decision:
the legal actions in order, every field of the state after each action, and each round's
end and scores. Where nothing is compiled both sides run the source, and the test still
checks that a game replays identically from its seed.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import random
import subprocess
import sys

import pytest

from scoutlab.engine import native
from scoutlab.engine.turns import FIELDS
from scoutlab.rules import load_rules
from scoutlab.spec.variant import shipped_variants

SEEDS = 4  # games per variant and player count: a few hundred decisions each, every kind of move and round end
STATE = [name for name in FIELDS if name not in ("rules", "layout", "rng", "end_names", "end_exempts", "_legal")]


def _plain(value):
    """Fields as JSON: lists, ints, strings, round ends as their fields."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return {k: _plain(getattr(value, k)) for k in value.__dataclass_fields__}
    return value


def game_digests(variant: str, players: int, seeds: int) -> list[str]:
    """One digest per game: every legal-action list, every state after an action, the scores."""
    rules = load_rules(variant)
    digests = []
    for seed in range(seeds):
        state, rng, trail = rules.new_game(players, seed), random.Random(seed), hashlib.sha256()
        while not state.is_over:
            legal = state.legal_actions()
            trail.update(json.dumps(legal).encode())
            state.apply(legal[rng.randrange(len(legal))])
            trail.update(json.dumps([_plain(getattr(state, name)) for name in STATE]).encode())
        trail.update(json.dumps(_plain(state.round_ends)).encode())
        digests.append(trail.hexdigest())
    return digests


CASES = [(name, n) for name, _ in shipped_variants() for n in load_rules(name).players]


def _all_digests() -> dict[str, list[str]]:
    return {f"{name} {n}": game_digests(name, n, SEEDS) for name, n in CASES}


def test_compiled_and_source_play_every_variant_alike():
    here = _all_digests()
    env = {**os.environ, "SCOUTLAB_PURE": "1"}
    script = "import json, test_turns_native as t; print(json.dumps(t._all_digests()))"
    child = subprocess.run(
        [sys.executable, "-c", script], cwd=pathlib.Path(__file__).parent, env=env,
        capture_output=True, text=True, timeout=600,
    )
    assert child.returncode == 0, child.stderr[-2000:]
    source = json.loads(child.stdout)
    for case in here:
        assert here[case] == source[case], f"{case}: the {native.BUILD} build and the source played differently"


@pytest.mark.parametrize("variant", ["official", "two-player"])
def test_a_state_copies_with_its_compiled_fields(variant):
    import copy

    rules = load_rules(variant)
    state = rules.new_game(rules.players[0], 3)
    for _ in range(7):
        state.apply(state.legal_actions()[-1])
    state.legal_actions()  # the listing is cached when asked for: the copies carry it too
    for twin in (copy.copy(state), copy.deepcopy(state, {id(rules): rules})):
        assert {k: _plain(v) for k, v in twin.fields().items() if k not in ("rules", "rng", "layout")} == {
            k: _plain(v) for k, v in state.fields().items() if k not in ("rules", "rng", "layout")
        }
        assert twin.legal_actions() == state.legal_actions()
    twin = copy.deepcopy(state, {id(rules): rules})
    twin.apply(twin.legal_actions()[0])
    assert twin.history != state.history, "a deep copy shares its history with the original"


def test_the_loop_is_compiled_where_the_listing_is():
    if native.legal is native.reference:
        assert native.turns is native.reference_turns
    else:
        assert native.turns.__file__.endswith((".so", ".pyd")) and native.turns.Table is not native.reference_turns.Table


@pytest.mark.parametrize("build", ["installed", "source"])
def test_the_loops_shuffle_is_random_shuffle_draw_for_draw(build):
    """Dealing (and the search's sampler) shuffles with turns.shuffle, random.Random.shuffle written out: same order, same rng state after."""
    module = native.turns if build == "installed" else native.reference_turns
    for seed in range(300):
        cards = list(range(seed % 70))
        ours, theirs = random.Random(seed), random.Random(seed)
        shuffled = list(cards)
        module.shuffle(ours, shuffled)
        theirs.shuffle(cards)
        assert shuffled == cards and ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("build", ["installed", "source"])
def test_the_membership_test_of_apply_is_in(build):
    module = native.turns if build == "installed" else native.reference_turns
    rng = random.Random(5)
    for size in (0, 1, 7, 300):
        legal = sorted(rng.sample(range(5000), size))
        for code in [*legal, -1, 0, 4999, 5000, 2**40, *rng.sample(range(5000), 50)]:
            assert module._is_listed(legal, code) == (code in legal)


def test_a_clone_plays_on_alone():
    """GameState.clone copies every field of the table, and the lists play changes are its own."""
    rules = load_rules("official")
    state = rules.new_game(4, 3)
    for _ in range(9):
        state.apply(state.legal_actions()[-1])
    twin = state.clone()
    plain = {name: repr(value) for name, value in state.fields().items()}
    assert {name: repr(value) for name, value in twin.fields().items()} == plain
    assert set(plain) >= set(FIELDS) - {"_legal"}
    while not twin.is_over and twin.round == state.round:
        twin.apply(twin.legal_actions()[0])
    assert {name: repr(value) for name, value in state.fields().items()} == plain, "playing the clone changed the original"


def test_the_loops_round_end_is_the_dataclass():
    """The loop makes its RoundEnd by filling the dict (values.round_end): the same frozen record as the constructor's."""
    import dataclasses

    from scoutlab.base.values import RoundEnd, round_end

    values = (2, "hand_emptied", 1, (3, -2), (4, 0), (1, 0), (2, 3), (0, 2), 17, (("bonus", (1, 0)),), 1)
    made, constructed = round_end(*values), RoundEnd(*values)
    assert made == constructed and hash(made) == hash(constructed) and repr(made) == repr(constructed)
    assert dataclasses.asdict(made) == dataclasses.asdict(constructed)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.scores = (0, 0)  # type: ignore[misc]
    with pytest.raises(ValueError):
        round_end(*values[:-1])  # every field, in order: none is left to a default
