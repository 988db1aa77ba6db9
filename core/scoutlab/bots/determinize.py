"""What a seat knows about the hidden cards, and sampling the hidden cards consistently with it.

A seat sees its own hand, the active set and the public history (docs/rules.md §10.9). From
the history it can follow cards it has seen: a card scouted from an active set it knew
sits, face known, at a known position in the scout's hand; a set it knew that was beaten
is out of play for this round. `Knowledge` replays the round's public history with the
active sets the seat saw on its own turns and keeps exactly that. `sample_state` deals
every other card at random (uniformly, among the cards whose place the seat cannot know)
and builds an engine GameState for the sample, so bots can search with the real rules.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from scoutlab.engine.actions import FLIP, SHOW_BASE, Scout, ScoutShow, Show
from scoutlab.engine.cards import flipped, identity
from scoutlab.engine.native import turns as loop

if TYPE_CHECKING:
    from scoutlab.engine.state import GameState, View
    from scoutlab.rules import Rules


class Knowledge:
    """One seat's memory of the views it was shown, and what follows from them and the history."""

    def __init__(self, rules: Rules):
        self.rules = rules
        # (round, history length) -> (active set, own hand) seen at that moment
        self.seen: dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.seen_by_round: dict[int, set[int]] = {}  # card identities the seat saw, per round

    def observe(self, view: View) -> None:
        """Remember what this view showed; call it with every view the bot is given."""
        self.seen[(view.round, len(view.history))] = (view.active, view.hand)
        cards = self.seen_by_round.setdefault(view.round, set())
        cards.update(identity(c) for c in view.hand + view.active)

    def hands(self, view: View) -> tuple[list[list[int | None]], set[int]]:
        """Each seat's hand as known cards or None (own seat: the real hand), and the cards known captured.

        Replays this round's history; consistent with `view` by construction, and falls back
        to knowing nothing about a seat whose replay disagrees with the hand sizes in view.
        """
        rules, n, me = self.rules, view.players, view.seat
        size = rules.hand_size[n]
        slots: list[list[int | None]] = [[None] * size for _ in range(n)]
        captured: set[int] = set()
        active: list[int] | None = []
        first = len(view.history) - sum(1 for r, _, _ in view.history if r == view.round)
        decode = rules.codec.decode
        for index in range(first, len(view.history)):
            seen = self.seen.get((view.round, index))
            if seen is not None:
                active = list(seen[0])
                slots[me] = list(seen[1])
            _, seat, code = view.history[index]
            if code < SHOW_BASE:  # the round-start keep or flip
                if code == FLIP:
                    order = reversed(slots[seat]) if rules.flip_reverses else slots[seat]
                    slots[seat] = [None if c is None else flipped(c) for c in order]
                continue
            action = decode(code)
            scout = action if isinstance(action, Scout) else action.scout if isinstance(action, ScoutShow) else None
            show = action if isinstance(action, Show) else action.show if isinstance(action, ScoutShow) else None
            if scout is not None:
                taken = None
                if active:
                    taken = active.pop() if scout.end else active.pop(0)
                    taken = flipped(taken) if scout.flip else taken
                elif active is not None:
                    active = None  # a scout from a set we never saw: nothing is known of it
                slots[seat].insert(scout.gap, taken)
            if show is not None:
                cards = slots[seat][show.start:show.start + show.length]
                del slots[seat][show.start:show.start + show.length]
                if active:
                    captured.update(identity(c) for c in active)
                active = None if None in cards else [c for c in cards if c is not None]  # None: a card nobody knows
        slots[me] = list(view.hand)
        for seat in range(n):
            if len(slots[seat]) != view.hand_sizes[seat]:
                slots[seat] = [None] * view.hand_sizes[seat]
        return slots, captured

    def unseen_pool(self, view: View, slots: list[list[int | None]], captured: set[int]) -> list[int]:
        """Cards (lower number on top) whose place the seat cannot know: the hidden hands draw from these."""
        known = {identity(c) for hand in slots for c in hand if c is not None}
        known.update(identity(c) for c in view.active)
        known |= captured
        if self.rules.shuffle_once:
            # one shuffle for the game: cards of earlier rounds' deals are not in this round's
            for round_index, cards in self.seen_by_round.items():
                if round_index < view.round:
                    known |= cards
        return [c for c in self.rules.deck_for(view.players) if c not in known]


class Sampler:
    """Deals the hidden cards of one view again and again: the knowledge is worked out once.

    `sample(rng)` returns a full GameState that the view's seat cannot tell from the real
    one. Unless `whole_game`, the sampled game ends with the current round, which is all
    a search looks ahead to (and saves dealing rounds it would not play).
    """

    def __init__(self, rules: Rules, view: View, knowledge: Knowledge, whole_game: bool = False):
        self.rules = rules
        self.view = view
        self.slots, captured = knowledge.hands(view)
        self.pool = knowledge.unseen_pool(view, self.slots, captured)
        self.captured = sorted(captured)
        self.flipped_seats = {seat for r, seat, code in view.history if r == view.round and code == FLIP}
        # a fresh game with the view's public facts in place; samples copy it and deal into it
        self.template = rules.new_game(view.players, 0)
        _place(self.template, view, [list(h) for h in self.slots], [], whole_game)

    def sample(self, rng: random.Random) -> GameState:
        rules = self.rules
        pool = list(self.pool)
        loop.shuffle(rng, pool)  # rng.shuffle, draw for draw, compiled: a search samples thousands of deals
        hands = []
        for seat, hand in enumerate(self.slots):
            dealt = []
            for c in hand:
                if c is None:
                    c = pool.pop()
                    if rules.random_orientation:
                        c = flipped(c) if rng.random() < 0.5 else c
                    elif seat in self.flipped_seats:
                        c = flipped(c)  # dealt lower number on top, then the whole hand was flipped
                dealt.append(c)
            hands.append(dealt)
        state = self.template.clone()
        state.hands = hands
        # captured piles only count for the rules; fill them with leftover cards so plugins see real cards
        rest = pool + self.captured
        state.captured = [[rest.pop() for _ in range(k)] for k in self.view.captured]
        state.set_aside = rest
        return state


def sample_state(rules: Rules, view: View, knowledge: Knowledge, rng: random.Random,
                 whole_game: bool = False) -> GameState:
    """One GameState that `view`'s seat cannot tell from the real one, hidden cards drawn from `rng`."""
    return Sampler(rules, view, knowledge, whole_game).sample(rng)


def _place(state: GameState, view: View, hands: list, rest: list[int], whole_game: bool) -> None:
    """Overwrite a fresh game's fields with the view's public facts and the given hands."""
    n = view.players
    state.round = view.round
    if not whole_game:
        state.rounds = view.round + 1
    state.phase = view.phase
    state.hands = hands
    state.active = list(view.active)
    state.active_owner = -1 if view.active_owner is None else view.active_owner
    state.chips_received = list(view.chips_received)
    state.chips_held = list(view.chips_held)
    state.scout_show_chips = list(view.scout_show_chips)
    state.captured = [[] for _ in range(n)]
    state.set_aside = rest
    state.totals = list(view.totals)
    state.round_ends = list(view.round_ends)
    state.turn = view.turn
    state.to_act = view.to_act
    state.starting_seat = view.starting_seat
    this_round = [(seat, code) for r, seat, code in view.history if r == view.round]
    flips_done = sum(1 for _, code in this_round if code < SHOW_BASE)
    state.flips_left = n - flips_done if view.phase == "flip" else 0
    plays = this_round[flips_done:]
    state.last_seat = plays[-1][0] if plays else -1
    state.last_kind = _last_kind(state, plays[-1][1]) if plays else None
    state.last_shower = next((seat for seat, code in reversed(plays) if _shows(state, code)), -1)
    state.history = []
    state.round_start = 0  # the sample's moves start here: its facts count from the sample on
    state.refresh()


def _shows(state: GameState, code: int) -> bool:
    action = state.rules.codec.decode(code)
    return isinstance(action, Show) or (isinstance(action, ScoutShow) and action.show is not None)


def _last_kind(state: GameState, code: int) -> str:
    kind = state.rules.codec.kind(code)
    action = state.rules.codec.decode(code)
    if isinstance(action, ScoutShow) and action.show is None:
        return "scout"  # seed 002's fallback ends the turn as a plain scout
    return kind
