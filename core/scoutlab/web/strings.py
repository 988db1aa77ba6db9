"""The words the table's script shows, translated on the server and handed to the page as JSON.

Keeping them here (not in the .js file) means one extraction of Python and templates
finds every string a player reads.
"""

from __future__ import annotations

from scoutlab.text.i18n import Gettext


def page_strings(_: Gettext) -> dict[str, str]:
    """{key: translated text} for static/table.js; `{name}` fields are filled in by the script."""
    return {
        "position": _("card {number}"),
        "gap": _("Put it here, between card {left} and card {right}"),
        "gap_first": _("Put it here, before card 1"),
        "gap_last": _("Put it here, after card {number}"),
        "take_left": _("Scout the left end card {card}"),
        "take_right": _("Scout the right end card {card}"),
        "taken": _("You are scouting {card}. Choose where it goes in your hand."),
        "sns_pick": _("Now select the cards to show; the scouted card is marked."),
        "pick_adjacent": _("Pick cards that sit next to each other in your hand."),
        "pick_some": _("Select one card, or adjacent cards, to show."),
        "legal": _("This show is allowed."),
        # One line each, while cards are being picked: what the picked cards can become (a refusal waits for the Show button).
        "side_by_side": _("Pick cards side by side."),
        "grow": _("Add an adjacent card to make a show."),
        "no_show": _("No show you can play uses these cards."),
        "not_yet": _("Not yet a show you can play."),
        "card": _("{top}, with {bottom} on the other end"),
        "owner": _("owner of the active set"),
        "to_act": _("to act"),
        "rank": _("{rank}. {name}: {total}"),
        "winner": _("winner"),
        "shared": _("Tied players share the victory."),
        "offline": _("The server did not answer; trying again…"),
        "placed": _("{card} goes to position {number}. Move it or turn it over if you like, then confirm."),
        "in_hand": _("Cards in hand: {count}"),
        "chips": _("Scout chips: {count}"),
        "captured": _("Captured: {count}"),
        "score": _("Score: {count}"),
        "sns_yes": _("Scout & Show chip: still to use"),
        "sns_no": _("Scout & Show chip: used"),
        # TRANSLATORS: the Scout & Show chip's badge beside each player (crossed out once used): a few letters a reader
        # of the language takes for "Scout & Show" at a glance, at most about 12 characters.
        "sns_badge": _("S&S"),
        # TRANSLATORS: a player's score beside their name, as short as the language allows ("12 pts").
        "score_badge": _("{count} pts"),
        # Cards in hand at a round's end that cost the player nothing (they owned the last show).
        "in_hand_exempt": _("{count}, not counted"),
        "players": _("Players"),
        "rounds": _("Rounds"),
        "paused": _("Paused until you press Continue."),
        "round_col": _("Round {number}"),
        "total": _("Total"),
        "player_you": _("{player} (you)"),
        "rank_you": _("{rank}. {name} (you): {total}"),
        "your_turn": _("Your turn"),
    }
