"""The compiled hot loop (legal.py built with mypyc) and its source agree, in every test run.

legal.py is the reference. The compiled module under test is the installed one
(`scoutlab._legal_native`) when the engine runs it; otherwise, as in a pure-Python install
(SCOUTLAB_PURE=1), the tests compile their own copy of the installed source
(tests/compiled_build.py). Every function is checked against the source on the same inputs:
random hands and tables, and every decision of random games in each shipped variant the
fast path serves. Where nothing can be compiled (no mypyc or C compiler) the comparisons
skip, saying why, except in CI (SCOUTLAB_CHECK_COMPILED, set by .ci/run, or CI): there
they fail, so the equivalence is never silently unchecked.
"""

from __future__ import annotations

import hashlib
import os
import random
import types
from importlib import resources

import pytest
from compiled_build import compiled_for_fixture
from hypothesis import given, settings, strategies as st

from scoutlab.engine import actions, cards, legal as reference, native
from scoutlab.rules import load_rules
from scoutlab.spec.variant import shipped_variants

FAST = [name for name, _ in shipped_variants() if load_rules(name).builtin_shows]


@pytest.fixture(scope="session")
def compiled(request, tmp_path_factory):
    """The compiled legal.py: the installed build when the engine runs it, else one built here."""
    if native.legal is not reference:
        return native.legal
    return compiled_for_fixture(request, tmp_path_factory, "scoutlab.engine", "legal")


def test_the_compiled_module_is_in_use_where_it_is_expected():
    if os.environ.get("SCOUTLAB_EXPECT_COMPILED"):
        assert native.BUILD == "compiled with mypyc"
        assert native.legal is not reference and native.legal.__file__.endswith((".so", ".pyd"))


def test_the_module_under_test_is_compiled_from_this_source(compiled):
    assert compiled is not reference and compiled.__file__.endswith((".so", ".pyd")), compiled.__file__
    source = resources.files("scoutlab.engine").joinpath("legal.py").read_bytes()
    assert hashlib.sha256(source).hexdigest() == compiled.SOURCE_SHA256


def test_the_constants_are_those_of_the_cards_and_actions():
    assert (reference.SHIFT, reference.MASK) == (cards.SHIFT, cards.MASK)
    assert reference.SHOW_BASE == actions.SHOW_BASE


@pytest.mark.parametrize("width", [1, 2, 5, 22, 28, 45])
def test_the_layout_is_the_codecs(width):
    layout, codec = reference.Layout(width), actions.Codec(width)
    assert (layout.show_count, layout.scout_base, layout.sns_base, layout.sns_stride) == (
        codec.show_count, codec.scout_base, codec.sns_base, codec.sns_stride,
    )
    assert layout.shows == [codec.show(start, length) for start in range(width) for length in range(1, width + 1)]
    for size in range(width + 1):
        for ends in (1, 2):
            expected = [codec.scout(end, flip, gap) for end in range(ends) for flip in (0, 1) for gap in range(size + 1)]
            assert layout.scouts[2 * size + ends - 1] == expected


# Hands and tables: top numbers 1-10 with their bottoms, long enough to hold every kind of show.
CARD = st.tuples(st.integers(1, 10), st.integers(1, 10)).map(lambda tb: tb[0] << cards.SHIFT | tb[1])


@st.composite
def tables(draw):
    hand = draw(st.lists(CARD, max_size=24))
    first, step, count = draw(st.integers(1, 10)), draw(st.sampled_from([0, 1, -1])), draw(st.integers(0, 4))
    active = [(first + step * i) << cards.SHIFT | 1 for i in range(count) if 1 <= first + step * i <= 10]
    return hand, active


@settings(max_examples=400, deadline=None)
@given(tables(), st.booleans(), st.booleans(), st.booleans(), st.sampled_from([28, 45]))
def test_play_codes_agree(compiled, table, may_scout, scout_show, fallback, width):
    hand, active = table
    beat = reference.active_set_key(active)
    assert compiled.active_set_key(active) == beat
    args = (hand, active, beat, may_scout and bool(active), scout_show, fallback)
    assert compiled.play_codes(*args, compiled.Layout(width)) == reference.play_codes(*args, reference.Layout(width))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 10), max_size=24), st.integers(-1, 400), st.integers(0, 3000))
def test_show_sweeps_agree(compiled, tops, beat, base):
    mine, theirs = [], []
    compiled.append_shows(tops, beat, base, 45, mine)
    reference.append_shows(tops, beat, base, 45, theirs)
    assert mine == theirs


@pytest.mark.parametrize("variant", FAST)
def test_every_decision_of_random_games_agrees(compiled, variant):
    """Both builds list the engine's legal actions, in its order, at every decision of whole games."""
    rules = load_rules(variant)
    layout, built = reference.Layout(rules.codec.width), compiled.Layout(rules.codec.width)
    for seed in range(15):
        rng = random.Random(seed)
        state = rules.new_game(rng.choice(rules.players), seed)
        while not state.is_over:
            legal = state.legal_actions()
            if state.phase == "play":
                seat = state.to_act
                may_scout = bool(state.active) and state.active_owner != seat and (
                    not rules.scout_pays or state.chips_held[seat] > 0
                )
                args = (state.hands[seat], state.active, state.beat, may_scout,
                        state.scout_show_chips[seat] > 0, rules.sns_fallback)
                expected = reference.play_codes(*args, layout)
                assert legal == expected, state
                assert compiled.play_codes(*args, built) == expected, state
                assert compiled.active_set_key(state.active) == reference.active_set_key(state.active), state
            state.apply(rng.choice(legal))


def test_a_stale_compiled_module_gives_way_to_the_source(monkeypatch):
    stale = types.ModuleType("scoutlab.engine._legal_native")
    stale.SOURCE_SHA256 = "0" * 64  # built from another legal.py
    monkeypatch.setitem(__import__("sys").modules, "scoutlab.engine._legal_native", stale)
    monkeypatch.delenv("SCOUTLAB_PURE", raising=False)
    with pytest.warns(UserWarning, match="older than its source"):
        chosen, build = native._choose()
    assert chosen is reference and "out of date" in build


def test_scoutlab_pure_forces_the_source(monkeypatch):
    monkeypatch.setenv("SCOUTLAB_PURE", "1")
    assert native._choose() == (reference, "pure Python (SCOUTLAB_PURE is set)")
