"""Spec problems in the player's language: the browser shows a pasted spec's errors in any of the five.

The spec layer (`scoutlab.spec`, the plugin host, the YAML reader) words each problem in
English, once, for the command line and the tests. Here each of those sentences is
matched against its English template, which is also the catalogs' message id, and
re-said through `_`: the template translated, its fields (names, numbers, keys as
written) carried over unchanged, isolated left to right in Arabic and Persian. A sentence
no template knows stays in English, and `tests/test_spec_messages.py` fails for every
problem of the bad-spec corpus that no template covers, so a new message in the spec
layer cannot go untranslated unseen.
"""

from __future__ import annotations

import re
from functools import cache

from scoutlab.base.limits import digits
from scoutlab.text.i18n import N_, Gettext, N_plural, is_rtl, language_of, left_to_right, ngettext

# The spec layer's sentences, as it words them: `{field}` stands for what it fills in.
TEMPLATES: tuple[str, ...] = (
    N_("unknown key {key}"),
    N_("missing required keys {keys}"),
    N_("missing required key {keys}"),
    N_("expected {expected}, got {got}"),
    N_("this scoutlab reads schema_version {version}; the spec says {value}"),
    N_("{value} is not one of {options}"),
    N_("must be at least {minimum}, got {value}"),
    N_("must be at most {maximum} characters, got {value}"),
    N_("must have at most {maximum} entries, got {value}"),
    N_("must be at most {maximum}, got {value}"),
    "must list at least {count} items",
    "must list at least {count} item",
    N_("must not be empty"),
    N_("{value} is listed twice"),
    N_("{value} is not a valid {what}"),
    N_("must be greater than lowest ({lowest}): every card carries two different numbers"),
    N_("a hand size for {count} players, but players is {players}; add {count} to players or drop this entry"),
    N_("a removal for {count} players, but players is {players}; add {count} to players or drop this entry"),
    N_("{count} players are allowed, but deal.hand_size has no entry for {count}"),
    N_("{card} is not a card: its two numbers must differ"),
    N_("{card} is not in the deck: numbers run from {lowest} to {highest}"),
    N_("no card carries {number}: numbers run from {lowest} to {highest}"),
    "dealing {hand} cards to each of {players} players needs {needed} cards, but the deck holds only {left} for {players} players",
    "dealing {hand} card to each of {players} players needs {needed} cards, but the deck holds only {left} for {players} players",
    "dealing {hand} cards to each of {players} players x {rounds} rounds (shuffle: once) needs {needed} cards, but the deck holds only {left} for {players} players",
    "dealing {hand} card to each of {players} players x {rounds} rounds (shuffle: once) needs {needed} cards, but the deck holds only {left} for {players} players",
    N_("seat {seat} does not exist with {players} players (seats are 0 to {last})"),
    N_("an isolate (U+2066 to U+2068) is left open; close it with U+2069"),
    N_("U+2069 (pop directional isolate) closes no isolate; remove it or open one before it"),
    N_("plugin {name} is listed twice"),
    N_("plugin {name} is installed but {why}"),
    N_("unknown plugin {name}"),
    N_("plugin {name} is switched off: {why}"),
    N_("plugin {name} failed to load: {why}"),
    N_("plugin {name} rejected its config {config}: {why}"),
    N_("plugin {name} takes no config, but the spec gives {config}"),
    N_("unknown end condition {name}"),
    N_("plugin {name} offers the end condition {conditions}, but end_conditions does not list it, so the plugin never "
       "ends a round; add it: end_conditions: [{enabled}]"),
    N_("no shipped variant named {name}"),
    N_("cannot extend the path {path} from a shipped variant; extend a shipped variant by name"),
    N_("cannot extend the path {path} from text with no base directory; extend a shipped variant by name"),
    N_("cannot extend {path}: it is a directory"),
    N_("cannot extend {path}: a path of {count} characters names no file (at most {limit})"),
    N_("a path of {count} characters names no file (at most {limit})"),
    N_("{value} is not allowed: a spec's numbers are finite, as JSON's are"),
    N_("cannot extend {path}: it is {kind}, not a spec file, so it is not read"),
    N_("cannot extend {path}: cannot read the file: permission denied"),
    N_("cannot extend {path}: cannot read the file: {why}"),
    N_("cannot extend {path}: not UTF-8 text (bad byte at offset {offset})"),
    N_("cannot extend {path}: {what} is {size} bytes, more than the limit of {limit} ({bytes} bytes)"),
    N_("cannot extend {path}: no such file {file}"),
    N_("the file is empty; a variant spec is a mapping of keys such as schema_version, name and players"),
    N_("a variant spec is a mapping of keys such as schema_version, name and players, not {got}"),
    N_("extends cycle: {chain}"),
    N_("extends chain deeper than {depth} levels: {chain}"),
    N_("null removes an inherited key, but nothing is inherited here"),
    N_("duplicate key {key} (first set on line {line})"),
    N_("malformed YAML: {detail}"),
    N_("no such file"),
    N_("this is a directory, not a spec file"),
    N_("cannot read the file: permission denied"),
    N_("not UTF-8 text (bad byte at offset {offset})"),
    N_("cannot read the file: {why}"),
    N_("{what} is {size} bytes, more than the limit of {limit} ({bytes} bytes)"),
    N_("this is not a variant spec: {why}"),  # before the next, which would read "this" as a name
    N_("{spec} is not a variant spec: {why}"),
    N_("a deck of {cards} cards (numbers {lowest} to {highest}) compiles to {codes} action codes (about {megabytes} MB); the limit is {limit}, a deck of at most {numbers} numbers (highest at most {highest_allowed})"),
    N_("key {key} is longer than {limit} characters"),
    N_("character {code} (a control character or a lone surrogate) is not allowed in text"),
    N_("nested deeper than {depth} levels of lists and mappings"),
    N_("nested deeper than {depth} levels of lists and mappings (through aliases)"),
)

# Endings the spec layer adds to a sentence; said separately, then joined.
SUFFIXES: tuple[str, ...] = (
    N_("; did you mean {word}?"),
    N_(" (allowed here: {keys})"),
    N_(" (available: {names})"),
    N_(" (shipped: {names})"),
    N_(" (known: {names})"),
    N_(" (installed: {names})"),
    N_("; to use the file {name}.yaml beside this spec, write ./{name}.yaml"),
    N_(" (the value is inherited from {where}; {path}, set here, makes it wrong)"),
    N_("; the installed plugin {name} offers it: list it under plugins (plugins: [{names}])"),
)

# The kinds of value a problem names ("expected a whole number, got the string 'lots'").
PHRASES: tuple[str, ...] = (
    N_("a mapping"),
    N_("a list"),
    N_("a string"),
    N_("a whole number"),
    N_("a number"),
    N_("true or false"),
    N_("a string, or a mapping of language code to text"),
    N_("a name, or a mapping of language code to name"),
    N_("the string {value}"),
    N_("the number {value}"),
    N_("{first} or {second}"),
    N_("language code"),
    N_("player count (2 to 8)"),
    N_("card (written 'a/b', e.g. '9/10')"),
    N_("name (lowercase letters, digits, '-' and '_', starting with a letter)"),
    N_("name (one line, no control characters)"),
    N_("text (no bidirectional embedding or override)"),
    N_("key"),
    N_("a variant name"),
    N_("a path"),
    # what a path named by extends is, when it is no file (its stat mode)
    N_("a named pipe (FIFO)"),
    N_("a socket"),
    N_("a device"),
    N_("not a regular file"),
    # the system's reason a path named by extends cannot be looked at (its strerror)
    N_("Too many levels of symbolic links"),
    N_("File name too long"),
    N_("Not a directory"),
    N_("Permission denied"),
    N_("Input/output error"),
    # why a file is not a spec at all
    N_("a spec is a mapping of keys such as schema_version, name and players, not {got}"),
    "{strangers} of its {count} top-level keys are not a spec's keys (run scoutlab validate on it to see them)",
    "{strangers} of its {count} top-level keys are not a spec's keys",
    N_("not valid YAML, and no line starts with a spec's key"),
    N_("none of its top-level keys is a spec's key (a spec has schema_version, name, players, deck and so on)"),
    N_("a file named by extends must be a valid YAML mapping of a spec's keys only, with schema_version: 1 or an extends "
       "of its own (run scoutlab validate on it to see why it is not)"),
    N_("the spec text"),
    N_("the spec file"),
)
_PHRASE_FIELDS = ("expected", "got", "what", "why", "kind", "conditions")

# PyYAML's own words for malformed YAML, `malformed YAML: {detail}` with the detail "[CONTEXT, ]PROBLEM (column N)":
# the ones a spec written by hand meets (a tab, an indent, an unclosed bracket or quote), said again; others stay English.
YAML_CONTEXTS: tuple[str, ...] = (
    N_("while scanning for the next token"),
    N_("while scanning a simple key"),
    N_("while scanning a quoted scalar"),
    N_("while scanning a double-quoted scalar"),
    N_("while scanning a block scalar"),
    N_("while parsing a block mapping"),
    N_("while parsing a block collection"),
    N_("while parsing a block node"),
    N_("while parsing a flow sequence"),
    N_("while parsing a flow mapping"),
    N_("while parsing a flow node"),
    N_("while scanning an anchor"),
    N_("while scanning an alias"),
)
YAML_PROBLEMS: tuple[str, ...] = (
    N_("found character {char} that cannot start any token"),
    N_("mapping values are not allowed here"),
    N_("sequence entries are not allowed here"),
    N_("could not find expected ':'"),
    N_("found unexpected end of stream"),
    N_("expected <block end>, but found {token}"),
    N_("expected ',' or {closing}, but got {token}"),  # closing: ']' or '}' (a brace in a template would be a field)
    N_("expected the node content, but found {token}"),
    N_("found undefined alias {name}"),
    N_("found unknown escape character {char}"),
    N_("expected a single document in the stream, but found another document"),
    N_("expected indentation indicator in the range 1-9, but found 0"),
    N_("could not determine a constructor for the tag {tag}"),
    N_("character {code} is not allowed"),
    N_("found duplicate anchor {name}; first occurrence, second occurrence"),  # the line and column are the second's
    N_("expected alphabetic or numeric character, but found {char}"),
    N_("found unexpected document separator"),
)
YAML_JOINS: tuple[str, ...] = (N_("{context}, {problem}"), N_("{detail} (column {column})"))
_YAML_DETAIL = re.compile(r"^(?:(?P<context>while [^,]+), )?(?P<problem>.+?)(?: \(column (?P<column>\d+)\))?$", re.S)

#: Counted templates: (singular, plural) as the catalogs' plural entry, and the field holding the count;
#: the spec layer's English matches either form (TEMPLATES), and the count picks the translation's form.
COUNTED: tuple[tuple[tuple[str, str], str], ...] = (
    (N_plural("must list at least {count} item", "must list at least {count} items"), "count"),
    (N_plural("{strangers} of its {count} top-level key is not a spec's key (run scoutlab validate on it to see it)",
              "{strangers} of its {count} top-level keys are not a spec's keys (run scoutlab validate on it to see them)"),
     "count"),
    (N_plural("{strangers} of its {count} top-level key is not a spec's key",
              "{strangers} of its {count} top-level keys are not a spec's keys"), "count"),
    (N_plural("dealing {hand} card to each of {players} players needs {needed} cards, but the deck holds only {left} for {players} players",
              "dealing {hand} cards to each of {players} players needs {needed} cards, but the deck holds only {left} for {players} players"),
     "hand"),
    (N_plural("dealing {hand} card to each of {players} players x {rounds} rounds (shuffle: once) needs {needed} cards, "
              "but the deck holds only {left} for {players} players",
              "dealing {hand} cards to each of {players} players x {rounds} rounds (shuffle: once) needs {needed} cards, "
              "but the deck holds only {left} for {players} players"), "hand"),
)
_COUNTED = {form: (forms, field) for forms, field in COUNTED for form in forms}


@cache
def _pattern(template: str, anchored_end: bool = True) -> re.Pattern[str]:
    """The template as a regular expression: each `{field}` matches any text, the same field the same text."""
    parts, seen = [], set()
    for literal, field in re.findall(r"([^{]*)(?:\{(\w+)\}|$)", template):
        parts.append(re.escape(literal))
        if field:
            parts.append(f"(?P={field})" if field in seen else f"(?P<{field}>.+?)")
            seen.add(field)
    return re.compile("^" + "".join(parts) + ("$" if anchored_end else ""), re.S)


def match_template(templates: tuple[str, ...], text: str) -> tuple[str, dict[str, str]] | None:
    """The first template `text` is an instance of, with the text of each field; None if none fits."""
    for template in templates:
        found = _pattern(template).match(text)
        if found:
            return template, found.groupdict()
    return None


def _phrase(text: str, _: Gettext) -> str:
    """A kind of value ("a list", "the string 'x'", "a list or a mapping") in the player's language."""
    if text in PHRASES:  # a whole phrase, before any template: one may hold " or " itself
        return _(text)
    if " or " in text and text not in PHRASES and not text.startswith("the "):
        first, second = text.rsplit(" or ", 1)
        return _("{first} or {second}", first=_phrase(first, _), second=_phrase(second, _))
    found = match_template(PHRASES, text)
    if not found:
        return text
    template, fields = found  # a phrase may hold a phrase: "..., not a string"
    return _(template, **_carried(fields, _))


def _carried(fields: dict[str, str], _: Gettext) -> dict[str, str]:
    """Each field as a translation carries it: a kind of value said again, the rest as written.

    In Arabic and Persian what is carried as written is isolated left to right, else `-1` reads `1-`
    and `#x001b` reads `x001b#` inside the right-to-left sentence.
    """
    keep = left_to_right if is_rtl(language_of(_)) else str
    return {key: _phrase(value, _) if key in _PHRASE_FIELDS else _yaml_detail(value, _) if key == "detail" else keep(value)
            for key, value in fields.items()}


def _yaml_detail(detail: str, _: Gettext) -> str:
    """PyYAML's words for malformed YAML in the player's language, where every part is known; else as PyYAML says them."""
    found = _YAML_DETAIL.match(detail)
    problem = match_template(YAML_PROBLEMS, found["problem"]) if found else None
    if found is None or problem is None or (found["context"] is not None and found["context"] not in YAML_CONTEXTS):
        return detail
    said = _(problem[0], **_carried(problem[1], _))
    if found["context"] is not None:
        said = _("{context}, {problem}", context=_(found["context"]), problem=said)
    if found["column"] is not None:
        said = _("{detail} (column {column})", detail=said, column=found["column"])
    return said


def _split(message: str) -> tuple[str, list[tuple[str, dict[str, str]]]]:
    """The sentence without the endings the spec layer added, and those endings (template, fields) in order."""
    endings: list[tuple[str, dict[str, str]]] = []
    while True:
        for template in SUFFIXES:
            found = re.match("(?P<_head>.*?)" + _pattern(template).pattern[1:], message, re.S)
            if found:
                fields = found.groupdict()
                message = fields.pop("_head")
                endings.insert(0, (template, fields))
                break
        else:
            return message, endings


def translate_message(message: str, _: Gettext) -> str:
    """One problem's sentence (no file or path in front) in the player's language; English if unknown."""
    message, endings = _split(message)
    suffix = "".join(_(template, **_carried(fields, _)) for template, fields in endings)
    found = match_template(TEMPLATES, message)
    if not found:
        return message + suffix
    template, fields = found
    if template in _COUNTED and digits(fields[_COUNTED[template][1]]):
        (singular, plural), field = _COUNTED[template]
        return ngettext(singular, plural, int(fields[field]), _, **_carried(fields, _)) + suffix
    return _(template, **_carried(fields, _)) + suffix


def translate_problem(problem, _: Gettext) -> str:
    """`FILE:LINE: $.path: message` with the message in the player's language (file and path as written)."""
    where = problem.file if problem.line is None else f"{problem.file}:{problem.line}"
    return f"{where}: {problem.path}: {translate_message(problem.message, _)}"


def is_known(message: str) -> bool:
    """Whether a template covers the sentence (the test over the bad-spec corpus asks this)."""
    return match_template(TEMPLATES, _split(message)[0]) is not None
