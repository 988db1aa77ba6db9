"""The "How to play" page of a variant, built from its compiled rules, in the player's language.

Every sentence depends on a knob of the spec, so a house rule's page says what that
house rule does; the wording follows the online version's rules page (seeds 001, 003).
"""

from __future__ import annotations

from typing import Any

from ..cards import format_card
from ..i18n import Gettext
from ..rules import Rules


def rules_sections(rules: Rules, _: Gettext) -> list[dict[str, Any]]:
    """[{title, paragraphs}] for the rules page."""
    return [
        {"title": _("The aim"), "paragraphs": _aim(rules, _)},
        {"title": _("Cards and the deal"), "paragraphs": _cards(rules, _)},
        {"title": _("Your hand"), "paragraphs": _hand(rules, _)},
        {"title": _("Show"), "paragraphs": _show(rules, _)},
        {"title": _("Scout"), "paragraphs": _scout(rules, _)},
        {"title": _("Scout & Show"), "paragraphs": _scout_and_show(rules, _)},
        {"title": _("End of a round and scoring"), "paragraphs": _round_end(rules, _) + _scoring(rules, _)},
        {"title": _("The match"), "paragraphs": _match(rules, _)},
    ]


def _aim(rules: Rules, _: Gettext) -> list[str]:
    return [_("Play a set stronger than the active set, or scout a new card into your hand. Captured cards and Scout chips score points.")]


def _cards(rules: Rules, _: Gettext) -> list[str]:
    out = [_(
        "Each card carries two different numbers, one at each end; only the number on top counts. "
        "The deck has one card for every pair of different numbers from {lowest} to {highest}: {count} cards.",
        lowest=rules.lowest, highest=rules.highest, count=len(rules.deck),
    )]
    for players in rules.players:
        removed = rules.removed[players]
        dealt = rules.hand_size[players]
        if removed:
            out.append(_(
                "With {players} players, remove {count} cards ({cards}) and deal {dealt} cards to each player.",
                players=players, count=len(removed), cards=", ".join(format_card(c) for c in removed), dealt=dealt,
            ))
        else:
            out.append(_("With {players} players, use every card and deal {dealt} cards to each player.", players=players, dealt=dealt))
        left = len(rules.deck) - len(removed) - players * dealt
        if left and rules.shuffle_once:
            out.append(_("The {count} cards left over are set aside: they are the deal of the next round.", count=left))
        elif left:
            out.append(_("The {count} cards left over are not used in that round.", count=left))
    if rules.random_orientation:
        out.append(_("Shuffling mixes both the order of the cards and which end is up."))
    return out


def _hand(rules: Rules, _: Gettext) -> list[str]:
    out = [_("You may never change the order of the cards in your hand, nor turn single cards around.")]
    if rules.flip_allowed:
        out.append(_("At the start of each round, and only then, you may turn your whole hand around once: every card shows its other number."))
        if rules.flip_reverses:
            out.append(_("Turning the hand also reverses the order of the cards, as when you rotate the fan of cards."))
        else:
            out.append(_("The order of the cards stays as it was; only the numbers change ends."))
    return out


def _show(rules: Rules, _: Gettext) -> list[str]:
    out = [
        _("Play one card, or two or more adjacent cards with the same number (a set) or consecutive numbers going up or down (a run)."),
        _("If there is no active set, any valid show may be played. Otherwise your show must be stronger: more cards beat fewer; with equal counts a set beats a run; with equal count and kind, the higher lowest number wins. A tie is not enough."),
        _("Take the beaten cards face down as points; your show becomes the active set and you are its owner."),
    ]
    plugins = [p if isinstance(p, str) else p["name"] for p in rules.spec.doc.get("plugins") or []]
    if plugins:
        out.append(_("Plugins in force may change which shows are valid or stronger: {names}.", names=", ".join(plugins)))
    return out


def _scout(rules: Rules, _: Gettext) -> list[str]:
    out = [_("Take only the card at the left or right end of the active set. You may turn it over and put it anywhere in your hand.")]
    if rules.scout_pays:
        out.append(_("Each player takes {count} Scout chips each round. A scout costs one of them, paid into the middle; without chips you cannot scout.", count=rules.scout_chips))
    else:
        out.append(_("The owner of the active set receives a Scout chip worth one point and keeps the cards that remain."))
    if rules.extra_turn:
        out.append(_("After a scout you play again: scout once more or show."))
    out.append(_("You never scout from your own show. If no cards remain, the next show may be any valid set."))
    return out


def _scout_and_show(rules: Rules, _: Gettext) -> list[str]:
    if not rules.sns_chips:
        return [_("There is no Scout & Show in this variant.")]
    out = [_("Once per round you may scout a card and then immediately play a valid show in the same turn. The show must beat what is left of the active set.")]
    if rules.sns_fallback:
        out.append(_("If no show is possible after the scout, the turn ends as a plain scout."))
    return out


def _round_end(rules: Rules, _: Gettext) -> list[str]:
    known = {
        "hand_emptied": _("The round ends when a player empties their hand with a show."),
        "everyone_scouted": _("The round also ends when, after a show, every other player only scouted: nobody beat the last show."),
        "opponent_stuck": _("The round also ends when, after a show, the opponent can neither show nor scout."),
    }
    out = [known.get(name, condition.description) for name, condition in rules.end_conditions]
    out.append(_("A round is stopped after {count} turns: a safety limit that sensible play never reaches.", count=rules.max_turns))
    return out


def _scoring(rules: Rules, _: Gettext) -> list[str]:
    parts = []
    if rules.points_captured:
        parts.append(_("{points:+d} for each captured card", points=rules.points_captured))
    if rules.points_received:
        parts.append(_("{points:+d} for each Scout chip received", points=rules.points_received))
    if rules.points_unspent:
        parts.append(_("{points:+d} for each Scout chip not spent", points=rules.points_unspent))
    if rules.points_in_hand:
        parts.append(_("{points:+d} for each card left in hand", points=rules.points_in_hand))
    out = [_("Scoring: {parts}.", parts="; ".join(parts))]
    if rules.exemption and any(c.exempts_last_show_owner for _n, c in rules.end_conditions):
        out.append(_("When nobody beat the last show, its owner loses nothing for the cards in hand."))
    out.append(_("The cards of the active set are worth nothing."))
    return out


def _match(rules: Rules, _: Gettext) -> list[str]:
    if rules.round_count is None:
        out = [_("There are as many rounds as players.")]
    else:
        out = [_("The match has {count} rounds.", count=rules.round_count)]
    if rules.rotate_start:
        out.append(_("The starting player changes every round."))
    out.append(_("The highest total wins; tied players share the victory."))
    return out
