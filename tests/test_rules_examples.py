"""The example cards of How to play: real cards of the variant's deck, judged by the variant's own rules."""

from __future__ import annotations

import pytest

from scoutlab.engine.cards import MASK, SHIFT
from scoutlab.rules import load_rules
from scoutlab.spec import shipped_variants
from scoutlab.text.i18n import gettext_for
from scoutlab.web.rules_examples import examples, flip_example, scout_example, scout_show_example, stronger_example

VARIANTS = [name for name, _ in shipped_variants()]
EN = gettext_for("en")


def tops(row, mark=None):
    return tuple(card["t"] for card in row["cards"] if mark is None or card["mark"] == mark)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_example_card_is_a_card_of_the_deck_and_none_repeats(variant):
    rules = load_rules(variant)
    deck = {frozenset((c >> SHIFT, c & MASK)) for c in rules.deck_for(max(rules.players))}
    for section in examples(rules, EN).values():
        for example in section:
            # The last row of a scout, a Scout & Show or a flip shows the same cards again, moved.
            moved = example["title"] in ("A scout", "A Scout & Show", "Flipping the hand")
            seen = set()
            for index, row in enumerate(example["rows"]):
                for card in row["cards"]:
                    pair = frozenset((card["t"], card["b"]))
                    assert card["t"] != card["b"] and pair in deck, (example["title"], card)
                    if moved and index == len(example["rows"]) - 1:
                        assert pair in seen, (example["title"], card)
                        continue
                    assert pair not in seen, (example["title"], card)
                    seen.add(pair)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_marked_show_is_a_show_of_adjacent_cards(variant):
    rules = load_rules(variant)
    example = examples(rules, EN)["turn"][0]
    row = example["rows"][0]
    marks = [card["mark"] == "play" for card in row["cards"]]
    first = marks.index(True)
    assert all(marks[first:first + sum(marks)]), "the marked cards sit together"
    assert rules.classify(tops(row, "play")) is not None


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_stronger_show_is_stronger_by_the_variants_own_rules(variant):
    rules = load_rules(variant)
    example = stronger_example(rules, EN)
    active, stronger, weaker = (tops(row) for row in example["rows"])
    assert rules.beats(stronger, active) and not rules.beats(weaker, active)


def test_a_house_rule_changes_the_example():
    official = stronger_example(load_rules("official"), EN)["rows"][1]
    runs_first = stronger_example(load_rules("house-runs-first"), EN)["rows"][1]
    assert tops(official) != tops(runs_first)
    wrap = examples(load_rules("house-wrap"), EN)["turn"][0]["rows"][0]
    assert tops(wrap, "play") == (9, 10, 1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_scout_turns_the_end_card_over_into_the_hand(variant):
    example = scout_example(load_rules(variant), EN)
    active, hand, after = (row["cards"] for row in example["rows"])
    taken = active[-1]
    assert taken["mark"] == "taken"
    assert after == [hand[0], {"t": taken["b"], "b": taken["t"], "mark": "play"}, *hand[1:]]


@pytest.mark.parametrize("variant", VARIANTS)
def test_scout_and_show_only_where_the_variant_has_it(variant):
    rules = load_rules(variant)
    example = scout_show_example(rules, EN)
    assert (example is not None) == (rules.sns_chips > 0)
    if example:
        active, _hand, after = example["rows"]
        shown = tops(after, "play")
        assert rules.beats(shown, tops(active)[:-1])


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_flip_keeps_or_reverses_the_order_as_the_variant_says(variant):
    rules = load_rules(variant)
    before, flipped = (row["cards"] for row in flip_example(rules, EN)["rows"])
    turned = [(card["b"], card["t"]) for card in before]
    expected = turned[::-1] if rules.flip_reverses else turned
    assert [(card["t"], card["b"]) for card in flipped] == expected
