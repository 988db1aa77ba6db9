"""What the network bot reads of a decision: a row of numbers per candidate move, from the seat's View only.

Two parts, both computed from `view` alone (its own hand, the active set, every seat's
public counts), never from a game state:
  - the context, once per decision: hand sizes, the active set, whose it is, the round and
    the score, chips, how many shows the hand needs;
  - one row per candidate move: its kind, what it shows and captures, what a scout takes
    and where it puts it, and the hand it leaves (size, shows needed to empty it, longest
    show, neighbours equal or one apart).
The shows a hand needs come from the rules (`HandReader.plan`, which asks `rules.append_shows`),
so a plugin that changes what a show is changes the reading. The candidates are every legal
keep/flip, show and scout, and the Scout & Shows after the scouts the caller picks
(`scout_shows`): the engine lists hundreds of those.
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

from scoutlab.bots.hand import HandReader
from scoutlab.engine.actions import FLIP, KEEP, SHOW_BASE
from scoutlab.engine.cards import SHIFT, flipped

if TYPE_CHECKING:
    from scoutlab.engine.state import View
    from scoutlab.rules import Rules

CONTEXT = (
    "cards in hand", "fewest cards of another seat", "mean cards of the others", "active set's cards",
    "owns the active set", "turns until the active set's owner acts", "round progress", "last round",
    "margin over the best other", "Scout chips held", "Scout & Show chip held", "shows to empty the hand",
    "longest show in hand", "cards captured", "turn", "chips received", "players", "active set's highest number",
    "active set is a set", "margin over the others' mean", "hand-flip phase",
)
MOVE = (
    "show", "scout", "Scout & Show", "keep or flip", "cards shown", "shows a set", "shows a run",
    "highest number shown", "cards captured", "empties the hand", "cards left", "shows to empty the hand left",
    "longest show left", "change in shows to empty", "equal neighbours left", "neighbours one apart left",
    "number scouted", "neighbours the scouted card matches", "scouted card turned", "gives a chip",
    "no other seat holds fewer cards", "cards shown beyond the active set's", "flips the hand",
    "cards left beyond the fewest of another seat",
)
HAND, SETS = 12.0, 6.0  # scales: a hand's cards, a show's cards


def _tops(cards) -> list[int]:
    return [c >> SHIFT for c in cards]


class Reader:
    """Reads decisions for one rules object (its plans of hands are shared with the other bots')."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.hands = HandReader(rules)
        codec = rules.codec
        self.width, self.scout_base, self.sns_base = codec.width, codec.scout_base, codec.sns_base
        self.sns_stride, self.show_count = codec.sns_stride, codec.show_count
        self.lowest, self.span = rules.lowest, max(rules.highest - rules.lowest, 1)

    def number(self, top: int) -> float:
        """A number as a fraction of the deck's range: the lowest 0, the highest 1."""
        return (top - self.lowest) / self.span

    # -- the context ------------------------------------------------------------------------

    def context(self, view: View) -> list[float]:
        me, n = view.seat, view.players
        others = [view.hand_sizes[s] for s in range(n) if s != me]
        other_totals = [view.totals[s] for s in range(n) if s != me]
        shows, longest = self.hands.plan(_tops(view.hand))
        owner = view.active_owner
        active = _tops(view.active)
        return [
            len(view.hand) / HAND, min(others) / HAND, sum(others) / len(others) / HAND, len(active) / SETS,
            float(owner == me), ((owner - me) % n) / n if owner is not None else 0.0,
            view.round / view.rounds, float(view.round + 1 == view.rounds),
            max(-3.0, min(3.0, (view.totals[me] - max(other_totals)) / 20)), view.chips_held[me] / 3,
            float(view.scout_show_chips[me] > 0), shows / SETS, longest / SETS, view.captured[me] / 10,
            min(view.turn / 60, 1.0), view.chips_received[me] / 5, n / 5,
            self.number(max(active)) if active else 0.0, float(len(active) > 1 and len(set(active)) == 1),
            max(-3.0, min(3.0, (view.totals[me] - sum(other_totals) / len(other_totals)) / 20)),
            float(view.phase == "flip"),
        ]

    # -- the candidates ---------------------------------------------------------------------

    def moves(self, view: View) -> tuple[list[int], list[list[float]]]:
        """Every legal keep/flip, show and scout (no Scout & Show), and its row."""
        codes: list[int] = []
        rows: list[list[float]] = []
        tops = _tops(view.hand)
        before = self.hands.plan(tops)[0]
        fewest = min(view.hand_sizes[s] for s in range(view.players) if s != view.seat)
        for code in view.legal:
            if code >= self.sns_base:
                continue
            codes.append(code)
            if code in (KEEP, FLIP):
                rows.append(self._flip(view.hand, code == FLIP, before, fewest))
            elif code < self.scout_base:
                rows.append(self._show(tops, code - SHOW_BASE, view.active, before, fewest, 0.0))
            else:
                rows.append(self._scout(view, tops, code - self.scout_base, before, fewest, False)[0])
        return codes, rows

    def read(self, view: View, scouts: int, extra: tuple[int, ...] = ()) -> tuple[list[float], list[int], list[list[float]]]:
        """The decision's context, and every candidate's code and row: the legal keep/flip, shows and
        scouts, and the Scout & Shows after the `scouts` best scouts (`best_scouts`) and in `extra`."""
        codes, rows = self.moves(view)
        if scouts > 0 and view.legal and view.legal[-1] >= self.sns_base:
            more, more_rows = self.scout_shows(view, self.best_scouts(view, scouts), extra)
            codes += more
            rows += more_rows
        return self.context(view), codes, rows

    def best_scouts(self, view: View, count: int) -> list[int]:
        """The `count` scouts (by index) some legal Scout & Show starts with that leave the hands needing the
        fewest shows (then the longest show, then the most neighbours joined): the Scout & Shows worth reading."""
        indices = sorted({(code - self.sns_base) // self.sns_stride for code in view.legal if code >= self.sns_base})
        tops = _tops(view.hand)
        before = self.hands.plan(tops)[0]
        fewest = min(view.hand_sizes[s] for s in range(view.players) if s != view.seat)
        keyed = []
        for index in indices:
            row = self._scout(view, tops, index, before, fewest, False)[0]
            keyed.append((row[11], -row[12], -row[17], index))
        return [index for *_, index in sorted(keyed)[:count]]

    def scout_shows(self, view: View, indices: list[int], extra: tuple[int, ...] = ()) -> tuple[list[int], list[list[float]]]:
        """The legal Scout & Shows that start with these scouts (and the codes in `extra`), and their rows."""
        chosen = set(indices)
        codes: list[int] = []
        rows: list[list[float]] = []
        tops = _tops(view.hand)
        before = self.hands.plan(tops)[0]
        fewest = min(view.hand_sizes[s] for s in range(view.players) if s != view.seat)
        scouted: dict[int, tuple[list[float], list[int], list[int]]] = {}
        for code in view.legal:
            if code < self.sns_base:
                continue
            index, show = divmod(code - self.sns_base, self.sns_stride)
            if index not in chosen and code not in extra:
                continue
            if index not in scouted:
                scouted[index] = self._scout(view, tops, index, before, fewest, True)
            row, after, left = scouted[index]
            codes.append(code)
            if show == self.show_count:  # a Scout & Show that ends as a plain scout (the 28-card game)
                rows.append(row)
            else:
                rows.append(self._show(after, show, left, before, fewest, 1.0))
        return codes, rows

    # -- one move's row ---------------------------------------------------------------------

    def _left(self, after: list[int], before: int, fewest: int) -> list[float]:
        """The row's part about the hand a move leaves."""
        shows, longest = self.hands.plan(after) if after else (0, 0)
        equal = apart = 0
        for a, b in pairwise(after):
            equal += a == b
            apart += abs(a - b) == 1
        return [float(not after), len(after) / HAND, shows / SETS, longest / SETS, float(shows - before),
                equal / SETS, apart / SETS]

    def _flip(self, hand: tuple[int, ...], flip: bool, before: int, fewest: int) -> list[float]:
        cards = hand
        if flip:
            order = reversed(hand) if self.rules.flip_reverses else hand
            cards = tuple(flipped(c) for c in order)
        after = _tops(cards)
        return [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, *self._left(after, before, fewest),
                0.0, 0.0, 0.0, 0.0, float(len(after) <= fewest), 0.0, float(flip), (len(after) - fewest) / HAND]

    def _show(self, tops: list[int], show: int, active, before: int, fewest: int, sns: float) -> list[float]:
        """A show (its code less SHOW_BASE) from these top numbers, beating `active` (cards)."""
        start, length = divmod(show, self.width)
        length += 1
        shown = tops[start:start + length]
        after = tops[:start] + tops[start + length:]
        kind_set = float(length > 1 and shown[0] == shown[-1])
        return [1.0 - sns, 0.0, sns, 0.0, length / SETS, kind_set, float(length > 1) - kind_set,
                self.number(max(shown)), len(active) / SETS, *self._left(after, before, fewest),
                0.0, 0.0, 0.0, 0.0, float(len(after) <= fewest), (length - len(active)) / 4,
                0.0, (len(after) - fewest) / HAND]

    def _scout(self, view: View, tops: list[int], index: int, before: int, fewest: int,
               sns: bool) -> tuple[list[float], list[int], list[int]]:
        """A scout by its index (end, flip, gap): its row, the top numbers after it and the active set left."""
        side, gap = divmod(index, self.width + 1)
        active = list(view.active)
        taken = active.pop() if side >= 2 else active.pop(0)
        turned = bool(side & 1)
        number = (flipped(taken) if turned else taken) >> SHIFT
        after = tops[:gap] + [number] + tops[gap:]
        joins = sum(1 for neighbour in (after[gap - 1] if gap else None, after[gap + 1] if gap + 1 < len(after) else None)
                    if neighbour is not None and abs(neighbour - number) <= 1)
        owner = view.active_owner
        row = [0.0, float(not sns), float(sns), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, *self._left(after, before, fewest),
               self.number(number), joins / 2, float(turned), float(owner is not None and owner != view.seat),
               float(len(after) <= fewest), 0.0, 0.0, (len(after) - fewest) / HAND]
        return row, after, active
