"""The game in words for every screen: why a move is refused, what a show is, why a round ended.

One implementation for every screen. `why_illegal` is what `state.explain` says, the move
quoted in front (`'show 2-3': a single 9 is not stronger than ...`); `reason` is the same
sentence without the move, for a screen that shows it beside the cards (the browser game).
Both take a `scoutlab.text.i18n` gettext `_`; without one they speak English. The English
sentences are the message ids of the catalogs (core/scoutlab/text/locale, see docs/i18n.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from scoutlab.base.plural import ngettext
from scoutlab.engine.actions import RIGHT, Action, Flip, Scout, ScoutShow, Show, format_action
from scoutlab.engine.cards import flipped, top

Gettext = Callable[..., str]  # scoutlab.text.i18n.gettext_for(lang) makes one


def english(message: str, **values: object) -> str:
    """The catalogs' message ids are the English sentences, so formatting one is speaking English."""
    return message.format(**values) if values else message


if TYPE_CHECKING:
    from scoutlab.base.values import RoundEnd
    from scoutlab.engine.contract import CompiledRules
    from scoutlab.engine.state import GameState


def describe_show(values: Sequence[int], kind: str | None, _: Gettext | None = None) -> str:
    """`a single 7`, `a set of 2 × 5`, `a run of 3 from 4 to 6`, from a show's top numbers and kind."""
    _ = _ or english
    values = tuple(values)
    if len(values) == 1:
        return _("a single {number}", number=values[0])
    if kind == "set":
        return _("a set of {count} × {number}", count=len(values), number=values[0])
    if kind == "run":
        return _("a run of {count} from {first} to {last}", count=len(values), first=values[0], last=values[-1])
    numbers = " ".join(map(str, values))
    return f"{kind} {numbers}" if kind else numbers  # a kind only a plugin knows goes by the plugin's own word


def end_reason(end: RoundEnd, rules: CompiledRules, _: Gettext | None = None, names: Sequence[str] | None = None) -> str:
    """Why a round ended, as a sentence that says who: "P2 emptied their hand with a show."

    `names` are the seats' names as the screen shows them (P1, P2, ... without them).
    """
    _ = _ or english
    names = list(names) if names is not None else [f"P{seat + 1}" for seat in range(len(end.scores))]
    shower = end.last_shower
    if end.reason == "hand_emptied":
        emptied = end.cards_in_hand.index(0) if 0 in end.cards_in_hand else shower
        if emptied is not None:
            return _("{player} emptied their hand with a show.", player=names[emptied])
        return _("A hand was emptied by a show.")
    if end.reason == "everyone_scouted":
        if shower is not None:
            return _("Nobody beat the show of {player}: everyone else scouted instead.", player=names[shower])
        return _("Nobody beat the last show, so the round ended.")
    if end.reason == "opponent_stuck":
        if shower is not None and len(names) == 2:
            return _("After the show of {player}, {opponent} could neither show nor scout.",
                     player=names[shower], opponent=names[1 - shower])
        return _("After the last show, the opponent could neither show nor scout.")
    if end.reason == "turn_cap":
        return _("The round reached the turn limit; nobody is spared the penalty for cards in hand.")
    if end.reason == "no_legal_action":
        return _("The player to act had no legal move.")
    # A plugin's own condition: its description, translated where the catalogs know it.
    described = next((c.description for name, c in rules.end_conditions if name == end.reason), end.reason)
    text = _(described)
    return text[:1].upper() + text[1:]


def why_illegal(state: GameState[CompiledRules], code: int, _: Gettext | None = None) -> str:
    """Why the seat to act may not play `code`, the move quoted in front: what `state.explain` says."""
    move, sentence = _refusal(state, code, _ or english)
    return f"{move!r}: {sentence}" if move else sentence


def reason(state: GameState[CompiledRules], code: int, _: Gettext | None = None) -> str:
    """The rule `code` breaks as a sentence of its own, without the move in front: `A single 9 is ...`."""
    _move, sentence = _refusal(state, code, _ or english)
    return sentence[:1].upper() + sentence[1:] + "."


def why_illegal_action(state: GameState[CompiledRules], action: Action, _: Gettext | None = None) -> str:
    """`why_illegal` for a parsed action, also one no code stands for (`show 99`: no hand is that long)."""
    move, sentence = _refusal_of(state, action, _ or english)
    return f"{move!r}: {sentence}" if move else sentence


def _refusal(state: GameState[CompiledRules], code: int, _: Gettext) -> tuple[str | None, str]:
    """(the move in notation, the rule it breaks); no move where the sentence names it itself or needs none."""
    if state.is_over:
        return None, _("the game is over")
    try:
        action = state.rules.codec.decode(code)
    except ValueError as exc:
        return None, str(exc)
    return _refusal_of(state, action, _)


def _refusal_of(state: GameState[CompiledRules], action: Action, _: Gettext) -> tuple[str | None, str]:
    if state.is_over:
        return None, _("the game is over")
    move = format_action(action)
    seat = state.to_act
    if state.phase == "flip":
        return move, _("it is round start, so first choose 'keep' or 'flip' for your whole hand")
    if isinstance(action, Flip):
        return move, _("the hand may only be flipped at round start, before the first move")
    hand = list(state.hands[seat])
    active = list(state.active)
    if isinstance(action, Show):
        sentence = _why_show(state, hand, action, active, False, _)
    else:
        sentence = _why_scout_and_show(state, seat, hand, active, action, _)
    # A rule no question here covers (a plugin's own): the engine still refused it, so say so.
    return (move, sentence) if sentence else (None, _("{move} is not legal here", move=repr(move)))


def _why_scout_and_show(state: GameState[CompiledRules], seat: int, hand: list[int], active: list[int],
                        action: Scout | ScoutShow, _: Gettext) -> str | None:
    scout = action.scout if isinstance(action, ScoutShow) else action
    sentence = _why_scout(state, seat, hand, scout, _)
    if sentence or isinstance(action, Scout):
        return sentence
    if not state.rules.sns_chips:
        return _("this variant has no Scout & Show")
    if not state.scout_show_chips[seat]:
        return _("you have already used your Scout & Show chip this round")
    taken = active.pop() if scout.end == RIGHT else active.pop(0)
    hand.insert(scout.gap, flipped(taken) if scout.flip else taken)
    if action.show is None:
        if not state.rules.sns_fallback:
            return _("a Scout & Show must show after the scout in this variant")
        return _("'show none' is only for when no show is possible after the scout, and one is")
    return _why_show(state, hand, action.show, active, True, _)


def _why_scout(state: GameState[CompiledRules], seat: int, hand: list[int], scout: Scout, _: Gettext) -> str | None:
    if not state.active:
        return _("there is no active set to scout from")
    if state.active_owner == seat:
        return _("you cannot scout from your own show")
    if state.rules.scout_pays and state.chips_held[seat] <= 0:
        return _("you have no Scout chip left to pay for a scout")
    if scout.end == RIGHT and len(state.active) == 1:
        return _("the active set has a single card; take it as 'left'")
    if scout.gap > len(hand):
        return _("gap {gap} is outside your hand; gaps run from 0 to {count}", gap=scout.gap, count=len(hand))
    return None


def _why_show(state: GameState[CompiledRules], hand: list[int], show: Show, active: list[int], after_scout: bool,
              _: Gettext) -> str | None:
    if show.start + show.length > len(hand):
        if after_scout:
            return ngettext("your hand after the scout has only {count} card", "your hand after the scout has only {count} cards",
                            len(hand), _, count=len(hand))
        return ngettext("your hand has only {count} card", "your hand has only {count} cards", len(hand), _, count=len(hand))
    values = tuple(top(c) for c in hand[show.start : show.start + show.length])
    kind = state.rules.classify(values)
    if kind is None:
        numbers = " ".join(map(str, values))
        # TRANSLATORS: right-to-left languages wrap {numbers} in U+2066 ... U+2069 so the numbers keep their order.
        return _(
            "{numbers} is neither a set (all the same number) nor a run (each number one more, or one less, than the one before)",
            numbers=numbers,
        )
    if not active:
        return None
    active_values = [top(c) for c in active]
    mine = describe_show(values, kind, _)
    theirs = describe_show(active_values, state.rules.classify(tuple(active_values)), _)
    if after_scout:
        sentence = _("{mine} is not stronger than what is left of the active set, {theirs}", mine=mine, theirs=theirs)
    else:
        sentence = _("{mine} is not stronger than the active set, {theirs}", mine=mine, theirs=theirs)
    if not state.rules.builtin_shows:
        return sentence  # a plugin changed what beats what: the official order would mislead
    rule = _("more cards beat fewer, then a set beats a run, then the higher lowest number; equal is not enough")
    return f"{sentence} ({rule})"
