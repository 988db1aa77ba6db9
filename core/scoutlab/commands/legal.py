"""List every legal action of a position, grouped, with what each would do; or judge one action.

With --action, prints `legal: ...` (exit 0) or `illegal: <the rule it breaks>` (exit 1).
"""

from __future__ import annotations

import argparse
import random

from scoutlab.engine.cards import format_hand
from scoutlab.text.log import describe_action, seat_name

help = "list the legal actions of a position file, or say why one action is illegal"

GROUPS = [("flip", "hand flip"), ("show", "shows"), ("scout", "scouts"), ("scout_and_show", "scout & shows")]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", metavar="POSITION", help="a position file (YAML, see docs/positions.md)")
    parser.add_argument("--action", metavar="NOTATION", help='judge one action, e.g. "show 2-3" or "scout left 0"')


def run(args: argparse.Namespace) -> int:
    # imported when the command runs, not when the parser is built: `scoutlab --help` stays fast
    from scoutlab.base.errors import IllegalAction
    from scoutlab.records.position import load_position

    state = load_position(args.position)
    print("\n".join(header(state)))
    if args.action is not None:
        try:
            code = state.code(args.action)
        except IllegalAction as exc:  # a move no hand could hold: the same reason as any illegal move
            print(f"illegal: {exc}")
            return 1
        if code in state.legal_actions():
            print(f"legal: {effect_line(state, code)}")
            return 0
        print(f"illegal: {state.explain(code)}")
        return 1
    print("\n".join(listing(state)))
    return 0


def header(state) -> list[str]:
    """Who is to act, in which round, with which hand, against which active set."""

    seat = state.to_act
    owner = f" (shown by {seat_name(state.active_owner)})" if state.active else ""
    return [
        f"{state.rules.name}, {state.players} players, round {state.round + 1} of {state.rounds}, "
        f"{state.phase} phase, turn {state.turn}: {seat_name(seat)} to act",
        f"  hand:   {format_hand(state.hands[seat]) or '(empty)'}",
        f"  active: {format_hand(state.active) or '(empty: any show goes)'}{owner}",
    ]


def listing(state) -> list[str]:
    """Every legal action, grouped by kind, one line each."""
    codec = state.rules.codec
    legal = state.legal_actions()
    lines = []
    for kind, title in GROUPS:
        if (kind == "flip") != (state.phase == "flip"):
            continue  # round start offers only keep or flip; play never does
        codes = sorted(code for code in legal if codec.kind(code) == kind)
        if kind == "scout_and_show" and not state.rules.sns_chips:
            continue  # the variant has no Scout & Show: not worth a heading
        lines.append(f"{title} ({len(codes)})")
        width = max((len(state.format(code)) for code in codes), default=0) + 2
        lines += [f"  {effect_line(state, code, width)}" for code in codes] or [f"  none: {_why_none(state, kind)}"]
    return lines


def _why_none(state, kind: str) -> str:
    seat = state.to_act
    if kind == "show":
        return "no set or run in the hand beats the active set"
    if not state.active:
        return "there is no active set to scout from"
    if state.active_owner == seat:
        return "you never scout your own show"
    if state.rules.scout_pays and not state.chips_held[seat]:
        return "no Scout chip left to pay with"
    if kind == "scout_and_show" and not state.scout_show_chips[seat]:
        return "the Scout & Show chip is spent"
    return "no show beats the active set after any scout"


def effect_line(state, code: int, width: int = 0) -> str:
    """`show 2-3  [2/5 3/6]  captures 2` and the like: the action, what it moves and what follows."""

    text = state.format(code)
    moved = describe_action(state, code)[len(text):].strip()
    after = preview(state, code)
    effects = [moved] if moved else []
    effects += consequences(state, after)
    return f"{text:<{width}}{'  '.join(effects)}".rstrip() if width else f"{text}  {'  '.join(effects)}".rstrip()


def preview(state, code: int):
    """The state after `code`, leaving `state` as it was: a clone (a deep copy cost a second per hundred actions of a
    large hand), with a random stream of its own, since an action that ends a round deals the next from it."""
    after = state.clone()
    after.rng = random.Random()
    after.rng.setstate(state.rng.getstate())
    after.apply(code)
    return after


def consequences(before, after) -> list[str]:
    """What changed, in the game's words: captures, chips, whose turn, the round's end."""

    seat = before.to_act
    if before.phase == "flip":
        return [f"hand becomes {format_hand(after.hands[seat])}"]
    if len(after.round_ends) > len(before.round_ends):
        end = after.round_ends[-1]
        exempt = f", {seat_name(end.exempt)} exempt" if end.exempt is not None else ""
        scores = ", ".join(f"{seat_name(i)} {s:+d}" for i, s in enumerate(end.scores))
        return [f"ends the round ({end.reason}{exempt}): {scores}"]
    out = []
    captured = len(after.captured[seat]) - len(before.captured[seat])
    if captured:
        out.append(f"captures {captured}")
    for i in range(before.players):
        received = after.chips_received[i] - before.chips_received[i]
        if received:
            out.append(f"{seat_name(i)} gets a Scout chip")
    paid = before.chips_held[seat] - after.chips_held[seat]
    if paid:
        out.append(f"pays a Scout chip ({after.chips_held[seat]} left)")
    if after.to_act == seat:
        out.append(f"{seat_name(seat)} acts again")
    return out
