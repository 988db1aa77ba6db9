"""The official rules as a plugin, registered under the name `builtin`.

Its hook implementations answer last (trylast), so a house-rule plugin overrides
classification or comparison by returning a value, and defers by returning None.
The engine recognises when only these answer and then uses the equivalent integer
keys of `legal.py` instead of calling the hooks at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoutlab.base.values import EndCondition, ShowInfo
from scoutlab.engine.shows import builtin_key, builtin_kind
from scoutlab.host.hookspecs import hookimpl

if TYPE_CHECKING:
    from scoutlab.engine.contract import CompiledRules
    from scoutlab.engine.state import GameState


@hookimpl(trylast=True)
def scoutlab_classify_show(values: tuple[int, ...]) -> str:
    return builtin_kind(values)


@hookimpl(trylast=True)
def scoutlab_show_beats(show: ShowInfo, active: ShowInfo) -> bool:
    mine, theirs = builtin_key(show.values), builtin_key(active.values)
    if mine is None or theirs is None:
        return False  # a kind only a plugin knows never ranks under the official order
    return mine > theirs


def hand_emptied(state: GameState[CompiledRules]) -> bool:
    """(i) A show emptied the hand of the player who made it."""
    return state.last_kind != "scout" and not state.hands[state.last_seat]


def everyone_scouted(state: GameState[CompiledRules]) -> bool:
    """(ii) Every other player only scouted, so the turn comes back to the owner of the last show."""
    return state.last_kind == "scout" and state.to_act == state.last_shower


def opponent_stuck(state: GameState[CompiledRules]) -> bool:
    """(ii, two players) The player to act can neither show nor scout: after a show, or on the
    extra turn after a scout (docs/rules.md §7), where the owner of the active set is the last shower."""
    return not state.legal_actions()


@hookimpl
def scoutlab_end_conditions() -> dict[str, EndCondition]:
    return {
        "hand_emptied": EndCondition(hand_emptied, False, "a player's hand became empty through a show"),
        "everyone_scouted": EndCondition(
            everyone_scouted, True, "after a show, every other player only scouted"
        ),
        "opponent_stuck": EndCondition(
            opponent_stuck, True,
            "the player to act could neither show nor scout, after a show or on the extra turn after a scout",
        ),
    }
