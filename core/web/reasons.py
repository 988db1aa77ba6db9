"""Why a move is refused, in the player's language.

The same questions as the engine's `state.explain`, asked in the same order, with the
answers taken from the message catalogs. A case this module does not know (a plugin's
own rule) falls back to the engine's English explanation, so a refusal always says why.
"""

from __future__ import annotations

from ..actions import RIGHT, Flip, Scout, ScoutShow, Show
from ..cards import flipped, top
from ..i18n import Gettext
from ..state import GameState
from .present import describe_show


def why_illegal(state: GameState, code: int, _: Gettext) -> str:
    """The rule that `code` breaks for the seat to act."""
    if state.is_over:
        return _("The match is over.")
    action = state.rules.codec.decode(code)
    seat = state.to_act
    if state.phase == "flip":
        return _("It is the start of the round: first choose to keep or to flip your whole hand.")
    if isinstance(action, Flip):
        return _("The hand may only be flipped at the start of a round, before the first move.")
    hand, active = list(state.hands[seat]), list(state.active)
    if isinstance(action, Show):
        return _why_show(state, hand, action, active, after_scout=False, _=_) or state.explain(code)
    scout = action.scout if isinstance(action, ScoutShow) else action
    reason = _why_scout(state, seat, hand, scout, _)
    if reason or isinstance(action, Scout):
        return reason or state.explain(code)
    if not state.rules.sns_chips:
        return _("This variant has no Scout & Show.")
    if not state.scout_show_chips[seat]:
        return _("You have already used your Scout & Show chip this round.")
    taken = active.pop() if scout.end == RIGHT else active.pop(0)
    hand.insert(scout.gap, flipped(taken) if scout.flip else taken)
    if action.show is None:
        return _("After the scout you must show: pick the cards to show.")
    return _why_show(state, hand, action.show, active, after_scout=True, _=_) or state.explain(code)


def _why_scout(state: GameState, seat: int, hand: list[int], scout: Scout, _: Gettext) -> str | None:
    if not state.active:
        return _("There is no active set to scout from.")
    if state.active_owner == seat:
        return _("You cannot scout from your own show.")
    if state.rules.scout_pays and state.chips_held[seat] <= 0:
        return _("You have no Scout chip left to pay for a scout.")
    if scout.end == RIGHT and len(state.active) == 1:
        return _("The active set has a single card: take it from the left.")
    if scout.gap > len(hand):
        return _("There is no such place in your hand.")
    return None


def _why_show(state: GameState, hand: list[int], show: Show, active: list[int], after_scout: bool, _: Gettext) -> str | None:
    if show.start + show.length > len(hand):
        return _("Your hand has only {count} cards.", count=len(hand))
    values = [top(c) for c in hand[show.start : show.start + show.length]]
    kind = state.rules.classify(tuple(values))
    if kind is None:
        return _(
            "{numbers} is neither a set (all the same number) nor a run (each number one more, or one less, than the one before).",
            numbers="\u2066" + " ".join(map(str, values)) + "\u2069",  # kept in order inside right-to-left text
        )
    if active:
        active_values = [top(c) for c in active]
        mine = describe_show(values, kind, _)
        theirs = describe_show(active_values, state.rules.classify(tuple(active_values)), _)
        if after_scout:
            return _(
                "{mine} does not beat what is left of the active set, {theirs}: more cards beat fewer, then a set beats a run, then the higher lowest number; a tie is not enough.",
                mine=mine, theirs=theirs,
            )
        return _(
            "{mine} does not beat the active set, {theirs}: more cards beat fewer, then a set beats a run, then the higher lowest number; a tie is not enough.",
            mine=mine, theirs=theirs,
        )
    return None
