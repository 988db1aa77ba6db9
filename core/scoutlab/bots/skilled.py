"""The skilled bot: one-move planning with a fast, tuned reading of the hand it leaves.

Every candidate move is scored by what it does now and by the hand it leaves:
  - a show captures the active set (its cards are points) and sheds cards; a show that
    empties the hand is worth the cards the others still hold;
  - a scout gives the active set's owner a chip and takes a card;
  - the hand left is read as its count of cards and its "structure": every set and run of
    two or more adjacent cards in it, longer ones counting more (sets a little more than
    runs, since they beat runs of the same length; runs, where the rules rank them first),
    and, where the weights give it a `plan` weight, the fewest shows that empty it (the race to
    empty a hand is lost by a hand that needs more shows, however long its runs);
  - where the weights give it a `height` weight, a show's highest number (a low show now keeps
    the high cards that take the table later);
and weighed by a few weights (skilled_weights.json), tuned by self-play (scripts/train_skilled.py),
the 5-player ones fitted to choose as the network bot does (scripts/fit_skilled_imitation.py),
and the 4- and 5-player ones last tuned against it with the `plan` term (train_skilled.py --against network).
The weights are read in the variant's own points (points.py: a house rule that doubles the
points of a captured card doubles what a capture is worth to the bot), and where
`scoutlab tune` fitted weights to the variant, those are played instead (tuned.py). The
option `weights=official` plays the official game's weights unscaled, whatever the variant:
the bot a tuning is measured against.

It is fast because it never copies the game: the moves come from the legal codes by
arithmetic, a hand is read once per decision into tables every move is weighed from, and
of the hundreds of Scout & Shows it weighs only those after the few scouts that leave the
best hands. What a show is comes from the rules object (`append_shows`, and under plugins
its trie of classified shows, `rules.trie`), so plugins that change shows change its
reading too. Back in a position it has played before, it plays its best move not yet
played there (`cycles.Positions`), so the table cannot loop until the turn cap.
"""

from __future__ import annotations

import json
import random
from importlib import resources
from typing import TYPE_CHECKING, Any

from scoutlab.base.errors import BotError
from scoutlab.base.limits import excerpt
from scoutlab.bots import tuned, weighing as reference_weighing
from scoutlab.bots.cycles import Positions
from scoutlab.bots.hand import flip_hand
from scoutlab.bots.options import bot_options, positive
from scoutlab.bots.points import NOT_POINTS, OFFICIAL, Points, in_points
from scoutlab.engine import native
from scoutlab.engine.actions import FLIP, KEEP
from scoutlab.engine.cards import SHIFT
from scoutlab.rules import load_rules

if TYPE_CHECKING:
    from scoutlab.engine.state import GameState, View
    from scoutlab.rules import Rules

# The default weights, tuned by self-play (scripts/train_skilled.py), one set per player count.
WEIGHTS_FILE = "skilled_weights.json"
WEIGHTS: dict[str, Any] = json.loads(resources.files(__package__).joinpath(WEIGHTS_FILE).read_text())


def default_weights(players: int) -> dict[str, float]:
    """The default weights of a player count: its own, or the nearest count's (a house rule may seat six)."""
    counts = WEIGHTS["counts"]
    return counts[str(min(map(int, counts), key=lambda n: (abs(n - players), n)))]


def count_settings(players: int) -> dict[str, Any]:
    """The settings of a count's default weights that no tuning fits (how many scouts' Scout & Shows are
    weighed): weights tuned for a house rule play them as the count's defaults do."""
    return {key: value for key, value in default_weights(players).items() if key in UNTUNED}


def reference_variant(players: int) -> str:
    """The variant the default weights of a player count were tuned on: two players play another game."""
    return "two-player" if players == 2 else "official"


_reference_digests: dict[str, str] = {}


def tuning(rules: Rules, players: int) -> str:
    """How the weights fit these rules at this count: "tuned" (`scoutlab tune` fitted them), "reference" (the
    rules the default weights were tuned on) or "untuned" (the default weights, read in the variant's points)."""
    if tuned.find(rules, players) is not None:
        return "tuned"
    reference = reference_variant(players)
    if reference not in _reference_digests:
        _reference_digests[reference] = tuned.play_digest(load_rules(reference))
    return "reference" if tuned.play_digest(rules) == _reference_digests[reference] else "untuned"


# Every option a user may set (`skilled:capture=1.5`), the 4-player weights as the defaults shown in messages.
DEFAULTS: dict[str, Any] = {**NOT_POINTS, **default_weights(4)}
DEFAULTS["sns_scouts"] = 4  # Scout & Shows weighed: after this many of the best scouts (a count's weights may set it)
UNTUNED = ("sns_scouts",)  # settings a count's weights may give that `scoutlab tune` does not fit
DEFAULTS["weights"] = "variant"  # or "official": the official game's weights, unscaled, untuned
WEIGHT_SOURCES = ("variant", "official")
# The move scoring: compiled with mypyc where it is built and the engine's loop is too (it calls the
# compiled listing), else its source (weighing.py), which is the reference.
if native.legal is native.reference:
    _compiled, WEIGHING_BUILD = None, native.BUILD
else:
    _compiled, WEIGHING_BUILD = native.pick(__package__, "_weighing_native", "weighing.py")
weighing = _compiled or reference_weighing


def _table(view: View, weigher: Any) -> tuple[list[int], bool, list[int], list[int], list[int], int]:
    """What the weigher reads of a view, as the lists its compiled build takes: legal, whether a
    Scout & Show is legal, hand, active set, sizes, seat."""
    legal = list(view.legal)
    return legal, weigher.lists_scout_shows(legal), list(view.hand), list(view.active), list(view.hand_sizes), view.seat


def _order(item: tuple[float, int]) -> tuple[float, int]:
    """Higher value first; between equals, the lower code, so play does not depend on listing order."""
    return item[0], -item[1]


class SkilledBot:
    """Scores every show and scout, and the Scout & Shows after the best scouts; plays the best."""

    name = "skilled"

    def __init__(self, rules: Rules, rng: random.Random, options: dict[str, Any]):
        checked = bot_options(self.name, options, DEFAULTS)
        if checked["weights"] not in WEIGHT_SOURCES:
            raise BotError(f"bot 'skilled': option weights={excerpt(checked['weights'])} must be one of "
                           f"{', '.join(WEIGHT_SOURCES)}")
        self.official = checked["weights"] == "official"
        positive(self.name, "sns_scouts", checked["sns_scouts"], allow_zero=True)
        self.overrides = {key: checked[key] for key in options if key != "weights"}  # win over the count's weights
        # per player count: (weights as given, the same ready for the weigher)
        self._counts: dict[int, tuple[dict[str, Any], Any]] = {}
        self.rules = rules  # it draws no random numbers: the same view always gets the same move
        codec = rules.codec
        self.positions = Positions()
        # under plugins, a hand is read through the rules' own trie of classified shows
        self.weigher = weighing.Weigher(codec.width, codec.scout_base, codec.sns_base, codec.sns_stride, rules,
                                        None if rules.builtin_shows else rules.trie)
        self.use_weights(max(rules.players))

    def use_weights(self, players: int) -> None:
        """Play with the weights for this player count (and the options given), in the variant's points."""
        found = self._counts.get(players)
        if found is None:
            # NOT_POINTS under the count's weights: a set tuned before a weight existed plays it at its default (0)
            weights = {**DEFAULTS, **NOT_POINTS, **count_settings(players), **self.base_weights(players),
                       **self.overrides}
            del weights["weights"]
            points = OFFICIAL if self.official else Points.of(self.rules)
            found = self._counts[players] = (weights, weighing.Weights(in_points(weights, points)))
        self.options, self.weights = found

    def base_weights(self, players: int) -> dict[str, Any]:
        """The weights before scaling: tuned for these rules and count if `scoutlab tune` fitted them, else the defaults."""
        fitted = None if self.official else tuned.find(self.rules, players)
        return fitted.weights if fitted is not None else default_weights(players)

    def act(self, view: View) -> int:
        self.use_weights(view.players)
        if view.phase == "flip":
            return self.choose_flip(view.hand)
        tried = self.positions.tried(view)
        if not tried:
            return self.positions.note(view, self.weigher.best(self.weights, *_table(view, self.weigher)))
        # Here before in this round: the best move not yet played here, so a loop cannot repeat.
        return self.positions.choose(view, [code for _, code in self.ranked(view)])

    def play_out(self, state: GameState, moves: int, ended: int) -> None:
        """Play on as this bot in every seat of a game it may see whole, `moves` moves (-1: no limit) while
        `ended` rounds have ended. A search's rollout, on its own copy of the game (left as it is where plugin code
        raises): no cycle memory, so a rollout can meet the turn cap, which ends it."""
        self.weigher.play_out(self.weights, state, moves, ended)

    # -- the hand flip -----------------------------------------------------------------------

    def choose_flip(self, hand: tuple[int, ...]) -> int:
        kept = self.hand_value([c >> SHIFT for c in hand])
        turned = self.hand_value([c >> SHIFT for c in flip_hand(self.rules, hand)])
        return FLIP if turned > kept + 1e-9 else KEEP

    # -- scoring the moves ---------------------------------------------------------------------

    def ranked(self, view: View) -> list[tuple[float, int]]:
        """(value, code) of every move weighed, best first."""
        return sorted(self.moves(view), key=_order, reverse=True)

    def moves(self, view: View) -> list[tuple[float, int]]:
        """(value, code) of every move weighed: the shows, the scouts worth weighing, some Scout & Shows (weighing.py)."""
        values: list[float] = []
        codes: list[int] = []
        self.weigher.weigh(self.weights, *_table(view, self.weigher), values, codes)
        return list(zip(values, codes))

    # -- reading a hand ------------------------------------------------------------------------

    def hand_value(self, tops: list[int]) -> float:
        """Points a hand is worth as it stands: its structure, less its cards."""
        return self.weigher.hand_value(self.weights, tops)
