"""`scoutlab diff`: the rule differences of two merged specs, with a plain-English line per known knob."""

from __future__ import annotations

import json

import pytest

from scoutlab import cli
from scoutlab.spec.diff import KNOBS, WHOLE, Difference, diff_docs, diff_specs, explain, schema_property, show_value
from scoutlab.spec.variant import load_spec, load_spec_text, shipped_variants, variant_schema


def spec(fragment: str, name: str = "changed"):
    return load_spec_text(f"extends: official\nname: {name}\n{fragment}", f"{name}.yaml")


def paths(differences: list[Difference]) -> list[str]:
    return [d.path for d in differences]


def test_a_spec_has_no_differences_from_itself_nor_from_a_renamed_copy():
    official = load_spec("official")
    assert diff_specs(official, official) == []
    assert diff_specs(official, spec("description: the same rules under another name")) == []


def test_official_to_two_player():
    found = {d.path: d for d in diff_specs(load_spec("official"), load_spec("two-player"))}
    # The counts two-player no longer plays have no rows: the players row says it once.
    assert set(found) == {
        "$.players", "$.deck.remove.2", "$.deal.hand_size.2",
        "$.deal.shuffle", "$.scout.payment", "$.scout.extra_turn", "$.scout_and_show.chips_per_round",
        "$.scout_chips_per_round", "$.scoring.chip_received", "$.scoring.unspent_chip",
        "$.rounds.count", "$.end_conditions",
    }
    payment = found["$.scout.payment"]
    assert (payment.a, payment.b) == ("owner_receives", "scout_pays")
    assert str(payment) == (
        "$.scout.payment: owner_receives -> scout_pays: the scouting player pays a Scout chip for each scout, "
        "and cannot scout without one (was: the owner of the active set receives a Scout chip for each scout)"
    )
    # A key only one side has is absent (None) on the other.
    assert (found["$.deal.hand_size.2"].a, found["$.deal.hand_size.2"].b) == (None, 11)
    # The other way round, official's counts are rules it adds; two-player's count 2 is not.
    back = {d.path for d in diff_specs(load_spec("two-player"), load_spec("official"))}
    assert {"$.deal.hand_size.3", "$.deck.remove.4"} <= back and "$.deal.hand_size.2" not in back


def test_a_removal_is_compared_per_player_count_as_a_whole():
    (removal, *_) = diff_specs(load_spec("two-player"), load_spec("two-player-28"))
    assert removal.path == "$.deck.remove.2"
    assert removal.explanation == (
        "with 2 players, take out every card with a 9 or 10 (was: with 2 players, take out the 9/10 card)"
    )


@pytest.mark.parametrize(
    "fragment, path, explanation",
    [
        ("hand_flip: {reverses_order: true}", "$.hand_flip.reverses_order",
         "a hand flip also reverses the order of the cards (was: a hand flip keeps the left-to-right order of the cards)"),
        ("scoring: {exempt_last_show_owner: false}", "$.scoring.exempt_last_show_owner",
         "nobody is exempt from the points for cards in hand (was: the owner of the last show loses nothing for their hand when nobody beat it)"),
        ("scoring: {card_in_hand: -2}", "$.scoring.card_in_hand",
         "each card left in hand scores -2 (was: each card left in hand scores -1)"),
        ("rounds: {rotate_start: -1}", "$.rounds.rotate_start",
         "the starting player moves one seat to the right each round (was: the starting player moves one seat to the left each round)"),
        ("rounds: {first_starting_seat: 2}", "$.rounds.first_starting_seat",
         "P3 starts the first round (was: P1 starts the first round)"),
        ("scout_and_show: {chips_per_round: 2}", "$.scout_and_show.chips_per_round",
         "each player may Scout & Show 2 times per round (was: each player may Scout & Show once per round)"),
        ("plugins: [runs-beat-sets]", "$.plugins", "plugins in force: runs-beat-sets (was: no plugins)"),
        ("max_turns_per_round: 200", "$.max_turns_per_round",
         "the safety cap ends a round after 200 turns (was: the safety cap ends a round after 500 turns)"),
    ],
)
def test_one_knob_one_line(fragment, path, explanation):
    (difference,) = diff_specs(load_spec("official"), spec(fragment))
    assert (difference.path, difference.explanation) == (path, explanation)


def test_the_order_of_a_and_b_matters():
    official, house = load_spec("official"), load_spec("house-no-exemption")
    (forward,), (backward,) = diff_specs(official, house), diff_specs(house, official)
    assert (forward.a, forward.b) == (backward.b, backward.a) == (True, False)
    assert forward.explanation.startswith("nobody is exempt")
    assert backward.explanation.startswith("the owner of the last show loses nothing")


def test_an_unknown_path_still_shows_both_values():
    (difference,) = diff_docs({"players": [3], "future_knob": 1}, {"players": [3], "future_knob": 2})
    assert difference == Difference("$.future_knob", 1, 2, None)
    assert str(difference) == "$.future_knob: 1 -> 2"


def test_show_value_writes_values_as_a_spec_would():
    assert show_value(None) == "(absent)"
    assert show_value(True) == "true"
    assert show_value([3, 4, 5]) == "[3, 4, 5]"
    assert show_value({"cards": ["9/10"], "containing": []}) == "{cards: [9/10], containing: []}"


def _schema_leaves(schema: dict, path: str, defs: dict) -> list[str]:
    """Every knob path the variant schema allows, `*` for a player count, stopping at compared-whole values."""
    if "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[1]]
    if path in WHOLE or schema.get("type") != "object":
        return [path]
    leaves = []
    for key, sub in schema.get("properties", {}).items():
        leaves += _schema_leaves(sub, f"{path}.{key}", defs)
    if isinstance(schema.get("additionalProperties"), dict):
        leaves += _schema_leaves(schema["additionalProperties"], f"{path}.*", defs)
    return leaves


def _knobs() -> list[str]:
    schema = variant_schema()
    not_knobs = {"$.schema_version", "$.name", "$.title", "$.description", "$.kind", "$.extends"}
    return [p for p in _schema_leaves(schema, "$", schema["$defs"]) if p not in not_knobs]


def test_every_knob_of_the_schema_has_a_plain_english_line():
    knobs = _knobs()
    assert len(knobs) > 20
    # a knob's own line in KNOBS, or else the first sentence of its schema description
    missing = [p for p in knobs if p not in KNOBS and not schema_property(p.replace("*", "4")).get("description")]
    assert not missing, f"describe {missing} in the schema, or give them a line in spec.diff.KNOBS"
    assert not set(KNOBS) - set(knobs), "KNOBS names a path the schema does not have"


def test_a_knob_without_a_line_of_its_own_reads_its_schema_description(monkeypatch):
    monkeypatch.delitem(KNOBS, "$.max_turns_per_round")  # as a new knob would be: in the schema only
    assert explain("$.max_turns_per_round", 500, 40) == (
        "A safety cap, in no rulebook: a round that reaches this many turns ends, is scored with no exemption, "
        "and records the cap as its end reason"
    )
    assert explain("$.no_such.knob", 1, 2) is None and schema_property("$.deal.hand_size.3")["type"] == "integer"


@pytest.mark.parametrize("a", [name for name, _ in shipped_variants()])
def test_every_shipped_pair_is_fully_explained(a):
    for b, _ in shipped_variants():
        for difference in diff_specs(load_spec(a), load_spec(b)):
            assert difference.explanation, difference.path
            assert explain(difference.path, difference.a, difference.b) == difference.explanation


def run_cli(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_diff_command_text(capsys, tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("extends: official\nname: house\nscout: {extra_turn: true}\n")
    code, out, err = run_cli(capsys, "diff", "official", str(house))
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "official -> house: 1 rule difference",
        "$.scout.extra_turn: false -> true: a player who scouts acts again at once (was: a scout ends the turn)",
    ]
    code, out, _ = run_cli(capsys, "diff", "official", "official")
    assert (code, out) == (0, "official and official have the same rules\n")


def test_diff_command_json(capsys):
    code, out, _ = run_cli(capsys, "diff", "two-player", "two-player-28", "--json")
    data = json.loads(out)
    assert code == 0 and (data["a"], data["b"]) == ("two-player", "two-player-28")
    expected = diff_specs(load_spec("two-player"), load_spec("two-player-28"))
    assert data["differences"] == [d.to_dict() for d in expected]
    assert data["differences"][0]["b"] == {"containing": [9, 10], "cards": []}


def test_diff_command_reports_a_bad_spec_in_one_line(capsys, tmp_path):
    code, out, err = run_cli(capsys, "diff", "official", str(tmp_path / "missing.yaml"))
    assert code == 1 and not out
    assert err.count("\n") == 1 and "no such file" in err and "Traceback" not in err


def test_a_dropped_deal_is_still_explained():
    assert explain("$.deal.hand_size.3", 12, None) == (
        "there is no deal for 3 players (was: with 3 players each is dealt 12 cards)"
    )


def test_a_value_is_shown_on_one_short_line():
    from scoutlab.spec.diff import SHOWN_CHARS, show_value

    shown = show_value({"note": "abc\u202edef\nghi", "big": list(range(20_000))})  # a 129 KB line, reordered by U+202E
    assert shown.startswith("{note: abc\\u202edef\\nghi, big: [0, 1, 2") and "\u202e" not in shown and "\n" not in shown
    assert len(shown) < SHOWN_CHARS + 40 and shown.endswith(" characters)")
