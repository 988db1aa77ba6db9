"""YAML that remembers where each value came from.

`yaml.safe_load` forgets line numbers, and a spec error is only useful when it
points at the line to fix. So we compose the node tree ourselves (PyYAML keeps a
mark on every node) and build plain JSON-like data from it, recording for every
JSON path the line that set it: a mapping entry's KEY line (that is where the
eye goes, and an unknown key is reported there), a list item's own line.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from scoutlab.base.limits import MAX_KEY_CHARS, MAX_NESTING, digits, excerpt, shown_safely, too_deep, unshowable

#: A JSON path as a tuple of keys and list indices; () is the document itself.
JsonPath = tuple[str | int, ...]

_MERGE_TAG = "tag:yaml.org,2002:merge"
_JSON_SCALARS = (str, int, float, bool, type(None))
# Generous for any spec, small enough that an alias bomb stops quickly.
_MAX_NODES = 100_000
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass
class Finding:
    """A problem found while reading YAML: where, and what (no file: the caller knows it)."""

    path: JsonPath
    line: int | None
    message: str


@dataclass
class YamlSource:
    """A parsed YAML document: its data, the line of every JSON path, and what went wrong.

    `data` is None when the text is empty or not YAML at all; `findings` then says why
    (apart from emptiness, which the caller words for its own kind of document).
    """

    data: Any = None
    lines: dict[JsonPath, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    #: Paths whose text (a value, or a key for its entry) held a character a finding already refuses; the data holds
    #: it escaped, so a later check of it would quote the escape escaped again and report the same character twice.
    refused: set[JsonPath] = field(default_factory=set)


def render_path(path: JsonPath) -> str:
    """`('deck', 'remove', '3', 'cards', 0)` -> `$.deck.remove.3.cards[0]` (jsonschema's own form).

    A key's characters that print as nothing or reorder the line (controls, bidirectional overrides) are escaped,
    as `excerpt` escapes them in the key quoted beside it: the path is shown to people too."""
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{_shown(p)}" for p in path)


def _shown(key: str) -> str:
    return key if key.isprintable() else "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                                                  for c in key)


def parse_path(text: str) -> JsonPath:
    """The inverse of `render_path`: `$.deck.remove.3.cards[0]` -> `('deck', 'remove', '3', 'cards', 0)`.

    Raises ValueError for text that is not such a path.
    """
    if not text.startswith("$"):
        raise ValueError(f"a JSON path starts with '$': {text!r}")
    parts: list[str | int] = []
    i = 1
    while i < len(text):
        if text[i] == ".":
            j = i + 1
            while j < len(text) and text[j] not in ".[":
                j += 1
            if j == i + 1:
                raise ValueError(f"empty key in JSON path {text!r}")
            parts.append(text[i + 1 : j])
            i = j
        elif text[i] == "[":
            j = text.find("]", i)
            if j < 0 or not digits(text[i + 1 : j]):
                raise ValueError(f"bad index in JSON path {text!r}")
            parts.append(int(text[i + 1 : j]))
            i = j + 1
        else:
            raise ValueError(f"unexpected {text[i]!r} in JSON path {text!r}")
    return tuple(parts)


def parse(text: str) -> YamlSource:
    """Parse one YAML document into JSON-like data plus a line for every path. Never raises on bad input."""
    surrogate = _SURROGATE.search(text)
    if surrogate:  # libyaml encodes the text to UTF-8 first, which no lone surrogate survives
        return YamlSource(findings=[_not_allowed(text, surrogate.start(), ord(surrogate.group()))])
    fast = getattr(yaml, "CSafeLoader", None)
    try:
        deep = _too_deep(text, fast or yaml.SafeLoader)
    except yaml.YAMLError:  # libyaml scans flow collections ahead and stops at 1,000 levels
        deep = _too_deep_or_malformed(text)
    if deep is not None:
        return YamlSource(findings=[deep])
    if fast is not None:
        # libyaml composes ten times faster; on malformed input the pure-Python loader below
        # gives the more precise line, so it has the last word on errors.
        source = _parse(text, fast)
        if not source.findings or source.data is not None:
            return source
    return _parse(text, yaml.SafeLoader)


def first_reference(text: str) -> tuple[str, str] | None:
    """The first anchor, alias or tag written in `text`, as ("anchor", "&a"), ("alias", "*a") or ("tag", "!!str");
    None when it has none, or from where it stops being YAML (`parse` says why). A spec may use all three (its
    anchors and merge keys are resolved, `!!str 3` is the text "3"); a value read alone may want them refused."""
    loader = (getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader)(text)
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.AliasEvent):
                return "alias", f"*{event.anchor}"
            if isinstance(event, yaml.NodeEvent) and event.anchor is not None:
                return "anchor", f"&{event.anchor}"
            tag = getattr(event, "tag", None)  # only a tag written out: the parser leaves an implicit one None
            if isinstance(tag, str):
                return "tag", "!!" + tag.removeprefix(_CORE_TAGS) if tag.startswith(_CORE_TAGS) else tag
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()
    return None


_CORE_TAGS = "tag:yaml.org,2002:"  # what `!!` stands for


def _too_deep(text: str, loader_class: type) -> Finding | None:
    """Where the text nests past MAX_NESTING, from the parser's events alone.

    The parser keeps its own stack, but the composer and our builder recurse once per
    level: a few thousand levels would overflow Python's stack, so depth is measured first.
    Raises yaml.YAMLError for malformed YAML before that depth.
    """
    depth = 0
    loader = loader_class(text)
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_NESTING:
                    return Finding((), event.start_mark.line + 1 if event.start_mark else None, too_deep())
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    finally:
        loader.dispose()
    return None


def _too_deep_or_malformed(text: str) -> Finding | None:
    """`_too_deep` with PyYAML's own parser, which reads events one at a time; malformed YAML is
    left for the real parse to report (it stops at the same place, no deeper)."""
    try:
        return _too_deep(text, yaml.SafeLoader)
    except yaml.YAMLError:
        return None


def _parse(text: str, loader_class: type) -> YamlSource:
    source = YamlSource()
    try:
        loader = loader_class(text)  # the reader already rejects control characters here
        try:
            root = loader.get_single_node()
            if root is not None:
                source.lines[()] = root.start_mark.line + 1
                source.data = _Builder(loader, source).build(root, ())
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        source.data = None
        mark = exc.problem_mark or exc.context_mark
        source.findings.append(Finding((), mark.line + 1 if mark else None, _yaml_message(exc)))
    except yaml.reader.ReaderError as exc:
        source.data = None
        source.findings.append(_not_allowed(text, exc.position, exc.character))
    return source


def _not_allowed(text: str, position: int, code: int) -> Finding:
    """A character YAML may not hold (a control character, a lone surrogate), at its line."""
    return Finding((), text.count("\n", 0, position) + 1, f"malformed YAML: character #x{code:04x} is not allowed")


def _yaml_message(exc: yaml.MarkedYAMLError) -> str:
    """PyYAML's own words, on one line, with the column (the line goes in front of the message)."""
    words = ", ".join(part for part in (exc.context, exc.problem) if part)
    mark = exc.problem_mark or exc.context_mark
    column = f" (column {mark.column + 1})" if mark else ""
    return f"malformed YAML: {words}{column}"


_INT, _FLOAT = "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"
_OCTAL_1_1 = re.compile(r"[-+]?0[0-7_]+")


class _Builder:
    """Turns composed nodes into dicts, lists and scalars, noting lines and key troubles."""

    def __init__(self, loader: yaml.SafeLoader, source: YamlSource) -> None:
        self.loader = loader
        self.source = source
        self.nodes = 0
        self.depth = 0  # aliases can nest what the text does not: count as we build
        self.open: set[int] = set()  # ids of collections being built, to catch self-referencing aliases

    def build(self, node: yaml.Node, path: JsonPath) -> Any:
        self.nodes += 1
        if self.nodes > _MAX_NODES:
            raise yaml.MarkedYAMLError(problem=f"document too large (over {_MAX_NODES} values)", problem_mark=node.start_mark)
        if isinstance(node, yaml.ScalarNode):
            value = self._scalar(node)
            if isinstance(value, float) and not math.isfinite(value):  # JSON has none: records and --json would break
                self.source.findings.append(Finding(path, node.start_mark.line + 1, f"{node.value} is not allowed: a spec's "
                                                    "numbers are finite, as JSON's are"))
                return node.value
            code = unshowable(value) if isinstance(value, str) else None
            if code is not None:  # written as an escape: the reader refuses the raw character itself
                self.source.findings.append(Finding(path, node.start_mark.line + 1, f"character {code} (a control "
                                                    "character or a lone surrogate) is not allowed in text"))
                self.source.refused.add(path)
                return shown_safely(value)
            return value
        if id(node) in self.open:
            raise yaml.MarkedYAMLError(problem="an alias refers to a value that contains it", problem_mark=node.start_mark)
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise yaml.MarkedYAMLError(problem=too_deep() + " (through aliases)", problem_mark=node.start_mark)
        self.open.add(id(node))
        try:
            if isinstance(node, yaml.MappingNode):
                return self._mapping(node, path)
            assert isinstance(node, yaml.SequenceNode)  # the composer makes no other kind
            return self._sequence(node, path)
        finally:
            self.open.discard(id(node))
            self.depth -= 1

    def _scalar(self, node: yaml.ScalarNode) -> Any:
        if node.tag in (_INT, _FLOAT) and ":" in node.value:
            return node.value  # YAML 1.1 reads `1:20` as 80 (base 60); read as YAML 1.2 does, it is text
        if node.tag == _INT and _OCTAL_1_1.fullmatch(node.value):
            return int(node.value.replace("_", ""), 10)  # YAML 1.1 reads `011` as 9 (octal); a person means 11
        try:
            value = self.loader.construct_object(node)
        except ValueError:  # int() of a number past Python's digit cap, or a date like 2024-13-45
            if node.tag == _INT:
                raise yaml.MarkedYAMLError(problem=f"a number of {len(node.value):,} characters is too long to read",
                                           problem_mark=node.start_mark) from None
            return node.value
        # Dates, binary and the like are not JSON: keep what was written.
        return value if isinstance(value, _JSON_SCALARS) else node.value

    def _sequence(self, node: yaml.SequenceNode, path: JsonPath) -> list[Any]:
        items = []
        for index, item in enumerate(node.value):
            self.source.lines[path + (index,)] = item.start_mark.line + 1
            items.append(self.build(item, path + (index,)))
        return items

    def _mapping(self, node: yaml.MappingNode, path: JsonPath) -> dict[str, Any]:
        self._report_duplicates(node, path)
        self.loader.flatten_mapping(node)  # resolves `<<: *anchor` merge keys in place
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            line = key_node.start_mark.line + 1
            key = self._key(key_node, path, line)
            if key is None:
                continue
            self.source.lines[path + (key,)] = line
            result[key] = self.build(value_node, path + (key,))
        return result

    def _key(self, key_node: yaml.Node, path: JsonPath, line: int) -> str | None:
        """Keys are strings; int keys (YAML's `3:`) become "3" so player-count maps read either way."""
        key = self.build(key_node, path) if isinstance(key_node, yaml.ScalarNode) else None
        if path in self.source.refused:  # the key's character, found at the mapping: it is the entry that is refused
            self.source.refused.discard(path)
            if isinstance(key, str):
                self.source.refused.add(path + (key,))
        if isinstance(key, str) and len(key) > MAX_KEY_CHARS:  # it would be quoted in every path below it
            self.source.findings.append(Finding(path, line, f"key {excerpt(key)} is longer than {MAX_KEY_CHARS} characters"))
            return None
        if isinstance(key, str):
            return key
        if isinstance(key, int) and not isinstance(key, bool):
            return str(key)
        if isinstance(key_node, yaml.ScalarNode):
            message = f"key {excerpt(key_node.value)} is not a name or a number; quote it"
        else:
            message = "a list or mapping cannot be a key"
        self.source.findings.append(Finding(path, line, message))
        return None

    def _report_duplicates(self, node: yaml.MappingNode, path: JsonPath) -> None:
        """PyYAML silently keeps the last of two equal keys; in a spec that is always a slip."""
        seen: dict[str, int] = {}
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _MERGE_TAG:
                continue
            line = key_node.start_mark.line + 1
            if key_node.value in seen:
                self.source.findings.append(
                    Finding(path + (key_node.value,), line, f"duplicate key {excerpt(key_node.value)} (first set on line {seen[key_node.value]})")
                )
            else:
                seen[key_node.value] = line
