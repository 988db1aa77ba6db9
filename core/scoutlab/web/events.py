"""The table's moves as the page animates them: one public event each, with a one-line caption.

Built from the match's public log only (see matches.LogEntry): who moved, which cards went
to the table and from which places of their hand, which end card was scouted and where it
went, how many cards were captured. The caption says it in a line, in the player's language.
"""

from __future__ import annotations

from typing import Any

from scoutlab.text.i18n import Gettext, ngettext
from scoutlab.web.matches import LogEntry, Match
from scoutlab.web.present import card_json, cards_text, match_json, seat_label, seat_name


def caption(match: Match, entry: LogEntry, _: Gettext) -> str:
    """One line for one move, e.g. "Player 2 scouts 7/3 from the right end and puts it at position 3."."""
    player = seat_label(match, entry.seat, _) if entry.seat >= 0 else ""
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


def _brief_cards(cards: tuple[int, ...]) -> str:
    """A show of more than two cards as its two ends ("1/10 … 5/10"): the whole show lies on the table just below."""
    if len(cards) <= 2:
        return cards_text(cards)
    return cards_text(cards[:1])[:-1] + " … " + cards_text(cards[-1:])[1:]  # one isolate: read left to right in any script


def brief(match: Match, entry: LogEntry, _: Gettext) -> str:
    """The caption in fewer words, for a screen where the whole sentence would take two lines (a phone): "You"
    for the player's own seat, a long show by its two ends (the table shows it whole), a scout and show without
    the places (the hand shows where the card went); the live region and the move list keep the whole sentence."""
    if entry.kind == "round_end":
        return caption(match, entry, _)
    cards, taken = _brief_cards(entry.cards), cards_text([entry.taken]) if entry.taken is not None else ""
    place, right = (entry.gap or 0) + 1, bool(entry.end)
    if entry.seat == match.seat:
        return _brief_yours(entry, cards, taken, place, right, _)
    player = seat_name(match, entry.seat, _)
    if entry.kind in ("keep", "flip"):
        return _("{player} keeps the hand.", player=player) if entry.kind == "keep" else _("{player} flips the hand.", player=player)
    if entry.kind == "show":
        if entry.captured:
            return ngettext("{player} shows {cards}, captures {count}.", "{player} shows {cards}, captures {count}.",
                            entry.captured, _, player=player, cards=cards, count=entry.captured)
        return _("{player} shows {cards}.", player=player, cards=cards)
    if entry.kind == "scout":
        if right:
            return _("{player} scouts {card} from the right to position {number}.", player=player, card=taken, number=place)
        return _("{player} scouts {card} from the left to position {number}.", player=player, card=taken, number=place)
    return _("{player} scouts {card} and shows {cards}.", player=player, card=taken, cards=cards)


def _brief_yours(entry: LogEntry, cards: str, taken: str, place: int, right: bool, _: Gettext) -> str:
    if entry.kind in ("keep", "flip"):
        return _("You keep the hand.") if entry.kind == "keep" else _("You flip the hand.")
    if entry.kind == "show":
        if entry.captured:
            return ngettext("You show {cards}, capture {count}.", "You show {cards}, capture {count}.", entry.captured, _,
                            cards=cards, count=entry.captured)
        return _("You show {cards}.", cards=cards)
    if entry.kind == "scout":
        if right:
            return _("You scout {card} from the right to position {number}.", card=taken, number=place)
        return _("You scout {card} from the left to position {number}.", card=taken, number=place)
    return _("You scout {card} and show {cards}.", card=taken, cards=cards)


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
        "brief": brief(match, entry, _),
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
