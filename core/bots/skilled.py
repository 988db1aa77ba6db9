"""The skilled bot: one-move planning with a fast, tuned reading of the hand it leaves.

Every candidate move is scored by what it does now and by the hand it leaves:
  - a show captures the active set (its cards are points) and sheds cards; a show that
    empties the hand is worth the cards the others still hold;
  - a scout gives the active set's owner a chip and takes a card;
  - the hand left is read as its count of cards and its "structure": every set and run of
    two or more adjacent cards in it, longer ones counting more (sets a little more than
    runs, since they beat runs of the same length; runs, where the rules rank them first);
and weighed by a few weights (skilled_weights.json), tuned by self-play (scripts/train_skilled.py).

It is fast because it never copies the game: the moves come from the legal codes by
arithmetic, a hand's structure is cached by its numbers, and of the hundreds of Scout &
Shows it weighs only those after the few scouts that leave the best hands. What a show
is comes from the rules object (`append_shows`), so plugins that change shows change its
reading too. Back in a position it has played before, it plays its best move not yet
played there (`cycles.Positions`), so the table cannot loop until the turn cap.
"""

from __future__ import annotations

import json
import random
import weakref
from collections.abc import Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any

from scoutlab.bots.cycles import Positions
from scoutlab.bots.hand import flip_hand
from scoutlab.bots.options import bot_options
from scoutlab.engine.actions import FLIP, KEEP, SHOW_BASE
from scoutlab.engine.cards import MASK, SHIFT

if TYPE_CHECKING:
    from scoutlab.engine.state import GameState, View
    from scoutlab.rules import Rules

# The weights, tuned by self-play (scripts/train_skilled.py), one set per family of player counts.
WEIGHTS_FILE = "skilled_weights.json"
WEIGHTS: dict[str, Any] = json.loads(resources.files(__package__).joinpath(WEIGHTS_FILE).read_text())


def family(players: int) -> str:
    """The weights a player count uses: two players play another game (chips, an extra turn)."""
    return "two-player" if players == 2 else "three-to-five"


# Every option a user may set (`skilled:capture=1.5`), with the three-to-five player weights as defaults.
DEFAULTS: dict[str, Any] = dict(WEIGHTS["families"]["three-to-five"])
DEFAULTS["sns_scouts"] = 4  # Scout & Shows weighed: after this many of the best scouts
_CACHE_LIMIT = 200_000  # hand readings kept; cleared when full, so memory stays bounded
# Hand readings shared by every skilled bot of one rules object in a process: a simulation makes
# new bots for every game, and a cold cache would make each game pay for every hand again.
_READINGS: weakref.WeakKeyDictionary[Rules, dict[float, dict[tuple[int, ...], float]]] = weakref.WeakKeyDictionary()
# RUNS[k]: the lengths of the shows of 2+ adjacent cards inside a run of k cards, summed: sum of (k - j + 1) * j, j >= 2.
# Numbers fit in five bits, so no set or run is longer than 31 cards.
RUNS = [sum((k - j + 1) * j for j in range(2, k + 1)) for k in range(64)]


def _order(item: tuple[float, int]) -> tuple[float, int]:
    """Higher value first; between equals, the lower code, so play does not depend on listing order."""
    return item[0], -item[1]


def best_code(moves: list[tuple[float, int]]) -> int:
    """The code of the best of `SkilledBot.moves`."""
    return max(moves, key=_order)[1]


class SeatView:
    """The part of a seat's View that `SkilledBot.moves` reads, made straight from a state (for search rollouts)."""

    __slots__ = ("active", "hand", "hand_sizes", "legal", "players", "seat")

    def __init__(self, state: GameState):
        seat = state.to_act
        self.seat = seat
        self.players = state.players
        self.hand = state.hands[seat]
        self.hand_sizes = [len(h) for h in state.hands]
        self.active = state.active
        self.legal = state.legal_actions()


class SkilledBot:
    """Scores every show and scout, and the Scout & Shows after the best scouts; plays the best."""

    name = "skilled"

    def __init__(self, rules: Rules, rng: random.Random, options: dict[str, Any]):
        checked = bot_options(self.name, options, DEFAULTS)
        self.overrides = {key: checked[key] for key in options}  # win over the family's weights
        # per player count: (weights, the shared hand readings for its set bonus, the structure of a set of k)
        self._families: dict[int, tuple[dict[str, Any], dict[tuple[int, ...], float], list[float]]] = {}
        self.rules = rules  # it draws no random numbers: the same view always gets the same move
        codec = rules.codec
        self.width = codec.width
        self.scout_base = codec.scout_base
        self.sns_base = codec.sns_base
        self.sns_stride = codec.sns_stride
        self.empty_beat = rules.strength([])
        self.positions = Positions()
        self.use_weights(max(rules.players))
        self._count = self._builtin_structure if rules.builtin_shows else self._general_structure
        self.prune = rules.builtin_shows
        # Which kind earns `set_bonus`: the one that wins between a set and a run of as many cards
        # (sets under the official order; a plugin may rank runs first).
        low = rules.lowest
        self.sets_first = rules.beats((low, low), (low, low + 1))

    def use_weights(self, players: int) -> None:
        """Play with the weights of this player count's family (and the options given)."""
        found = self._families.get(players)
        if found is None:
            weights = {**DEFAULTS, **WEIGHTS["families"][family(players)], **self.overrides}
            bonus = weights["set_bonus"]
            readings = _READINGS.setdefault(self.rules, {}).setdefault(bonus, {})
            sets = [RUNS[k] + bonus * k * (k - 1) / 2 for k in range(64)]  # each of the k(k-1)/2 shows earns the bonus
            found = self._families[players] = (weights, readings, sets)
        self.options, self._structure, self._sets = found

    def act(self, view: View) -> int:
        self.use_weights(view.players)
        if view.phase == "flip":
            return self.choose_flip(view.hand)
        tried = self.positions.tried(view)
        if not tried:
            return self.positions.note(view, best_code(self.moves(view)))
        # Here before in this round: the best move not yet played here, so a loop cannot repeat.
        return self.positions.choose(view, [code for _, code in self.ranked(view)])

    # -- the hand flip -----------------------------------------------------------------------

    def choose_flip(self, hand: tuple[int, ...]) -> int:
        kept = self.hand_value([c >> SHIFT for c in hand])
        turned = self.hand_value([c >> SHIFT for c in flip_hand(self.rules, hand)])
        return FLIP if turned > kept + 1e-9 else KEEP

    # -- scoring the moves ---------------------------------------------------------------------

    def ranked(self, view: View) -> list[tuple[float, int]]:
        """(value, code) of every move weighed, best first."""
        return sorted(self.moves(view), key=_order, reverse=True)

    def moves(self, view: View | SeatView) -> list[tuple[float, int]]:
        """(value, code) of every move weighed: the shows, the scouts worth weighing, some Scout & Shows."""
        o = self.options
        width, scout_base = self.width, self.scout_base
        legal = view.legal
        tops = [c >> SHIFT for c in view.hand]
        value = self.valuer(view)
        others = sum(view.hand_sizes) - len(tops)
        capture = o["capture"] * len(view.active)
        scored: list[tuple[float, int]] = []
        # The engine lists shows, then scouts, then Scout & Shows (legal.play_codes).
        at = 0
        while at < len(legal) and legal[at] < scout_base:
            rel = legal[at] - SHOW_BASE
            start, length = rel // width, rel % width + 1
            left = tops[:start] + tops[start + length:]
            v = capture + o["shown"] * length + value(left)
            if not left:
                v += o["empty"] * others
            scored.append((v, legal[at]))
            at += 1
        if at < len(legal):  # it may scout: every scout is legal (legal.append_scouts)
            scouts = [(value(hand) - o["scout"], index, hand) for index, hand in self.scouts(tops, view.active)]
            scored += [(v, scout_base + index) for v, index, _ in scouts]
            if legal[-1] >= self.sns_base:
                scored += self.scout_shows(view, scouts)
        return scored or [(0.0, legal[0])]  # only Scout & Shows with no show: the first

    def scouts(self, tops: list[int], active: Sequence[int]) -> list[tuple[int, list[int]]]:
        """(scout index, hand's numbers after it) of the scouts worth weighing.

        Under the built-in shows a card that joins no neighbour adds nothing wherever it goes,
        so besides the gaps beside a card within one of it, only the hand's two ends are weighed
        (they break no set or run). Under plugins every gap is weighed.
        """
        n, stride = len(tops), self.width + 1
        out = []
        for end in (0,) if len(active) == 1 else (0, 1):
            taken = active[-1] if end else active[0]
            for flip, number in ((0, taken >> SHIFT), (1, taken & MASK)):
                base = (end * 2 + flip) * stride
                if self.prune:
                    gaps = [g for g in range(1, n) if -1 <= tops[g - 1] - number <= 1 or -1 <= tops[g] - number <= 1]
                    gaps += [0, n] if n else [0]
                else:
                    gaps = list(range(n + 1))
                out += [(base + g, tops[:g] + [number] + tops[g:]) for g in gaps]
        return out

    def scout_shows(self, view: View | SeatView, scouts: list[tuple[float, int, list[int]]]) -> list[tuple[float, int]]:
        """Scout & Shows after the best few scouts: each show their new hand allows."""
        o = self.options
        rules, width, stride = self.rules, self.width, self.sns_stride
        active = list(view.active)
        capture = o["capture"] * (len(active) - 1)
        others = sum(view.hand_sizes) - len(view.hand)
        cost = o["scout"] + o["scout_show"]
        value = self.valuer(view)
        scouts.sort(key=lambda item: (-item[0], item[1]))  # the best scouts first
        out: list[tuple[float, int]] = []
        beats: dict[int, Any] = {}
        for _, index, hand in scouts[: o["sns_scouts"]]:
            end = index // (width + 1) // 2
            beat = beats.get(end)
            if beat is None:
                beat = beats[end] = rules.strength(active[:-1] if end else active[1:])
            base = self.sns_base + index * stride
            codes: list[int] = []
            rules.append_shows(hand, beat, 0, codes)
            for rel in codes:
                start, length = rel // width, rel % width + 1
                left = hand[:start] + hand[start + length:]
                v = capture + o["shown"] * length + value(left) - cost
                if not left:
                    v += o["empty"] * others
                out.append((v, base + rel))
        return out

    # -- reading a hand ------------------------------------------------------------------------

    def hand_value(self, tops: list[int]) -> float:
        """Points a hand is worth as it stands: its structure, less its cards."""
        o = self.options
        return o["structure"] * self.structure(tops) - o["card"] * len(tops)

    def valuer(self, view: View | SeatView):
        """hand -> points in this position: cards cost more when another seat is close to emptying its hand."""
        o = self.options
        fewest = min((size for seat, size in enumerate(view.hand_sizes) if seat != view.seat), default=0)
        card = o["card"] + o["urgency"] / (1 + fewest)
        weight, structure = o["structure"], self.structure
        return lambda tops: weight * structure(tops) - card * len(tops)

    def structure(self, tops: list[int]) -> float:
        """Every show of 2+ adjacent cards counts its length, a set `set_bonus` more (cached)."""
        key = tuple(tops)
        found = self._structure.get(key)
        if found is not None:
            return found
        total = self._count(tops)
        if len(self._structure) >= _CACHE_LIMIT:
            self._structure.clear()
        self._structure[key] = total
        return total

    def _builtin_structure(self, tops: list[int]) -> float:
        """`structure` under the built-in shows, in one pass: each set or run counts when it ends."""
        sets = self._sets
        total = 0.0
        same = up = down = 1
        last = -9
        for number in tops:
            step = number - last
            if step == 0:
                same += 1
            elif same > 1:
                total += sets[same]
                same = 1
            if step == 1:
                up += 1
            elif up > 1:
                total += RUNS[up]
                up = 1
            if step == -1:
                down += 1
            elif down > 1:
                total += RUNS[down]
                down = 1
            last = number
        return total + sets[same] + RUNS[up] + RUNS[down]

    def _general_structure(self, tops: list[int]) -> float:
        """`structure` through the rules' own show finder, for plugins that change what a show is."""
        codes: list[int] = []
        self.rules.append_shows(tops, self.empty_beat, 0, codes)
        width, bonus = self.width, self.options["set_bonus"]
        total = 0.0
        for rel in codes:
            length = rel % width + 1
            if length > 1:
                start = rel // width
                total += length + (bonus if (tops[start] == tops[start + 1]) == self.sets_first else 0.0)
        return total
