"""scoutlab.engine.explain: one source for why a move is refused and for describing a show, in every language."""

from __future__ import annotations

import io
import random

import pytest

from scoutlab.bots import make_bot
from scoutlab.engine.actions import Flip, Scout, ScoutShow, Show
from scoutlab.engine.explain import describe_show, reason, why_illegal
from scoutlab.play.terminal import TerminalGame
from scoutlab.rules import load_rules
from scoutlab.text.i18n import LANGUAGES, gettext_for

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]

# Every question the explanation asks, by a piece of its English answer.
EVERY_RULE = [
    "the game is over",
    "it is round start, so first choose 'keep' or 'flip'",
    "the hand may only be flipped at round start",
    "your hand has only",
    "your hand after the scout has only",
    "is neither a set",
    "is not stronger than the active set",
    "is not stronger than what is left of the active set",
    "there is no active set to scout from",
    "you cannot scout from your own show",
    "you have no Scout chip left",
    "the active set has a single card; take it as 'left'",
    "is outside your hand; gaps run from 0 to",
    "this variant has no Scout & Show",
    "you have already used your Scout & Show chip this round",
    "a Scout & Show must show after the scout in this variant",
    "'show none' is only for when no show is possible after the scout",
]

FALLBACK = """\
extends: official
name: fallback
description: official, with seed 002's Scout & Show fallback
scout_and_show:
  fallback_to_scout: true
"""


def test_a_show_is_described_by_its_kind_in_english_by_default():
    assert describe_show([7], "set") == "a single 7"
    assert describe_show((5, 5), "set") == "a set of 2 × 5"
    assert describe_show([4, 5, 6], "run") == "a run of 3 from 4 to 6"
    assert describe_show([6, 5], "run") == "a run of 2 from 6 to 5"
    assert describe_show([3, 8], "pair") == "pair 3 8"  # a plugin's own kind goes by its own word


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_show_is_described_in_every_language_with_its_numbers(lang):
    _ = gettext_for(lang)
    for values, kind in (([7], "set"), ([5, 5], "set"), ([4, 5, 6], "run")):
        text = describe_show(values, kind, _)
        assert text != describe_show(values, kind)
        assert str(values[0]) in text and str(values[-1]) in text


def played(rules, players: int, seed: int):
    """Every position of one game of random legal moves, to the end (the same state object, moved on)."""
    state = rules.new_game(players, seed)
    rng = random.Random(seed)
    while True:
        yield state
        if state.is_over:
            return
        state.apply(rng.choice(state.legal_actions()))


def refused(state, rng: random.Random, sns_sample: int = 80) -> list[int]:
    """The refused flips, short shows and scouts of the seat to act, and a sample of its refused Scout & Shows."""
    codec = state.rules.codec
    legal = set() if state.is_over else set(state.legal_actions())
    size = len(state.hands[state.to_act]) + 1  # the hand after a scout
    scouts = [Scout(end, flip, gap) for end in (0, 1) for flip in (False, True) for gap in range(size + 1)]
    shows = [Show(start, length) for length in (1, 2, 3) for start in range(size)]
    sample = [ScoutShow(rng.choice(scouts), rng.choice([*shows, None])) for _ in range(sns_sample)]
    codes = [codec.encode(Flip(False)), codec.encode(Flip(True)), *map(codec.encode, [*shows, *scouts, *sample])]
    return [c for c in codes if c not in legal and _decodes(codec, c)]


def _decodes(codec, code: int) -> bool:
    """Some codes are unused (a show past the largest hand): no move a person can type gives them."""
    try:
        codec.decode(code)
    except ValueError:
        return False
    return True


@pytest.fixture(scope="module")
def refusals(tmp_path_factory):
    """Each refusal met in a few random games of three variants, in English and translated, said at the time."""
    fallback = tmp_path_factory.mktemp("spec") / "fallback.yaml"
    fallback.write_text(FALLBACK)
    games = [(load_rules("official"), 3), (load_rules("two-player"), 2), (load_rules(str(fallback)), 3)]
    gettexts = {lang: gettext_for(lang) for lang in TRANSLATED}
    rng = random.Random(7)
    found = []
    for rules, players in games:
        for seed in range(3):
            for index, state in enumerate(played(rules, players, seed)):
                if index % 4 and not state.is_over:
                    continue  # every fourth position is plenty, and the end of every game
                found += [say(state, code, gettexts) for code in refused(state, rng)]
    # No shipped variant lets a seat face its own show (the round ends first), but a position may.
    state = next(s for s in played(games[0][0], 3, 0) if s.active and s.phase == "play")
    state.active_owner = state.to_act
    state.refresh()
    found += [say(state, code, gettexts) for code in refused(state, rng)]
    return found


def say(state, code: int, gettexts) -> dict:
    """What the engine, `why_illegal` and `reason` say of one refused code, in English and in every language."""
    return {
        "engine": state.explain(code),
        "en": (why_illegal(state, code), reason(state, code)),
        **{lang: (why_illegal(state, code, _), reason(state, code, _)) for lang, _ in gettexts.items()},
    }


def test_the_positions_tried_reach_every_rule(refusals):
    said = {r["engine"] for r in refusals}
    for piece in EVERY_RULE:
        assert any(piece in text for text in said), f"no position tried is refused with {piece!r}"


def test_the_engine_says_why_illegal_in_english(refusals):
    assert all(r["engine"] == r["en"][0] for r in refusals)


def test_the_reason_is_the_same_sentence_without_the_move(refusals):
    for r in refusals:
        quoted, alone = r["en"]
        if quoted.startswith("'") and "': " in quoted:
            quoted = quoted.split("': ", 1)[1]  # the move, as `state.explain` puts it in front
        assert alone == quoted[0].upper() + quoted[1:] + "."


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_refusal_is_said_in_every_language(lang, refusals):
    for r in refusals:
        assert r[lang][0] != r["en"][0], f"{lang}: {r['en'][0]!r} is not translated"
        assert r[lang][1] != r["en"][1]


@pytest.mark.parametrize("lang", ["en", "el"])
def test_the_terminal_game_refuses_a_move_in_the_players_language(lang):
    rules = load_rules("two-player")
    state = rules.new_game(2, 5)
    out = io.StringIO()
    bots = [None, make_bot("random", rules, 1)]
    TerminalGame(rules, state, 0, bots, typing("keep", "show 1-40"), out, lang=lang).run()
    expected = why_illegal(state, rules.codec.encode(Show(0, 40)), gettext_for(lang))
    assert expected.startswith("'show 1-40': ") and expected in out.getvalue()
    assert ("your hand has only" in expected) == (lang == "en")


def typing(*lines: str):
    """A terminal player who types these lines, then leaves (end of input)."""
    typed = iter(lines)

    def ask(prompt: str) -> str:
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    return ask


SMALL_HAND = {"hands": ["1/2 2/3", "5/1 6/2", "7/1 6/9"], "active": "5/3 5/4", "owner": 2}


@pytest.mark.parametrize("move", ["show 99", "show 46-47", "scout left 60"])
def test_every_door_gives_the_same_reason_for_a_move_no_hand_could_hold(move, tmp_path, capsys):
    """`scoutlab legal`, `scoutlab engine` and the terminal answer `show 99` with the rule for this hand."""
    import json

    import yaml

    from scoutlab.base.errors import IllegalAction
    from scoutlab.cli import main
    from scoutlab.protocol import EngineSession
    from scoutlab.records.position import position_from_data

    state = position_from_data(SMALL_HAND)
    with pytest.raises(IllegalAction) as refused:
        state.code(move)
    reason_text = str(refused.value)
    assert reason_text.startswith(f"'{move}': ") and "no hand holds" not in reason_text
    position = tmp_path / "small.yaml"
    position.write_text(yaml.safe_dump(SMALL_HAND))
    assert main(["legal", str(position), "--action", move]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == f"illegal: {reason_text}"
    session = EngineSession()
    session.handle_line(json.dumps({"cmd": "position", "position": SMALL_HAND}))
    assert session.handle_line(json.dumps({"cmd": "act", "action": move}))["error"] == reason_text
    out = io.StringIO()
    TerminalGame(state.rules, state, state.to_act, [make_bot("random", state.rules, 1)] * 3, typing(move), out).run()
    assert reason_text in out.getvalue()
