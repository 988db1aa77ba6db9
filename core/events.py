"""Game events as observers (the scoutlab_game_event hook) receive them."""

from __future__ import annotations

from typing import Any, NamedTuple


class Event(NamedTuple):
    kind: str  # "action" (seat, code), "round_end" (end), or "game_end"
    round: int
    data: dict[str, Any]
