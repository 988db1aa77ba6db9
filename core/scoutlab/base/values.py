"""The values every layer passes around: a round's end, a seat's view, a show as hooks see it, an end condition.

Plain immutable records with no behaviour, so the engine, the plugin host and every
client can share them without importing each other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, NamedTuple


@dataclass(frozen=True)
class RoundEnd:
    """How a round ended and what each seat scored in it."""

    round: int
    reason: str  # an end condition's name, "turn_cap" or "no_legal_action"
    exempt: int | None  # the seat spared the penalty for cards in hand
    scores: tuple[int, ...]
    captured: tuple[int, ...]
    chips_received: tuple[int, ...]
    chips_held: tuple[int, ...]
    cards_in_hand: tuple[int, ...]
    turns: int
    adjustments: tuple[tuple[str, tuple[int, ...]], ...] = ()  # (plugin, points per seat) added to scores
    last_shower: int | None = None  # who made the round's last show: the end reasons name them


_ROUND_END_FIELDS = tuple(field.name for field in fields(RoundEnd))


def round_end(*values: Any) -> RoundEnd:
    """`RoundEnd(*values)`, every field given in order, for the engine's loop, which ends a round often.

    The frozen dataclass's own __init__ sets each of its eleven fields through object.__setattr__;
    filling the instance's dict at once makes the same record for 1.8% fewer instructions in a
    random two-player game (callgrind), where rounds are short. tests/test_turns_native.py
    compares the two.
    """
    end = object.__new__(RoundEnd)
    end.__dict__.update(zip(_ROUND_END_FIELDS, values, strict=True))
    return end


@dataclass(frozen=True)
class View:
    """What one seat may know: its own hand, the table, every seat's counts, the public history."""

    seat: int
    players: int
    variant: str
    round: int
    rounds: int
    phase: str
    to_act: int
    starting_seat: int
    turn: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    active: tuple[int, ...]
    active_owner: int | None
    chips_received: tuple[int, ...]
    chips_held: tuple[int, ...]
    scout_show_chips: tuple[int, ...]
    captured: tuple[int, ...]
    totals: tuple[int, ...]
    history: tuple[tuple[int, int, int], ...]  # (round, seat, action code), public to all
    round_ends: tuple[RoundEnd, ...]
    legal: tuple[int, ...]  # the seat's legal action codes when it is to act, else empty


class ShowInfo(NamedTuple):
    """A show as the comparison hooks see it: top numbers left to right, and its kind."""

    values: tuple[int, ...]
    kind: str  # "set" or "run" (or a kind a plugin invents)


class EndCondition(NamedTuple):
    """A round-end condition: `check(state)` runs after each action, with the turn already passed on."""

    check: Callable[[Any], bool]  # called with the GameState
    exempts_last_show_owner: bool
    description: str


class Move(NamedTuple):
    """One move as a plugin reads it: who made it, what kind, the action parsed, and the cards it moved."""

    seat: int
    kind: str  # "show", "scout" or "scout_and_show"
    action: Any  # the parsed action: scoutlab.engine.actions.Show, Scout or ScoutShow
    shown: tuple[int, ...]  # the cards the move put on the table as the new active set (none for a scout)
    scouted: int | None  # the card the move took from the active set into the hand (None for a show)


@dataclass(frozen=True)
class RoundFacts:
    """The round so far, by name, for plugins (`state.facts`): what each seat did, the turn, the last move.

    Hand-flip choices are not moves: they count in none of these.
    """

    round: int
    turn: int  # moves made this round
    scouts: tuple[int, ...]  # per seat: plain scouts this round
    shows: tuple[int, ...]  # per seat: plain shows this round
    scout_shows: tuple[int, ...]  # per seat: Scout & Shows this round
    last: Move | None  # the round's last move, None before the first
