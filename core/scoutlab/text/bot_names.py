"""What a player calls each bot, in their language: `heuristic` is an identifier, "Heuristic bot" a name.

The identifiers stay what records, the command line and the API use; screens show
`bot_label(spec, _)`. A bot's options (`mcts:seconds=0.8`) say how long it thinks, not who it
is, so a player reads the bot's name without them. A bot a plugin adds is shown by its
identifier, since no catalog knows its words.
"""

from __future__ import annotations

from scoutlab.text.i18n import N_, Gettext

#: The built-in bots a player can choose, by identifier; the English is the catalogs' message id.
BOT_LABELS: dict[str, str] = {
    "heuristic": N_("Heuristic bot"),
    "greedy": N_("Greedy bot"),
    "skilled": N_("Skilled bot"),
    "mcts": N_("Search bot"),
    "random": N_("Random bot"),
    "network": N_("Network bot"),
}


def bot_label(spec: str, _: Gettext) -> str:
    """The bot's name in the player's language, its options left out; the spec as given when no catalog knows the bot."""
    name = spec.partition(":")[0].strip()
    return _(BOT_LABELS[name]) if name in BOT_LABELS else spec
