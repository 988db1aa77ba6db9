"""The heuristic bot: one-move planning with a model of the round's end.

For each candidate move it builds the hand that would remain, then scores the move in
points, as "my round score minus the other seats'" (the last round: minus the best
other total, since only winning counts then):
  - what the move earns now: captured cards, chips (given to an owner, or paid);
  - whether the move ends the round, found by trying it on a sampled game with the real
    engine (so every end condition and the exemption come from the rules, not from here);
  - the cards likely left in hand when the round ends: the fewer shows that empty the
    hand (HandReader.plan) and the more turns are left before someone runs out, the fewer;
  - the chance that a show holds (nobody beats it before the turn comes back), estimated
    by dealing random hands of the opponents' sizes and asking the rules whether any of
    their shows beats it; a show that holds brings the scouts' chips and the exemption;
  - a Scout & Show chip kept is worth a point or so; the longest set or run kept in hand
    is worth a little (holding a strong set back for later).
With an extra turn after scouting (official two players) a scout is worth the best move
it leads to. The hand flip compares both orientations with the same hand reading.
Back in a position it has played before in the round, it plays its best move not yet
played there (`cycles.Positions`), so the table cannot loop until the turn cap.
"""

from __future__ import annotations

import random
import weakref
from typing import TYPE_CHECKING, Any, NamedTuple

from scoutlab.bots.cycles import Positions
from scoutlab.bots.determinize import Knowledge, sample_state
from scoutlab.bots.hand import HandReader, flip_hand, tops
from scoutlab.bots.options import bot_options, positive
from scoutlab.engine.actions import FLIP, KEEP, Scout, ScoutShow, Show
from scoutlab.engine.cards import SHIFT, flipped

if TYPE_CHECKING:
    from scoutlab.engine.state import GameState, View
    from scoutlab.rules import Rules

DEFAULTS = {
    "hold_samples": 48,  # random hands dealt to estimate whether a show holds
    "sns_value": 1.0,  # points a Scout & Show chip is worth while kept
    "keep_longest": 0.3,  # points per card of the longest show kept in hand
    "scouts": 6,  # scouts (and as many Scout & Shows) considered, best hands first
    "chip_value": 1.5,  # points a held Scout chip is worth beyond its score: the right to scout again
}
# The chance that a show is beaten, by (strength, hand size, players, samples), shared by every heuristic
# bot of one rules object in a process: each entry is dealt from a seed of its own key, so sharing
# changes no answer, and a simulation that makes new bots every game does not deal them all again.
_BEATEN: weakref.WeakKeyDictionary[Rules, dict[tuple, float]] = weakref.WeakKeyDictionary()


class Move(NamedTuple):
    """A legal action and the hand it leaves (a named tuple: a decision makes one per legal action)."""

    code: int
    hand: tuple[int, ...]  # the hand after the move
    shown: tuple[int, ...] | None  # top numbers of the cards shown, if any
    scouts: bool


class HeuristicBot:
    """Scores every sensible move by its points now and a model of the rest of the round."""

    name = "heuristic"

    def __init__(self, rules: Rules, rng: random.Random, options: dict[str, Any]):
        self.options = bot_options(self.name, options, DEFAULTS)
        for key in ("hold_samples", "scouts"):  # far above the defaults (48, 6): a million ran past 40 s unanswered
            positive(self.name, key, self.options[key], most=10_000)
        self.rules = rules
        self.rng = rng
        self.reader = HandReader(rules)
        self.knowledge = Knowledge(rules)
        self._beaten = _BEATEN.setdefault(rules, {})
        self.positions = Positions()

    def act(self, view: View) -> int:
        self.knowledge.observe(view)
        if view.phase == "flip":
            return self.choose_flip(view.hand)
        moves = self.candidates(view)
        tried = self.positions.tried(view)
        if len(moves) == 1 and not tried:
            return self.positions.note(view, moves[0].code)
        sample = sample_state(self.rules, view, self.knowledge, self.rng)
        sample.legal_actions()  # listed once here, each copy tried below has it for apply's check

        def score(m: Move) -> tuple[float, int]:
            return self.value(view, sample, m, lookahead=True), -m.code

        if not tried:
            return self.positions.note(view, max(moves, key=score).code)
        # Here before in this round: the best move not yet played here, so a loop cannot repeat.
        return self.positions.choose(view, [m.code for m in sorted(moves, key=score, reverse=True)])

    # -- the hand flip ---------------------------------------------------------------------

    def hand_score(self, hand) -> float:
        shows, longest = self.reader.plan(tops(hand))
        return -shows + self.options["keep_longest"] * longest

    def choose_flip(self, hand: tuple[int, ...]) -> int:
        """Flip when the turned hand reads better: fewer shows to empty it, a longer best show."""
        turned = self.hand_score(flip_hand(self.rules, hand))
        return FLIP if turned > self.hand_score(hand) + 1e-9 else KEEP

    # -- candidate moves -------------------------------------------------------------------

    def candidates(self, view: View) -> list[Move]:
        """Every show; the scouts and Scout & Shows that leave the best-reading hands."""
        moves = [self.move(view, code) for code in view.legal]
        shows = [m for m in moves if not m.scouts]
        scouts = [m for m in moves if m.scouts and m.shown is None]
        combos = [m for m in moves if m.scouts and m.shown is not None]
        keep = self.options["scouts"]
        scouts.sort(key=lambda m: (-self.hand_score(m.hand), m.code))
        combos.sort(key=lambda m: (-len(m.shown or ()) - self.hand_score(m.hand), m.code))
        return shows + scouts[:keep] + combos[:keep] or moves

    def move(self, view: View, code: int) -> Move:
        action = self.rules.codec.decode(code)
        hand = list(view.hand)
        scout: Scout | None
        show: Show | None
        if isinstance(action, Show):
            scout, show = None, action
        elif isinstance(action, Scout):
            scout, show = action, None
        elif isinstance(action, ScoutShow):
            scout, show = action.scout, action.show
        else:  # the hand flip is chosen apart (choose_flip)
            scout, show = None, None
        if scout is not None:
            taken = view.active[-1] if scout.end else view.active[0]
            hand.insert(scout.gap, flipped(taken) if scout.flip else taken)
        shown = None
        if show is not None:
            shown = tuple(c >> SHIFT for c in hand[show.start:show.start + show.length])
            del hand[show.start:show.start + show.length]
        return Move(code, tuple(hand), shown, scout is not None)

    # -- scoring a move --------------------------------------------------------------------

    def value(self, view: View, sample: GameState, move: Move, lookahead: bool) -> float:
        """The move's worth in points relative to the other seats (see the module docstring)."""
        me = view.seat
        after = sample.clone()
        after.apply(move.code)
        if len(after.round_ends) > len(view.round_ends):
            return self.margin(view, list(after.round_ends[-1].scores))
        if lookahead and after.to_act == me and after.phase == "play":
            # an extra turn after the scout: the scout is worth the best move it allows
            again = after.view(me)
            return max(self.value(again, after, m, lookahead=False) for m in self.candidates(again))
        return self.estimate(view, after, move)

    def estimate(self, view: View, after: GameState, move: Move) -> float:
        """Expected round score margin when the round goes on after the move."""
        rules, me, n = self.rules, view.seat, view.players
        accrued = [
            len(after.captured[i]) * rules.points_captured
            + after.chips_received[i] * rules.points_received
            + after.chips_held[i] * rules.points_unspent
            for i in range(n)
        ]
        sizes = [len(h) for h in after.hands]
        fewest_other = min(sizes[i] for i in range(n) if i != me)
        my_left = self.cards_left(move.hand, fewest_other)
        others_left = [sizes[i] * 0.5 for i in range(n)]
        penalty = rules.points_in_hand  # negative: each card left in hand
        hold = 0.0
        if move.shown is not None and after.active_owner == me:
            hold = self.holds(move.shown, [sizes[i] for i in range(n) if i != me], view.players)
        mine = accrued[me] + my_left * penalty
        mine += hold * ((-my_left * penalty if rules.exemption else 0) + (n - 1) * rules.points_received * 0.7)
        mine += self.options["sns_value"] * after.scout_show_chips[me]
        mine += self.options["chip_value"] * after.chips_held[me]
        mine += self.options["keep_longest"] * self.reader.plan(tops(move.hand))[1]
        others = [accrued[i] + others_left[i] * penalty * (1 + hold) for i in range(n)]
        return self.margin(view, [mine if i == me else others[i] for i in range(n)])

    def margin(self, view: View, round_scores: list[float]) -> float:
        """My round score minus the others' mean; in the last round, my total minus the best other total."""
        me = view.seat
        others = [i for i in range(view.players) if i != me]
        if view.round + 1 == view.rounds:
            totals = [view.totals[i] + round_scores[i] for i in range(view.players)]
            return totals[me] - max(totals[i] for i in others)
        return round_scores[me] - sum(round_scores[i] for i in others) / len(others)

    def cards_left(self, hand: tuple[int, ...], fewest_other: int) -> float:
        """Cards likely still in hand at the round's end: more shows needed and fewer turns left, more cards."""
        if not hand:
            return 0.0
        shows = self.reader.plan(tops(hand))[0]
        turns = 0.6 * (1 + fewest_other / 2)  # my turns before someone runs out, a show on most of them
        return len(hand) * max(0.1, 1 - turns / shows)

    def holds(self, shown: tuple[int, ...], other_sizes: list[int], players: int) -> float:
        """Chance that no other seat beats this show: each one's chance from random hands of its size."""
        chance = 1.0
        for size in other_sizes:
            chance *= 1 - self.beaten(shown, size, players)
        return chance

    def beaten(self, shown: tuple[int, ...], size: int, players: int) -> float:
        """Share of random hands of `size` cards with a show that beats `shown` (cached per strength)."""
        if size == 0:
            return 0.0
        strength = self.reader.strength(shown)
        count = self.options["hold_samples"]
        key = (strength if self.rules.builtin_shows else shown, size, players)
        found = self._beaten.get(key + (count,))
        if found is None:
            deck = self.rules.deck_for(players)
            dealer = random.Random(hash(key) if self.rules.builtin_shows else hash((shown, size, players)))
            hits = 0
            for _ in range(count):
                cards = dealer.sample(deck, min(size, len(deck)))
                values = [(flipped(c) if dealer.random() < 0.5 else c) >> SHIFT for c in cards]
                hits += bool(self.reader.spans(values, strength))
            self._beaten[key + (count,)] = found = hits / count
        return found
