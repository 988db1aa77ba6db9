"""The shipped example plugins and house rules: classification and comparison tables, legality, whole games."""

from __future__ import annotations

import pytest

from scoutlab.engine.actions import parse_action
from scoutlab.engine.cards import SHIFT, parse_hand
from scoutlab.engine.state import IllegalAction
from scoutlab.host.hookspecs import ShowInfo
from scoutlab.match import make_bots, play_game
from scoutlab.rules import Rules, load_rules
from scoutlab.spec.variant import SpecError, load_spec_text
from scoutlab_plugins import noop, runs_beat_sets
from scoutlab_plugins.wrap_runs import WrapRuns, make_plugin

HOUSE_RULES = ["house-wrap", "house-runs-first", "house-no-exemption"]


@pytest.fixture(scope="module")
def official():
    return load_rules("official")


@pytest.fixture(scope="module")
def wrap():
    return load_rules("house-wrap")


@pytest.fixture(scope="module")
def runs_first():
    return load_rules("house-runs-first")


def position(rules, hands, active="", owner=-1, to_act=0):
    """A play-phase position with these hands (top/bottom notation) and active set."""
    state = rules.new_game(len(hands), seed=0)
    state.phase, state.flips_left = "play", 0
    state.hands = [parse_hand(h) for h in hands]
    state.active = parse_hand(active)
    state.active_owner = state.last_shower = owner
    state.to_act = to_act
    state.refresh()
    return state


def beats(rules, show, active):
    """Whether the show with these top numbers beats the active set with these, as the compiled rules say."""
    assert rules.classify(show) and rules.classify(active), (show, active)
    return rules.beats(show, active)


# -- wrap-runs: what is a run, and where it starts -------------------------------------------------

WRAP_STARTS = [
    # values, the number the run starts from going up (None: no run even with wrapping)
    ((9, 10, 1), 9),
    ((10, 1), 10),
    ((1, 10), 10),  # the same two cards read downwards
    ((2, 1, 10), 10),
    ((10, 1, 2), 10),
    ((8, 9, 10, 1, 2), 8),
    ((3, 4, 5, 6, 7, 8, 9, 10, 1, 2), 3),  # every number once: the longest run
    ((3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3), None),  # a run never repeats a number
    ((9, 10, 1, 3), None),  # a gap
    ((9, 10, 2), None),
    ((10, 1, 10), None),  # a run never changes direction
    ((11, 1), None),  # outside the configured numbers
    ((4, 5, 6), 4),  # an ordinary run starts at its lowest number, as officially
    ((6, 5, 4), 4),
    ((3, 3), None),
]


@pytest.mark.parametrize("values, start", WRAP_STARTS)
def test_wrap_run_start(values, start):
    assert WrapRuns(1, 10).run_start(values) == start


@pytest.mark.parametrize("values, start", WRAP_STARTS)
def test_wrap_classification_through_the_compiled_rules(wrap, official, values, start):
    wraps_only = start is not None and official.classify(values) != "run"
    assert wrap.classify(values) == ("run" if start is not None else official.classify(values))
    # The hook itself answers only for the new shows and defers everything else.
    assert WrapRuns(1, 10).scoutlab_classify_show(values=values) == ("run" if wraps_only else None)


def test_wrap_config_moves_the_wrap():
    nine = WrapRuns(1, 9)
    assert nine.run_start((8, 9, 1)) == 8
    assert nine.run_start((9, 10, 1)) is None


def test_every_prefix_of_a_wrapping_run_is_a_show(wrap):
    numbers = list(range(1, 11))
    for start in numbers:
        for step in (1, -1):
            run = tuple(numbers[(start - 1 + step * i) % 10] for i in range(10))
            for length in range(1, 11):
                assert wrap.classify(run[:length]) == ("set" if length == 1 else "run"), run[:length]


WRAP_COMPARISONS = [
    # show, active set, does the show beat it under house-wrap
    ((9, 10, 1), (8, 9, 10), True),  # 9-10-1 counts as 9-10-11: lowest number 9
    ((8, 9, 10), (9, 10, 1), False),
    ((10, 1, 2), (9, 10, 1), True),
    ((1, 2, 3), (10, 1, 2), False),
    ((2, 1, 10), (9, 10, 1), True),  # read downwards, 2-1-10 still starts from 10
    ((9, 10, 1), (9, 10, 1), False),  # equal is not stronger
    ((1, 10, 9), (9, 10, 1), False),
    ((10, 1), (9, 10), True),
    ((5, 5, 5), (9, 10, 1), True),  # a set beats a run of equal count
    ((9, 10, 1), (2, 2, 2), False),
    ((9, 10, 1, 2), (7, 7, 7), True),  # more cards beat fewer
    ((10, 1), (5, 5, 5), False),
    ((4, 5, 6), (3, 4, 5), True),  # no wrap involved: the built-in rules answer
]


@pytest.mark.parametrize("show, active, expected", WRAP_COMPARISONS)
def test_wrap_comparison(wrap, show, active, expected):
    assert beats(wrap, show, active) is expected


def test_wrap_config_errors():
    assert make_plugin({}).highest == 10
    with pytest.raises(ValueError, match="at least lowest \\+ 2"):
        make_plugin({"lowest": 1, "highest": 2})
    with pytest.raises(ValueError, match="unknown key top"):
        make_plugin({"top": 10})
    with pytest.raises(ValueError, match="whole number"):
        make_plugin({"highest": "ten"})


def test_a_bad_wrap_config_is_a_spec_error_at_the_plugins_line():
    text = "extends: official\nname: bad\nplugins:\n  - {name: wrap-runs, config: {highest: 2}}\n"
    with pytest.raises(SpecError) as caught:
        Rules(load_spec_text(text, "bad.yaml"))
    (problem,) = caught.value.problems
    assert (problem.file, problem.path) == ("bad.yaml", "$.plugins")
    assert "wrap-runs" in problem.message and "at least lowest + 2" in problem.message


# -- runs-beat-sets ---------------------------------------------------------------------------------

RUNS_FIRST_COMPARISONS = [
    ((2, 3), (9, 9), True),  # equal count: the run wins
    ((9, 9), (2, 3), False),
    ((1, 2, 3), (9, 9, 9), True),
    ((5, 5), (4, 4), True),  # same kind: the higher lowest number, as officially
    ((3, 4), (2, 3), True),
    ((2, 3), (2, 3), False),
    ((9, 9), (1, 2, 3), False),  # more cards still beat fewer
    ((1, 1, 1), (8, 9), True),
    ((5,), (4,), True),  # singles are sets of one
    ((4,), (4,), False),
]


@pytest.mark.parametrize("show, active, expected", RUNS_FIRST_COMPARISONS)
def test_runs_first_comparison(runs_first, official, show, active, expected):
    assert beats(runs_first, show, active) is expected
    # The official order differs exactly where a run meets a set of its own size.
    differs = len(show) == len(active) > 1 and {official.classify(show), official.classify(active)} == {"run", "set"}
    assert beats(official, show, active) is (not expected if differs else expected)


def test_runs_first_defers_what_it_does_not_decide():
    hook = runs_beat_sets.scoutlab_show_beats
    assert hook(show=ShowInfo((2, 3), "run"), active=ShowInfo((9, 9), "set")) is True
    assert hook(show=ShowInfo((2, 3), "run"), active=ShowInfo((4, 5), "run")) is None
    assert hook(show=ShowInfo((2, 3, 4), "run"), active=ShowInfo((9, 9), "set")) is None


# -- the hooks change what is legal -----------------------------------------------------------------

def test_a_wrapping_run_is_legal_only_under_wrap_runs(official, wrap):
    hands = ["9/2 10/3 1/4 6/2", "5/6", "5/7", "5/8"]  # a fourth card, so the show does not end the round
    show = official.codec.show(0, 3)
    assert show not in position(official, hands).legal_actions()
    assert show in position(wrap, hands).legal_actions()
    with pytest.raises(IllegalAction, match="neither a set"):
        position(official, hands).apply_text("show 1-3")
    state = position(wrap, hands)
    state.apply_text("show 1-3")
    assert [c >> SHIFT for c in state.active] == [9, 10, 1] and state.active_owner == 0


def test_a_wrapping_run_beats_the_run_below_its_start(wrap):
    state = position(wrap, ["9/2 10/3 1/4 6/2", "8/1 8/2", "5/7", "5/8"], active="8/1 9/2 10/3", owner=1)
    state.apply_text("show 1-3")
    assert [c >> SHIFT for c in state.captured[0]] == [8, 9, 10]
    # ...and 1-2-3 does not beat 10-1-2, whose lowest number is 10.
    low = position(wrap, ["1/5 2/6 3/7", "4/1", "5/7", "5/8"], active="10/3 1/4 2/5", owner=1)
    with pytest.raises(IllegalAction, match="not stronger"):
        low.apply_text("show 1-3")


def test_a_run_beats_a_set_only_under_runs_beat_sets(official, runs_first):
    hands = ["2/5 3/6 9/1 9/4", "4/1", "5/7", "5/8"]
    run, pair = runs_first.codec.show(0, 2), runs_first.codec.show(2, 2)
    first = position(runs_first, hands, active="7/1 7/2", owner=1)
    assert run in first.legal_actions() and pair in first.legal_actions()
    assert run not in position(official, hands, active="7/1 7/2", owner=1).legal_actions()
    # The other way round: a set no longer beats a run of its size.
    assert pair not in position(runs_first, hands, active="4/1 5/2", owner=1).legal_actions()
    assert pair in position(official, hands, active="4/1 5/2", owner=1).legal_actions()


def test_scout_and_show_compares_through_the_plugin(official, runs_first):
    # Scouting one 7 off 7-7-7 leaves the pair 7-7; the run 2-3 then beats it only when runs beat sets.
    hands = ["2/5 3/6", "4/1", "5/7", "5/8"]
    code = runs_first.codec.encode(parse_action("scout left 2 show 1-2"))
    assert code in position(runs_first, hands, active="7/1 7/2 7/3", owner=1).legal_actions()
    assert code not in position(official, hands, active="7/1 7/2 7/3", owner=1).legal_actions()


# -- whole games --------------------------------------------------------------------------------

def random_game(rules, seed, players=4):
    return play_game(rules, players, make_bots(["random"], rules, players, seed), seed)


@pytest.mark.parametrize("name", HOUSE_RULES)
def test_each_house_rule_plays_to_the_end(name):
    rules = load_rules(name)
    for seed in (1, 2):
        state = random_game(rules, seed)
        assert state.is_over and len(state.round_ends) == 4
        assert sum(state.totals) == sum(sum(end.scores) for end in state.round_ends)


def test_random_games_under_house_wrap_show_wrapping_runs(wrap):
    plugin = WrapRuns(1, 10)
    wrapped = []
    for seed in range(4):
        replay = wrap.new_game(4, seed)
        for _, seat, code in random_game(wrap, seed).history:
            replay.apply(code)
            shown = tuple(c >> SHIFT for c in replay.active)
            if wrap.codec.kind(code) in ("show", "scout_and_show") and replay.active_owner == seat:
                wrapped += [shown] if plugin.wraps(shown) else []
    assert wrapped, "no wrapping run was ever shown: is the plugin in force?"


def test_no_exemption_charges_the_last_show_owner(official):
    house = load_rules("house-no-exemption")
    exempted = 0
    for seed in range(3):
        # Random bots ignore scores, so the same seed plays the same game under both specs.
        plain, strict = random_game(official, seed), random_game(house, seed)
        assert plain.history == strict.history
        for a, b in zip(plain.round_ends, strict.round_ends):
            assert b.exempt is None
            penalty = [0] * 4
            if a.exempt is not None:
                exempted += 1
                penalty[a.exempt] = -a.cards_in_hand[a.exempt]
            assert list(b.scores) == [s + p for s, p in zip(a.scores, penalty)]
    assert exempted, "no round ended with an exemption, so nothing was checked"


def test_noop_changes_nothing_but_makes_every_hook_run(official):
    text = "extends: official\nname: official-noop\nplugins: [noop]\n"
    hooked = Rules(load_spec_text(text, "noop.yaml"))
    # noop's show hooks defer on every question this deck allows, so the compiler keeps the fast path...
    assert official.builtin_shows and hooked.builtin_shows
    assert hooked.scores_hooked and hooked.observed and hooked.guarded
    # ...and forced through the hooks instead, they agree with it. The two paths may list legal
    # actions in different orders, so replay one game under both.
    forced = Rules(load_spec_text(text, "noop.yaml"))
    forced.builtin_shows = False
    game = random_game(official, seed=0)
    plain, same = official.new_game(4, 0), forced.new_game(4, 0)
    for _, _, code in game.history:
        assert sorted(plain.legal_actions()) == sorted(same.legal_actions())
        plain.apply(code)
        same.apply(code)
    assert same.is_over and same.totals == plain.totals == game.totals


def test_a_show_hook_that_answers_anywhere_in_the_deck_keeps_the_hook_path():
    from scoutlab.host.hookspecs import hookimpl
    from scoutlab.testing import installed_plugin

    class LateAnswer:
        """Defers everywhere but on one run the built-in rules also accept: the fast path would miss it."""

        @hookimpl
        def scoutlab_show_beats(self, show, active):
            return False if show.values == (8, 9, 10) else None

    with installed_plugin("late-answer", LateAnswer()):
        rules = Rules(load_spec_text("extends: official\nname: late\nplugins: [late-answer]\n", "late.yaml"))
    assert not rules.builtin_shows
    assert rules.beats((8, 9, 10), (1, 2, 3)) is False


def test_noop_implements_every_hook():
    from scoutlab.host import hookspecs

    specs = {name for name in dir(hookspecs) if name.startswith("scoutlab_")}
    assert specs == {name for name in dir(noop) if name.startswith("scoutlab_")}


@pytest.mark.parametrize("order, run_wins", [("wrap-runs, runs-beat-sets", True), ("runs-beat-sets, wrap-runs", False)])
def test_combining_plugins_the_later_one_is_asked_first(order, run_wins):
    # docs/house-rules.md: list runs-beat-sets after wrap-runs for wrapping runs to beat sets too.
    both = Rules(load_spec_text(f"extends: official\nname: both\nplugins: [{order}]\n", "both.yaml"))
    assert both.beats((9, 10, 1), (5, 5, 5)) is run_wins
    assert both.beats((2, 3, 4), (5, 5, 5)) is True  # no wrap: runs-beat-sets decides either way
    assert both.beats((10, 1, 2), (9, 10, 1)) is True
