"""A new match's choices checked, for the start page's form and `POST /api/new` alike: variant or pasted spec,
players, level, opponents and a practice seed, each refused in one sentence of the player's language.

These run in a worker thread (a pasted spec may take seconds to compile).
"""

from __future__ import annotations

from typing import Any

from scoutlab.bots import BotError, known_bots
from scoutlab.bots.levels import LEVELS, find_level, level_bot
from scoutlab.spec.variant import Spec, load_spec, load_spec_text, shipped_variants
from scoutlab.text.i18n import Gettext, left_to_right
from scoutlab.web.deals import PRACTICE_SEED_LIMIT
from scoutlab.web.inputs import BadInput, sent, whole_number
from scoutlab.web.matches import Match, Matches, rules_for

#: Bots a browser may choose. `external` runs a program on the server, so it is never offered.
UNSAFE_BOTS = {"external"}
#: Bytes of YAML a browser may send, pasted or uploaded, at the start page or the lab (the spec layer reads up to 1 MB).
MAX_SPEC_BYTES = 64 * 1024
#: The most players any variant seats (the schema's limit); a larger number is refused before anything is built.
MAX_PLAYERS = 5


def offered_bots() -> list[str]:
    """Bot names a browser may pick for one opponent, besides the levels' bots."""
    return sorted(name for name in known_bots() if name not in UNSAFE_BOTS)


def allowed_bots() -> set[str]:
    """Every bot a match may seat: the offered names and each level's bot spec (with its budget)."""
    return {*offered_bots(), *(level.bot for level in LEVELS)}


def count_range(counts: list[int]) -> str:
    """`3–5` for consecutive counts, else `2, 4`; isolated left to right, so Arabic and Persian keep the order."""
    if len(counts) > 1 and counts == list(range(counts[0], counts[-1] + 1)):
        return left_to_right(f"{counts[0]}–{counts[-1]}")
    return left_to_right(", ".join(map(str, counts)))


def spec_from(variant: str, text: str, filename: str, _: Gettext) -> Spec:
    """The spec to play (call in a worker thread: it may compile); SpecError or ValueError with the reason."""
    if text.strip():
        if len(text.encode("utf-8", "replace")) > MAX_SPEC_BYTES:
            raise ValueError(_("A variant spec may be at most {size} KB.", size=MAX_SPEC_BYTES // 1024))
        try:
            spec = load_spec_text(text, filename)
            rules_for(spec)  # compiling checks end conditions and plugins, as `scoutlab validate` does
        except RecursionError:  # the YAML reader recurses once per level of nesting
            raise ValueError(_("The variant spec is nested too deeply to read.")) from None
        return spec
    if variant not in {name for name, _d in shipped_variants()}:
        raise ValueError(_("There is no variant called {name}.", name=sent(variant)))
    return load_spec(variant)


def level_spec(level: Any, _: Gettext) -> str:
    """The bot spec a level plays with (or the next installed level's); BadInput for a level that is not one."""
    try:
        if not isinstance(level, str):
            raise ValueError(level)
        find_level(level)
    except ValueError:
        raise BadInput(_("Unknown level {name}; choose one of: {names}.", name=sent(level),
                         names=", ".join(known.name for known in LEVELS))) from None
    return level_bot(level)


def players_message(_: Gettext) -> str:
    return _("The number of players must be a whole number from {low} to {high}.", low=2, high=MAX_PLAYERS)


def practice_seed(practice: Any, seed: Any, _: Gettext) -> int | None:
    """The chosen seed of a practice match, or None for a secret deal; BadInput when a seed comes without practice,
    or practice without a seed (its deal is one the player can play again: the player chooses it, and knows it)."""
    if not isinstance(practice, bool):
        raise BadInput(_("practice must be true or false."))
    if seed is None:
        if practice:
            raise BadInput(_("A practice match needs a chosen seed (send seed with it: a whole number from 0 to 2^128 − 1)."))
        return None
    if not practice:
        raise BadInput(_("A chosen seed is only allowed in a practice match (send practice: true with it)."))
    return whole_number(seed, 0, PRACTICE_SEED_LIMIT - 1, _("The seed must be a whole number from 0 to 2^128 − 1."))


def start_match(matches: Matches, doc: dict, players: int, bots: list[str], seed: int | None, _: Gettext) -> Match:
    """A new match of `doc` for `players`, the browser against `bots`; ValueError or BotError with the reason."""
    counts = rules_for(doc).players
    if players not in counts:
        raise ValueError(_(
            "The variant {variant} is for {counts} players, not {players}.",
            variant=doc["name"], counts=count_range(list(counts)), players=players,
        ))
    if len(bots) != players - 1:
        raise BotError(_("bots must be a list of bot names, one per opponent."))
    allowed = allowed_bots()
    for bot in bots:
        if bot not in allowed:
            raise BotError(_("Unknown opponent {name}; choose one of: {names}.", name=sent(bot), names=", ".join(sorted(allowed))))
    return matches.new(doc, players, bots, seed)
