"""The bots' hand reading (core/scoutlab/bots/hand.py) against a brute-force reading of the same hands.

`HandReader.plan` is a dynamic programme over the shows the rules list; here every way of
cutting the hand into shows is tried instead, so a wrong recurrence cannot hide.
"""

from __future__ import annotations

import functools
import gc
import random
import weakref

import pytest

from scoutlab.bots.hand import HandReader
from scoutlab.host.hookspecs import hookimpl
from scoutlab.rules import load_rules
from scoutlab.spec.variant import shipped_variants
from scoutlab.testing import installed_plugin, rules_with


def brute_plan(reader: HandReader, values: list[int]) -> tuple[int, int]:
    """(fewest shows that empty the hand, longest show); n + 1 shows when no cutting empties it."""
    spans = set(reader.spans(values))
    n = len(values)

    @functools.cache
    def fewest(start: int) -> int | None:
        if start == n:
            return 0
        options = [fewest(start + length) for length in range(1, n - start + 1) if (start, length) in spans]
        found = [f + 1 for f in options if f is not None]
        return min(found) if found else None

    shows = fewest(0)
    return (n + 1 if shows is None else shows), max((length for _, length in spans), default=0)


@pytest.mark.parametrize("variant", [name for name, _ in shipped_variants()])
def test_plan_is_the_fewest_shows_that_empty_the_hand(variant):
    reader = HandReader(load_rules(variant))
    rng = random.Random(variant)
    for _ in range(300):
        values = [rng.randint(1, 10) for _ in range(rng.randint(0, 11))]
        assert reader.plan(values) == brute_plan(reader, values), values


class NoSingleFives:
    """A lone 5 is no show: some hands then cannot be emptied by shows alone."""

    @hookimpl
    def scoutlab_classify_show(self, values):
        return "invalid" if values == (5,) else None


def test_plan_counts_a_hand_no_shows_can_empty_as_more_shows_than_cards():
    with installed_plugin("no-single-fives", NoSingleFives()):
        reader = HandReader(rules_with("official", ["no-single-fives"]))
        assert reader.plan([1, 5, 9])[0] > 3  # the 5 is stranded
        assert reader.plan([4, 5, 9]) == (2, 2)  # 4-5 is a run
        rng = random.Random(5)
        for _ in range(300):
            values = [rng.choice([1, 3, 5, 5, 7, 9]) for _ in range(rng.randint(1, 9))]
            expected = brute_plan(reader, values)
            if expected[0] <= len(values):
                assert reader.plan(values) == expected, values
            else:  # stranded: only "more shows than cards" is promised
                assert reader.plan(values)[0] > len(values) and reader.plan(values)[1] == expected[1], values


def test_readers_of_one_rules_object_share_their_plans_and_let_the_rules_go():
    rules = load_rules("official")
    HandReader(rules).plan([1, 2, 3, 7])
    assert HandReader(rules)._plans == {(1, 2, 3, 7): (2, 3)}
    assert HandReader(load_rules("official"))._plans == {}
    gone = weakref.ref(rules)
    del rules
    gc.collect()
    assert gone() is None  # a simulation loads rules again and again: their readings must not pile up
