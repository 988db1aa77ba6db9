"""Positions (scoutlab.records.position): the YAML format, its defaults, its errors, the round trip, and `scoutlab legal`."""

from __future__ import annotations

import random
import re
import textwrap
from pathlib import Path

import jsonschema
import pytest

from scoutlab import cli
from scoutlab.engine.cards import format_hand, identity
from scoutlab.records.position import (
    POSITION_SCHEMA_ID,
    PositionError,
    dump_position,
    load_position,
    position_from_data,
    position_schema,
)
from scoutlab.rules import load_rules
from scoutlab.spec.variant import load_spec

SHIPPED = ["official", "two-player", "two-player-28"]
# The fields a position carries; each must survive dump -> load unchanged.
FIELDS = ["players", "round", "phase", "starting_seat", "to_act", "turn", "flips_left", "hands", "active",
          "active_owner", "last_shower", "chips_received", "chips_held", "chips_paid", "scout_show_chips", "totals", "seed"]


def position(text: str):
    return load_position(textwrap.dedent(text))


def every_card(state) -> list[int]:
    """Every card the state holds anywhere, by identity: hands, table, captured piles, set aside."""
    piles = state.hands + [state.active] + state.captured + [state.set_aside]
    return sorted(identity(c) for pile in piles for c in pile)


# --------------------------------------------------------------------------- defaults


def test_a_small_position_needs_only_hands_active_set_and_owner() -> None:
    state = position("""
        hands: ["1/2 2/3 3/4", "5/1 6/2", "7/1"]
        active: "4/5 4/6"
        owner: 2
    """)
    assert state.rules.name == "official" and state.players == 3
    assert [format_hand(h) for h in state.hands] == ["1/2 2/3 3/4", "5/1 6/2", "7/1"]
    assert format_hand(state.active) == "4/5 4/6" and state.active_owner == 1 and state.last_shower == 1
    assert state.to_act == 2  # the seat after the owner, who has just shown
    assert (state.round, state.phase, state.turn, state.flips_left, state.starting_seat) == (0, "play", 0, 0, 0)
    assert state.chips_received == [0, 0, 0] and state.scout_show_chips == [1, 1, 1] and state.chips_held == [0, 0, 0]
    assert state.captured == [[], [], []] and state.totals == [0, 0, 0] and state.history == []


def test_defaults_follow_the_variant_and_round() -> None:
    state = position("""
        variant: two-player
        round: 2
        hands: ["1/2 2/3", "5/1"]
    """)
    assert state.chips_held == [3, 3] and state.scout_show_chips == [0, 0]
    assert state.starting_seat == 1 and state.to_act == 1  # round 2 starts with P2; an empty table: P2 acts
    assert state.active_owner == -1 and state.last_shower == -1


def test_flip_phase_counts_the_seats_still_to_choose() -> None:
    state = position("""
        phase: flip
        round: 2
        to_act: 1
        hands: ["1/2 2/3", "5/1", "6/1"]
    """)
    assert state.legal_actions() == [0, 1]  # keep, flip
    assert state.starting_seat == 1 and state.flips_left == 1  # P2 and P3 have chosen; P1 is last
    state.apply_text("keep")
    assert state.phase == "play" and state.to_act == 1


def test_captured_counts_come_from_cards_the_position_does_not_show() -> None:
    state = position("""
        hands: ["1/2 2/3", "5/1", "6/1"]
        active: "7/8"
        owner: 1
        captured: [3, "4/9 3/9", 0]
    """)
    assert [len(c) for c in state.captured] == [3, 2, 0]
    shown = {identity(c) for pile in state.hands + [state.active] for c in pile}
    assert not shown & {identity(c) for c in state.captured[0]}
    assert every_card(state) == state.rules.deck_for(3)  # every card exactly once


@pytest.mark.parametrize("variant", SHIPPED)
def test_every_card_is_somewhere_exactly_once(variant: str) -> None:
    rules = load_rules(variant)
    n = rules.players[-1]
    hands = ", ".join(f'"{card}"' for card in ["1/2 1/3", "2/3", "2/4", "2/5", "2/6"][:n])
    state = load_position(f'variant: {variant}\nhands: [{hands}]\ncaptured: {[2] * n}\n')
    assert every_card(state) == rules.deck_for(n)


def test_two_player_round_two_deals_exactly_the_cards_set_aside() -> None:
    """docs/rules.md §10.7 holds for positions too: what round 1 did not show is round 2's deal."""
    rules = load_rules("two-player")
    game = rules.new_game(2, seed=5)
    game.apply_text("keep")
    game.apply_text("keep")
    state = load_position(dump_position(game))
    in_round_one = {identity(c) for c in every_card(state)} - {identity(c) for c in state.set_aside}
    set_aside = {identity(c) for c in state.set_aside}
    assert len(in_round_one) == 22 and len(set_aside) == 22
    rng = random.Random(1)
    while state.round == 0:
        state.apply(rng.choice(state.legal_actions()))
    assert {identity(c) for hand in state.hands for c in hand} == set_aside


# --------------------------------------------------------------------------- the round trip


@pytest.mark.parametrize("variant", SHIPPED)
def test_dump_and_load_round_trip_along_a_game(variant: str) -> None:
    rules = load_rules(variant)
    for players in rules.players:
        state = rules.new_game(players, seed=players)
        rng = random.Random(players)
        while not state.is_over:
            text = dump_position(state)
            again = load_position(text, rules=rules)
            for name in FIELDS:
                assert getattr(again, name) == getattr(state, name), (name, text)
            assert sorted(map(sorted, again.captured)) == sorted(map(sorted, state.captured))
            assert sorted(map(identity, again.set_aside)) == sorted(map(identity, state.set_aside))
            assert again.legal_actions() == state.legal_actions()
            assert dump_position(again) == text
            legal = state.legal_actions()
            for _ in range(rng.randint(1, 6)):  # skip ahead a little, to keep the test quick
                if state.is_over:
                    break
                state.apply(rng.choice(state.legal_actions()))
            assert legal


def test_the_same_position_plays_on_the_same() -> None:
    """A loaded position behaves like the game it was dumped from, to the end of the round."""
    rules = load_rules("official")
    game = rules.new_game(4, seed=11)
    rng = random.Random(2)
    for _ in range(20):
        game.apply(rng.choice(game.legal_actions()))
    copy = load_position(dump_position(game), rules=rules)
    ends = len(game.round_ends)
    while len(game.round_ends) == ends:
        assert dump_position(copy) == dump_position(game)
        code = rng.choice(game.legal_actions())
        game.apply(code)
        copy.apply(code)
    assert copy.round_ends == game.round_ends[ends:]  # the same reason, exemption and scores


def test_a_finished_game_has_no_position() -> None:
    rules = load_rules("two-player")
    state = rules.new_game(2, seed=0)
    rng = random.Random(0)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    with pytest.raises(ValueError, match="the game is over"):
        dump_position(state)


def test_a_position_file_loads_with_its_variant_path_relative_to_it(tmp_path: Path) -> None:
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "mine.yaml").write_text("extends: official\nname: mine\nmax_turns_per_round: 50\n")
    (tmp_path / "here.yaml").write_text('variant: specs/mine.yaml\nhands: ["1/2", "2/3", "3/4"]\n')
    state = load_position(tmp_path / "here.yaml")
    assert state.rules.name == "mine" and state.rules.max_turns == 50
    assert load_position(str(tmp_path / "here.yaml")).rules.name == "mine"
    again = load_position(dump_position(state))  # a spec file is dumped as an absolute path
    assert again.rules.name == "mine"


# --------------------------------------------------------------------------- errors


BAD = [
    ('hands: ["1/2 2/x", "3/4", "5/6"]', "1: $.hands[0]: '1/2 2/x' is not a list of cards"),
    ('hands: ["1/2 2/²", "3/4", "5/6"]', "1: $.hands[0]: '1/2 2/²' is not a list of cards"),  # isdigit() passes '²'
    ('hands: ["1/2 2/2", "3/4", "5/6"]', "1: $.hands[0]: '2/2' is not a card: its two numbers must differ"),
    ('hands: ["1/2 2/11", "3/4", "5/6"]', "1: $.hands[0]: 2/11 is not in the deck of variant 'official': numbers run from 1 to 10"),
    # the notation's own range (1 to 31) was named for these, though the variant's deck is known
    ('hands: ["0/2 2/3", "3/4", "5/6"]', "1: $.hands[0]: 0/2 is not in the deck of variant 'official': numbers run from 1 to 10"),
    ('variant: two-player\nhands: ["1/2 2/32", "3/4"]', "2: $.hands[0]: 2/32 is not in the deck of variant 'two-player': numbers run from 1 to 10"),
    ('hands: ["1/2", "3/4", "5/6"]\nactive: "7/100"\nowner: 1', "2: $.active: 7/100 is not in the deck of variant 'official': numbers run from 1 to 10"),
    ('hands: ["1/2", "3/4", "5/6"]\ncaptured: ["0/9", 0, 0]', "2: $.captured[0]: 0/9 is not in the deck of variant 'official': numbers run from 1 to 10"),
    ('hands: ["1/2 2/10", "3/4", "5/6"]', "1: $.hands[0]: 2/10 is not in play: variant 'official' removes it for 3 players"),
    ('hands: ["1/2 2/3", "3/2", "5/6"]', "1: $.hands[1]: 3/2: this card is already in P1's hand"),
    ('hands: ["1/2", "3/4", "5/6"]\nactive: "2/1"\nowner: 3', "2: $.active: 2/1: this card is already in P1's hand"),
    ('hands: ["1/2", "3/4"]', "1: $.hands: variant 'official' is for 3, 4, 5 players, not 2"),
    ('players: 4\nhands: ["1/2", "3/4", "5/6"]', "2: $.hands: 4 players need 4 hands, one per seat; got 3"),
    ('hands: ["1/2", "3/4", "5/6"]\nactive: "7/8"\nowner: 4', "3: $.owner: seat 4 does not exist with 3 players (seats are 1 to 3)"),
    ('hands: ["1/2", "3/4", "5/6"]\nactive: "7/8"\nowner: 0', "3: $.owner: 0: seats count from 1"),
    ('hands: ["1/2", "3/4", "5/6"]\nto_act: P2', "2: $.to_act: expected a whole number, got the string 'P2'"),
    ('hands: ["1/2", "3/4", "5/6"]\nactive: "7/8"', "2: $.active: an active set needs its owner"),
    ('hands: ["1/2", "3/4", "5/6"]\nowner: 1', "2: $.owner: the active set is empty, so it has no owner"),
    ('hands: ["1/2", "3/4", "5/6"]\nactive: "7/8 5/9"\nowner: 1', "2: $.active: '7/8 5/9' is neither a set nor a run"),
    ('hands: ["1/2", "3/4", "5/6"]\nactive: "7/8"\nowner: 1\nlast_shower: 2', "4: $.last_shower: while the active set has cards"),
    ('hands: ["1/2", "3/4", ""]', "1: $.hands[2]: P3's hand is empty"),
    ('hands: ["1/2", "3/4", "5/6"]\nscout_show_chips: [1, 2, 1]', "2: $.scout_show_chips[1]: P2 holds 2 Scout & Show chips, but variant 'official' gives 1"),
    ('variant: two-player\nhands: ["1/2", "3/4"]\nscout_show_chips: [1, 0]', "3: $.scout_show_chips[0]: P1 holds 1 Scout & Show chips, but variant 'two-player' gives 0"),
    ('variant: two-player\nhands: ["1/2", "3/4"]\nchips_held: [4, 3]', "3: $.chips_held[0]: P1 holds 4 Scout chips"),
    ('hands: ["1/2", "3/4", "5/6"]\nchips_received: [0, 0]', "2: $.chips_received: expected 3 entries, one per seat (P1 first), got 2"),
    ('hands: ["1/2", "3/4", "5/6"]\nround: 4', "2: $.round: round 4 does not exist: variant 'official' plays 3 rounds with 3 players"),
    ('hands: ["1/2", "3/4", "5/6"]\nturn: 500', "2: $.turn: turn 500: the round would already have ended at the turn cap"),
    ('hands: ["1/2", "3/4", "5/6"]\nphase: flip\nactive: "7/8"\nowner: 1', "2: $.phase: in the flip phase nothing has been played yet"),
    ('hands: ["1/2", "3/4", "5/6"]\nflips_left: 2', "2: $.flips_left: flips_left is for the flip phase"),
    ('hands: ["1/2", "3/4", "5/6"]\nphase: flip\nflips_left: 4', "3: $.flips_left: in the flip phase 1 to 3 seats are still to choose, not 4"),
    ('hands: ["1/2", "3/4", "5/6"]\nphase: deal', "2: $.phase: 'deal' is not one of 'flip', 'play'"),
    ('hands: ["1/2", "3/4", "5/6"]\nactiv: "7/8"', "2: $.activ: unknown key 'activ'; did you mean 'active'?"),
    ('hands: ["1/2", "3/4", "5/6"]\ncaptured: [40, 0, 0]', "2: $.captured[0]: P1 captured 40 cards, but only 33 cards are not already in the position"),
    ('hands: ["1/2", "3/4", "5/6"]\ncaptured: [true, 0, 0]', "2: $.captured[0]: expected a whole number or cards (top/bottom), got true"),
    ('variant: two-player\nhands: ["1/2 1/3 1/4 1/5 1/6 1/7 1/8 1/9 1/10 2/3 2/4 2/5", "3/4 3/5 3/6 3/7 3/8 3/9 3/10 4/5 4/6 4/7 4/8"]',
     "2: $.hands: the position holds 23 cards, but variant 'two-player' has dealt only 22 by round 1"),
    ("variant: nope\nhands: ['1/2', '3/4', '5/6']", "1: $.variant: cannot load variant 'nope'"),
    ("hands: [", "1: $: malformed YAML"),
    ("schema_version: 2\nhands: ['1/2', '3/4', '5/6']", "1: $.schema_version: this scoutlab reads position schema_version 1, not 2"),
    ("variant: official", "1: $: missing `hands`"),
    ("- just a list", "1: $: a position is a mapping"),
    ("", "$: the position is empty"),
]


@pytest.mark.parametrize("text, expected", BAD, ids=[expected.split(": ", 2)[-1][:40] for _, expected in BAD])
def test_bad_positions_say_where_and_why(text: str, expected: str) -> None:
    with pytest.raises(PositionError) as error:
        load_position(text)
    assert expected in str(error.value)
    assert str(error.value).startswith("<position>")


def test_an_active_set_whose_cards_are_refused_is_not_also_called_empty() -> None:
    """Its cards are the one problem: the owner it names is not a second, as if no active set were given."""
    with pytest.raises(PositionError) as error:
        load_position('hands: ["1/2", "3/4", "5/6"]\nactive: "0/2"\nowner: 1')
    assert [p.path for p in error.value.problems] == ["$.active"]


def test_every_problem_is_reported_at_once() -> None:
    with pytest.raises(PositionError) as error:
        position("""
            hands: ["1/2 2/10", "3/4 2/1", "5/6"]
            active: "7/8 5/9"
            owner: 5
        """)
    assert len(error.value.problems) == 4
    assert [p.line for p in error.value.problems] == sorted(p.line for p in error.value.problems)



def test_one_card_given_thousands_of_times_is_refused_without_reading_the_set(monkeypatch) -> None:
    """The rules read a set card by card through every prefix: 30,000 copies cost seconds and gigabytes."""
    from scoutlab.rules import Rules

    read: list[int] = []
    classify = Rules.classify
    monkeypatch.setattr(Rules, "classify", lambda self, tops: read.append(len(tops)) or classify(self, tops))
    with pytest.raises(PositionError) as error:
        load_position('hands: ["1/2", "5/1", "7/1"]\nactive: "' + " ".join(["3/4"] * 30_000) + '"\nowner: 1')
    assert "3/4: this card is already in the active set" in str(error.value)
    assert max(read, default=0) < 100

def test_problems_point_into_the_file_that_holds_the_position(tmp_path: Path) -> None:
    missing = tmp_path / "missing.yaml"
    with pytest.raises(PositionError, match="no such file"):
        load_position(missing)
    scenario = "cases:\n  - position:\n      hands: ['1/2', '3/4', '9/9']\n"
    from scoutlab.spec import source as yamlsrc

    parsed = yamlsrc.parse(scenario)
    with pytest.raises(PositionError) as error:
        position_from_data(parsed.data["cases"][0]["position"], "scenario.yaml", parsed.lines, ("cases", 0, "position"))
    assert str(error.value).startswith("scenario.yaml:3: $.cases[0].position.hands[2]: '9/9' is not a card")


def test_rules_given_must_be_the_positions_variant() -> None:
    rules = load_rules("two-player")
    assert load_position('hands: ["1/2", "3/4"]', rules=rules).rules is rules
    with pytest.raises(PositionError, match="the position is for variant 'official', but the rules given are 'two-player'"):
        load_position('variant: official\nhands: ["1/2", "3/4"]', rules=rules)


# --------------------------------------------------------------------------- the schema


def test_the_schema_is_2020_12_versioned_and_described() -> None:
    schema = position_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == POSITION_SCHEMA_ID and POSITION_SCHEMA_ID.endswith("/position/1.json")

    def undescribed(node: dict, path: str) -> list[str]:
        missing = [] if "description" in node else [path]
        for key, sub in node.get("properties", {}).items():
            missing += undescribed(sub, f"{path}.{key}")
        for key, sub in node.get("$defs", {}).items():
            missing += undescribed(sub, f"{path}.$defs.{key}")
        if isinstance(node.get("items"), dict):
            missing += undescribed(node["items"], f"{path}[]")
        return missing

    assert undescribed(schema, "$") == []


def test_dumped_positions_satisfy_the_schema() -> None:
    import yaml

    rules = load_rules("official")
    state = rules.new_game(5, seed=4)
    for _ in range(12):
        state.apply(random.Random(len(state.history)).choice(state.legal_actions()))
    jsonschema.Draft202012Validator(position_schema()).validate(yaml.safe_load(dump_position(state)))


def test_the_shipped_schemas_still_load_together() -> None:
    """spec.py registers every schema in scoutlab.schemas: ours must not upset the variant specs."""
    assert load_spec("official").name == "official"


# --------------------------------------------------------------------------- scoutlab legal


def legal(tmp_path: Path, capsys, text: str, *args: str) -> tuple[int, str, str]:
    """Run `scoutlab legal` on a position; stdout comes back with runs of spaces squashed (columns vary)."""
    path = tmp_path / "position.yaml"
    path.write_text(textwrap.dedent(text))
    code = cli.main(["legal", str(path), *args])
    out, err = capsys.readouterr()
    return code, re.sub(r"(?<=\S) +", " ", out), err


SMALL = """
    hands: ["1/2 2/3", "5/1 6/2", "7/1 5/9"]
    active: "4/5 4/6"
    owner: 2
"""


def test_legal_lists_every_action_grouped_with_what_it_does(tmp_path: Path, capsys) -> None:
    code, out, err = legal(tmp_path, capsys, SMALL)
    assert code == 0 and err == ""
    assert "official, 3 players, round 1 of 3, play phase, turn 0: P3 to act" in out
    assert "hand: 7/1 5/9" in out and "active: 4/5 4/6 (shown by P2)" in out
    state = position(SMALL)
    kinds = [state.rules.codec.kind(c) for c in state.legal_actions()]
    assert f"shows ({kinds.count('show')})" in out and "none: no set or run in the hand beats the active set" in out
    assert f"scouts ({kinds.count('scout')})" in out and f"scout & shows ({kinds.count('scout_and_show')})" in out
    listed = [line.split(" (")[0].strip() for line in out.splitlines() if line.startswith(("  scout", "  show"))]
    assert sorted(listed) == sorted(state.format(c) for c in state.legal_actions())
    assert "scout left 0 (takes 4/5) P2 gets a Scout chip" in out
    assert "scout left flip 1 show 2-3 (takes 5/4, shows [5/4 5/9]) captures 1 P2 gets a Scout chip" in out
    assert "ends the round (hand_emptied): P1 -2, P2 -1, P3 +1" in out


def test_a_preview_leaves_the_state_and_its_random_stream_as_they_were() -> None:
    from scoutlab.commands.legal import preview

    state = position(SMALL)
    legal = state.legal_actions()
    before = {k: [list(v) if isinstance(v, list) else v for v in value] if isinstance(value, list) else value
              for k, value in state.fields().items()}  # its lists copied: a preview must change none in place
    stream = state.rng.getstate()
    ending = next(c for c in legal if preview(state, c).round_ends)  # it deals the next round
    assert preview(state, ending).round == 1 and state.rng.getstate() == stream
    assert {k: v for k, v in state.fields().items() if k != "rng"} == {k: v for k, v in before.items() if k != "rng"}


def test_legal_judges_one_action(tmp_path: Path, capsys) -> None:
    code, out, _ = legal(tmp_path, capsys, SMALL, "--action", "scout left 0")
    assert code == 0 and out.splitlines()[-1] == "legal: scout left 0 (takes 4/5) P2 gets a Scout chip"
    code, out, _ = legal(tmp_path, capsys, SMALL, "--action", "show 1-2")
    assert code == 1 and out.splitlines()[-1].startswith("illegal: 'show 1-2': 7 5 is neither a set")


def test_legal_two_player_shows_payment_and_the_extra_turn(tmp_path: Path, capsys) -> None:
    code, out, _ = legal(tmp_path, capsys, """
        variant: two-player
        hands: ["1/2", "8/9 2/3"]
        active: "4/5"
        owner: 1
        chips_held: [3, 1]
    """)
    assert code == 0
    assert "scout left 0 (takes 4/5) pays a Scout chip (0 left) P2 acts again" in out
    assert "scout & shows" not in out  # no Scout & Show in this variant
    assert "show 1 [8/9] captures 1" in out


def test_legal_in_the_flip_phase(tmp_path: Path, capsys) -> None:
    code, out, _ = legal(tmp_path, capsys, """
        variant: two-player-28
        phase: flip
        hands: ["1/2 3/4", "5/6"]
    """)
    assert code == 0 and "hand flip (2)" in out and "shows" not in out
    assert "keep hand becomes 1/2 3/4" in out and "flip hand becomes 4/3 2/1" in out


def test_legal_reports_bad_input_in_one_message(tmp_path: Path, capsys) -> None:
    code, _, err = legal(tmp_path, capsys, 'hands: ["1/2", "3/4", "5/5"]\n')
    assert code == 1 and err.strip().endswith("position.yaml:1: $.hands[2]: '5/5' is not a card: its two numbers must differ")
    code, _, err = legal(tmp_path, capsys, SMALL, "--action", "dance")
    assert code == 1 and "'dance' is not a move" in err and "Traceback" not in err
    code = cli.main(["legal", str(tmp_path / "nowhere.yaml")])
    assert code == 1 and "nowhere.yaml: $: no such file" in capsys.readouterr().err


def test_legal_leaves_the_position_as_it_was(tmp_path: Path) -> None:
    from scoutlab.commands.legal import listing

    state = position(SMALL)
    before = dump_position(state)
    listing(state)
    assert dump_position(state) == before


def test_a_missing_file_named_with_a_slash_is_said_to_be_missing(tmp_path) -> None:
    with pytest.raises(PositionError) as error:
        load_position(str(tmp_path / "nowhere"))  # was read as a one-word position first: "a position is a mapping..."
    assert str(error.value) == f"{tmp_path / 'nowhere'}: $: no such file"
