"""A readable, omniscient log of a finished game, rebuilt by replaying its actions from the seed.

Used by `scoutlab game` and by the playthrough files that the tests diff, so any rule
change shows up as a readable difference.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from scoutlab.engine.actions import Scout, ScoutShow, Show, format_action
from scoutlab.engine.cards import flipped, format_card, format_hand
from scoutlab.engine.state import GameState, RoundEnd
from scoutlab.text.i18n import Gettext


def seat_name(seat: int) -> str:
    return f"P{seat + 1}"


def _english(message: str, **values: object) -> str:
    return message.format(**values) if values else message


def _as_is(text: str) -> str:
    return text


def describe_action(state: GameState, code: int, _: Gettext = _english, ltr: Callable[[str], str] = _as_is) -> str:
    """The action in notation plus what it moves, e.g. `show 3-4  [5/1 6/2]`, read before it is applied.

    `_` words what a scout takes in the player's language; `ltr` wraps notation and card lists so they keep
    their order inside right-to-left text (the terminal game passes its isolates).
    """
    action = state.rules.codec.decode(code)
    text = ltr(format_action(action))
    hand = state.hands[state.to_act]
    if isinstance(action, Show):
        return f"{text}  [{ltr(format_hand(hand[action.start:action.start + action.length]))}]"
    if isinstance(action, (Scout, ScoutShow)):
        scout = action.scout if isinstance(action, ScoutShow) else action
        taken = state.active[-1] if scout.end else state.active[0]
        card = ltr(format_card(flipped(taken) if scout.flip else taken))
        if isinstance(action, ScoutShow) and action.show is not None:
            after = list(hand)
            after.insert(scout.gap, flipped(taken) if scout.flip else taken)
            shown = after[action.show.start:action.show.start + action.show.length]
            return f"{text}  (" + _("takes {card}, shows [{cards}]", card=card, cards=ltr(format_hand(shown))) + ")"
        return f"{text}  (" + _("takes {card}", card=card) + ")"
    return text


def replay_steps(state: GameState) -> Iterator[tuple[GameState, int]]:
    """Replay a finished game from its seed, yielding (state before the action, action code)."""
    again = state.rules.new_game(state.players, state.seed)
    for _, _, code in state.history:
        yield again, code
        again.apply(code)


def round_end_lines(end: RoundEnd) -> list[str]:
    exempt = f"; {seat_name(end.exempt)} keeps their hand without penalty" if end.exempt is not None else ""
    lines = [f"  round ends: {end.reason}{exempt} (after {end.turns} turns)"]
    for seat, score in enumerate(end.scores):
        # Each plugin's points by name, so the parts add up to the round score.
        plugins = "".join(f", {points[seat]:+d} {plugin}" for plugin, points in end.adjustments if points[seat])
        lines.append(
            f"  {seat_name(seat)}: {score:+d}  (captured {end.captured[seat]}, chips received "
            f"{end.chips_received[seat]}, chips held {end.chips_held[seat]}, in hand {end.cards_in_hand[seat]}{plugins})"
        )
    return lines


def game_log(state: GameState, bot_names: Sequence[str] = ()) -> list[str]:
    bots = f", bots {', '.join(bot_names)}" if bot_names else ""
    lines = [f"{state.rules.name}, {state.players} players, seed {state.seed}{bots}"]
    current = -1
    ends = iter(state.round_ends)
    for before, code in replay_steps(state):
        if before.round != current:
            if current >= 0:
                lines += round_end_lines(next(ends))
            current = before.round
            lines.append(f"Round {current + 1} of {before.rounds}: {seat_name(before.starting_seat)} starts")
            for seat, hand in enumerate(before.hands):
                lines.append(f"  {seat_name(seat)} dealt: {format_hand(hand)}")
        lines.append(f"  {seat_name(before.to_act)}: {describe_action(before, code)}")
    for end in ends:
        lines += round_end_lines(end)
    winners = set(state.winners())
    lines.append("Final scores:")
    for seat, total in sorted(enumerate(state.totals), key=lambda st: -st[1]):
        mark = "  winner" if seat in winners else ""
        lines.append(f"  {seat_name(seat)}: {total}{mark}")
    return lines
