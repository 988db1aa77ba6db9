"""Every bound scoutlab puts on its input, in one place, and the helpers that enforce them.

A spec, a position, a record, a line of the engine protocol or a bot's answer is
checked against these figures before anything else reads it, so no input can make
scoutlab recurse past Python's stack, hold a file of any size in memory, or print
back more than a short excerpt of what it was given. The docs quote these figures
(docs/spec-reference.md "Limits", docs/engine-protocol.md "Limits"); tests import them.
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import stat
import sys
from collections.abc import Iterable
from typing import Any

#: A spec file or pasted spec text, in bytes of UTF-8 (1 MB); shipped variants are under 2 KB.
MAX_SPEC_BYTES = 1_000_000
#: A position file or position text, in bytes of UTF-8 (1 MB).
MAX_POSITION_BYTES = 1_000_000
#: A game record file, in bytes (10 MB); a five-player official game is about 30 KB.
MAX_RECORD_BYTES = 10_000_000
#: One request line of `scoutlab engine`, in characters (1 MB): enough for a position sent inline.
MAX_PROTOCOL_LINE = 1_000_000
#: A network bot's weights file, in bytes (20 MB); the shipped one is 54 KB.
MAX_NETWORK_BYTES = 20_000_000
#: One answer line of an external bot, in bytes (64 KB); an action in notation is under 40.
MAX_BOT_ANSWER = 65_536
#: A file's path, in characters: Linux's PATH_MAX, so a longer one names no file (and resolving it costs a step a part).
MAX_PATH_CHARS = 4_096
#: Nesting of lists and mappings in any YAML or JSON input; a shipped spec needs 5, its record 6.
MAX_NESTING = 64
#: A mapping key in YAML input, in characters; a spec's longest is 22 (`exempt_last_show_owner`).
MAX_KEY_CHARS = 100
#: An action written in notation, in characters; `scout right flip 12 show 10-12` is 31.
MAX_NOTATION = 100
#: The action codes a compiled variant holds in tables (see `compiled_codes`): about 40 bytes each,
#: so 100,000 is about 4 MB; the official deck needs 8,511. Allows decks of up to 153 cards (18 numbers).
MAX_COMPILED_CODES = 100_000
#: Characters of an input quoted back in an error message.
EXCERPT_CHARS = 40


class InputTooLarge(ValueError):
    """An input over one of the limits above; the message names the limit and the figure."""


def megabytes(size: int) -> str:
    """`1_000_000` -> `1 MB`, `65_536` -> `64 KB`: limits as the docs write them."""
    if size >= 1_000_000 and size % 1_000_000 == 0:
        return f"{size // 1_000_000} MB"
    if size % 1024 == 0:
        return f"{size // 1024} KB"
    return f"{size:,} bytes"


def excerpt(value: Any, limit: int = EXCERPT_CHARS) -> str:
    """`repr(value)` for a message, cut to about `limit` characters with the full length said.

    `excerpt("show " + "1" * 5000)` -> `'show 11111111111111111111111111111111111'... (5,005 characters)`.
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}... ({len(value):,} characters)"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"a {value.bit_length():,}-bit number"  # str() of a huge int is slow and is itself an echo
    return cut(repr(value), limit)


def cut(text: str, limit: int) -> str:
    """`text` for a message, cut to `limit` characters with the full length said where it is longer."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def compiled_codes(deck_size: int) -> int:
    """The action codes a variant's compiled tables hold for a deck of `deck_size` cards.

    The engine lays out actions for hands as large as the whole deck (legal.Layout):
    every show (deck_size²) and every scout into each hand size from either or both
    ends (3 x (deck_size + 1) x (deck_size + 2)). tests/test_bad_input.py checks this
    against a real Layout.
    """
    return deck_size * deck_size + 3 * (deck_size + 1) * (deck_size + 2)


def nesting(value: Any) -> int:
    """How deeply lists and mappings nest in `value` (a scalar is 0); iterative, so any depth is safe."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if depth > MAX_NESTING:
            return depth  # deep enough to refuse: no need to walk the rest
        stack.extend((child, depth + 1) for child in children)
    return deepest


# Characters no input may carry into a message or a page: C0 and C1 controls but tab and line breaks, DEL,
# and lone surrogates (an escape in YAML or JSON can write any of them; a terminal obeys the controls,
# and UTF-8 cannot encode a surrogate, so printing one fails).
_UNSHOWABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_UNSHOWABLE_IN_A_LINE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")  # and no tab or line break either


def unshowable(text: str, one_line: bool = False) -> str | None:
    """The first character of `text` that must not be shown (with `one_line`, a tab or line break too), as
    `#x001b`; None if there is none."""
    found = (_UNSHOWABLE_IN_A_LINE if one_line else _UNSHOWABLE).search(text)
    return None if found is None else f"#x{ord(found.group()):04x}"


def shown_safely(text: str) -> str:
    """`text` with each unshowable character written as an escape (`\\x1b`, `\\ud800`)."""
    return _UNSHOWABLE.sub(lambda found: found.group().encode("unicode_escape", "backslashreplace").decode("ascii"), text)


def terminal_cannot_show(encoding: str, what: str) -> str:
    """The one wording for a terminal whose encoding cannot show `what` ("the output", "the game in 'ar'")."""
    return (f"this terminal's encoding ({encoding}) cannot show {what}; set a UTF-8 locale (for example LANG=C.UTF-8) "
            "or PYTHONIOENCODING=utf-8")


def on_one_line(name: str) -> str:
    """A name (a path, a variant's name) for a one-line message: also its line breaks and tabs escaped, as the
    terminal would otherwise break the message there, and the bidirectional controls that would reorder it."""
    return _IN_A_LINE.sub(lambda found: found.group().encode("unicode_escape", "backslashreplace").decode("ascii"), name)


_IN_A_LINE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(message: str, width: int = 500) -> str:
    """A message as a terminal gets it: control characters escaped, each line cut to `width` (a message names where
    and why; it never replays an input)."""
    lines = shown_safely(message).split("\n")
    return "\n".join(line if len(line) <= width else f"{line[:width]}... ({len(line):,} characters)" for line in lines)

def first_unshowable(value: Any, one_line: bool = False) -> tuple[tuple[str | int, ...], str] | None:
    """(path, character) of the first key or text in JSON-like `value` holding an unshowable character; iterative."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            code = unshowable(item, one_line)
            if code is not None:
                return path, code
        elif isinstance(item, dict):  # children pushed last first, so they are read in document order
            for key, child in reversed(item.items()):
                code = unshowable(key, one_line) if isinstance(key, str) else None
                if code is not None:
                    return path, code
                stack.append((child, (*path, key)))
        elif isinstance(item, list):
            stack.extend((item[index], (*path, index)) for index in range(len(item) - 1, -1, -1))
    return None


def digits(text: str) -> bool:
    """Whether `text` is a whole number int() reads: ASCII digits only (str.isdigit() also passes '²', which int() refuses)."""
    return text.isascii() and text.isdigit()


def too_deep() -> str:
    """The one wording for nesting past MAX_NESTING, so every door says the same."""
    return f"nested deeper than {MAX_NESTING} levels of lists and mappings"


class NotJson(ValueError):
    """What loads_json refuses beyond malformed JSON, by `kind`, for a door that words it in its own language:
    "constant" (NaN or Infinity, `value` the word: no answer may carry one back), "huge" (a number such as 1e999 that
    would be read as infinity, `value` as written), "twice" (a key given twice in one object, `value` the key: which
    one was meant?), "deep" (nested past MAX_NESTING) or "digits" (a number too long to read)."""

    def __init__(self, message: str, kind: str, value: Any = None):
        super().__init__(message)
        self.kind, self.value = kind, value


def _not_json(word: str) -> Any:
    raise NotJson(f"{word} is not a JSON number", "constant", word)


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):  # `1e999` is JSON, but read as infinity it would go back out as `Infinity`, which is not
        raise NotJson(f"{excerpt(text)} is too large a number to read", "huge", text)
    return value


def _one_of_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are all different: `{"cmd": "quit", "cmd": "hello"}` means neither, not the last."""
    found = dict(pairs)
    if len(found) != len(pairs):
        twice = next(key for i, (key, _) in enumerate(pairs) if any(key == k for k, _ in pairs[:i]))
        raise NotJson(f"the key {excerpt(twice)} is given twice in one object", "twice", twice)
    return found


def json_mistake(exc: json.JSONDecodeError, lines: bool = True) -> str:
    """Where malformed JSON went wrong, once: "Expecting value at line 1, column 5" (the decoder's "Invalid control
    character at" already ends in "at"). Without `lines`, the column only: a one-line protocol has no line 2."""
    where = f"line {exc.lineno}, column {exc.colno}" if lines else f"column {exc.colno}"
    return f"{exc.msg.removesuffix(' at')} at {where}"


def loads_json(text: str) -> Any:
    """`json.loads` that never recurses past MAX_NESTING, reads no number of more than 4,300 digits, and refuses NaN,
    Infinity (not JSON, though Python's json reads them) and a key given twice in one object.

    Raises ValueError with a one-line reason (json.JSONDecodeError for malformed JSON,
    whose `msg`, `lineno` and `colno` say where).
    """
    try:
        value = json.loads(text, parse_constant=_not_json, parse_float=_finite, object_pairs_hook=_one_of_each)
    except RecursionError:
        raise NotJson(too_deep(), "deep") from None
    except (json.JSONDecodeError, NotJson):
        raise
    except ValueError:  # Python's cap on int() of long digit strings
        raise NotJson(f"a number has more than {sys.get_int_max_str_digits():,} digits", "digits") from None
    if nesting(value) > MAX_NESTING:
        raise NotJson(too_deep(), "deep")
    return value


def check_size(size: int, limit: int, what: str) -> None:
    """Raise InputTooLarge when `size` (bytes) is over `limit`, naming both."""
    if size > limit:
        raise InputTooLarge(f"{what} is {size:,} bytes, more than the limit of {megabytes(limit)} ({limit:,} bytes)")


class NotAFile(OSError):
    """A path that names a pipe, a socket or a device: reading it could wait for ever or never end."""

    def __str__(self) -> str:
        return self.strerror or super().__str__()


def unreadable(exc: OSError | UnicodeDecodeError, what: str) -> str:
    """Why read_capped could not read `what` (e.g. "a spec file"), in words: no `[Errno 2]`, no codec's text."""
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text (bad byte at offset {exc.start})"
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, IsADirectoryError):
        return f"this is a directory, not {what}"
    if isinstance(exc, PermissionError):
        return "cannot read the file: permission denied"
    return f"cannot read the file: {exc.strerror or exc}"


def read_capped(path: str, limit: int, what: str, encoding: str = "utf-8-sig") -> str:
    """The text of a regular file of at most `limit` bytes; InputTooLarge past it, without reading the rest.

    A pipe or a device is refused (NotAFile) before anything is read: opening one is
    not allowed to wait for a writer. OSError and UnicodeDecodeError pass through for
    the caller to word.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        if not stat.S_ISREG(mode):
            raise NotAFile(errno.EINVAL, "not a regular file (a pipe, a socket or a device), so it is not read")
    except OSError:
        os.close(fd)
        raise
    with open(fd, "rb") as handle:
        data = handle.read(limit + 1)
        if len(data) > limit:
            check_size(max(handle.seek(0, 2), len(data)), limit, what)
    return data.decode(encoding)
