"""Checking a bot's command-line options against the ones it knows, with their defaults."""

from __future__ import annotations

import math
from typing import Any

from scoutlab.base.limits import excerpt
from scoutlab.bots import BotError


def bot_options(bot: str, given: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """The defaults overridden by `given`; an unknown key or a value of the wrong type is a BotError.

    Numbers may be given as ints where a float is expected (`c=1` is `c=1.0`).
    """
    unknown = sorted(set(given) - set(defaults))
    if "arg" in unknown:  # parse_bot's name for a leading part that is not key=value
        raise BotError(f"bot {bot!r} takes options as key=value pairs, not {excerpt(given['arg'])}")
    if unknown:
        known = ", ".join(f"{k} (default {_spelled(v)})" for k, v in defaults.items()) or "none"
        raise BotError(f"bot {bot!r} has no option {', '.join(map(repr, unknown))}; known options: {known}")
    options = dict(defaults)
    for key, value in given.items():
        want = type(defaults[key])
        if want is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise BotError(f"bot {bot!r}: option {key}={excerpt(value)} must be {_kind(want)}, like {_spelled(defaults[key])}")
        if want is float and not math.isfinite(value):  # nan passes every comparison a bound makes
            raise BotError(f"bot {bot!r}: option {key}={value} must be a finite number, like {_spelled(defaults[key])}")
        options[key] = value
    return options


def _spelled(value: Any) -> str:
    """A value as a user writes it after `key=`: true and false in lower case, text bare."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):  # 0.15185, not the float's 0.15184999999999998; 15.0 still reads as a number
        short = f"{value:.6g}"
        return short if any(c in short for c in ".en") else short + ".0"
    if value == "":
        return "''"  # an empty default (weights: the shipped file) is named, not left as a blank
    return str(value)


def _kind(want: type) -> str:
    return {bool: "true or false", int: "a whole number", float: "a number"}.get(want, "text")


def positive(bot: str, key: str, value: float, allow_zero: bool = False, most: float | None = None) -> None:
    """Refuse a count or budget that cannot be used, or (past `most`) that would not finish in any reasonable time."""
    if value < 0 or (value == 0 and not allow_zero):
        bound = ">= 0" if allow_zero else "> 0"
        raise BotError(f"bot {bot!r}: option {key}={excerpt(value)} must be {bound}")
    if most is not None and value > most:
        raise BotError(f"bot {bot!r}: option {key}={excerpt(value)} must be at most {most:,g}")
