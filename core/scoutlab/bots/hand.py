"""Reading a hand the way a player does: its shows, how strong they are, how many shows empty it.

Everything goes through the rules object (`append_shows`, `strength`, `beats`), so a
plugin that changes what a show is or what beats what changes the bots' reading too.
Results are cached per hand, since bots ask the same questions many times.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING

from scoutlab.engine.cards import SHIFT, flipped

if TYPE_CHECKING:
    from scoutlab.rules import Rules

Span = tuple[int, int]  # (start, length) of adjacent cards in a hand
_CACHE_LIMIT = 200_000  # hand plans kept; cleared when full, so memory stays bounded
# Hand plans, shared by every reader of one rules object in a process: a simulation makes new bots every
# game, and plans of their own would make each game read every hand again. Weakly keyed, and holding
# nothing that refers to the rules, so they go with the rules object.
_PLANS: weakref.WeakKeyDictionary[Rules, dict[tuple[int, ...], tuple[int, int]]] = weakref.WeakKeyDictionary()


def flip_hand(rules: Rules, hand: Sequence[int]) -> list[int]:
    """The hand after the round-start flip, as the spec performs it (order kept or reversed)."""
    order = reversed(hand) if rules.flip_reverses else hand
    return [flipped(c) for c in order]


def tops(hand: Sequence[int]) -> list[int]:
    return [c >> SHIFT for c in hand]


class HandReader:
    """Shows, strength order and a plan size for hands, under one rules object."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.width = rules.codec.width
        self.empty = rules.strength([])  # what a show on an empty table must beat
        self._plans = _PLANS.setdefault(rules, {})

    # -- shows ----------------------------------------------------------------------------

    def spans(self, values: Sequence[int], beat=None) -> list[Span]:
        """Every show in these top numbers stronger than `beat` (default: an empty table)."""
        out: list[int] = []
        self.rules.append_shows(list(values), self.empty if beat is None else beat, 0, out)
        w = self.width
        return [(code // w, code % w + 1) for code in out]

    def strength(self, values: Sequence[int]):
        """What a show of these top numbers must be beaten by (the rules' own key, or under plugins a node of their trie of shows)."""
        return self.rules.strength([v << SHIFT for v in values])

    def beats(self, values: Sequence[int], other: Sequence[int]) -> bool:
        """Whether a show of `values` is stronger than one of `other`, by the rules' order."""
        return self.rules.beats(tuple(values), tuple(other))

    def strongest_first(self, shows: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        """Shows (top numbers) sorted strongest first; ties keep their order."""
        if self.rules.builtin_shows:
            return sorted(shows, key=self.strength, reverse=True)
        return sorted(shows, key=functools.cmp_to_key(self._compare), reverse=True)

    def _compare(self, a: tuple[int, ...], b: tuple[int, ...]) -> int:
        return 1 if self.beats(a, b) else -1 if self.beats(b, a) else 0

    # -- structure ------------------------------------------------------------------------

    def plan(self, values: Sequence[int]) -> tuple[int, int]:
        """(shows, longest): the fewest shows of adjacent cards that empty the hand, and its longest show.

        Shows in a plan are contiguous in today's hand; a real player may do better once
        removing cards brings others together, so this is an upper bound, and cheap.
        """
        key = tuple(values)
        found = self._plans.get(key)
        if found is not None:
            return found
        n = len(key)
        codes: list[int] = []
        self.rules.append_shows(list(key), self.empty, 0, codes)
        w = self.width
        # fewest[j]: shows that empty the first j cards; a plugin may refuse some single cards, and
        # a prefix no show ends at counts n + 1 (the hand cannot be emptied by shows alone)
        fewest = [0] + [-1] * n
        longest = 0
        for code in sorted(codes):  # by start: every show ending at a start comes before it
            start, length = code // w, code % w + 1
            before = fewest[start] if fewest[start] >= 0 else n + 1
            end = start + length
            if fewest[end] < 0 or before + 1 < fewest[end]:
                fewest[end] = before + 1
            if length > longest:
                longest = length
        found = (fewest[n] if fewest[n] >= 0 else n + 1, longest)
        if len(self._plans) >= _CACHE_LIMIT:
            self._plans.clear()
        self._plans[key] = found
        return found
