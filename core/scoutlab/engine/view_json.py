"""The JSON shape of what a seat sees: what the engine protocol answers and what an `external:` bot is sent.

Cards and actions are in notation, seats count from 0. It lives with the engine, not with the
protocol, so a bot that speaks it (bots/external.py) needs nothing of the protocol's session.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from scoutlab.engine.actions import format_action, parse_action
from scoutlab.engine.cards import format_card

if TYPE_CHECKING:
    from collections.abc import Iterable

    from scoutlab.base.values import RoundEnd, View
    from scoutlab.engine.contract import CompiledRules


def cards_json(cards: Iterable[int]) -> list[str]:
    """Cards in notation, `top/bottom`, left to right."""
    return [format_card(c) for c in cards]


def round_end_json(end: RoundEnd) -> dict[str, Any]:
    """A finished round: why it ended, the seat spared the hand penalty, and each seat's score."""
    return {key: list(value) if isinstance(value, tuple) else value for key, value in asdict(end).items()}


def view_to_json(view: View, rules: CompiledRules) -> dict[str, Any]:
    """Everything one seat may know (docs/rules.md §10.9), as JSON: cards and actions in notation, seats from 0."""
    decode = rules.codec.decode
    return {
        "seat": view.seat,
        "players": view.players,
        "variant": view.variant,
        "round": view.round,
        "rounds": view.rounds,
        "phase": view.phase,
        "to_act": view.to_act,
        "starting_seat": view.starting_seat,
        "turn": view.turn,
        "hand": cards_json(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "active": cards_json(view.active),
        "active_owner": view.active_owner,
        "chips_received": list(view.chips_received),
        "chips_held": list(view.chips_held),
        "scout_show_chips": list(view.scout_show_chips),
        "captured": list(view.captured),
        "totals": list(view.totals),
        "history": [
            {"round": r, "seat": seat, "action": format_action(decode(code))} for r, seat, code in view.history
        ],
        "round_ends": [round_end_json(end) for end in view.round_ends],
        "legal": [format_action(decode(code)) for code in view.legal],
    }


def action_code(rules: CompiledRules, text: str) -> int:
    """The code of an action written in notation; NotationError if no hand of this variant could hold it."""
    return rules.codec.encode(parse_action(text))
