"""What a player calls each bot, in their language: `heuristic` is an identifier, "Heuristic bot" a name.

The identifiers stay what records, the command line and the API use; screens show
`bot_label(name, _)`. A bot a plugin adds, or a bot with options (`mcts:iterations=400`),
is shown by its identifier, since no catalog knows its words.
"""

from __future__ import annotations

from scoutlab.text.i18n import N_, Gettext

#: The built-in bots a player can choose, by identifier; the English is the catalogs' message id.
BOT_LABELS: dict[str, str] = {
    "heuristic": N_("Heuristic bot"),
    "greedy": N_("Greedy bot"),
    "mcts": N_("Search bot"),
    "random": N_("Random bot"),
}


def bot_label(name: str, _: Gettext) -> str:
    """The bot's name in the player's language (its identifier when no catalog knows it)."""
    return _(BOT_LABELS[name]) if name in BOT_LABELS else name
