"""The fixed-size action and observation encoding of the PettingZoo environment (docs/rl.md).

Actions are the engine's own codes for hands of up to N cards (N = `rules.codec.width`,
the number of cards in the deck, so no hand can outgrow it), except Scout & Show, whose
N x N shows per scout would make the space ~375,000 wide. It is split in two decisions
of the same seat: first the scout ("scout and then show"), then, with the scouted card
in the hand, the show (or "none", where the spec allows seed 002's fallback).

    0 keep, 1 flip | 2 .. : show (start, length) | scout (end, flip, gap)
    | scout, then show (end, flip, gap) | none

The observation is one float32 vector, everything as the seat's View has it (never
another seat's cards): its hand and the active set as N slots of two one-hots (top and
bottom number), then per seat, starting with the observer's own and going round the
table, its counts, then the phase, the round and the turn, and where the scouted card
went while the show of a Scout & Show is still to choose.
"""

from __future__ import annotations

import numpy as np

from scoutlab.engine.actions import SHOW_BASE
from scoutlab.engine.cards import bottom, flipped, top
from scoutlab.engine.state import FLIPPING, OVER, PLAYING, GameState, View

PHASES = (FLIPPING, PLAYING, OVER)
SEAT_FEATURES = (
    "cards in hand", "captured cards", "chips received", "Scout chips held", "Scout & Show chips",
    "total", "owns the active set", "to act", "starting seat",
)
TOTAL_LIMIT = 10_000.0  # totals are clipped to +-this: a plugin's scoring may exceed any honest bound


class Encoding:
    """Actions and observations for one compiled variant and player count."""

    def __init__(self, rules, players: int):
        codec = self.codec = rules.codec
        self.players = players
        self.width = codec.width  # N: hand and active-set slots
        self.lowest = rules.lowest
        self.values = rules.highest - rules.lowest + 1  # V: one-hot length of a number
        self.max_turns = rules.max_turns
        # Actions: the engine's codes below sns_base, then the Scout & Show scouts, then "none".
        self.sns_scouts = codec.sns_base
        self.none = codec.sns_base + codec.scout_count
        self.size = self.none + 1
        # Observation layout: [hand | active | seats | phase | round, turn | gap of a pending Scout & Show scout].
        self.slot = 2 * self.values
        self.hand_at = 0
        self.active_at = self.width * self.slot
        self.seats_at = 2 * self.width * self.slot
        self.phase_at = self.seats_at + players * len(SEAT_FEATURES)
        self.progress_at = self.phase_at + len(PHASES)
        self.gap_at = self.progress_at + 2
        self.length = self.gap_at + self.width + 1
        self.low, self.high = self._bounds(rules)
        # One row per card int (top << 5 | bottom): its slot of two one-hots, so a hand encodes as one
        # fancy-indexing copy instead of a Python loop over its cards.
        self.card_rows = np.zeros((1 << 10, self.slot), dtype=np.float32)
        for c in range(1 << 10):
            t, b = top(c) - self.lowest, bottom(c) - self.lowest
            if 0 <= t < self.values and 0 <= b < self.values:
                self.card_rows[c, t] = 1
                self.card_rows[c, self.values + b] = 1

    def _bounds(self, rules) -> tuple[np.ndarray, np.ndarray]:
        low = np.zeros(self.length, dtype=np.float32)
        high = np.ones(self.length, dtype=np.float32)
        limits = (self.width, self.width, self.max_turns, max(rules.scout_chips, 0), max(rules.sns_chips, 0), None, 1, 1, 1)
        for seat in range(self.players):
            for i, limit in enumerate(limits):
                at = self.seats_at + seat * len(SEAT_FEATURES) + i
                if limit is None:
                    low[at], high[at] = -TOTAL_LIMIT, TOTAL_LIMIT
                else:
                    high[at] = max(limit, 1)
        return low, high

    # -- actions ------------------------------------------------------------------------------------

    def mask(self, legal: tuple[int, ...] | list[int], pending: int | None, out: np.ndarray | None = None) -> np.ndarray:
        """1 for every legal action of the seat to act; `pending` is its chosen Scout & Show scout, if any.

        Written into `out` when given (a row of a batch), else into a new vector.
        """
        if out is None:
            mask = np.zeros(self.size, dtype=np.int8)
        else:
            mask = out
            mask.fill(0)
        if not len(legal):
            return mask
        codec = self.codec
        codes = np.asarray(legal, dtype=np.int64)
        if pending is None:
            # Codes below sns_base are actions as they are; a Scout & Show code counts for its scout.
            scouts = self.sns_scouts + (codes - codec.sns_base) // codec.sns_stride
            mask[np.where(codes < codec.sns_base, codes, scouts)] = 1
            return mask
        shows = codes - (codec.sns_base + pending * codec.sns_stride)
        shows = shows[(shows >= 0) & (shows < codec.sns_stride)]  # the codes of this scout
        mask[np.where(shows == codec.show_count, self.none, SHOW_BASE + shows)] = 1
        return mask

    def starts_scout_and_show(self, action: int, pending: int | None) -> bool:
        return pending is None and self.sns_scouts <= action < self.none

    def engine_code(self, action: int, pending: int | None) -> int:
        """The engine's action code for an action that completes a turn (see `starts_scout_and_show`)."""
        if pending is None:
            return action  # keep, flip, show and scout codes are the engine's own
        first = self.codec.sns_base + pending * self.codec.sns_stride
        return first + (self.codec.show_count if action == self.none else action - SHOW_BASE)

    # -- observations -------------------------------------------------------------------------------

    def observe(self, view: View, pending: int | None) -> np.ndarray:
        """The seat's observation; with a Scout & Show scout pending, the hand and active set after it."""
        obs = np.zeros(self.length, dtype=np.float32)
        hand, active = list(view.hand), list(view.active)
        if pending is not None:
            scout = self.codec.decode(self.codec.scout_base + pending)  # the same (end, flip, gap) as a plain scout
            taken = active.pop() if scout.end else active.pop(0)
            hand.insert(scout.gap, flipped(taken) if scout.flip else taken)
            obs[self.gap_at + scout.gap] = 1
        self._cards(obs, self.hand_at, hand)
        self._cards(obs, self.active_at, active)
        n = view.players
        for i in range(n):
            seat = (view.seat + i) % n
            values = (
                view.hand_sizes[seat], view.captured[seat], view.chips_received[seat], view.chips_held[seat],
                view.scout_show_chips[seat], min(max(view.totals[seat], -TOTAL_LIMIT), TOTAL_LIMIT),
                view.active_owner == seat, view.to_act == seat, view.starting_seat == seat,
            )
            at = self.seats_at + i * len(SEAT_FEATURES)
            obs[at:at + len(values)] = values
        obs[self.phase_at + PHASES.index(view.phase)] = 1
        obs[self.progress_at] = view.round / view.rounds
        obs[self.progress_at + 1] = min(view.turn / self.max_turns, 1.0)
        return obs

    def observe_state(self, state: GameState, seat: int, pending: int | None, obs: np.ndarray | None = None) -> np.ndarray:
        """`observe(state.view(seat), pending)`, read straight off the state: no View, no per-card loop.

        Reads only what the seat's View holds (its own hand, the table, public counts), written
        into `obs` when given (a row of a batch), else into a new vector.
        """
        if obs is None:
            obs = np.zeros(self.length, dtype=np.float32)
        else:
            obs.fill(0)
        hand, active = state.hands[seat], state.active
        if pending is not None:
            hand, active = list(hand), list(active)
            side, gap = divmod(pending, self.width + 1)  # the same (end, flip, gap) layout as a plain scout
            taken = active.pop() if side >= 2 else active.pop(0)
            hand.insert(gap, flipped(taken) if side & 1 else taken)
            obs[self.gap_at + gap] = 1
        width, slot = self.width, self.slot
        if hand:
            obs[self.hand_at:self.hand_at + min(len(hand), width) * slot] = self.card_rows[hand[:width]].ravel()
        if active:
            obs[self.active_at:self.active_at + min(len(active), width) * slot] = self.card_rows[active[:width]].ravel()
        n = state.players
        values: list[float] = []
        for i in range(n):  # one assignment of every seat's counts: numpy calls cost more than these few ints
            s = (seat + i) % n
            values += (
                len(state.hands[s]), len(state.captured[s]), state.chips_received[s], state.chips_held[s],
                state.scout_show_chips[s], min(max(state.totals[s], -TOTAL_LIMIT), TOTAL_LIMIT),
                state.active_owner == s, state.to_act == s, state.starting_seat == s,
            )
        obs[self.seats_at:self.phase_at] = values
        obs[self.phase_at + PHASES.index(state.phase)] = 1
        obs[self.progress_at] = state.round / state.rounds
        obs[self.progress_at + 1] = min(state.turn / self.max_turns, 1.0)
        return obs

    def _cards(self, obs: np.ndarray, at: int, cards: list[int]) -> None:
        for slot, c in enumerate(cards[: self.width]):
            base = at + slot * self.slot
            obs[base + top(c) - self.lowest] = 1
            obs[base + self.values + bottom(c) - self.lowest] = 1

    def describe(self, action: int, pending: int | None, state: GameState) -> str:
        """An action in the engine's notation: `show 2-4`, `scout left 1`, `scout right 0, then show ...`."""
        if self.starts_scout_and_show(action, pending):
            scout = state.format(self.codec.scout_base + action - self.sns_scouts)
            return f"{scout}, then show"
        return state.format(self.engine_code(action, pending))
