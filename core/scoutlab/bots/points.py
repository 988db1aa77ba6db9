"""The skilled bot's weights in a variant's own points.

The weights in skilled_weights.json were tuned where a captured card is worth 1, a chip
received 1, a card kept in hand -1 (and, in two-player games, a chip kept 1). A house
rule that changes those points changes what each move is worth, so the terms of the
move scoring that are points are scaled by the variant's own figures before a game:

  - `capture` (a captured card) by the points of a captured card;
  - `card`, `urgency` (a card kept) and `empty` (a card the others keep when the hand
    empties) by the penalty of a card in hand;
  - `scout` (what a scout gives away) by the chip it costs: the chip the active set's
    owner receives, or the chip the scout pays where the scout pays.

The terms that read the hand (`structure`, `set_bonus`, `shown`, `scout_show`, and, 0 where a
weights file has none, `plan`, per show the hand left needs to empty, and `height`, a show's
highest number) are not points and stay as they are. Two more are not points either (0 where
a weights file has none): a card's `tempo` and a scout's `scout_tempo`, what a card or a
scout costs in the race to empty the hand even where no point rides on it, so a variant with
no penalty for cards in hand still sheds them. In the official points a card's worth is `card + tempo`
and a scout's `scout + scout_tempo`: how a weights file splits them shows only where a
variant's points differ, so the default weights split each in halves (`split_evenly`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scoutlab.rules import Rules

#: The weights that are not points and may be missing from a weights file, with their defaults.
NOT_POINTS = {"tempo": 0.0, "scout_tempo": 0.0, "plan": 0.0, "height": 0.0}
#: A card's and a scout's worth that is not points: the race to empty the hand, read with the points term.
TEMPO = {"card": "tempo", "scout": "scout_tempo"}


@dataclass(frozen=True)
class Points:
    """What the move scoring's points terms are worth: the official game's figures by default."""

    captured: int = 1  # a captured card
    chip: int = 1  # the chip a scout gives away
    in_hand: int = -1  # a card left in hand (before any exemption)

    @classmethod
    def of(cls, rules: Rules) -> Points:
        # a scout costs the chip the owner receives, or, where the scout pays, the chip it pays (no one receives)
        return cls(rules.points_captured, rules.points_unspent if rules.scout_pays else rules.points_received,
                   rules.points_in_hand)


OFFICIAL = Points()


def split_evenly(weights: dict[str, Any]) -> dict[str, Any]:
    """`weights` with a card's worth and a scout's worth each split in halves between points and tempo, sums kept
    to the bit (half of a float doubles back exactly), so the game they were tuned on plays the same moves.

    There only the sums decide a move, so a tuning there leaves the split to chance; read in other points, the
    split a tuning left lost badly where halves played about even (docs/bots.md, "Bots that read the variant")."""
    even = {**weights}
    for points, tempo in TEMPO.items():
        total = weights[points] + weights.get(tempo, NOT_POINTS[tempo])
        even[points] = even[tempo] = total / 2
    return even


def figures(points: Points) -> dict[str, int]:
    """What each weight that is points is multiplied by under `points` (1 each in the official game's points)."""
    penalty = -points.in_hand
    return {"capture": points.captured, "card": penalty, "urgency": penalty, "empty": penalty, "scout": points.chip}


def in_points(weights: dict[str, Any], points: Points) -> dict[str, Any]:
    """The weights (tuned in the official game's points) as the move scoring reads them under `points`."""
    weights = {**NOT_POINTS, **weights}
    scaled = dict(weights)
    for key, figure in figures(points).items():
        scaled[key] = weights[key] * figure
        if key in TEMPO:
            scaled[key] += weights[TEMPO[key]]
    return scaled
