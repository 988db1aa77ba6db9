"""The fast enumeration of shows and Scout & Shows agrees with the general, hook-driven one.

When only the built-in rules rank shows, the engine lists shows with integer strength
keys and Scout & Shows with an incremental sweep (core/scoutlab/engine/legal.py, compiled where built);
under plugins it asks the hooks instead (GameState._append_scout_shows). Forcing the
general path (`rules.builtin_shows = False`) on the very same positions must give
exactly the same legal actions, in every shipped variant the fast path serves: both
along random games and in random positions built to be rich in sets and runs.
"""

from __future__ import annotations

import copy
import functools
import random

import pytest
from hypothesis import given, settings, strategies as st

from scoutlab.engine import native
from scoutlab.engine.cards import flipped, format_hand, top
from scoutlab.records.position import dump_position, position_from_data
from scoutlab.rules import Rules, load_rules
from scoutlab.spec.variant import shipped_variants

# The variants whose shows the fast path ranks (house rules with show plugins use the general path anyway).
FAST = [name for name, _ in shipped_variants() if load_rules(name).builtin_shows]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


@functools.cache
def fast_rules(name: str) -> Rules:
    return load_rules(name)


@functools.cache
def general_rules(name: str) -> Rules:
    """A fresh Rules of the variant, forced onto the general path."""
    rules = load_rules(name)
    rules.builtin_shows = False
    return rules


def general_legal(state) -> list[int]:
    """The legal actions of `state` as the general path finds them, leaving `state` untouched."""
    twin = copy.copy(state)  # shares the hands and table, which listing actions only reads
    twin.rules = general_rules(state.rules.name)
    twin.refresh()  # the strength of the active set, and the rules' knobs, which the loop reads once
    assert not twin.builtin_shows and twin.beat == twin.rules.trie.active_node([c >> 5 for c in twin.active]), (
        "the general path ranks the active set through the hooks")
    return twin.legal_actions()


def assert_same_actions(state) -> None:
    fast = sorted(state.legal_actions())
    general = sorted(general_legal(state))
    if fast != general:
        only_fast = [state.format(c) for c in sorted(set(fast) - set(general))]
        only_general = [state.format(c) for c in sorted(set(general) - set(fast))]
        pytest.fail(
            f"fast and general paths disagree\nonly fast: {only_fast}\nonly general: {only_general}\n"
            f"duplicates: {len(fast) - len(set(fast))} fast, {len(general) - len(set(general))} general\n"
            f"position:\n{dump_position(state)}"
        )


def test_every_shipped_fast_variant_is_checked() -> None:
    assert {"official", "two-player", "two-player-28"} <= set(FAST)


@pytest.mark.parametrize("variant", FAST)
@settings(max_examples=30, deadline=None)
@given(seed=SEEDS)
def test_same_actions_along_random_games(variant: str, seed: int) -> None:
    """Every state of a random game (Scout & Show favoured, so later positions get rich)."""
    rules = fast_rules(variant)
    rng = random.Random(seed)
    state = rules.new_game(rng.choice(rules.players), seed)
    for _ in range(150):
        if state.is_over:
            break
        assert_same_actions(state)
        legal = state.legal_actions()
        compound = [c for c in legal if rules.codec.kind(c) == "scout_and_show"]
        state.apply(rng.choice(compound if compound and rng.random() < 0.3 else legal))


@pytest.mark.parametrize("variant", FAST)
@settings(max_examples=150, deadline=None)
@given(seed=SEEDS)
def test_same_actions_in_random_positions(variant: str, seed: int) -> None:
    """Random hands and a random active set: long hands, every chip count, any seat to act."""
    rules = fast_rules(variant)
    rng = random.Random(seed)
    state = position_from_data(random_position(rules, rng), source=f"<random position, seed {seed}>", rules=rules)
    assert_same_actions(state)


def random_position(rules: Rules, rng: random.Random) -> dict:
    """A position's data: random hands and an active set that is a real show, no more cards than a round deals."""
    n = rng.choice(rules.players)
    pool = [flipped(c) if rng.random() < 0.5 else c for c in rules.deck_for(n)]
    rng.shuffle(pool)
    active = _random_show(rng, pool) if rng.random() < 0.85 else []
    size = (n * rules.hand_size[n] - len(active)) // n
    hands = [[pool.pop() for _ in range(rng.randint(1, size))] for _ in range(n)]
    owner = rng.randrange(n) if active else None
    data = {
        "variant": rules.name,
        "hands": [format_hand(h) for h in hands],
        "active": format_hand(active),
        "to_act": rng.randrange(n) + 1,
        "scout_show_chips": [rng.randint(0, rules.sns_chips) for _ in range(n)],
        "chips_held": [rng.randint(0, rules.scout_chips) for _ in range(n)],
    }
    if owner is not None:
        data["owner"] = owner + 1
    return data


def _random_show(rng: random.Random, pool: list[int]) -> list[int]:
    """A set or run of 1-4 cards taken from `pool` (each turned so the number needed is on top)."""
    step = rng.choice([0, 1, -1])
    first = top(rng.choice(pool))
    show: list[int] = []
    for i in range(rng.randint(1, 4)):
        wanted = first + step * i
        card = next((c for c in pool if top(c) == wanted or top(flipped(c)) == wanted), None)
        if card is None:
            break  # every prefix of a set or run is one too
        pool.remove(card)
        show.append(card if top(card) == wanted else flipped(card))
    return show


# -- Scout & Show under plugins: read once, against every new hand swept whole ----------------------------

PLUGGED = [name for name, _ in shipped_variants() if not load_rules(name).builtin_shows]


def swept_scout_shows(state) -> list[int]:
    """The Scout & Shows of the seat to act written plainly: each new hand, gap by gap, swept whole."""
    rules, codec = state.rules, state.rules.codec
    tops = [top(c) for c in state.hands[state.to_act]]
    out: list[int] = []
    for end in (0,) if len(state.active) == 1 else (0, 1):
        taken = state.active[-1] if end else state.active[0]
        beat = rules.strength(state.active[:-1] if end else state.active[1:])
        for flip, value in enumerate((top(taken), top(flipped(taken)))):
            for gap in range(len(tops) + 1):
                base = codec.sns_base + codec.scout_index(end, bool(flip), gap) * codec.sns_stride
                before = len(out)
                rules.append_shows(tops[:gap] + [value] + tops[gap:], beat, base, out)
                if rules.sns_fallback and len(out) == before:
                    out.append(base + codec.show_count)
    return out


def listed_scout_shows(state) -> list[int]:
    out: list[int] = []
    native.turns.trie_scout_shows(state, [top(c) for c in state.hands[state.to_act]], out)
    return out


def test_some_shipped_variants_list_scout_and_show_through_the_hooks() -> None:
    assert {"house-wrap", "house-runs-first"} <= set(PLUGGED)


@pytest.mark.parametrize("variant", PLUGGED + [f"general:{name}" for name in FAST])
@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_scout_and_show_under_plugins_lists_what_sweeping_every_new_hand_lists(variant: str, seed: int) -> None:
    """The same codes in the same order (random play picks by position in the list), in random positions."""
    name = variant.removeprefix("general:")
    rules = general_rules(name) if variant.startswith("general:") else fast_rules(name)
    rng = random.Random(seed)
    state = position_from_data(random_position(rules, rng), source=f"<random position, seed {seed}>", rules=rules)
    if state.active:
        assert listed_scout_shows(state) == swept_scout_shows(state)
