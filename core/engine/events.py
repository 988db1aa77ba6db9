"""Game events as observers (the scoutlab_game_event hook) receive them.

Events are immutable, their data a read-only mapping, so the event of an action that
recurs (the same round, seat and action code) is made once and handed out again: an
observer runs after every action, and making the event was most of what it cost.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any, NamedTuple


class Event(NamedTuple):
    kind: str  # "action" (seat, code), "round_end" (end), or "game_end"
    round: int
    data: Mapping[str, Any]  # read-only


@lru_cache(maxsize=4096)  # about a megabyte; the common actions of every round and seat fit
def action_event(round: int, seat: int, code: int) -> Event:
    """The event of one action: seat `seat` played action `code` in round `round` (0-based)."""
    return Event("action", round, MappingProxyType({"seat": seat, "code": code}))


def game_event(kind: str, round: int, **data: Any) -> Event:
    """Any other event, with its data read-only like an action's."""
    return Event(kind, round, MappingProxyType(data))
