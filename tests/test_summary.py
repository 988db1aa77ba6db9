"""The rules summary: built from the compiled spec as message ids with parameters, rendered through one catalog."""

from __future__ import annotations

import json
import re

import pytest

from scoutlab import cli
from scoutlab.rules import Rules, load_rules
from scoutlab.spec.variant import load_spec_text, shipped_variants
from scoutlab.text.summary import MESSAGES, Sentence, render, render_text, summarize

SHIPPED = [name for name, _ in shipped_variants()]


def summary_of(fragment: str):
    """The summary of official changed by a YAML fragment."""
    return summarize(Rules(load_spec_text(f"extends: official\nname: changed\n{fragment}", "changed.yaml")))


def facts(summary) -> set[tuple[str, str]]:
    """Every sentence (items and nested phrases included) as (id, its parameters as JSON)."""
    found = set()

    def visit(sentence: Sentence) -> None:
        found.add((sentence.id, json.dumps(sentence.to_dict()["params"], sort_keys=True)))
        for value in sentence.params.values():
            for phrase in value if isinstance(value, (list, tuple)) else [value]:
                if isinstance(phrase, Sentence):
                    visit(phrase)
        for item in sentence.items:
            visit(item)

    for section in summary.sections:
        for sentence in section.sentences:
            visit(sentence)
    return found


def has(summary, message: str, **params) -> bool:
    """Whether the summary has a sentence with this id whose parameters include these."""
    for found, encoded in facts(summary):
        given = json.loads(encoded)
        if found == message and all(given.get(k) == _plain(v) for k, v in params.items()):
            return True
    return False


def _plain(value):
    return value.to_dict() if isinstance(value, Sentence) else value


@pytest.fixture(scope="module")
def official():
    return summarize(load_rules("official"))


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_summary_renders_from_known_messages(name):
    summary = summarize(load_rules(name))
    assert set(summary.sentence_ids()) <= set(MESSAGES)
    text = render_text(summary)
    assert not re.search(r"[{}]", text), "a placeholder was left unfilled"
    assert text.startswith(f"{name}: ")
    assert json.loads(json.dumps(summary.to_dict()))["variant"] == name


SHIPPED_FACTS = {
    "official": [
        "For 3, 4 or 5 players.",
        "With 3 players, take out every card with a 10 (9 cards): 36 cards are in play.",
        "Each of the 3 players is dealt 12 cards; none are left over.",
        "With 4 players, take out the 9/10 card: 44 cards are in play.",
        "With 5 players, all 45 cards are in play.",
        "Each of the 5 players is dealt 9 cards; none are left over.",
        "every card's two numbers swap, and the cards keep their left-to-right order.",
        "Every player has one Scout & Show chip per round.",
        "For each scout, the owner of the active set receives a Scout chip from the supply.",
        "A Scout & Show may only be played when a show is possible after the scout.",
        "With equal counts, a set beats a run.",
        "      - after a show, every other player only scouted",
        "      - +1 for each Scout chip received",
        "The owner of the last show loses nothing for the cards in their hand when the round ends this way: after a show, every other player only scouted.",
        "A game has as many rounds as there are players.",
        "The starting player moves one seat to the left each round.",
        "None: these are the rules exactly as the spec's knobs say.",
    ],
    "two-player": [
        "For 2 players.",
        "With 2 players, take out the 9/10 card: 44 cards are in play.",
        "Each of the 2 players is dealt 11 cards; the other 22 are set aside for the later rounds.",
        "The deck is shuffled once per game",
        "At the start of each round every player takes 3 Scout chips from the supply.",
        "To scout you pay one of your own Scout chips into the supply; with no Scout chip left you cannot scout.",
        "After a scout you act again: you may scout again or show.",
        "There is no Scout & Show.",
        # docs/rules.md §7(ii): stuck after a show, and stuck on the extra turn after a scout; both exempt.
        "      - the player to act could neither show nor scout, after a show or on the extra turn after a scout",
        "loses nothing for the cards in their hand when the round ends this way: the player to act could "
        "neither show nor scout, after a show or on the extra turn after a scout.",
        "      - +1 for each Scout chip still held",
        "A game has 2 rounds.",
    ],
    "two-player-28": [
        "With 2 players, take out every card with a 9 or 10 (17 cards): 28 cards are in play.",
        "Each of the 2 players is dealt 14 cards; none are left over.",
        "Every round is dealt afresh from the whole deck, shuffled again.",
        "every card's two numbers swap and the left-to-right order reverses",
        "If no show is possible after the scout, the turn ends as a plain scout; the chip is spent.",
        "A game has 2 rounds.",
    ],
    "house-wrap": [
        "Runs may also wrap around from 10 to 1, e.g. 9-10-1.",
        "A run that wraps counts on past 10: 9-10-1 counts as 9-10-11, so its lowest number is 9.",
        "These plugins take part in deciding what a show is and which is stronger: wrap-runs.",
        "  - wrap-runs (lowest=1, highest=10): runs may wrap around from 10 to 1",
    ],
    "house-runs-first": [
        "With equal counts, a run beats a set.",
        "  - runs-beat-sets: with equal counts a run beats a set.",
    ],
    "house-no-exemption": [
        "Nobody is exempt from the points for cards in hand.",
    ],
}


@pytest.mark.parametrize("name", sorted(SHIPPED_FACTS))
def test_shipped_summary_states_its_knobs(name):
    text = render_text(summarize(load_rules(name)))
    for fact in SHIPPED_FACTS[name]:
        assert fact in text, fact


def test_every_shipped_variant_has_its_facts_checked():
    assert set(SHIPPED) <= set(SHIPPED_FACTS)


def test_official_order_has_no_plugin_sentences(official):
    text = render_text(official)
    assert "wrap around" not in text and "a run beats a set" not in text and "These plugins" not in text


KNOB_CHANGES = [
    # a fragment laid over official, the sentence it brings (id and parameters)
    ("hand_flip: {reverses_order: true}", "flip.reverses_order", {}),
    ("hand_flip: {allowed: false}", "flip.none", {}),
    ("deck: {random_orientation: false}", "deck.fixed_orientation", {}),
    ("scout: {payment: scout_pays}\nscout_chips_per_round: 2", "scout.pays", {}),
    ("scout: {payment: scout_pays}\nscout_chips_per_round: 2", "chips.scout.many", {"count": 2}),
    ("scout_chips_per_round: 1", "chips.scout.one", {}),
    ("scout: {extra_turn: true}", "scout.extra_turn", {}),
    ("scout_and_show: {chips_per_round: 0}", "turn.no_scout_show", {}),
    ("scout_and_show: {chips_per_round: 0}", "score.worthless", {}),
    ("scout_and_show: {chips_per_round: 2}", "chips.scout_show.many", {"count": 2}),
    ("scout_and_show: {fallback_to_scout: true}", "scout_show.fallback", {}),
    ("scoring: {exempt_last_show_owner: false}", "score.no_exemption", {}),
    ("end_conditions: [hand_emptied]", "score.no_exemption", {}),
    ("scoring: {card_in_hand: -2}", "score.in_hand", {"points": -2}),
    ("scoring: {unspent_chip: 1}", "score.unspent", {"points": 1}),
    ("scoring: {unspent_scout_show_chip: 1}", "score.unspent_scout_show", {"points": 1}),
    ("scoring: {unspent_scout_show_chip: 1}", "score.worthless", {}),  # the chips score: only the set's cards are worthless
    ("scoring: {captured_card: 2}", "score.captured", {"points": 2}),
    ("rounds: {count: 3}", "game.rounds.many", {"count": 3}),
    ("rounds: {count: 1}", "game.rounds.one", {}),
    ("rounds: {rotate_start: 0}", "game.same_start", {}),
    ("rounds: {lowest_total_starts: true}", "game.lowest_total_starts", {}),
    ("rounds: {rotate_start: 2}", "game.rotate_left.many", {"steps": 2}),
    ("rounds: {rotate_start: -1}", "game.rotate_right.one", {}),
    ("rounds: {first_starting_seat: 2}", "turn.order", {"first": Sentence("seat", {"number": 3})}),
    ("deal: {shuffle: once, hand_size: {'3': 4, '4': 2, '5': 1}}", "deal.once", {}),
    ("deal: {shuffle: once, hand_size: {'3': 4, '4': 2, '5': 1}}", "deal.set_aside", {"players": 4, "hand": 2, "left": 36}),
    ("deal: {hand_size: {'5': 8}}", "deal.left_out", {"players": 5, "hand": 8, "left": 5}),
    ("deck: {remove: {'4': null}}", "deal.left_out_one", {"players": 4, "hand": 11, "left": 1}),
    ("deck: {remove: {'5': {cards: ['1/2', '3/4']}}}\ndeal: {hand_size: {'5': 8}}", "deck.remove", {"players": 5, "in_play": 43}),
    ("deck: {remove: {'5': {cards: ['1/2', '3/4']}}}\ndeal: {hand_size: {'5': 8}}", "removal.card", {"card": "3/4"}),
    ("deck: {remove: {'4': {containing: [1, 10]}}}\ndeal: {hand_size: {'4': 7}}", "removal.numbers", {"numbers": [1, 10], "count": 17}),
    ("deck: {highest: 12}\ndeal: {hand_size: {'5': 13}}", "deck.cards", {"highest": 12, "size": 66}),
    ("max_turns_per_round: 300", "end.cap", {"turns": 300}),
    ("players: [3, 4]\ndeal: {hand_size: {'5': null}}", "deck.players", {"counts": [3, 4]}),
    ("plugins: [runs-beat-sets]", "strength.run_over_set", {}),
    ("plugins: [wrap-runs]", "turn.wrap", {"example": "9-10-1"}),
    ("plugins: [{name: wrap-runs, config: {highest: 9}}]", "plugins.item_config", {"name": "wrap-runs", "config": "highest=9"}),
    ("plugins: [noop]", "score.plugins", {"names": ["noop"]}),
    ("plugins: [noop]", "plugins.item", {"name": "noop"}),
]


@pytest.mark.parametrize("fragment, message, params", KNOB_CHANGES)
def test_a_changed_knob_changes_the_summary(official, fragment, message, params):
    changed = summary_of(fragment)
    assert has(changed, message, **params), render_text(changed)
    assert not has(official, message, **params), "the official summary already says this: the test proves nothing"
    assert set(changed.sentence_ids()) <= set(MESSAGES)


@pytest.mark.parametrize("highest", [9, 12])
def test_a_wrap_between_other_numbers_than_the_deck_is_not_claimed(highest):
    # The summary probes the deck's own numbers: 9-10-1 is no run when the wrap is at 9 or 12.
    changed = summary_of(f"plugins: [{{name: wrap-runs, config: {{highest: {highest}}}}}]")
    assert not has(changed, "turn.wrap") and not has(changed, "strength.wrap_start")


def test_rendering_goes_through_the_catalog_only(official):
    pseudo = {key: f"<{template}>" for key, template in MESSAGES.items()}
    for title, sentences in render(official, pseudo):
        assert title.startswith("<") and title.endswith(">")
        for sentence, items in sentences:
            assert sentence.startswith("<") and sentence.endswith(">")
            assert all(item.startswith("<") for item in items)
    # Nested phrases and list joins come from the catalog too.
    text = render_text(official, pseudo)
    assert "take out <every card with a 10 (9 cards)>" in text
    assert "<For <<3, 4> or 5> players.>" in text  # the comma too: Arabic and Persian write their own


def test_messages_use_only_known_placeholder_formats():
    for key, template in MESSAGES.items():
        for spec in re.findall(r"\{\w+:([^}]*)\}", template):
            assert spec in ("and", "or", "+"), (key, spec)


def run_cli(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_command_prints_the_summary(capsys):
    code, out, err = run_cli(capsys, "rules", "two-player")
    assert code == 0 and not err
    assert out == render_text(summarize(load_rules("two-player")))


def test_rules_command_json_is_the_summary_data(capsys):
    code, out, _ = run_cli(capsys, "rules", "official", "--json")
    assert code == 0
    assert json.loads(out) == summarize(load_rules("official")).to_dict()


def test_rules_command_reads_a_file_and_reports_bad_input_in_one_line(capsys, tmp_path):
    spec = tmp_path / "mine.yaml"
    spec.write_text("extends: official\nname: mine\nscout: {extra_turn: true}\n")
    code, out, _ = run_cli(capsys, "rules", str(spec))
    assert code == 0 and "After a scout you act again" in out
    code, out, err = run_cli(capsys, "rules", "offical")
    assert code == 1 and not out
    assert err.count("\n") == 1 and "did you mean 'official'" in err and "Traceback" not in err


@pytest.mark.parametrize("fragment, message", [
    ("deal: {shuffle: each_round}", "deal.left_out_one"),
    ("deal: {shuffle: once}\nrounds: {count: 1}", "deal.set_aside_one"),
])
def test_one_card_left_over_reads_as_one_card(fragment, message):
    # 4 players with the whole 45-card deck and 11 cards each: exactly one card is not dealt.
    changed = summary_of(f"deck: {{remove: {{'4': {{cards: []}}}}}}\n{fragment}")
    assert has(changed, message, players=4, hand=11, left=1), render_text(changed)
    assert "the other 1 " not in render_text(changed)
def test_scoutlab_rules_speaks_the_language_asked_for(capsys):
    from scoutlab.cli import main
    from scoutlab.text.i18n import gettext_for

    assert main(["rules", "two-player", "--lang", "el"]) == 0
    text = capsys.readouterr().out
    el = gettext_for("el")
    assert text.startswith("Επίσημοι κανόνες για δύο: ")  # the spec's own Greek title and description
    assert el(MESSAGES["section.deck"]) in text and "Players and deck" not in text
    assert el(MESSAGES["scout.pays"]) in text
