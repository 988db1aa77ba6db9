"""Positions: one moment of a round written as readable YAML, loaded into a real GameState and dumped back.

A position names the variant, every hand, the active set and its owner, the chips
and whose turn it is; everything but the hands has a default (docs/positions.md).
Seats count from 1 in the file, as P1..Pn in logs; the engine counts from 0.

`load_position` checks the text against schemas/position.schema.json, then against
what a schema cannot say (cards the variant removed, a card written twice, seats
that do not exist), and reports every problem at once as `FILE:LINE: $.path: message`
in a PositionError. Cards the position does not show are set aside: they are the
deal of later rounds when the variant shuffles once (two-player), and the source of
captured cards given only as counts.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

import jsonschema

from scoutlab.base.errors import NumberOutOfRange, problem_lines
from scoutlab.base.limits import MAX_POSITION_BYTES, InputTooLarge, check_size, excerpt, read_capped, unreadable
from scoutlab.engine.cards import format_hand, identity, parse_card, top
from scoutlab.rules import load_rules
from scoutlab.spec import schema_words, source as yamlsrc
from scoutlab.spec.source import JsonPath, render_path
from scoutlab.spec.variant import Problem, SpecError

if TYPE_CHECKING:
    from scoutlab.engine.state import GameState
    from scoutlab.rules import Rules

__all__ = [
    "POSITION_SCHEMA_ID",
    "PositionError",
    "dump_position",
    "load_position",
    "position_from_data",
    "position_schema",
]

POSITION_VERSION = 1
POSITION_SCHEMA_ID = f"https://scoutlab.dev/schemas/position/{POSITION_VERSION}.json"


class PositionError(ValueError):
    """A position that cannot be set up; `problems` lists every reason found, each with file and line."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: list[Problem] = list(problems)
        super().__init__("\n".join(problem_lines(self.problems)))


# --------------------------------------------------------------------------- loading


def load_position(path_or_text: str | os.PathLike[str], rules: Rules | None = None) -> GameState:
    """A GameState from a position file's path or from position text (YAML); raises PositionError.

    A path names an existing file or ends in .yaml or .yml; anything else is text. Pass
    `rules` to reuse compiled rules instead of loading the variant the position names
    (compiling a spec is the slow part); the position's `variant`, if any, must be theirs.
    """
    if _is_path(path_or_text):
        path = os.fspath(path_or_text)
        try:
            text = read_capped(path, MAX_POSITION_BYTES, "the position file")
        except InputTooLarge as exc:
            raise PositionError([Problem(path, None, "$", str(exc))]) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise PositionError([Problem(path, None, "$", unreadable(exc, "a position file"))]) from None
        return _load_text(text, path, os.path.dirname(path), rules)
    text = os.fspath(path_or_text)
    try:  # more characters than the limit is more bytes too: no need to encode a huge text
        check_size(len(text) if len(text) > MAX_POSITION_BYTES else len(text.encode("utf-8", "replace")), MAX_POSITION_BYTES, "the position text")
    except InputTooLarge as exc:
        raise PositionError([Problem("<position>", None, "$", str(exc))]) from None
    return _load_text(text, "<position>", None, rules)


def _is_path(value: str | os.PathLike[str]) -> bool:
    if isinstance(value, os.PathLike):
        return True
    # anything that exists is a path (a directory or a device is then refused as one, not read as YAML text), and so
    # is a name with a slash and no mapping in it: `/nowhere` is a missing file, not a one-word position
    if "\n" in value:
        return False
    looks_like_a_path = os.sep in value and ": " not in value and not value.lstrip().startswith(("{", "["))
    return os.path.exists(value) or value.endswith((".yaml", ".yml")) or looks_like_a_path


def _load_text(text: str, source: str, base_dir: str | None, rules: Rules | None) -> GameState:
    parsed = yamlsrc.parse(text)
    where = _Where(source, parsed.lines)
    problems = [Problem(source, f.line, render_path(f.path), f.message) for f in parsed.findings]
    if parsed.data is None and not problems:
        problems.append(where.problem((), "the position is empty; it needs at least `hands`, one per seat"))
    if problems:
        raise PositionError(problems)
    return _build(parsed.data, where, base_dir, rules)


def position_from_data(
    data: Any,
    source: str = "<position>",
    lines: Mapping[JsonPath, int] | None = None,
    at: JsonPath = (),
    base_dir: str | None = None,
    rules: Rules | None = None,
) -> GameState:
    """A GameState from an already-parsed position (e.g. one inline in a scenario file); raises PositionError.

    `lines` (from scoutlab.spec.source) and `at`, the position's path inside its document,
    let problems point at the right line of `source`; `rules` as for `load_position`.
    """
    return _build(data, _Where(source, lines or {}, at), base_dir, rules)


@dataclass
class _Where:
    """Where a position came from, so each problem names its file, line and JSON path."""

    source: str
    lines: Mapping[JsonPath, int]
    at: JsonPath = ()
    problems: list[Problem] = field(default_factory=list)

    def problem(self, path: JsonPath, message: str) -> Problem:
        full = self.at + tuple(path)
        line = next((self.lines[full[:end]] for end in range(len(full), -1, -1) if full[:end] in self.lines), None)
        return Problem(self.source, line, render_path(full), message)

    def add(self, path: JsonPath, message: str) -> None:
        self.problems.append(self.problem(path, message))

    def check(self) -> None:
        """Raise every problem noted so far, if any."""
        if self.problems:
            raise PositionError(sorted(self.problems, key=lambda p: p.line or 0))


def _build(data: Any, where: _Where, base_dir: str | None, rules: Rules | None) -> GameState:
    if not isinstance(data, dict):
        # Text that reads as one word was probably meant as a file name; a file's own text is never quoted.
        named = isinstance(data, str) and "\n" not in data and where.source == "<position>"
        hint = f"; and there is no file named {excerpt(data)}" if named else ""
        raise PositionError([where.problem((), f"a position is a mapping with at least `hands`, one per seat{hint}")])
    if data and not set(data) & set(position_schema()["properties"]):
        # Not a position with typos but some other file (a password file reads as a mapping): quote none of it.
        raise PositionError([where.problem((), "this is not a position: none of its top-level keys is a position's (`hands`, `variant`, ...)")])
    for path, message in _schema_findings(data):
        where.add(path, message)
    where.check()
    doc = _with_defaults(data)
    if rules is None:
        rules = _load_variant(doc["variant"], where, base_dir)
    elif data.get("variant", rules.name) != rules.name:
        raise PositionError([where.problem(("variant",), f"the position is for variant {excerpt(data['variant'])}, but the rules given are {rules.name!r}")])
    setup = _Setup(rules, doc, where)
    where.check()
    return setup.state()


# --------------------------------------------------------------------------- the schema


def position_schema() -> dict[str, Any]:
    """The position JSON Schema (2020-12), as shipped in scoutlab.schemas."""
    return json.loads(_schema_text())


@functools.cache
def _schema_text() -> str:
    return resources.files("scoutlab.schemas").joinpath("position.schema.json").read_text(encoding="utf-8")


@functools.cache
def _validator() -> jsonschema.protocols.Validator:
    return schema_words.validator(position_schema())


def _schema_findings(data: dict[str, Any]) -> list[tuple[JsonPath, str]]:
    """Every schema violation in the shared wording (spec/schema_words.py), with a position's own sentences."""
    findings = []
    for error in _validator().iter_errors(data):
        findings.extend(schema_words.explain(error, _own_words))
    return sorted(set(findings), key=lambda f: (render_path(f[0]), f[1]))


def _title(error: jsonschema.ValidationError) -> str | None:
    return error.schema.get("title") if isinstance(error.schema, dict) else None


def _own_words(error: jsonschema.ValidationError, path: JsonPath) -> list[tuple[JsonPath, str]] | None:
    """What only a position says (seats, cards, its schema_version, its hands); None leaves the rest to the shared words."""
    # jsonschema types these loosely (a schema may be a bool); here they are the keyword's own values.
    kind: Any = error.validator
    expected: Any = error.validator_value
    value: Any = error.instance
    schema: Any = error.schema
    if kind == "oneOf":
        # Neither form fits: the form of the right type says what is wrong, else name both forms.
        near = [e for e in error.context or () if e.validator != "type"]
        if near:
            return schema_words.explain(near[0], _own_words)
        forms = " or ".join(
            "a seat number (P1 is 1)" if _title(e) == "seat" else _A_FORM.get(str(e.validator_value), str(e.validator_value))
            for e in error.context or ()
        )
        return [(path, f"expected {forms}, got {schema_words.describe(value)}")]
    if kind == "pattern":
        return [(path, f"{excerpt(value)} is not a {schema.get('title', 'valid value')}")]
    if kind == "minimum" and schema.get("title") == "seat":
        return [(path, f"{excerpt(value)}: seats count from 1 (P1 is 1)")]
    if kind == "const":
        return [(path, f"this scoutlab reads position schema_version {expected}, not {excerpt(value)}")]
    if kind == "minItems":
        return [(path, f"needs at least {expected} entries (one per seat)")]
    if kind == "required":
        return [(path, "missing `hands`: every position lists each seat's hand")]
    return None


def _word(word: str) -> str:
    """A card as written, bare as the notation is, unless it is long enough to be an echo."""
    return word if len(word) <= 40 else excerpt(word)


_A_FORM = {"integer": "a whole number", "string": "cards (top/bottom)", "null": "null"}


def _with_defaults(data: dict[str, Any]) -> dict[str, Any]:
    """The schema's top-level defaults filled in; the defaults that depend on the variant come later."""
    doc = dict(data)
    for key, sub in position_schema()["properties"].items():
        if key not in doc and "default" in sub:
            doc[key] = sub["default"]
    return doc


def _load_variant(name: str, where: _Where, base_dir: str | None) -> Rules:

    target = name
    if base_dir is not None and ("/" in name or name.endswith((".yaml", ".yml"))) and not os.path.isabs(name):
        target = os.path.join(base_dir, name)  # a spec path is relative to the position file
    try:
        return load_rules(target)
    except SpecError as exc:
        raise PositionError([where.problem(("variant",), f"cannot load variant {excerpt(name)}:")] + exc.problems) from None


# --------------------------------------------------------------------------- checking and building


class _Setup:
    """Reads a schema-valid position against its variant, noting every problem, then builds the state."""

    def __init__(self, rules: Rules, doc: dict[str, Any], where: _Where):
        self.rules, self.doc, self.where = rules, doc, where
        hands_given = len(doc["hands"])
        n = self.players = doc.get("players", hands_given)
        if n not in rules.players:
            allowed = ", ".join(map(str, rules.players))
            where.add(("players",) if "players" in doc else ("hands",),
                      f"variant {rules.name!r} is for {allowed} players, not {excerpt(n)}")
            where.check()
        if hands_given != n:
            where.add(("hands",), f"{n} players need {n} hands, one per seat; got {hands_given}")
            where.check()
        self.round = doc["round"] - 1
        rounds = rules.rounds_for(n)
        if self.round >= rounds:
            where.add(("round",), f"round {excerpt(doc['round'])} does not exist: variant {rules.name!r} plays {rounds} rounds with {n} players")
        self.seen: dict[int, str] = {}  # card identity -> where the position shows it, to catch a card written twice
        self.hands = [self._cards(("hands", i), text, f"P{i + 1}'s hand") for i, text in enumerate(doc["hands"])]
        for i, text in enumerate(doc["hands"]):
            if not text.split():
                where.add(("hands", i), f"P{i + 1}'s hand is empty: a show that empties a hand ends the round")
        self.active = self._cards(("active",), doc["active"], "the active set")
        self.captured_cards, self.captured_counts = self._captured()
        self._table()
        self.totals = self._per_seat("totals", [0] * n)  # before the turn: the rules may start a round by the totals
        self._turn()
        self.chips_received = self._counts("chips_received", 0, None)
        self.chips_held = self._counts("chips_held", rules.scout_chips, "Scout chips")
        self.scout_show_chips = self._counts("scout_show_chips", rules.sns_chips, "Scout & Show chips")

    # -- cards -----------------------------------------------------------------------------

    def _cards(self, path: JsonPath, text: str, place: str) -> list[int]:
        """Parse one card list, checking each card is in play for this variant and shown only once."""
        rules, n = self.rules, self.players
        removed = set(rules.removed[n])
        deck = set(rules.deck)
        cards = []
        for word in text.split():
            try:
                c = parse_card(word)
            except NumberOutOfRange:  # said of the variant's deck, not of the notation's 1 to 31
                self.where.add(path, self._not_in_deck(word))
                continue
            except ValueError as exc:
                self.where.add(path, str(exc))
                continue
            key = identity(c)
            if key not in deck:
                self.where.add(path, self._not_in_deck(word))
            elif key in removed:
                self.where.add(path, f"{_word(word)} is not in play: variant {rules.name!r} removes it for {n} players")
            elif key in self.seen:
                self.where.add(path, f"{_word(word)}: this card is already in {self.seen[key]}")
            else:
                self.seen[key] = place
            cards.append(c)
        return cards

    def _not_in_deck(self, word: str) -> str:
        rules = self.rules
        return f"{_word(word)} is not in the deck of variant {rules.name!r}: numbers run from {rules.lowest} to {rules.highest}"

    def _captured(self) -> tuple[list[list[int]], list[int]]:
        """Captured cards as given, and how many more each seat needs from the unseen cards (counts)."""
        given = self._per_seat("captured", [0] * self.players)
        cards: list[list[int]] = []
        counts: list[int] = []
        for i, entry in enumerate(given):
            if isinstance(entry, int):
                cards.append([])
                counts.append(entry)
            else:
                cards.append(self._cards(("captured", i), entry, f"P{i + 1}'s captured cards"))
                counts.append(0)
        return cards, counts

    # -- seats, the table and the turn -----------------------------------------------------

    def _seat(self, key: str) -> int | None:
        """The 0-based seat under `key`, None if absent or null."""
        value = self.doc.get(key)
        if value is None:
            return None
        if value > self.players:
            self.where.add((key,), f"seat {excerpt(value)} does not exist with {self.players} players (seats are 1 to {self.players})")
            return None
        return value - 1

    def _table(self) -> None:
        """The active set, its owner and the owner of the last show must tell one story."""
        rules, where, doc = self.rules, self.where, self.doc
        self.owner = self._seat("owner")
        if self.active and "owner" not in doc:
            where.add(("active",), "an active set needs its owner: add `owner: SEAT` (the seat that showed it)")
        elif self.active and doc["owner"] is None:
            where.add(("owner",), "the active set has cards, so it has an owner: give the seat that showed it")
        elif not self.active and not doc.get("active") and doc.get("owner") is not None:  # not when its cards were refused
            where.add(("owner",), "the active set is empty, so it has no owner; leave out `owner`")
        # A card given twice is a problem already, and thousands of one card would cost classify seconds.
        distinct = len({identity(c) for c in self.active}) == len(self.active)
        if self.active and distinct and rules.classify(tuple(top(c) for c in self.active)) is None:
            where.add(("active",), f"{excerpt(doc['active'])} is neither a set nor a run, so no show could have put it on the table")
        if "last_shower" in doc:
            self.last_shower = self._seat("last_shower")
            if self.active and self.owner is not None and self.last_shower != self.owner:
                where.add(("last_shower",), "while the active set has cards, the last show is the one that made it: last_shower must be the owner")
        else:
            self.last_shower = self.owner

    def _turn(self) -> None:
        rules, where, doc, n = self.rules, self.where, self.doc, self.players
        self.phase = doc["phase"]
        start = self._seat("starting_seat")
        self.starting_seat = rules.starting_seat(n, self.round, self.totals) if start is None else start
        to_act = self._seat("to_act")
        if to_act is None:
            to_act = self.starting_seat if self.owner is None or self.phase == "flip" else (self.owner + 1) % n
        self.to_act = to_act
        self.turn = doc["turn"]
        if self.turn >= rules.max_turns:
            where.add(("turn",), f"turn {self.turn}: the round would already have ended at the turn cap ({rules.max_turns} turns)")
        self.flips_left = 0
        if self.phase == "flip":
            if not rules.flip_allowed:
                where.add(("phase",), f"variant {rules.name!r} has no hand flip, so a round starts in the play phase")
            if self.active or self.turn:
                where.add(("phase",), "in the flip phase nothing has been played yet: no active set, turn 0")
            waiting = n - (self.to_act - self.starting_seat) % n  # seats choose in turn from the starting seat
            self.flips_left = doc.get("flips_left", waiting)
            if not 1 <= self.flips_left <= n:
                where.add(("flips_left",), f"in the flip phase 1 to {n} seats are still to choose, not {self.flips_left}")
        elif doc.get("flips_left"):
            where.add(("flips_left",), "flips_left is for the flip phase; in the play phase every seat has chosen")

    def _per_seat(self, key: str, default: list[Any]) -> list[Any]:
        values = self.doc.get(key, default)
        if len(values) != self.players:
            self.where.add((key,), f"expected {self.players} entries, one per seat (P1 first), got {len(values)}")
            return default
        return list(values)

    def _counts(self, key: str, per_round: int, what: str | None) -> list[int]:
        """Chips per seat; a seat never holds more of a kind than the round hands out."""
        counts = self._per_seat(key, [per_round] * self.players)
        if what is not None:
            for i, count in enumerate(counts):
                if count > per_round:
                    self.where.add((key, i), f"P{i + 1} holds {count} {what}, but variant {self.rules.name!r} gives {per_round} per round and never more")
        return counts

    # -- the state -------------------------------------------------------------------------

    def state(self) -> GameState:
        rules, n = self.rules, self.players
        state = rules.new_game(n, self.doc["seed"])
        unseen = [c for c in rules.deck_for(n) if c not in self.seen]
        captured = []
        for i, (cards, count) in enumerate(zip(self.captured_cards, self.captured_counts)):
            if count > len(unseen):
                self.where.add(("captured", i), f"P{i + 1} captured {count} cards, but only {len(unseen)} cards are not already in the position")
                count = 0
            captured.append(cards + unseen[:count])
            del unseen[:count]
        self.where.check()
        set_aside = state.shuffled(unseen)  # the engine's shuffle, so orientation follows the spec
        if rules.shuffle_once:
            self._set_pool(state, [c for pile in (self.hands, [self.active], captured) for cards in pile for c in cards], set_aside)
        state.round = self.round
        state.phase = self.phase
        state.starting_seat = self.starting_seat
        state.to_act = self.to_act
        state.flips_left = self.flips_left
        state.turn = self.turn
        state.hands = [list(h) for h in self.hands]
        earlier: list[list[list[int]]] = [[[] for _ in range(n)] for _ in range(self.round)]  # not known, not needed
        state.deals = earlier + [[list(h) for h in self.hands]]
        state.active = list(self.active)
        state.active_owner = -1 if self.owner is None else self.owner
        state.last_shower = -1 if self.last_shower is None else self.last_shower
        state.captured = captured
        state.chips_received = list(self.chips_received)
        state.chips_held = list(self.chips_held)
        state.chips_paid = sum(rules.scout_chips - held for held in self.chips_held) if rules.scout_pays else 0
        state.scout_show_chips = list(self.scout_show_chips)
        state.totals = list(self.totals)
        state.set_aside = set_aside
        state.refresh()
        return state

    def _set_pool(self, state: GameState, present: list[int], set_aside: list[int]) -> None:
        """A variant that shuffles once deals later rounds from the cards set aside: lay out its pool so."""
        dealt = (self.round + 1) * self.players * self.rules.hand_size[self.players]
        if len(present) > dealt and self.round + 1 < state.rounds:
            self.where.add(("hands",), (
                f"the position holds {len(present)} cards, but variant {self.rules.name!r} has dealt only {dealt} "
                f"by round {self.round + 1}; the rest are set aside for later rounds"
            ))
            self.where.check()
        state.pool = present + set_aside  # round r deals pool[r*n*size:(r+1)*n*size]: later slices are set aside


# --------------------------------------------------------------------------- dumping


def dump_position(state: GameState) -> str:
    """The position of a state as YAML text that `load_position` reads back to the same state.

    The cards set aside are not written: on loading, every card the position does not
    show is set aside again (shuffled by `seed`). Raises ValueError once the game is over.
    """
    if state.is_over:
        raise ValueError("the game is over: there is no position left to write")
    n = state.players
    seat = lambda s: "null" if s < 0 else str(s + 1)  # noqa: E731 - seats are 1-based in the file
    counts = lambda values: "[" + ", ".join(map(str, values)) + "]"  # noqa: E731
    lines = [
        f"# scoutlab position ({POSITION_SCHEMA_ID}); seats count from 1",
        f"schema_version: {POSITION_VERSION}",
        f"variant: {json.dumps(_variant_ref(state.rules))}",
        f"players: {n}",
        f"seed: {state.seed}",
        f"round: {state.round + 1}",
        f"phase: {state.phase}",
        f"starting_seat: {state.starting_seat + 1}",
        f"to_act: {state.to_act + 1}",
        f"turn: {state.turn}",
    ]
    if state.phase == "flip":
        lines.append(f"flips_left: {state.flips_left}")
    lines.append("hands:")
    lines += [f'  - "{format_hand(hand)}"  # P{i + 1}' for i, hand in enumerate(state.hands)]
    lines += [
        f'active: "{format_hand(state.active)}"',
        f"owner: {seat(state.active_owner)}",
        f"last_shower: {seat(state.last_shower)}",
        f"chips_received: {counts(state.chips_received)}",
        f"chips_held: {counts(state.chips_held)}",
        f"scout_show_chips: {counts(state.scout_show_chips)}",
        "captured:",
        *[f'  - "{format_hand(cards)}"  # P{i + 1}' for i, cards in enumerate(state.captured)],
        f"totals: {counts(state.totals)}",
    ]
    return "\n".join(lines) + "\n"


def _variant_ref(rules: Rules) -> str:
    """A shipped variant by name; a spec file by absolute path, so the position loads from anywhere."""
    source = rules.spec.source
    return os.path.abspath(source) if os.path.isfile(source) else rules.name
