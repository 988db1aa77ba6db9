"""The table's moves as the page animates them: one public event each, with a one-line caption.

Built from the match's public log only (see matches.LogEntry): who moved, which cards went
to the table and from which places of their hand, which end card was scouted and where it
went, how many cards were captured. The caption says it in a line, in the player's language.
"""

from __future__ import annotations

from typing import Any

from scoutlab.text.i18n import Gettext, ngettext
from scoutlab.web.matches import LogEntry, Match
from scoutlab.web.present import card_json, cards_text, match_json, seat_name


def caption(match: Match, entry: LogEntry, _: Gettext) -> str:
    """One line for one move, e.g. "Player 2 scouts 7/3 from the right end and puts it at position 3."."""
    player = seat_name(match, entry.seat, _) if entry.seat >= 0 else ""
    if entry.seat == match.seat:
        player = _("{player} (you)", player=player)
    if entry.kind == "round_end":
        return _("Round {number} is over", number=entry.round + 1)
    if entry.kind == "keep":
        return _("{player} keeps the hand as dealt.", player=player)
    if entry.kind == "flip":
        return _("{player} flips the whole hand.", player=player)
    cards = cards_text(entry.cards)
    if entry.kind == "show":
        if entry.captured:
            return ngettext("{player} shows {cards} and captures {count} card.", "{player} shows {cards} and captures {count} cards.",
                            entry.captured, _, player=player, cards=cards, count=entry.captured)
        return _("{player} shows {cards}.", player=player, cards=cards)
    taken = cards_text([entry.taken])
    place = (entry.gap or 0) + 1
    if entry.kind == "scout":
        if entry.end:
            return _("{player} scouts {card} from the right end and puts it at position {number}.", player=player, card=taken, number=place)
        return _("{player} scouts {card} from the left end and puts it at position {number}.", player=player, card=taken, number=place)
    if entry.end:
        return _(
            "{player} scouts {card} from the right end, puts it at position {number} and shows {cards}.",
            player=player, card=taken, number=place, cards=cards,
        )
    return _(
        "{player} scouts {card} from the left end, puts it at position {number} and shows {cards}.",
        player=player, card=taken, number=place, cards=cards,
    )


def event_json(match: Match, entry: LogEntry, _: Gettext) -> dict[str, Any]:
    """One move for the page's animation: seat, kind, cards and places, and its caption."""
    return {
        "round": entry.round + 1,
        "seat": entry.seat,
        "kind": entry.kind,
        "cards": [card_json(c) for c in entry.cards],
        "taken": None if entry.taken is None else card_json(entry.taken),
        "end": entry.end,
        "gap": entry.gap,
        "start": entry.start,
        "captured": entry.captured,
        "caption": caption(match, entry, _),
    }


def events_json(match: Match, _: Gettext, start: int) -> list[dict[str, Any]]:
    """The public events from log entry `start` on (the log and the events run in step)."""
    return [event_json(match, entry, _) for entry in match.log[start:]]


def table_json(match: Match, _: Gettext, log_from: int = 0) -> dict[str, Any]:
    """The seat's state (present.match_json) with the events of the log lines it carries and `ply`,
    the number of moves made: the page keeps the newest state it saw, whichever way it came.

    Call it holding the match's lock. The last state made is kept on the match: the answer to a
    move and the live stream's event after it usually ask for the same one (same moves, language
    and log start), which is then made once. The caller gets its own copy of the outer dict.
    """
    key = (len(match.state.history), _, log_from)
    kept = match.rendered
    if kept is not None and kept[0] == key:
        return dict(kept[1])
    state = match_json(match, _, log_from)
    state["events"] = events_json(match, _, state["log_from"])
    state["ply"] = key[0]
    match.rendered = (key, state)
    return dict(state)
