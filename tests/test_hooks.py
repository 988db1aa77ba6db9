"""Each hook of core/scoutlab/host/hookspecs.py, exercised through a plugin a spec puts in force.

tests/test_hook_docs.py requires a `test_hook_<name>` here (or elsewhere under tests/)
for every hook, as datasette does for its own.
"""

from __future__ import annotations

import itertools
import pickle
import sys
from types import MappingProxyType

import pytest

from scoutlab.base.errors import SpecWarning
from scoutlab.bots import BotError, make_bot
from scoutlab.host.hookspecs import EndCondition, ShowInfo, hookimpl
from scoutlab.host.manager import PluginError
from scoutlab.match import make_bots, play_game
from scoutlab.spec.variant import SpecError
from scoutlab.testing import installed_plugin, load_position, rules_with

# -- scoutlab_classify_show ----------------------------------------------------------------------


class SkipRuns:
    """Numbers two apart (2 4 6) are a run too, and rank like runs of the same length."""

    @hookimpl
    def scoutlab_classify_show(self, values):
        steps = {b - a for a, b in itertools.pairwise(values)}
        return "run" if len(steps) == 1 and steps <= {2, -2} else None


def legal(state) -> list[str]:
    return [state.format(code) for code in state.legal_actions()]


def test_hook_classify_show_adds_a_kind_and_defers_the_rest(tmp_path):
    spec = tmp_path / "skip-runs.yaml"
    spec.write_text("extends: official\nname: skip-runs\nplugins: [skip-runs]\n")
    hands = "hands: ['2/1 4/1 6/1 9/8', '3/7', '5/8']"
    with installed_plugin("skip-runs", SkipRuns()):
        rules = rules_with("official", ["skip-runs"])
        assert rules.classify((2, 4, 6)) == "run" and rules.classify((6, 4)) == "run"
        assert rules.classify((5, 5)) == "set" and rules.classify((3, 4, 5)) == "run"  # the built-in rules still answer
        assert rules.classify((2, 4, 5)) is None and rules.classify((1, 3, 3)) is None
        house = load_position(f"variant: {spec}\n{hands}")
    assert "show 1-3" in legal(house) and "show 1-3" not in legal(load_position(hands))


# -- scoutlab_show_beats -------------------------------------------------------------------------


class OnesBeatAll:
    """A set of three or more 1s beats any show that is not one; else the usual order."""

    @hookimpl
    def scoutlab_show_beats(self, show: ShowInfo, active: ShowInfo):
        mine, theirs = self.ones(show), self.ones(active)
        return mine if mine != theirs else None

    @staticmethod
    def ones(show: ShowInfo) -> bool:
        return show.kind == "set" and show.values[0] == 1 and len(show.values) >= 3


def test_hook_show_beats_overrides_the_order_where_it_answers():
    official = rules_with("official")
    with installed_plugin("ones", OnesBeatAll()):
        rules = rules_with("official", ["ones"])
        assert rules.beats((1, 1, 1), (3, 4, 5, 6, 7)) and not official.beats((1, 1, 1), (3, 4, 5, 6, 7))
        assert not rules.beats((3, 4, 5, 6, 7), (1, 1, 1)) and official.beats((3, 4, 5, 6, 7), (1, 1, 1))
        assert rules.beats((1, 1, 1, 1), (1, 1, 1)) and not rules.beats((1, 1, 1), (1, 1, 1))  # deferred
        assert rules.beats((6, 7), (5, 6)) and not rules.beats((1, 1), (4, 5, 6))  # deferred: two 1s are ordinary


# -- scoutlab_end_conditions ---------------------------------------------------------------------


def after_six_turns(state) -> bool:
    return state.turn >= 6


class SixTurns:
    @hookimpl
    def scoutlab_end_conditions(self):
        return {"six_turns": EndCondition(after_six_turns, False, "the round ends after six turns")}


def test_hook_end_conditions_are_in_force_only_where_a_spec_lists_them():
    with installed_plugin("six-turns", SixTurns()):
        listed = rules_with("official", ["six-turns"], end_conditions=["hand_emptied", "six_turns"])
        state = play_game(listed, 4, make_bots(["random"], listed, 4, 2), 2)
        assert [(end.reason, end.turns, end.exempt) for end in state.round_ends] == [("six_turns", 6, None)] * 4

        with pytest.warns(SpecWarning, match="plugin 'six-turns' offers the end condition 'six_turns', but end_conditions"):
            offered_only = rules_with("official", ["six-turns"])  # the plugin offers it, the spec does not use it
        state = play_game(offered_only, 4, make_bots(["random"], offered_only, 4, 2), 2)
        assert "six_turns" not in {end.reason for end in state.round_ends}

        with pytest.raises(SpecError, match="unknown end condition 'six_turn'; did you mean 'six_turns'"):
            rules_with("official", ["six-turns"], end_conditions=["six_turn"])


# -- scoutlab_score_round ------------------------------------------------------------------------


class GoingOutBonus:
    def __init__(self, points):
        self.points = points

    @hookimpl
    def scoutlab_score_round(self, state, end):
        if end.reason != "hand_emptied":
            return None
        return [self.points if cards == 0 else 0 for cards in end.cards_in_hand]


class SeatOnePenalty:
    @hookimpl
    def scoutlab_score_round(self, state, end):
        return [-1] + [0] * (state.players - 1)


def test_hook_score_round_adjustments_of_every_plugin_add_up():
    plain = rules_with("official")
    with installed_plugin("bonus", GoingOutBonus(3)), installed_plugin("penalty", SeatOnePenalty()):
        house = rules_with("official", ["bonus", "penalty"])
        went_out = 0
        for seed in range(3):  # random bots ignore scores: the same seed plays the same game
            a = play_game(plain, 4, make_bots(["random"], plain, 4, seed), seed)
            b = play_game(house, 4, make_bots(["random"], house, 4, seed), seed)
            for before, after in zip(a.round_ends, b.round_ends):
                out = before.reason == "hand_emptied"
                went_out += out
                expected = [s + (3 if out and c == 0 else 0) - (i == 0) for i, (s, c) in
                            enumerate(zip(before.scores, before.cards_in_hand))]
                assert list(after.scores) == expected
            assert b.totals == [sum(end.scores[i] for end in b.round_ends) for i in range(4)]
        assert went_out


def test_game_log_itemises_plugin_adjustments_so_the_breakdown_adds_up():
    from scoutlab.text.log import game_log

    with installed_plugin("going-out", GoingOutBonus(3)):
        rules = rules_with("official", ["going-out"])
        lines = []
        for seed in range(6):
            state = play_game(rules, 4, make_bots(["greedy"], rules, 4, seed), seed)
            lines += [line for line in game_log(state) if "(captured" in line]
    itemised = [line for line in lines if "+3 going-out" in line]
    assert itemised, "no round ended with an emptied hand in six greedy games"
    for line in itemised:  # "  P1: +8  (captured 5, chips received 0, chips held 0, in hand 0, +3 going-out)"
        total, parts = line.split(":", 1)[1].split("(", 1)
        named = {word.strip().rsplit(" ", 1)[0]: int(word.strip().rsplit(" ", 1)[1])
                 for word in parts.rstrip(")").split(",") if "going-out" not in word}
        assert named["in hand"] == 0  # the bonus goes to a seat that emptied its hand
        assert int(total) == named["captured"] + named["chips received"] + 3, line  # official: +1 each


def test_hook_score_round_of_the_wrong_kind_is_refused():
    with installed_plugin("bonus", GoingOutBonus(1.5)):
        rules = rules_with("official", ["bonus"])
        with pytest.raises(PluginError, match=r"plugin 'bonus' returned \[.*1\.5.*\]; expected a list of 4 ints"):
            for seed in range(5):
                play_game(rules, 4, make_bots(["random"], rules, 4, seed), seed)


# -- scoutlab_game_event -------------------------------------------------------------------------


class Recorder:
    def __init__(self):
        self.events = []

    @hookimpl
    def scoutlab_game_event(self, event, state):
        self.events.append((event.kind, event.round, dict(event.data)))


def test_hook_game_event_sees_every_action_round_end_and_game_end_in_order():
    recorder = Recorder()
    with installed_plugin("recorder", recorder):
        rules = rules_with("official", ["recorder"])
        state = play_game(rules, 3, make_bots(["random"], rules, 3, 4), 4)
    kinds = [kind for kind, _, _ in recorder.events]
    actions = [(r, data["seat"], data["code"]) for kind, r, data in recorder.events if kind == "action"]
    assert actions == state.history
    assert [data["end"] for kind, _, data in recorder.events if kind == "round_end"] == state.round_ends
    assert kinds[-1] == "game_end" and kinds.count("game_end") == 1 and kinds.count("round_end") == 3
    # Each round end follows that round's last action and precedes the next round's first.
    ends = [i for i, kind in enumerate(kinds) if kind == "round_end"]
    assert all(recorder.events[i - 1][0] == "action" and recorder.events[i][1] == recorder.events[i - 1][1] for i in ends)


# -- scoutlab_bots -------------------------------------------------------------------------------


class FirstLegal:
    """Always the first legal action; `last=true` makes it the last."""

    def __init__(self, rules, rng, options):
        unknown = set(options) - {"last"}
        if unknown:
            raise BotError(f"bot 'first' takes only the option last, got {sorted(unknown)}")
        self.name = "first"
        self.last = bool(options.get("last", False))

    def act(self, view):
        return view.legal[-1 if self.last else 0]


class OffersFirst:
    @hookimpl
    def scoutlab_bots(self):
        return {"first": FirstLegal}


def test_hook_bots_offers_a_bot_by_name_with_options():
    rules = rules_with("official")
    with installed_plugin("first-bot", OffersFirst()):
        bot = make_bot("first:last=true", rules, 1)
        assert bot.name == "first" and bot.last
        state = play_game(rules, 3, make_bots(["first", "random", "first:last=false"], rules, 3, 9), 9)
        assert state.is_over
        with pytest.raises(BotError, match="takes only the option last"):
            make_bot("first:depth=3", rules, 1)
    with pytest.raises(BotError, match="unknown bot 'first'"):
        make_bot("first", rules, 1)  # gone with its plugin



class Misbehaves:
    """A plugin bot that fails in one of the ways a bot from code we never saw can."""

    def __init__(self, rules, rng, options):
        self.name, self.answer = "misbehaves", options.get("answer", "raise")
        if self.answer == "no bot":
            raise RuntimeError("no bot today")
        if self.answer == "exit at birth":
            sys.exit("not today")

    def act(self, view):
        answers = {"raise": lambda: 1 / 0, "text": lambda: "show 1", "none": lambda: None, "float": lambda: float(view.legal[0]),
                   "bool": lambda: True, "illegal": lambda: 10**9, "index": lambda: _Index(view.legal[0]), "line break": lambda: (_ for _ in ()).throw(ValueError("a\nb")),
                   "exit": lambda: sys.exit(4)}
        return answers[self.answer]()


class _Index:
    """A whole number of another type, as numpy's int64 is: a code like any other."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


class OffersMisbehaves:
    @hookimpl
    def scoutlab_bots(self):
        return {"misbehaves": Misbehaves}


@pytest.mark.parametrize("answer, said", [
    ("raise", "bot 'misbehaves' (P1) failed: ZeroDivisionError: 'division by zero'"),  # each was a traceback
    ("text", "bot 'misbehaves' (P1) answered 'show 1', which is not one of the seat's 2 legal action codes"),
    ("none", "answered None, which is not one of"),
    ("float", "answered 0.0, which is not one of"),
    ("bool", "answered True, which is not one of"),  # True is 1: it flipped the hand
    ("illegal", "answered 1000000000, which is not one of"),  # named no bot: "action code 1000000000 is outside ..."
    ("line break", "failed: ValueError: 'a\\nb'"),  # one line
    ("no bot", "bot 'misbehaves' could not be made: RuntimeError: 'no bot today'"),
    ("exit", "bot 'misbehaves' (P1) failed: SystemExit: '4'"),  # each ended the run without a word
    ("exit at birth", "bot 'misbehaves' could not be made: SystemExit: 'not today'"),
])
def test_hook_bots_a_misbehaving_bot_is_one_line_naming_it(answer, said):
    rules = rules_with("official")
    with installed_plugin("misbehaving-bot", OffersMisbehaves()), pytest.raises(BotError) as error:
        play_game(rules, 3, make_bots([f"misbehaves:answer={answer}", "random", "random"], rules, 3, 9), 9)
    assert said in str(error.value) and "\n" not in str(error.value)


def test_hook_bots_a_whole_number_of_another_type_is_played_as_its_code():
    rules = rules_with("official")
    with installed_plugin("misbehaving-bot", OffersMisbehaves()):
        state = play_game(rules, 3, make_bots(["misbehaves:answer=index", "random", "random"], rules, 3, 9), 9)
    assert state.is_over

@pytest.mark.parametrize("build", ["installed", "source"])
def test_hook_game_event_events_are_immutable_and_read_as_kind_round_data(build):
    from scoutlab.engine import native

    module = native.turns if build == "installed" else native.reference_turns
    event = module.action_event(2, 1, 300)
    kind, round_, data = event
    assert (kind, round_, dict(data), len(event), event[0]) == ("action", 2, {"seat": 1, "code": 300}, 3, "action")
    assert event == module.Event("action", 2, {"seat": 1, "code": 300}) == ("action", 2, MappingProxyType({"seat": 1, "code": 300}))
    assert event != module.action_event(2, 1, 301) and hash(event) == hash(module.action_event(2, 1, 300))
    assert pickle.loads(pickle.dumps(event)) == event
    assert repr(event) == "Event(kind='action', round=2, data=mappingproxy({'seat': 1, 'code': 300}))"
    for field in ("kind", "round", "data", "_seat", "_code"):
        with pytest.raises(AttributeError):
            setattr(event, field, 0)
        with pytest.raises(AttributeError):
            delattr(event, field)
    with pytest.raises(TypeError):
        event.data["seat"] = 0  # type: ignore[index]
    end = module.game_event("round_end", 0, end="the end")
    assert dict(end.data) == {"end": "the end"} and end.kind == "round_end"
    with pytest.raises(TypeError):
        end.data["end"] = None  # type: ignore[index]
