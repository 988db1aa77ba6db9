"""Why typed notation is not a move, in the player's language (the terminal game).

`scoutlab.actions` says it in English for every client (`'xyz' is not a move: expected ...`);
the terminal re-says it through the catalogs, matching each English sentence against
its template (the message id), the move and numbers carried over as typed.
"""

from __future__ import annotations

from scoutlab.text.i18n import N_, Gettext
from scoutlab.text.spec_messages import match_template

TEMPLATES: tuple[str, ...] = (
    N_("{move} is not a move: expected keep, flip, 'show I' or 'show I-J', 'scout left|right [flip] GAP', or 'scout left|right [flip] GAP show I-J'"),
    N_("{move}: a show runs from card I to card J, with 1 <= I <= J"),
    N_("{move}: 'show none' only follows a scout, in a Scout & Show"),
    N_("{move}: no hand holds more than {width} cards"),
    N_("{move}: no hand has a gap {gap}; gaps run from 0 to {width}"),
    N_("{move} is not a move: a move is at most {count} characters"),
)


def translate_notation_error(message: str, _: Gettext) -> str:
    """A NotationError's message in the player's language; as it is if no template knows it."""
    found = match_template(TEMPLATES, message)
    return _(found[0], **found[1]) if found else message
