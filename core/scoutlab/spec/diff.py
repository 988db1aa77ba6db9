"""The rule differences between two variants: each JSON path whose merged value differs, explained.

Both specs are compared as merged documents (after `extends`, with defaults filled
in), so a house rule of three lines shows exactly what it changes from the variant
it extends, and two unrelated specs compare just as well. Mappings are compared key
by key; lists and other values as a whole. `name` and `description` are not rules
and are left out.

Each knob gets a plain-English line: the knobs in KNOBS below say what the new value
means, with the old meaning for reference; any other knob reads the first sentence of its
schema description, so a new knob is explained from the schema alone.
"""

from __future__ import annotations

import fnmatch
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scoutlab.base.limits import cut, on_one_line
from scoutlab.spec.source import render_path
from scoutlab.spec.variant import variant_schema

if TYPE_CHECKING:
    from scoutlab.spec.variant import Spec

NOT_RULES = ("name", "title", "description", "kind")
# Compared as a whole: one line per player count reads better than one per list inside it.
WHOLE = ("$.deck.remove.*",)
# Maps keyed by player count: rows for a count the right-hand variant does not play are left out.
PER_COUNT = ("$.deck.remove.*", "$.deal.hand_size.*")


@dataclass(frozen=True)
class Difference:
    """One path whose value differs; `a` or `b` is None where that spec has no such key."""

    path: str
    a: Any
    b: Any
    explanation: str | None  # None for a path with no plain-English line

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "a": self.a, "b": self.b, "explanation": self.explanation}

    def __str__(self) -> str:
        line = f"{self.path}: {show_value(self.a)} -> {show_value(self.b)}"
        return f"{line}: {self.explanation}" if self.explanation else line


def diff_docs(a: dict[str, Any], b: dict[str, Any]) -> list[Difference]:
    """Every rule difference between two merged spec documents, in document order."""
    a = {k: v for k, v in a.items() if k not in NOT_RULES}
    b = {k: v for k, v in b.items() if k not in NOT_RULES}
    found: list[Difference] = []
    _walk(a, b, (), found)
    played = {str(n) for n in b.get("players", [])} if isinstance(b.get("players"), list) else None
    if played is not None:  # a count B does not play has no rules in B: the players row says so once
        found = [d for d in found if _count_of(d.path) in played or _count_of(d.path) is None]
    return found


def _count_of(path: str) -> str | None:
    """The player count a per-count path is about (`$.deal.hand_size.4` -> "4"), else None."""
    for pattern in PER_COUNT:
        if _matches(path, pattern):
            return path.rsplit(".", 1)[1]
    return None


def diff_specs(a: Spec, b: Spec) -> list[Difference]:
    """Every rule difference between two loaded specs."""
    return diff_docs(a.doc, b.doc)


def _walk(a: Any, b: Any, path: tuple[str | int, ...], found: list[Difference]) -> None:
    rendered = render_path(path)
    if isinstance(a, dict) and isinstance(b, dict) and not any(_matches(rendered, p) for p in WHOLE):
        for key in list(a) + [k for k in b if k not in a]:
            _walk(a.get(key), b.get(key), path + (key,), found)
    elif a != b:
        found.append(Difference(rendered, a, b, explain(rendered, a, b)))


SHOWN_CHARS = 200  # of one value: a plugin's config may hold a list of thousands


def show_value(value: Any) -> str:
    """A value as the spec would write it: `owner_receives`, `true`, `[3, 4, 5]`; `(absent)` for no key. On one line,
    cut to SHOWN_CHARS with its length said."""
    text = _written(value)
    return cut(text, SHOWN_CHARS)


def _written(value: Any) -> str:
    if value is None:
        return "(absent)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{on_one_line(str(k))}: {_written(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_written(v) for v in value) + "]"
    return on_one_line(str(value))  # a text's line break or bidirectional override would break or reorder the line


def to_json(a_name: str, b_name: str, differences: list[Difference]) -> str:
    """The differences as JSON: `{"a", "b", "differences": [{"path", "a", "b", "explanation"}]}`."""
    return json.dumps({"a": a_name, "b": b_name, "differences": [d.to_dict() for d in differences]}, indent=2)


# --------------------------------------------------------------------------- what each knob means


def _join(items: list[Any], word: str = "or") -> str:
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {word} {items[-1]}"


def _plural(count: int, one: str, many: str) -> str:
    return one if count == 1 else many.format(count=count)


def _removal(value: dict[str, Any] | None, players: str) -> str:
    parts = []
    if value and value.get("containing"):
        parts.append(f"every card with a {_join(value['containing'])}")
    if value and value.get("cards"):
        cards = value["cards"]
        parts.append(f"the {_join(cards, 'and')} card{'s' * (len(cards) > 1)}")
    if not parts:
        return f"with {players} players, play with the whole deck"
    return f"with {players} players, take out {' and '.join(parts)}"


def _rotation(steps: int) -> str:
    if steps == 0:
        return "the same player starts every round"
    side = "left" if steps > 0 else "right"
    return f"the starting player moves {_plural(abs(steps), 'one seat', '{count} seats')} to the {side} each round"


def _points(what: str) -> Callable[[Any, str], str]:
    return lambda v, _: f"each {what} scores {v:+}" if v else f"each {what} scores nothing"


# Path pattern (`*` matches a player count) -> what a value there means; None is "no such key".
KNOBS: dict[str, Callable[[Any, str], str]] = {
    "$.players": lambda v, _: f"played by {_join(v)} players",
    "$.deck.lowest": lambda v, _: f"card numbers start at {v}",
    "$.deck.highest": lambda v, _: f"card numbers go up to {v}",
    "$.deck.random_orientation": lambda v, _: (
        "shuffling turns every card at random, so either number may be on top"
        if v else "every card is dealt with its lower number on top"
    ),
    "$.deck.remove.*": lambda v, n: _removal(v, n),
    "$.deal.hand_size.*": lambda v, n: f"with {n} players each is dealt {v} cards" if v else f"there is no deal for {n} players",
    "$.deal.shuffle": lambda v, _: {
        "each_round": "every round is dealt afresh from the whole deck, shuffled again",
        "once": "the deck is shuffled once per game and later rounds are dealt from the cards set aside",
    }.get(v, str(v)),
    "$.hand_flip.allowed": lambda v, _: (
        "each player may flip the whole hand at the start of a round" if v else "hands may not be flipped"
    ),
    "$.hand_flip.reverses_order": lambda v, _: (
        "a hand flip also reverses the order of the cards" if v else "a hand flip keeps the left-to-right order of the cards"
    ),
    "$.scout.payment": lambda v, _: {
        "owner_receives": "the owner of the active set receives a Scout chip for each scout",
        "scout_pays": "the scouting player pays a Scout chip for each scout, and cannot scout without one",
    }.get(v, str(v)),
    "$.scout.extra_turn": lambda v, _: "a player who scouts acts again at once" if v else "a scout ends the turn",
    "$.scout_and_show.chips_per_round": lambda v, _: (
        _plural(v, "each player may Scout & Show once per round", "each player may Scout & Show {count} times per round")
        if v else "there is no Scout & Show"
    ),
    "$.scout_and_show.fallback_to_scout": lambda v, _: (
        "a Scout & Show with no legal show after the scout ends as a plain scout"
        if v else "a Scout & Show needs a legal show after the scout"
    ),
    "$.scout_chips_per_round": lambda v, _: (
        f"each player takes {_plural(v, 'one Scout chip', '{count} Scout chips')} at the start of a round"
        if v else "nobody takes Scout chips at the start of a round"
    ),
    "$.scoring.captured_card": _points("captured card"),
    "$.scoring.chip_received": _points("Scout chip received"),
    "$.scoring.unspent_chip": _points("Scout chip still held at the end of the round"),
    "$.scoring.card_in_hand": _points("card left in hand"),
    "$.scoring.unspent_scout_show_chip": _points("Scout & Show chip still held at the end of the round"),
    "$.scoring.exempt_last_show_owner": lambda v, _: (
        "the owner of the last show loses nothing for their hand when nobody beat it"
        if v else "nobody is exempt from the points for cards in hand"
    ),
    "$.rounds.count": lambda v, _: (
        "a game has as many rounds as players" if v == "per_player" else _plural(v, "a game has one round", "a game has {count} rounds")
    ),
    "$.rounds.first_starting_seat": lambda v, _: f"P{v + 1} starts the first round",
    "$.rounds.rotate_start": lambda v, _: _rotation(v),
    "$.end_conditions": lambda v, _: f"a round ends on {_join(v)}",
    "$.max_turns_per_round": lambda v, _: f"the safety cap ends a round after {v} turns",
    "$.plugins": lambda v, _: (
        "plugins in force: " + _join([p if isinstance(p, str) else p.get("name") for p in v], "and") if v else "no plugins"
    ),
}


def explain(path: str, a: Any, b: Any) -> str | None:
    """The plain-English line for a change of a knob: what `b` means, and what `a` meant (KNOBS), else what the
    knob is (its schema description); None for a path the schema does not describe."""
    for pattern, meaning in KNOBS.items():
        if _matches(path, pattern):
            players = _player_count(path, pattern)
            now, before = (_meaning(meaning, value, pattern, players) for value in (b, a))
            return now if a is None else f"{now} (was: {before})"
    description = schema_property(path).get("description")
    return description.split(". ")[0].rstrip(".") if isinstance(description, str) else None


def schema_property(path: str) -> dict[str, Any]:
    """The variant schema's property at a JSON path (`$.deal.hand_size.4`: a player count's entry); {} if none."""
    schema = variant_schema()
    node: Any = schema
    for key in path.split(".")[1:]:
        if "$ref" in node:
            node = schema["$defs"][node["$ref"].rsplit("/", 1)[1]]
        properties, others = node.get("properties", {}), node.get("additionalProperties")
        node = properties[key] if key in properties else others if isinstance(others, dict) else None
        if node is None:
            return {}
    return dict(node)


def _matches(path: str, pattern: str) -> bool:
    """Whether a path fits a KNOBS pattern, `*` standing for exactly one key."""
    return fnmatch.fnmatchcase(path, pattern) and path.count(".") == pattern.count(".")


def _meaning(meaning: Callable[[Any, str], str], value: Any, pattern: str, players: str) -> str:
    # Only the entries by player count may be absent from a valid merged spec; they say what absence means.
    if value is None and "*" not in pattern:
        return "not set"
    return meaning(value, players)


def _player_count(path: str, pattern: str) -> str:
    """The player count that a pattern's `*` matched, e.g. `2` in `$.deal.hand_size.2`."""
    for step, wanted in zip(path.split("."), pattern.split(".")):
        if wanted == "*":
            return step
    return ""
