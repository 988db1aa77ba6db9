"""Variant specs: read the YAML, resolve `extends`, validate, and say exactly where anything is wrong.

A variant is data. This module turns a spec file (or a shipped variant's name, or
pasted text) into a `Spec`: the merged document of its `extends` chain, checked
against `variant.schema.json` (JSON Schema 2020-12) and against the rules a
schema cannot state (a deal must fit the deck, every player count needs a hand
size, plugins must exist). Nothing downstream needs to re-check the shape.

Bad input never raises anything but `SpecError`, which carries every problem at
once as `FILE:LINE: $.json.path: message`. Each merged value remembers the file
and line that set it, so an error in an inherited value points at the parent,
unless a value a child sets is what makes it wrong (a smaller deck, a new player
count): then the error points at the child's line and says where the inherited value
comes from. `Spec.locate` lets the engine point at a line too (e.g. for an unknown
end condition).

Run `python -m scoutlab.spec FILE_OR_NAME...` to check specs from a shell.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from itertools import combinations
from typing import Any

import jsonschema
import referencing
import referencing.jsonschema

from scoutlab.base.errors import Problem, SpecError
from scoutlab.base.limits import (
    EXCERPT_CHARS,
    MAX_COMPILED_CODES,
    MAX_PATH_CHARS,
    MAX_SPEC_BYTES,
    InputTooLarge,
    check_size,
    compiled_codes,
    excerpt,
    read_capped,
    unreadable,
)
from scoutlab.host import manager as plugin_host
from scoutlab.spec import schema_words, source as yamlsrc
from scoutlab.spec.source import JsonPath, parse_path, render_path

__all__ = [
    "MAX_EXTENDS_DEPTH",
    "SCHEMA_VERSION",
    "VARIANT_SCHEMA_ID",
    "Problem",
    "Spec",
    "SpecError",
    "load_spec",
    "load_spec_text",
    "shipped_variants",
    "validate_paths",
    "variant_schema",
]

SCHEMA_VERSION = 1
VARIANT_SCHEMA_ID = f"https://scoutlab.dev/schemas/variant/{SCHEMA_VERSION}.json"
#: The most `extends` steps from a spec to its root; deeper chains are refused (they are always a mistake).
MAX_EXTENDS_DEPTH = 10

# Keys a spec never inherits: a variant that extends another names and describes itself.
_OWN_KEYS = ("name", "title", "description", "kind")
_SHIPPED_PREFIX = "variant "

#: (file, line) that set a value of the merged document.
Origin = tuple[str, "int | None"]


@dataclass(frozen=True)
class Spec:
    """A loaded variant: the merged, validated document and where each of its values came from.

    `doc` has `extends` removed, player-count keys as strings and schema defaults
    filled in, so the engine reads it without `.get` fallbacks.
    `chain` lists the files from this spec to the root of its `extends` chain.
    """

    name: str
    doc: dict[str, Any]
    source: str
    chain: tuple[str, ...]
    origins: Mapping[JsonPath, Origin] = field(default_factory=dict, repr=False, compare=False)

    def locate(self, path: str | JsonPath) -> Origin:
        """The file and line that set `path` (e.g. `$.scoring.card_in_hand`), or of its nearest ancestor that was set.

        Defaults filled in from the schema were set by no line: they report their parent's.
        """
        steps = parse_path(path) if isinstance(path, str) else tuple(path)
        return _locate(self.origins, steps, self.source)

    def problem(self, path: str | JsonPath, message: str) -> Problem:
        """A `Problem` about `path` of this spec, pointing at the line that set it."""
        rendered = path if isinstance(path, str) else render_path(path)
        return Problem(*self.locate(path), rendered, message)


# --------------------------------------------------------------------------- public entry points


def load_spec(name_or_path: str | os.PathLike[str]) -> Spec:
    """Load a shipped variant by name (`official`) or a spec file by path; raises `SpecError`."""
    source = _top_source(name_or_path)
    if source.base_dir is None:  # a shipped variant: read and validated once a process, each caller gets its own doc
        # Once per set of plugins on: a plugin switched off or installed since decides whether the spec is valid.
        spec = _load_shipped(source.label, frozenset(plugin_host.available_plugins()))
        return Spec(spec.name, copy.deepcopy(spec.doc), spec.source, spec.chain, spec.origins)
    return _load(source)


@functools.cache
def _load_shipped(label: str, plugins_on: frozenset[str]) -> Spec:
    """A shipped variant's Spec with these plugins on: package data, read once (the server loads one per new match)."""
    return _load(_shipped_source(label[len(_SHIPPED_PREFIX):]))


def load_spec_text(text: str, filename: str = "<text>", base_dir: str | os.PathLike[str] | None = None) -> Spec:
    """Load a spec from text (e.g. pasted in a browser); raises `SpecError`.

    `extends` may name a shipped variant; an `extends` path is resolved against
    `base_dir`, and refused when there is none, so pasted text cannot read files.
    """
    directory = None if base_dir is None else os.fspath(base_dir)
    return _load(_Source(filename, f"text:{filename}", directory, lambda: _capped_text(text)))


def _capped_text(text: str) -> str:
    """The text, if within MAX_SPEC_BYTES; `_Unreadable` saying the limit and the size if not."""
    try:  # more characters than the limit is more bytes too: no need to encode a huge text
        check_size(len(text) if len(text) > MAX_SPEC_BYTES else len(text.encode("utf-8", "replace")), MAX_SPEC_BYTES, "the spec text")
    except InputTooLarge as exc:
        raise _Unreadable(str(exc)) from None
    return text


def validate_paths(paths: Iterable[str | os.PathLike[str]]) -> list[Problem]:
    """Every problem of every spec given (paths or shipped names); an empty list means all are good. Never raises."""
    problems: list[Problem] = []
    for path in paths:
        try:
            load_spec(path)
        except SpecError as exc:
            problems.extend(exc.problems)
        except Exception as exc:  # a bug here must not hide the other files' problems
            problems.append(Problem(os.fspath(path), None, "$", f"internal error while checking this spec: {exc!r}"))
    return problems


def shipped_variants() -> list[tuple[str, str]]:
    """(name, description) of each variant shipped with scoutlab, sorted by name."""
    return list(_shipped_variants())


@functools.cache
def _shipped_variants() -> tuple[tuple[str, str], ...]:
    """Read once a process: package data does not change while it runs (the server asks at every new match)."""
    variants = []
    for name in _shipped_names():
        data = yamlsrc.parse(_read_shipped(name)).data
        description = data.get("description") if isinstance(data, dict) else None
        if isinstance(description, dict):  # given per language: the English
            description = description.get("en")
        variants.append((name, description if isinstance(description, str) else ""))
    return tuple(variants)


def variant_schema() -> dict[str, Any]:
    """The variant JSON Schema (a fresh copy), e.g. to generate the spec reference."""
    return copy.deepcopy(_registry().contents(VARIANT_SCHEMA_ID))


# --------------------------------------------------------------------------- schemas and validation


@functools.cache
def _registry() -> referencing.Registry:
    """Every schema scoutlab ships, by `$id`, so schemas can `$ref` each other without touching the network."""
    resources_ = []
    for entry in resources.files("scoutlab.schemas").iterdir():
        if entry.name.endswith(".json"):
            resource = referencing.Resource.from_contents(
                json.loads(entry.read_text(encoding="utf-8")), default_specification=referencing.jsonschema.DRAFT202012
            )
            resources_.append((resource.id() or entry.name, resource))
    return referencing.Registry().with_resources(resources_).crawl()


@functools.cache
def _validator() -> jsonschema.protocols.Validator:
    return schema_words.validator(_registry().contents(VARIANT_SCHEMA_ID), _registry())


def _schema_findings(doc: dict[str, Any]) -> list[tuple[JsonPath, str]]:
    """Every schema violation, reworded for a person and pinned to the most precise path (spec/schema_words.py)."""
    findings = []
    for error in _validator().iter_errors(doc):
        findings.extend(schema_words.explain(error, _own_words))
    return findings


def _own_words(error: jsonschema.ValidationError, path: JsonPath) -> list[tuple[JsonPath, str]] | None:
    """What only a spec says: which schema_version this scoutlab reads."""
    if error.validator == "const" and path == ("schema_version",):
        return [(path, f"this scoutlab reads schema_version {SCHEMA_VERSION}; the spec says {excerpt(error.instance)}")]
    return None


def _fill_defaults(instance: Any, schema: Mapping[str, Any]) -> None:
    """Write each missing property's schema `default` into `instance`, so the schema is the one place defaults live."""
    if "$ref" in schema:
        _fill_defaults(instance, _registry().resolver(VARIANT_SCHEMA_ID).lookup(schema["$ref"]).contents)
    if isinstance(instance, dict):
        properties = schema.get("properties", {})
        for key, sub in properties.items():
            if key not in instance and "default" in sub:
                instance[key] = copy.deepcopy(sub["default"])
            if key in instance:
                _fill_defaults(instance[key], sub)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            for key, value in instance.items():
                if key not in properties:
                    _fill_defaults(value, extra)
    elif isinstance(instance, list) and isinstance(schema.get("items"), dict):
        for item in instance:
            _fill_defaults(item, schema["items"])



def without_defaults(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A merged spec's document less every value equal to its schema default: the inverse of the filling, so two
    specs that play alike give the same result, and a knob added later at its default changes nothing here."""
    trimmed = _trim_defaults(copy.deepcopy(dict(doc)), _registry().contents(VARIANT_SCHEMA_ID))
    return trimmed if isinstance(trimmed, dict) else {}


def _trim_defaults(instance: Any, schema: Mapping[str, Any]) -> Any:
    if "$ref" in schema:
        schema = {**_registry().resolver(VARIANT_SCHEMA_ID).lookup(schema["$ref"]).contents, **schema}
    if isinstance(instance, dict):
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for key in list(instance):
            sub = properties.get(key, extra if isinstance(extra, dict) else {})
            instance[key] = _trim_defaults(instance[key], sub)
            if "default" in sub and instance[key] == _trim_defaults(copy.deepcopy(sub["default"]), sub):
                del instance[key]
    elif isinstance(instance, list) and isinstance(schema.get("items"), dict):
        return [_trim_defaults(item, schema["items"]) for item in instance]
    return instance

# --------------------------------------------------------------------------- checks a schema cannot state


class _Unsound(Exception):
    """A value a check needs is missing or already reported as wrong: skip the check, say nothing twice."""


@dataclass
class _View:
    """Read access to the merged document that refuses values the schema already found fault with."""

    doc: dict[str, Any]
    bad: set[JsonPath]

    def raw(self, *path: str | int) -> Any:
        """The value at `path` as written, sound or not; None when there is none."""
        value: Any = self.doc
        for step in path:
            if isinstance(value, dict) and isinstance(step, str):
                value = value.get(step)
            elif isinstance(value, list) and isinstance(step, int) and step < len(value):
                value = value[step]
            else:
                return None
        return value

    def get(self, *path: str | int) -> Any:
        """The value at `path`; raises `_Unsound` if it is missing or the schema found fault with it."""
        value = self.raw(*path)
        if value is None or any(bad[: len(path)] == path for bad in self.bad):
            raise _Unsound(path)
        return value

    def items(self, *path: str | int) -> Iterator[tuple[int, Any]]:
        """The sound items of a list, with their indices."""
        items = self.raw(*path)
        for index in range(len(items)) if isinstance(items, list) else []:
            try:
                yield index, self.get(*path, index)
            except _Unsound:
                continue

    def players(self) -> list[int]:
        """The allowed player counts that are sound; `_Unsound` if there are none."""
        players = [n for _, n in self.items("players")]
        if not players:
            raise _Unsound(("players",))
        return players

    def entries(self, *path: str) -> Iterator[tuple[str, Any]]:
        """The sound entries of a mapping (one bad entry does not hide the others)."""
        mapping = self.raw(*path)
        for key in list(mapping) if isinstance(mapping, dict) else []:
            try:
                yield key, self.get(*path, key)
            except _Unsound:
                continue


#: A semantic finding: the path that is wrong, why, and the other paths whose values make it wrong (its causes).
_Finding = tuple[JsonPath, str, tuple[JsonPath, ...]]


def _semantic_findings(doc: dict[str, Any], bad: set[JsonPath]) -> list[_Finding]:
    view = _View(doc, bad)
    findings: list[_Finding] = []
    for check in (_check_deck, _check_compiled_size, _check_player_counts, _check_removed_cards, _check_deal_fits, _check_first_seat, _check_plugins,
                  _check_isolates):
        with contextlib.suppress(_Unsound):
            findings.extend(found if len(found) == 3 else (*found, ()) for found in check(view))
    return findings


_DECK = (("deck", "lowest"), ("deck", "highest"))


def _check_deck(view: _View) -> Iterator[tuple[JsonPath, str] | _Finding]:
    lowest, highest = view.get("deck", "lowest"), view.get("deck", "highest")
    if highest <= lowest:
        yield ("deck", "highest"), f"must be greater than lowest ({lowest}): every card carries two different numbers", _DECK


def _check_compiled_size(view: _View) -> Iterator[tuple[JsonPath, str] | _Finding]:
    """The engine's action tables grow with the square of the deck: refuse a deck whose rules would not fit the budget."""
    lowest, highest = _deck_range(view)
    cards = (highest - lowest + 1) * (highest - lowest) // 2
    codes = compiled_codes(cards)
    if codes > MAX_COMPILED_CODES:
        largest = max(n for n in range(2, 32) if compiled_codes(n * (n - 1) // 2) <= MAX_COMPILED_CODES)
        yield ("deck", "highest"), (
            f"a deck of {cards:,} cards (numbers {lowest} to {highest}) compiles to {codes:,} action codes "
            f"(about {codes * 40 / 1e6:.0f} MB); the limit is {MAX_COMPILED_CODES:,}, "
            f"a deck of at most {largest} numbers (highest at most {lowest + largest - 1})"
        ), _DECK


def _deck_range(view: _View) -> tuple[int, int]:
    """(lowest, highest) for the checks that build on the deck; `_Unsound` when `_check_deck` objects."""
    lowest, highest = view.get("deck", "lowest"), view.get("deck", "highest")
    if highest <= lowest:
        raise _Unsound(("deck", "highest"))
    return lowest, highest


def _check_player_counts(view: _View) -> Iterator[tuple[JsonPath, str] | _Finding]:
    """Maps by player count must match `players` both ways: no count without a hand size, no entry for a count nobody plays."""
    players = view.players()
    allowed = {str(n) for n in players}
    for what, path in (("hand size", ("deal", "hand_size")), ("removal", ("deck", "remove"))):
        for key, _ in view.entries(*path):
            if key not in allowed:
                yield (path + (key,), f"a {what} for {key} players, but players is {players}; add {key} to players or drop this entry",
                       (("players",),))
    hand_size = view.raw("deal", "hand_size")
    if isinstance(hand_size, dict):
        for i, n in view.items("players"):
            if str(n) not in hand_size:
                yield ("players", i), f"{n} players are allowed, but deal.hand_size has no entry for {n}"


def _check_removed_cards(view: _View) -> Iterator[tuple[JsonPath, str] | _Finding]:
    lowest, highest = _deck_range(view)
    span = f"numbers run from {lowest} to {highest}"
    removals = view.raw("deck", "remove")
    for count in removals if isinstance(removals, dict) else {}:
        at: JsonPath = ("deck", "remove", count)
        for i, card in view.items(*at, "cards"):
            a, b = _card_numbers(card)
            if a == b:
                yield at + ("cards", i), f"{excerpt(card)} is not a card: its two numbers must differ"
            elif not (lowest <= a <= highest and lowest <= b <= highest):
                yield at + ("cards", i), f"{excerpt(card)} is not in the deck: {span}", _DECK
        for i, number in view.items(*at, "containing"):
            if not lowest <= number <= highest:
                yield at + ("containing", i), f"no card carries {number}: {span}", _DECK


def _check_deal_fits(view: _View) -> Iterator[tuple[JsonPath, str] | _Finding]:
    """The hands dealt (over all rounds, when the deck is shuffled once) must come out of the cards left in the deck."""
    lowest, highest = _deck_range(view)
    deck = {frozenset(pair) for pair in combinations(range(lowest, highest + 1), 2)}
    removals = view.get("deck", "remove") if view.raw("deck", "remove") is not None else {}
    shuffle = view.get("deal", "shuffle")
    count = view.get("rounds", "count") if shuffle == "once" else 1
    for n in sorted(set(view.players())):
        try:
            hand = view.get("deal", "hand_size", str(n))
        except _Unsound:
            continue
        removal = removals.get(str(n), {})
        removed = {frozenset(_card_numbers(card)) for card in removal.get("cards", [])}
        removed |= {card for card in deck if card & set(removal.get("containing", []))}
        left = len(deck - removed)
        rounds = n if count == "per_player" else count
        needed = hand * n * rounds
        if needed > left:
            over = f" x {rounds} rounds (shuffle: once)" if shuffle == "once" and rounds > 1 else ""
            yield ("deal", "hand_size", str(n)), (
                f"dealing {hand} card{'s' * (hand != 1)} to each of {n} players{over} needs {needed} cards, "
                f"but the deck holds only {left} for {n} players"
            ), (*_DECK, ("deck", "remove", str(n)), ("deal", "shuffle"), ("rounds", "count"))


def _check_first_seat(view: _View) -> Iterator[tuple[JsonPath, str] | _Finding]:
    seat, fewest = view.get("rounds", "first_starting_seat"), min(view.players())
    if seat >= fewest:
        yield (("rounds", "first_starting_seat"), f"seat {excerpt(seat)} does not exist with {fewest} players (seats are 0 to {fewest - 1})",
               (("players",),))


def _check_isolates(view: _View) -> Iterator[tuple[JsonPath, str] | _Finding]:
    """Players' texts may isolate a run of left-to-right text in right-to-left text, but must close each isolate: one
    left open reorders what a page or a terminal prints after the text."""
    for key in ("title", "description"):
        texts = view.raw(key)
        for language, text in texts.items() if isinstance(texts, dict) else [(None, texts)]:
            problem = _unbalanced_isolate(text) if isinstance(text, str) else None
            if problem:
                yield (key,) if language is None else (key, language), problem


def _unbalanced_isolate(text: str) -> str | None:
    depth = 0
    for character in text:
        if character in "\u2066\u2067\u2068":
            depth += 1
        elif character == "\u2069":
            if depth == 0:
                return "U+2069 (pop directional isolate) closes no isolate; remove it or open one before it"
            depth -= 1
    return None if depth == 0 else "an isolate (U+2066 to U+2068) is left open; close it with U+2069"


def _check_plugins(view: _View) -> Iterator[tuple[JsonPath, str] | _Finding]:
    named: list[tuple[JsonPath, str]] = []
    plugins = view.raw("plugins")
    for i, entry in enumerate(plugins if isinstance(plugins, list) else []):
        path: JsonPath = ("plugins", i, "name") if isinstance(entry, dict) else ("plugins", i)
        try:
            named.append((path, view.get(*path)))
        except _Unsound:
            continue
    names = [name for _, name in named]
    for i, (path, name) in enumerate(named):
        if name in names[:i]:
            yield path, f"plugin {excerpt(name)} is listed twice"
    available = set(plugin_host.available_plugins())
    for path, name in named:
        if name in available:
            continue
        off = plugin_host.switched_off(name) if name in plugin_host.installed_plugins() else None
        if off:
            yield path, f"plugin {excerpt(name)} is installed but {off}"
            continue
        hint = schema_words.did_you_mean(name, available) or f" (available: {', '.join(sorted(available)) or 'none'})"
        yield path, f"unknown plugin {excerpt(name)}{hint}"


def _card_numbers(card: str) -> tuple[int, int]:
    a, b = card.split("/")
    return int(a), int(b)


# --------------------------------------------------------------------------- sources and the extends chain


class _Unreadable(Exception):
    """A spec source could not be read; the message says why, for a person."""


@dataclass(frozen=True)
class _Source:
    """Somewhere a spec's text comes from.

    `label` is what problems call the file; `identity` is equal for the same file
    however it was named (for cycles); `base_dir` is where a relative `extends`
    path is resolved, or None where paths are refused (shipped variants, pasted text).
    """

    label: str
    identity: str
    base_dir: str | None
    read: Callable[[], str] = field(compare=False)


def _shipped_source(name: str) -> _Source:
    return _Source(f"{_SHIPPED_PREFIX}{name}", f"variant:{name}", None, lambda: _read_shipped(name))


def _file_source(path: str) -> _Source:
    return _Source(path, os.path.realpath(path), os.path.dirname(path), lambda: _read_file(path))


def _read_file(path: str) -> str:
    try:
        return read_capped(path, MAX_SPEC_BYTES, "the spec file")
    except InputTooLarge as exc:
        raise _Unreadable(str(exc)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise _Unreadable(unreadable(exc, "a spec file")) from None


@functools.cache
def _shipped_names_once() -> tuple[str, ...]:
    return tuple(sorted(entry.name[: -len(".yaml")] for entry in resources.files("scoutlab.variants").iterdir() if entry.name.endswith(".yaml")))


def _shipped_names() -> list[str]:
    return list(_shipped_names_once())


def _read_shipped(name: str) -> str:
    return resources.files("scoutlab.variants").joinpath(f"{name}.yaml").read_text(encoding="utf-8")


def _looks_like_path(text: str) -> bool:
    """`extends: official` names a shipped variant; `extends: ./base.yaml` or `lib/base` is a file."""
    return "/" in text or "\\" in text or os.sep in text or text.endswith((".yaml", ".yml"))


def _too_long(path: str) -> str:
    return f"a path of {len(path):,} characters names no file (at most {MAX_PATH_CHARS:,})"


def _top_source(name_or_path: str | os.PathLike[str]) -> _Source:
    if isinstance(name_or_path, os.PathLike) or _looks_like_path(name_or_path):
        path = os.fspath(name_or_path)
        if len(path) > MAX_PATH_CHARS:
            raise SpecError([Problem(path[:100] + "...", None, "$", _too_long(path))])
        return _file_source(path)
    if name_or_path in _shipped_names():
        return _shipped_source(name_or_path)
    if os.path.exists(name_or_path):
        return _file_source(name_or_path)
    label = (name_or_path if len(name_or_path) <= 100 else name_or_path[:100] + "...") or "''"  # the message's file
    raise SpecError([Problem(label, None, "$", _unknown_variant(name_or_path, os.curdir))])


def _unknown_variant(name: str, base_dir: str | None) -> str:
    shipped = _shipped_names()
    message = f"no shipped variant named {excerpt(name)}" + (schema_words.did_you_mean(name, shipped) or f" (shipped: {', '.join(shipped)})")
    if base_dir is not None and os.path.isfile(os.path.join(base_dir, f"{name}.yaml")):
        message += f"; to use the file {name}.yaml beside this spec, write ./{name}.yaml"
    return message


def _parent_source(child: _Source, extends: str) -> _Source | str:
    """The source `extends` names, or a message saying why there is none."""
    if not _looks_like_path(extends):
        return _shipped_source(extends) if extends in _shipped_names() else _unknown_variant(extends, child.base_dir)
    if child.base_dir is None:
        where = "a shipped variant" if child.label.startswith(_SHIPPED_PREFIX) else "text with no base directory"
        return f"cannot extend the path {excerpt(extends)} from {where}; extend a shipped variant by name"
    if len(extends) > MAX_PATH_CHARS:
        return f"cannot extend {excerpt(extends)}: {_too_long(extends)}"
    path = os.path.normpath(os.path.join(child.base_dir, extends))
    try:
        mode = os.stat(path).st_mode  # stat, never open: opening a FIFO for reading would wait for a writer
    except FileNotFoundError:
        # the resolved path in full only when what was written is short: the path holds all of it
        return f"cannot extend {excerpt(extends)}: no such file {excerpt(path, 200 if len(extends) <= EXCERPT_CHARS else EXCERPT_CHARS)}"
    except OSError as exc:
        return f"cannot extend {excerpt(extends)}: cannot read the file: {exc.strerror or 'unknown error'}"
    if stat.S_ISDIR(mode):
        return f"cannot extend {excerpt(extends)}: it is a directory"
    if not stat.S_ISREG(mode):
        return f"cannot extend {excerpt(extends)}: it is {_special_kind(mode)}, not a spec file, so it is not read"
    return _file_source(path)


def _special_kind(mode: int) -> str:
    """What a path that is neither a regular file nor a directory is, from its stat mode."""
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


@dataclass
class _Layer:
    """One file of an `extends` chain, parsed."""

    source: _Source
    data: dict[str, Any]
    lines: dict[JsonPath, int]
    refused: set[JsonPath] = field(default_factory=set)  # paths the reader refused for a character (YamlSource.refused)


def _read_layer(source: _Source, named_by: tuple[Problem, str] | None = None) -> tuple[_Layer | None, list[Problem]]:
    """Parse one source; None when there is no mapping to work with (the problems say why).

    `named_by` is, for a parent, where the child's `extends` names it and what it says.
    A parent must be a spec through and through, and a top file must look like one, else
    the only problem is "X is not a variant spec": nothing of a file that is not a spec
    (a password file, a key) is quoted back, not even its keys.
    """
    try:
        text = source.read()
    except _Unreadable as exc:
        if named_by is not None:  # said where the child names it, as a parent that is missing is
            at, extends = named_by
            return None, [at._replace(message=f"cannot extend {excerpt(extends)}: {exc}")]
        return None, [Problem(source.label, None, "$", str(exc))]
    parsed = yamlsrc.parse(text)
    problems = [Problem(source.label, f.line, render_path(f.path), f.message) for f in parsed.findings]
    if named_by is not None:
        if not _is_parent_spec(parsed):
            # One fixed sentence: no count of its keys or lines, no value, nothing that tells what the file holds.
            at, extends = named_by
            return None, [at._replace(message=f"{excerpt(extends)} is not a variant spec: {_NOT_A_PARENT}")]
    else:
        not_spec = _not_a_spec(parsed)
        if not_spec is not None:
            return None, [Problem(source.label, None, "$", f"this is not a variant spec: {not_spec}")]
    if parsed.findings and parsed.data is None:
        return None, problems
    if () not in parsed.lines:
        return None, problems + [Problem(source.label, 1, "$", "the file is empty; a variant spec is a mapping of keys such as schema_version, name and players")]
    if not isinstance(parsed.data, dict):
        what = _kind(parsed.data) if isinstance(parsed.data, str) else schema_words.describe(parsed.data)  # a string may be a whole file
        message = f"a variant spec is a mapping of keys such as schema_version, name and players, not {what}"
        return None, problems + [Problem(source.label, parsed.lines[()], "$", message)]
    return _Layer(source, parsed.data, parsed.lines, parsed.refused), problems


def _spec_keys() -> set[str]:
    return set(_registry().contents(VARIANT_SCHEMA_ID)["properties"])


#: Why a file named by `extends` is refused, whatever the file: the same words for a password file and a spec with a typo.
_NOT_A_PARENT = ("a file named by extends must be a valid YAML mapping of a spec's keys only, with schema_version: 1 "
                 "or an extends of its own (run scoutlab validate on it to see why it is not)")


def _is_parent_spec(parsed: yamlsrc.YamlSource) -> bool:
    """Whether a file named by `extends` says it is a variant spec: a mapping of a spec's keys only, that declares
    the format (schema_version: 1) or extends another spec. Anything less is refused before its values are read,
    so a text file that happens to hold `name:` or `players:` lines (a config, a note) is never quoted back.
    """
    data = parsed.data
    if parsed.findings or not isinstance(data, dict) or not data or not set(data) <= _spec_keys():
        return False
    declared = data.get("schema_version")
    return (declared == SCHEMA_VERSION and not isinstance(declared, bool)) or isinstance(data.get("extends"), str)


def _not_a_spec(parsed: yamlsrc.YamlSource) -> str | None:
    """Why a file the user chose is not a variant spec at all (said without quoting it), or None when it may be one.

    It only needs one spec key among its keys: its unknown keys are then reported with suggestions.
    """
    if not isinstance(parsed.data, dict):
        return None  # empty, malformed or not a mapping: said below, quoting no more than a token
    known = _spec_keys()
    if parsed.data and all(key not in known for key in parsed.data):
        return "none of its top-level keys is a spec's key (a spec has schema_version, name, players, deck and so on)"
    return None


def _kind(value: Any) -> str:
    """What a value is, without quoting it."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return schema_words.A_TYPE.get({dict: "object", list: "array", str: "string", int: "integer", float: "number"}.get(type(value), ""), "a value")


def _resolve_chain(top: _Source) -> tuple[list[_Layer], list[Problem], bool]:
    """Read the spec and its ancestors, child first; the flag says whether the whole chain was read."""
    layers: list[_Layer] = []
    problems: list[Problem] = []
    source, named_by = top, None
    while True:
        layer, found = _read_layer(source, named_by)
        problems += found
        if layer is None:
            return layers, problems, False
        layers.append(layer)
        extends = layer.data.get("extends")
        if extends is None:
            return layers, problems, True
        if ("extends",) in layer.refused:  # its character is the problem: the escaped name names no parent
            return layers, problems, False
        at = (layer.source.label, layer.lines.get(("extends",)), "$.extends")
        if not isinstance(extends, str) or not extends:
            return layers, problems + [Problem(*at, f"expected a variant name or a path, got {schema_words.describe(extends)}")], False
        parent = _parent_source(layer.source, extends)
        if isinstance(parent, str):
            return layers, problems + [Problem(*at, parent)], False
        seen = [each.source.identity for each in layers]
        if parent.identity in seen:
            loop = [each.source.label for each in layers[seen.index(parent.identity) :]] + [parent.label]
            return layers, problems + [Problem(*at, "extends cycle: " + " -> ".join(loop))], False
        if len(layers) > MAX_EXTENDS_DEPTH:
            chain = " -> ".join(each.source.label for each in layers)
            return layers, problems + [Problem(*at, f"extends chain deeper than {MAX_EXTENDS_DEPTH} levels: {chain} -> {parent.label}")], False
        # A shipped parent is ours; a file is read only if it proves to be a spec.
        source, named_by = parent, (None if parent.base_dir is None else (Problem(*at, ""), extends))


def _merge_chain(layers: list[_Layer]) -> tuple[dict[str, Any], dict[JsonPath, Origin], list[Problem]]:
    """Overlay the chain root first: maps merge key by key, anything else replaces, null deletes.

    Each value's origin moves with it, so the merged document knows which file and line set each path.
    """
    doc: dict[str, Any] = {}
    origins: dict[JsonPath, Origin] = {}
    problems: list[Problem] = []
    for layer in reversed(layers):
        for key in _OWN_KEYS:
            doc.pop(key, None)
            _forget(origins, (key,))
        own = {key: value for key, value in layer.data.items() if key != "extends"}
        _overlay(doc, own, (), layer, origins, problems)
        _drop_unplayed(doc, own, origins)
        origins[()] = (layer.source.label, layer.lines[()])
    return doc, origins, problems


def _overlay(base: dict[str, Any], top: dict[str, Any], at: JsonPath, layer: _Layer, origins: dict[JsonPath, Origin], problems: list[Problem]) -> None:
    label = layer.source.label
    for key, value in top.items():
        path = at + (key,)
        origin = (label, layer.lines.get(path))
        if value is None:
            if key in base:
                del base[key]
                _forget(origins, path)
            else:
                problems.append(Problem(*origin, render_path(path), "null removes an inherited key, but nothing is inherited here"))
        elif isinstance(value, dict):
            if not isinstance(base.get(key), dict):
                base[key] = {}
                _forget(origins, path)
            origins[path] = origin
            _overlay(base[key], value, path, layer, origins, problems)
        else:
            base[key] = copy.deepcopy(value)
            _forget(origins, path)
            origins.update({p: (label, line) for p, line in layer.lines.items() if p[: len(path)] == path})


#: Maps keyed by player count: a layer that narrows `players` stops inheriting the entries of counts it dropped.
_PER_COUNT = (("deal", "hand_size"), ("deck", "remove"))


def _drop_unplayed(doc: dict[str, Any], own: dict[str, Any], origins: dict[JsonPath, Origin]) -> None:
    """After a layer sets `players`, drop inherited per-count entries for counts it no longer allows.

    Entries the layer itself writes stay, so a mistaken one is still reported at its own line.
    """
    players = own.get("players")
    if not isinstance(players, list) or not all(isinstance(n, int) and not isinstance(n, bool) for n in players):
        return  # the schema reports a malformed list; nothing sound to narrow to
    allowed = {str(n) for n in players}
    for path in _PER_COUNT:
        mapping: Any = doc
        written: Any = own
        for step in path:
            mapping = mapping.get(step) if isinstance(mapping, dict) else None
            written = written.get(step) if isinstance(written, dict) else None
        if not isinstance(mapping, dict):
            continue
        for key in [k for k in mapping if str(k) not in allowed]:
            if not (isinstance(written, dict) and key in written):
                del mapping[key]
                _forget(origins, path + (key,))


def _forget(origins: dict[JsonPath, Origin], path: JsonPath) -> None:
    for known in [p for p in origins if p[: len(path)] == path]:
        del origins[known]


def _locate(origins: Mapping[JsonPath, Origin], path: JsonPath, fallback: str) -> Origin:
    for end in range(len(path), -1, -1):
        if path[:end] in origins:
            return origins[path[:end]]
    return fallback, None


def _load(source: _Source) -> Spec:
    layers, problems, complete = _resolve_chain(source)
    if not complete:
        raise SpecError(sorted(set(problems), key=_problem_order))
    doc, origins, merge_problems = _merge_chain(layers)
    refused = set().union(*(layer.refused for layer in layers))
    schema_findings = [(path, message) for path, message in _schema_findings(doc) if not _within(path, refused)]
    findings: list[_Finding] = [(path, message, ()) for path, message in schema_findings]
    findings += _semantic_findings(doc, {path for path, _ in schema_findings} | refused)
    problems += merge_problems
    chain = [layer.source.label for layer in layers]
    problems += [_blame(origins, chain, path, message, causes, source.label) for path, message, causes in findings]
    if problems:
        raise SpecError(sorted(set(problems), key=_problem_order))
    schema = _registry().contents(VARIANT_SCHEMA_ID)
    if isinstance(doc["name"], dict):  # a name per language: the English one names the variant, all are its title
        doc.setdefault("title", doc["name"])
        doc["name"] = doc["name"]["en"]
    _fill_defaults(doc, schema)
    doc = {key: doc[key] for key in schema["properties"] if key in doc}  # the schema's order, whatever the chain's
    return Spec(doc["name"], doc, source.label, tuple(layer.source.label for layer in layers), origins)


def _within(path: JsonPath, refused: set[JsonPath]) -> bool:
    """Whether `path` is at or under a path whose character the reader already refused (said once, there)."""
    return any(path[: len(at)] == at for at in refused)


def _blame(origins: Mapping[JsonPath, Origin], chain: list[str], path: JsonPath, message: str,
           causes: tuple[JsonPath, ...], fallback: str) -> Problem:
    """The problem at the line that set `path`; but when that value is inherited and a file nearer the user's
    (`chain` is child first) sets one of its `causes`, at that file's line, saying where the value comes from.
    """
    origin = _locate(origins, path, fallback)
    rank = {label: i for i, label in enumerate(chain)}
    if origin[0] not in rank:
        return Problem(*origin, render_path(path), message)
    nearer = [(rank[origins[cause][0]], cause) for cause in causes
              if cause in origins and origins[cause][0] in rank and rank[origins[cause][0]] < rank[origin[0]]]
    if not nearer:
        return Problem(*origin, render_path(path), message)
    _, cause = min(nearer)
    where = origin[0] if origin[1] is None else f"{origin[0]}:{origin[1]}"
    return Problem(*origins[cause], render_path(path),
                   f"{message} (the value is inherited from {where}; {render_path(cause)}, set here, makes it wrong)")


def _problem_order(problem: Problem) -> tuple[str, int, str, str]:
    return problem.file, problem.line or 0, problem.path, problem.message


# --------------------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> int:
    """`python -m scoutlab.spec SPEC...`: print every problem of the specs given; exit 1 if there is any."""
    targets = sys.argv[1:] if argv is None else argv
    if not targets:
        print("usage: python -m scoutlab.spec SPEC_FILE_OR_VARIANT_NAME...", file=sys.stderr)
        return 2
    problems = validate_paths(targets)
    for problem in problems:
        print(problem)
    if not problems:
        print(f"ok: {len(targets)} spec{'s' * (len(targets) != 1)}")
    return 1 if problems else 0

