"""Game events as observers (the scoutlab_game_event hook) receive them.

The class and its makers live in the loop that makes them (turns.py, compiled with it
where it is compiled); this module names the build that runs (native.py), so that
`isinstance(event, Event)` holds for the events observers are handed.
Events are immutable; `event.data` is a read-only mapping.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoutlab.engine.native import turns

if TYPE_CHECKING:
    from scoutlab.engine.turns import Event, action_event, game_event
else:
    Event, action_event, game_event = turns.Event, turns.action_event, turns.game_event

__all__ = ["Event", "action_event", "game_event"]
