"""Reading what a client sends: JSON bodies, numbers and moves, each bounded, each refusal one plain sentence.

Nothing here quotes more than a short excerpt of what was sent, and no Python error
text (`invalid literal for int()`, `Exceeds the limit (4300 digits)`) reaches a player.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from scoutlab.base.limits import MAX_NESTING, NotJson, digits, loads_json
from scoutlab.text.i18n import Gettext, ngettext

#: A move in notation is short ("scout right flip 12 show 3-14"); anything longer is not a move.
MAX_ACTION_CHARS = 64
#: Characters of a client's input quoted back in a message.
EXCERPT_CHARS = 40
#: Problems listed for a refused spec, and characters of each.
MAX_PROBLEMS = 20
MAX_PROBLEM_CHARS = 300


class BadInput(ValueError):
    """Input the server refuses; the message is the one sentence the client sees."""


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """`text` quoted, cut to `limit` characters with an ellipsis: safe to put in a message."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def sent(value: Any) -> str:
    """What a client sent, to name in a message: text as written (escaped, cut short), any other value as its JSON."""
    if not isinstance(value, str):
        try:
            value = json.dumps(value)  # `null`, `["official"]`: the client's notation, not Python's `None`
        except (ValueError, RecursionError):  # nested past the encoder's depth
            value = "…"
    return excerpt(value)[1:-1]


def parse_json(raw: bytes, _: Gettext) -> Any:
    """The JSON value of a request body; BadInput saying where or why for anything that is not JSON, however deep."""
    try:
        return loads_json(raw.decode("utf-8"))  # as every door reads JSON: no NaN, no nesting past the cap
    except UnicodeDecodeError:
        raise BadInput(_("The request's body is not JSON: it is not UTF-8 text.")) from None
    except json.JSONDecodeError as exc:
        raise BadInput(_("The request's body is not JSON: it goes wrong at line {line}, column {column}.",
                         line=exc.lineno, column=exc.colno)) from None
    except NotJson as exc:
        if exc.kind == "constant":
            raise BadInput(_("The request's body is not JSON: {word} is not a JSON number.", word=exc.value)) from None
        if exc.kind == "huge":
            raise BadInput(_("The request's body holds a number too large to read: {number}.", number=excerpt(exc.value))) from None
        if exc.kind == "twice":
            raise BadInput(_("The request's body gives the key {key} twice in one object.", key=excerpt(exc.value))) from None
        if exc.kind == "deep":
            raise BadInput(_("The request's body is nested deeper than {depth} levels.", depth=MAX_NESTING)) from None
        most = format(sys.get_int_max_str_digits(), ",")
        raise BadInput(_("The request's body holds a number of more than {digits} digits.", digits=most)) from None


def with_hint(exc: BadInput, hint: str) -> str:
    """A refused body's reason (where its JSON goes wrong, if it does), then what the address expects."""
    return f"{exc} {hint}" if str(exc) and str(exc) != hint else hint


def whole_number(value: Any, low: int, high: int, message: str) -> int:
    """An int from low to high, given as a JSON number or a string of digits; BadInput(message) otherwise."""
    if isinstance(value, str):
        text = value.strip()
        # Checked by length first: int() of thousands of digits costs time and raises Python's own text.
        if not digits(text) or len(text) > len(str(high)):
            raise BadInput(message)
        value = int(text)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadInput(message)
    return value


def short_problems(problems: list[str], _: Gettext) -> list[str]:
    """A spec's problems as shown to a client: at most MAX_PROBLEMS, each at most MAX_PROBLEM_CHARS, the rest counted
    in the client's language."""
    shown = [p if len(p) <= MAX_PROBLEM_CHARS else p[: MAX_PROBLEM_CHARS - 1] + "…" for p in problems[:MAX_PROBLEMS]]
    if len(problems) > MAX_PROBLEMS:
        rest = len(problems) - MAX_PROBLEMS
        shown.append(ngettext("… and {count} more", "… and {count} more", rest, _, count=rest))
    return shown
