"""What the browser receives: one seat's view of a match as JSON, with its words in the player's language.

Everything here is built from `state.view(seat)` and the match's public log, so the
browser never gets another seat's cards or the undealt cards (docs/rules.md §10.9).
Cards travel as `{"t": top, "b": bottom}`.
"""

from __future__ import annotations

from typing import Any

from scoutlab.engine.actions import SHOW_BASE
from scoutlab.engine.cards import bottom, format_card, top
from scoutlab.engine.explain import describe_show, end_reason
from scoutlab.engine.state import RoundEnd, View
from scoutlab.text.bot_names import bot_label
from scoutlab.text.i18n import Gettext, left_to_right
from scoutlab.web.matches import LogEntry, Match


def card_json(c: int) -> dict[str, int]:
    return {"t": top(c), "b": bottom(c)}


def cards_text(cards) -> str:
    """Cards in notation, isolated left to right: in Arabic or Persian text the order must not flip."""
    return left_to_right(" ".join(format_card(c) for c in cards))


def seat_name(match: Match, seat: int, _: Gettext) -> str:
    """"Player N" (the seats table marks which one is you)."""
    return _("Player {number}", number=seat + 1)


def seat_label(match: Match, seat: int, _: Gettext) -> str:
    """A seat's name in a sentence the browser's player reads: "Player 1 (you)" for their own seat, as the caption says."""
    name = seat_name(match, seat, _)
    return _("{player} (you)", player=name) if seat == match.seat else name


def seat_labels(match: Match, _: Gettext) -> list[str]:
    """Every seat's label (seat_label), in seat order."""
    return [seat_label(match, seat, _) for seat in range(match.state.players)]


def log_text(match: Match, entry: LogEntry, _: Gettext) -> str:
    """One line of the move log; the player's own moves say "(you)"."""
    player = seat_label(match, entry.seat, _) if entry.seat >= 0 else ""
    if entry.kind == "round_end":
        end = match.state.round_ends[entry.round]
        return _("Round {number} ends: {reason}", number=entry.round + 1, reason=end_reason(end, match.rules, _, seat_labels(match, _)))
    if entry.kind == "keep":
        return _("{player} keeps the hand as dealt.", player=player)
    if entry.kind == "flip":
        return _("{player} flips the whole hand.", player=player)
    cards = cards_text(entry.cards)
    if entry.kind == "show":
        if entry.captured:
            return _("{player} shows {cards} and captures the beaten set: +{count}.", player=player, cards=cards, count=entry.captured)
        return _("{player} shows {cards}.", player=player, cards=cards)
    taken = cards_text([entry.taken])
    if entry.kind == "scout":
        if entry.end:
            return _("{player} scouts {card} from the right end.", player=player, card=taken)
        return _("{player} scouts {card} from the left end.", player=player, card=taken)
    if entry.end:
        return _("{player} scouts {card} from the right end and shows {cards}.", player=player, card=taken, cards=cards)
    return _("{player} scouts {card} from the left end and shows {cards}.", player=player, card=taken, cards=cards)


def log_lines(match: Match, _: Gettext) -> list[str]:
    """The whole move log in one language; lines already rendered are kept, as they never change."""
    lines = match.log_text.setdefault(_, [])
    lines.extend(log_text(match, entry, _) for entry in match.log[len(lines):])
    return lines


def round_end_json(match: Match, end: RoundEnd, _: Gettext) -> dict[str, Any]:
    exempt = None
    if end.exempt is not None:
        exempt = _("{player} owned the last show and loses nothing for the cards in hand.", player=seat_label(match, end.exempt, _))
    return {
        "round": end.round + 1,
        "reason": end.reason,
        "title": _("Round {number} is over", number=end.round + 1),
        "text": end_reason(end, match.rules, _, seat_labels(match, _)),
        "exempt": exempt,
        "lines": [
            {
                "seat": seat,
                "name": seat_name(match, seat, _),
                "captured": end.captured[seat],
                "chips_received": end.chips_received[seat],
                "chips_held": end.chips_held[seat],
                "in_hand": end.cards_in_hand[seat],
                "exempt": seat == end.exempt,
                "score": end.scores[seat],
            }
            for seat in range(len(end.scores))
        ],
    }


def standings(view: View) -> list[dict[str, Any]]:
    """Seats by total, best first; tied seats share a rank (and the victory, if it is first)."""
    totals = view.totals
    order = sorted(range(view.players), key=lambda s: (-totals[s], s))
    return [
        {"seat": s, "total": totals[s], "rank": 1 + sum(t > totals[s] for t in totals), "winner": totals[s] == max(totals)}
        for s in order
    ]


def hints(match: Match, view: View, _: Gettext) -> list[str]:
    """Short hints for the moment the seeds name: the flip choice, how to show and scout."""
    if view.phase == "over" or view.to_act != view.seat:
        return []
    if view.phase == "flip":
        return [_("You may flip your whole hand now. After the first move, its order and orientation lock.")]
    rules = match.rules
    out = []
    if view.active:
        out.append(_("Show: pick one card, or adjacent cards with the same number or consecutive numbers, stronger than the active set, to capture it."))
        if view.active_owner != view.seat:
            if rules.scout_pays:
                out.append(_("Scout: pay a Scout chip, take the left or right end card of the active set, turn it over if you like, and put it anywhere in your hand; then play again."))
            else:
                out.append(_("Scout: take the left or right end card of the active set, turn it over if you like, and put it anywhere in your hand. Its owner gets a Scout chip."))
            if view.scout_show_chips[view.seat]:
                out.append(_("Scout & Show: once per round, scout a card and then show at once, in the same turn."))
    else:
        out.append(_("The table is empty: show one card, or adjacent cards with the same number or consecutive numbers."))
    return out


def legal_moves(match: Match, view: View) -> dict[str, Any]:
    """What the seat may do now, in the shape the page needs: shows as [start, length], scout ends.

    Read from the codes' layout (actions.Codec) by arithmetic: a hand can have hundreds of
    Scout & Show codes, and decoding each into an action was half the cost of a web request.
    """
    codec = match.rules.codec
    width, scout_base, sns_base = codec.width, codec.scout_base, codec.sns_base
    side = (width + 1) * 2  # scout index // side is its end (Codec._scout)
    sns_side = side * codec.sns_stride
    shows, ends, scout_show, flip = [], set(), False, False
    for code in view.legal:
        if code < SHOW_BASE:
            flip = True
        elif code < scout_base:
            start, rest = divmod(code - SHOW_BASE, width)
            shows.append([start, rest + 1])
        elif code < sns_base:
            ends.add((code - scout_base) // side)
        else:
            scout_show = True
            ends.add((code - sns_base) // sns_side)
    return {"flip": flip, "shows": shows, "scout_ends": sorted(ends), "scout_show": scout_show}


def status(match: Match, view: View, _: Gettext) -> str:
    """Whose move it is, in a few words."""
    if view.phase == "over":
        return _("The match is over.")
    if view.to_act == view.seat:
        return _("Your turn.")
    return _("{player} is thinking…", player=seat_name(match, view.to_act, _))


def active_text(match: Match, view: View, _: Gettext) -> str:
    """The active set in words, with its owner."""
    if not view.active or view.active_owner is None:  # an active set always has an owner
        return _("No active set: any valid show may be played.")
    values = [top(c) for c in view.active]
    show = describe_show(values, match.rules.classify(tuple(values)), _)
    return _("Active set of {player}: {show}", player=seat_name(match, view.active_owner, _), show=show)


def match_json(match: Match, _: Gettext, log_from: int = 0) -> dict[str, Any]:
    """Everything the browser's seat may know about the match, ready to draw.

    The move log comes from line `log_from` on (the page asks only for lines it lacks);
    `log_size` is the whole log's length.
    """
    view = match.state.view(match.seat)
    lines = log_lines(match, _)
    log_from = min(max(0, log_from), len(lines))
    rules = match.rules
    return {
        "variant": rules.name,
        "players": view.players,
        "seat": view.seat,
        "round": view.round + 1,
        "rounds": view.rounds,
        "round_text": _("Round {number} of {rounds}", number=min(view.round, view.rounds - 1) + 1, rounds=view.rounds),
        "phase": view.phase,
        "to_act": view.to_act,
        "your_turn": match.your_turn,
        "bot_to_act": match.bot_to_act,
        "over": view.phase == "over",
        "status": status(match, view, _),
        "has_scout_show": rules.sns_chips > 0,
        "flip_reverses": rules.flip_reverses,
        "hand": [card_json(c) for c in view.hand],
        "active": [card_json(c) for c in view.active],
        "active_owner": view.active_owner,
        "active_text": active_text(match, view, _),
        "seats": [
            {
                "seat": s,
                "name": seat_name(match, s, _),
                # as the player reads it; bot_id is the identifier (None at the browser's own seat)
                "bot": None if bot is None else bot_label(bot, _),
                "bot_id": bot,
                "hand_size": view.hand_sizes[s],
                # Received and held chips are both the Scout chips in front of the player.
                "chips": view.chips_received[s] + view.chips_held[s],
                "scout_show": view.scout_show_chips[s],
                "captured": view.captured[s],
                "total": view.totals[s],
                "to_act": s == view.to_act and view.phase != "over",
                "owner": s == view.active_owner,
            }
            for s, bot in enumerate(match.bot_names)
        ],
        "legal": legal_moves(match, view),
        "hints": hints(match, view, _),
        "log": lines[log_from:],
        "log_from": log_from,
        "log_size": len(lines),
        "round_ends": [round_end_json(match, end, _) for end in view.round_ends],
        "standings": standings(view) if view.phase == "over" else [],
    }
