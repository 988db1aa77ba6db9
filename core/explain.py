"""Why an action is illegal, in the words of the rules: what a person reads when a move is refused."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import RIGHT, Flip, Scout, ScoutShow, Show, format_action
from .cards import SHIFT, flipped

if TYPE_CHECKING:
    from .state import GameState


def describe(values: tuple[int, ...] | list[int], kind: str | None) -> str:
    """`a set of two 5s`, `a run of 3 from 4 to 6`, `a single 7`."""
    values = tuple(values)
    if len(values) == 1:
        return f"a single {values[0]}"
    if kind == "set":
        return f"a set of {len(values)} x {values[0]}"
    if kind == "run":
        return f"a run of {len(values)} from {values[0]} to {values[-1]}"
    return f"{kind or 'cards'} {' '.join(map(str, values))}"


STRENGTH_RULE = "more cards beat fewer, then a set beats a run, then the higher lowest number; equal is not enough"


def why_illegal(state: "GameState", code: int) -> str:
    if state.is_over:
        return "the game is over"
    try:
        action = state.rules.codec.decode(code)
    except ValueError as exc:
        return str(exc)
    text = format_action(action)
    seat = state.to_act
    if state.phase == "flip":
        return f"{text!r}: it is round start, so first choose 'keep' or 'flip' for your whole hand"
    if isinstance(action, Flip):
        return f"{text!r}: the hand may only be flipped at round start, before the first move"
    hand = list(state.hands[seat])
    active = list(state.active)
    if isinstance(action, Show):
        return _why_show(state, text, hand, action, state.beat, active)
    scout = action.scout if isinstance(action, ScoutShow) else action
    reason = _why_scout(state, text, seat, hand, scout)
    if reason:
        return reason
    if isinstance(action, Scout):
        return f"{text!r} is not legal here"
    if not state.rules.sns_chips:
        return f"{text!r}: this variant has no Scout & Show"
    if not state.scout_show_chips[seat]:
        return f"{text!r}: you have already used your Scout & Show chip this round"
    taken = active.pop() if scout.end == RIGHT else active.pop(0)
    hand.insert(scout.gap, flipped(taken) if scout.flip else taken)
    beat = state.rules.strength(active)
    if action.show is None:
        if not state.rules.sns_fallback:
            return f"{text!r}: a Scout & Show must show after the scout in this variant"
        return f"{text!r}: 'show none' is only for when no show is possible after the scout, and one is"
    return _why_show(state, text, hand, action.show, beat, active, after_scout=True)


def _why_scout(state: "GameState", text: str, seat: int, hand: list[int], scout: Scout) -> str | None:
    active = state.active
    if not active:
        return f"{text!r}: there is no active set to scout from"
    if state.active_owner == seat:
        return f"{text!r}: you cannot scout from your own show"
    if state.rules.scout_pays and state.chips_held[seat] <= 0:
        return f"{text!r}: you have no Scout chip left to pay for a scout"
    if scout.end == RIGHT and len(active) == 1:
        return f"{text!r}: the active set has a single card; take it as 'left'"
    if scout.gap > len(hand):
        return f"{text!r}: gap {scout.gap} is outside your hand; gaps run from 0 to {len(hand)}"
    return None


def _why_show(state, text, hand, show: Show, beat, active, after_scout: bool = False) -> str:
    whose = "your hand after the scout" if after_scout else "your hand"
    if show.start + show.length > len(hand):
        return f"{text!r}: {whose} has only {len(hand)} cards"
    values = tuple(c >> SHIFT for c in hand[show.start : show.start + show.length])
    kind = state.rules.classify(values)
    if kind is None:
        return (
            f"{text!r}: {' '.join(map(str, values))} is neither a set (all the same number) "
            "nor a run (each number one more, or one less, than the one before)"
        )
    if active:
        mine = describe(values, kind)
        theirs = describe([c >> SHIFT for c in active], state.rules.classify(tuple(c >> SHIFT for c in active)))
        where = "what is left of the active set" if after_scout else "the active set"
        # The official order is worth quoting only where no plugin changed it.
        rule = f" ({STRENGTH_RULE})" if state.rules.builtin_shows else ""
        return f"{text!r}: {mine} is not stronger than {where}, {theirs}{rule}"
    return f"{text!r} is not legal here"
