"""The greedy bot: the strongest show it has, else the scout that best lengthens a set or run.

Back in a position it has played before in the round, it plays the next move in that
order not yet played there (`cycles.Positions`), so it cannot loop until the turn cap.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from scoutlab.bots.cycles import Positions
from scoutlab.bots.hand import HandReader, flip_hand, tops
from scoutlab.bots.options import bot_options
from scoutlab.engine.actions import FLIP, KEEP, Scout, Show
from scoutlab.engine.cards import SHIFT, flipped

if TYPE_CHECKING:
    from scoutlab.engine.state import View
    from scoutlab.rules import Rules


def scouted_card(view: View, scout: Scout) -> int:
    """The card a scout takes from the active set, turned as the scout says."""
    taken = view.active[-1] if scout.end else view.active[0]
    return flipped(taken) if scout.flip else taken


class GreedyBot:
    """Plays its strongest legal show; with none, scouts where the card extends the longest set or run."""

    name = "greedy"

    def __init__(self, rules: Rules, rng: random.Random, options: dict[str, Any]):
        bot_options(self.name, options, {})
        self.rules = rules
        self.rng = rng
        self.reader = HandReader(rules)
        self.positions = Positions()

    def act(self, view: View) -> int:
        if view.phase == "flip":
            return self.choose_flip(view.hand)
        if self.positions.tried(view):
            return self.positions.choose(view, self.ranked(view))
        return self.positions.note(view, self.best(view))

    def best(self, view: View) -> int:
        """The strongest show; with none, the scout whose card best lengthens a set or run."""
        codec = self.rules.codec
        shows = [c for c in view.legal if codec.kind(c) == "show"]
        if shows:
            return self.strongest_show(view.hand, shows)
        scouts = [c for c in view.legal if codec.kind(c) == "scout"]
        if scouts:
            return max(scouts, key=lambda code: (self.scout_value(view, code), -code))
        return view.legal[self.rng.randrange(len(view.legal))]

    def ranked(self, view: View) -> list[int]:
        """Every legal move in the greedy order: shows strongest first, then scouts best first."""
        codec = self.rules.codec
        shows = sorted(c for c in view.legal if codec.kind(c) == "show")
        decode, hand = codec.decode, view.hand
        by_values: dict[tuple[int, ...], list[int]] = {}
        for code in shows:
            show = decode(code)
            assert isinstance(show, Show)  # `shows` are plain shows
            by_values.setdefault(tuple(c >> SHIFT for c in hand[show.start:show.start + show.length]), []).append(code)
        ordered = [code for values in self.reader.strongest_first(list(by_values)) for code in by_values[values]]
        scouts = [c for c in view.legal if codec.kind(c) == "scout"]
        ordered += sorted(scouts, key=lambda code: (self.scout_value(view, code), -code), reverse=True)
        return ordered

    def choose_flip(self, hand: tuple[int, ...]) -> int:
        """Flip when the turned hand empties in fewer shows (then has the longer best show)."""
        kept = self.reader.plan(tops(hand))
        turned = self.reader.plan(tops(flip_hand(self.rules, hand)))
        better = (turned[0], -turned[1]) < (kept[0], -kept[1])
        return FLIP if better else KEEP

    def strongest_show(self, hand: tuple[int, ...], codes: list[int]) -> int:
        """The code of the strongest show among `codes` (plain shows); ties go to the leftmost."""
        decode = self.rules.codec.decode
        by_values: dict[tuple[int, ...], int] = {}
        for code in sorted(codes):
            show = decode(code)
            assert isinstance(show, Show)  # `codes` are plain shows
            values = tuple(c >> SHIFT for c in hand[show.start:show.start + show.length])
            by_values.setdefault(values, code)
        return by_values[self.reader.strongest_first(list(by_values))[0]]

    def scout_value(self, view: View, code: int) -> tuple[int, int]:
        """(longest show through the new card, minus the shows needed to empty the new hand)."""
        scout = self.rules.codec.decode(code)
        assert isinstance(scout, Scout)  # scout_value is asked of plain scouts
        hand = list(view.hand)
        hand.insert(scout.gap, scouted_card(view, scout))
        values = tops(hand)
        through = max(length for start, length in self.reader.spans(values) if start <= scout.gap < start + length)
        return through, -self.reader.plan(values)[0]
