"""JSON Schema errors in a person's words: one wording for every document scoutlab validates (variants, positions).

jsonschema's own messages name keywords and quote whole values; these say what was expected
and what was found, at the most precise path, quoting a value only as a short excerpt. A
document adds its own sentences for what only it knows (a position's seats, a spec's
schema_version) through `special`, asked first. text/spec_messages.py translates these
sentences, so a change of wording here is a change to the catalogs.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterable
from typing import Any

import jsonschema
import referencing

from scoutlab.base.limits import excerpt
from scoutlab.spec.source import JsonPath

# JSON Schema calls 3.0 an integer; a hand of 11.0 cards or a turn of 3.0 would break the engine's arithmetic.
_STRICT_TYPES = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
    "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
)
_Strict: type[jsonschema.protocols.Validator] = jsonschema.validators.extend(
    jsonschema.Draft202012Validator, type_checker=_STRICT_TYPES
)


def validator(schema: dict[str, Any], registry: referencing.Registry | None = None) -> jsonschema.protocols.Validator:
    """A Draft 2020-12 validator of `schema` for which only a true int is an integer."""
    return _Strict(schema) if registry is None else _Strict(schema, registry=registry)


A_TYPE = {
    "object": "a mapping",
    "array": "a list",
    "string": "a string",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}

Finding = tuple[JsonPath, str]
# A document's own sentence for an error, or None to leave it to the shared wording.
Special = Callable[[jsonschema.ValidationError, JsonPath], "list[Finding] | None"]


def explain(error: jsonschema.ValidationError, special: Special | None = None) -> list[Finding]:
    """A schema violation in a person's words, at the most precise path (one error may name several)."""
    path: JsonPath = tuple(error.absolute_path)
    if special is not None:
        own = special(error, path)
        if own is not None:
            return own
    # jsonschema types these loosely (a schema may be a bool); here they are the keyword's own values.
    kind: Any = error.validator
    expected: Any = error.validator_value
    value: Any = error.instance
    schema: Any = error.schema
    if "propertyNames" in error.absolute_schema_path:  # jsonschema reports a bad key at its mapping
        title = schema.get("title", "key")
        return [((*path, value), f"{excerpt(value)} is not a valid {title}")]
    if kind == "additionalProperties" and expected is False:
        allowed = list(schema.get("properties", {}))
        return [((*path, key), unknown_key(key, allowed)) for key in value if key not in allowed]
    if kind == "required":  # one error per missing key: each names them all, and equal problems merge later
        missing = [key for key in expected if key not in value]
        return [(path, f"missing required key{'s' * (len(missing) > 1)} {', '.join(map(repr, missing))}")]
    if kind == "type":
        wanted = [expected] if isinstance(expected, str) else expected
        return [(path, f"expected {' or '.join(A_TYPE[t] for t in wanted)}, got {describe(value)}")]
    if kind == "oneOf" and "title" in schema:  # text in several languages: say what is wrong inside the mapping
        inner = [found for sub in error.context or () if (sub.validator, tuple(sub.absolute_path)) != ("type", path)
                 for found in explain(sub, special)]
        return inner or [(path, f"expected {schema['title']}, got {describe(value)}")]
    if kind in ("enum", "const"):
        options = expected if kind == "enum" else [expected]
        message = f"{excerpt(value)} is not one of {', '.join(map(repr, options))}" if kind == "enum" else f"expected {expected!r}, got {excerpt(value)}"
        return [(path, message + did_you_mean(value, options))]
    if kind == "minimum":
        return [(path, f"must be at least {expected}, got {excerpt(value)}")]
    if kind == "maximum":
        return [(path, f"must be at most {expected}, got {excerpt(value)}")]
    if kind == "minItems":
        return [(path, f"must list at least {expected} item{'s' * (expected != 1)}")]
    if kind == "minLength":
        return [(path, "must not be empty")]
    if kind == "maxLength":
        return [(path, f"must be at most {expected:,} characters, got {len(value):,}")]
    if kind == "maxProperties":
        return [(path, f"must have at most {expected} entries, got {len(value)}")]
    if kind == "uniqueItems":
        return [((*path, i), f"{excerpt(item)} is listed twice") for i, item in enumerate(value) if item in value[:i]]
    if kind == "pattern" and "title" in schema:
        return [(path, f"{excerpt(value)} is not a valid {schema['title']}")]
    message = error.message  # jsonschema quotes the whole value: keep the start
    return [(path, message if len(message) <= 200 else message[:200] + "...")]


def describe(value: Any) -> str:
    """A value as the words "got ..." name it: its kind, and a short excerpt of it."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, str):
        return f"the string {excerpt(value)}"
    if isinstance(value, int) and value.bit_length() > 128:
        return excerpt(value)  # "a 13,288-bit number": its digits would be an echo
    if isinstance(value, (int, float)):
        return f"the number {excerpt(value)}"
    return A_TYPE["object" if isinstance(value, dict) else "array"]


def unknown_key(key: str, allowed: list[str]) -> str:
    hint = did_you_mean(key, allowed)
    return f"unknown key {excerpt(key)}" + (hint or f" (allowed here: {', '.join(allowed)})")


def did_you_mean(word: Any, choices: Iterable[Any]) -> str:
    if not isinstance(word, str):
        return ""
    close = difflib.get_close_matches(word, [c for c in choices if isinstance(c, str)], n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


__all__ = ["A_TYPE", "Finding", "Special", "describe", "did_you_mean", "explain", "unknown_key", "validator"]
