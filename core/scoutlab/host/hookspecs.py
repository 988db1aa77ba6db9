"""The hooks through which plugins change the rules. Every hook name carries the `scoutlab_` prefix.

Hooks are resolved once, when a spec is compiled into rules; classification and
comparison results are cached by their arguments, so implementations must be pure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

from scoutlab.base.values import EndCondition, RoundEnd, ShowInfo

if TYPE_CHECKING:
    from scoutlab.engine.contract import CompiledRules
    from scoutlab.engine.events import Event
    from scoutlab.engine.state import GameState

hookspec = pluggy.HookspecMarker("scoutlab")
hookimpl = pluggy.HookimplMarker("scoutlab")


@hookspec(firstresult=True)
def scoutlab_classify_show(values: tuple[int, ...]) -> str | None:
    """Say whether adjacent cards with these top numbers form a show, and of which kind.

    Called while legal shows are enumerated, once per distinct tuple (results are cached).
    Return "set" or "run" (or another kind your comparison hook understands), "invalid"
    for no show, or None to defer to the next plugin; the built-in rules answer last.
    The engine grows shows card by card and stops at the first invalid prefix, so every
    prefix of a show must itself be a show.
    """


@hookspec(firstresult=True)
def scoutlab_show_beats(show: ShowInfo, active: ShowInfo) -> bool | None:
    """Say whether `show` is stronger than the active set `active`.

    Called once per distinct pair (results are cached). Return True or False, or None to
    defer; the built-in rules answer last: more cards, then set over run, then the higher
    lowest number; equal is not stronger.
    """


@hookspec
def scoutlab_end_conditions() -> dict[str, EndCondition]:
    """Offer named round-end conditions; a spec puts them in force by listing their names.

    Called once per compiled spec. Each condition is checked after every action of a round.
    """


@hookspec
def scoutlab_score_round(state: GameState[CompiledRules], end: RoundEnd) -> list[int] | None:
    """Return points to add to each seat's round score (one int per seat), or None.

    Called once when a round ends, after the spec's own scoring; every plugin's
    adjustments are added up.
    """


@hookspec
def scoutlab_game_event(event: Event, state: GameState[CompiledRules]) -> None:
    """Observe the game: called after every action, round end and game end. Return nothing.

    Called only when some plugin implements it, so observers cost nothing otherwise.
    """


@hookspec
def scoutlab_bots() -> dict[str, object]:
    """Offer bots by name: each value is a factory `(rules, rng, options) -> bot`.

    Called when a bot name is looked up (`--bots NAME`), each plugin on its own: one that raises or
    answers the wrong kind offers no bots, and an unknown bot's message says so. A bot has a `name`
    and an `act(view) -> action code` method, and sees nothing but the View of its seat.
    """

