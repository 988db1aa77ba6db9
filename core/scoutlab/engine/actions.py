"""Actions: their integer codes (the engine's currency) and their one canonical text notation.

Every action is a small int, as in OpenSpiel, so legal-action lists cost no allocation
beyond the list itself; `decode` turns a code into a readable named tuple, and
`format_action` / `parse_action` give the notation, which round-trips:
    keep | flip                                  the round-start hand-flip choice
    show I | show I-J                            cards I..J of your hand (1-based, left to right)
    scout left|right [flip] G                    take an end card, insert it with G cards to its left
    scout left|right [flip] G show I[-J]         Scout & Show; I-J count in the hand after the scout
    scout left|right [flip] G show none          Scout & Show where no show is possible (seed 002 fallback)

The codes of one spec are laid out in blocks whose sizes depend only on `width`, the
largest possible hand:
    0 keep, 1 flip | shows | scouts | scout & shows
"""

from __future__ import annotations

import re
from typing import NamedTuple

from scoutlab.base.errors import NotationError
from scoutlab.base.limits import MAX_NOTATION, excerpt

KEEP = 0
FLIP = 1
SHOW_BASE = 2
LEFT, RIGHT = 0, 1


class Flip(NamedTuple):
    flip: bool


class Show(NamedTuple):
    start: int  # 0-based position of the leftmost card
    length: int


class Scout(NamedTuple):
    end: int  # LEFT or RIGHT end of the active set
    flip: bool  # turn the card over before inserting it
    gap: int  # how many cards of the hand stay left of it


class ScoutShow(NamedTuple):
    scout: Scout
    show: Show | None  # None: the fallback, no show after the scout


Action = Flip | Show | Scout | ScoutShow


class Codec:
    """Maps actions to codes and back for hands of at most `width` cards."""

    def __init__(self, width: int):
        self.width = width
        self.show_count = width * width
        self.scout_base = SHOW_BASE + self.show_count
        self.scout_count = 4 * (width + 1)
        self.sns_base = self.scout_base + self.scout_count
        self.sns_stride = self.show_count + 1  # the extra slot is "show none"
        self.size = self.sns_base + self.scout_count * self.sns_stride
        self._decoded: dict[int, Action] = {}  # bots decode the same codes all game; at most `size` entries

    def show(self, start: int, length: int) -> int:
        return SHOW_BASE + start * self.width + length - 1

    def scout_index(self, end: int, flip: bool, gap: int) -> int:
        return (end * 2 + flip) * (self.width + 1) + gap

    def scout(self, end: int, flip: bool, gap: int) -> int:
        return self.scout_base + self.scout_index(end, flip, gap)

    def scout_show(self, end: int, flip: bool, gap: int, show: Show | None) -> int:
        base = self.sns_base + self.scout_index(end, flip, gap) * self.sns_stride
        if show is None:
            return base + self.show_count
        return base + show.start * self.width + show.length - 1

    def encode(self, action: Action) -> int:
        """The code of an action; NotationError if it names positions no hand can have."""
        self._check_fits(action)
        if isinstance(action, Flip):
            return FLIP if action.flip else KEEP
        if isinstance(action, Show):
            return self.show(action.start, action.length)
        if isinstance(action, Scout):
            return self.scout(*action)
        return self.scout_show(*action.scout, action.show)

    def _check_fits(self, action: Action) -> None:
        # Codes are mixed-radix numbers: a position past `width` would spill into another action.
        show = action if isinstance(action, Show) else action.show if isinstance(action, ScoutShow) else None
        scout = action if isinstance(action, Scout) else action.scout if isinstance(action, ScoutShow) else None
        if show is not None and not (show.start >= 0 and show.length >= 1 and show.start + show.length <= self.width):
            raise NotationError(f"{format_action(action)!r}: no hand holds more than {self.width} cards")
        if scout is not None and not 0 <= scout.gap <= self.width:
            raise NotationError(f"{format_action(action)!r}: no hand has a gap {scout.gap}; gaps run from 0 to {self.width}")

    def decode(self, code: int) -> Action:
        found = self._decoded.get(code)
        if found is not None:
            return found
        if not 0 <= code < self.size:
            raise ValueError(f"action code {code} is outside 0..{self.size - 1}")
        action = self._decode(code)
        try:
            self._check_fits(action)
        except NotationError:
            raise ValueError(f"action code {code} is unused: its show runs past the largest hand") from None
        self._decoded[code] = action
        return action

    def _decode(self, code: int) -> Action:
        if code < SHOW_BASE:
            return Flip(code == FLIP)
        if code < self.scout_base:
            start, rest = divmod(code - SHOW_BASE, self.width)
            return Show(start, rest + 1)
        if code < self.sns_base:
            return self._scout(code - self.scout_base)
        scout, show = divmod(code - self.sns_base, self.sns_stride)
        if show == self.show_count:
            return ScoutShow(self._scout(scout), None)
        start, rest = divmod(show, self.width)
        return ScoutShow(self._scout(scout), Show(start, rest + 1))

    def _scout(self, index: int) -> Scout:
        side, gap = divmod(index, self.width + 1)
        end, flip = divmod(side, 2)
        return Scout(end, bool(flip), gap)

    def kind(self, code: int) -> str:
        """"flip", "show", "scout" or "scout_and_show": cheap, for counting and bots."""
        if code < SHOW_BASE:
            return "flip"
        if code < self.scout_base:
            return "show"
        if code < self.sns_base:
            return "scout"
        return "scout_and_show"


def _format_show(show: Show) -> str:
    first = show.start + 1
    return f"show {first}" if show.length == 1 else f"show {first}-{first + show.length - 1}"


def _format_scout(scout: Scout) -> str:
    side = "left" if scout.end == LEFT else "right"
    return f"scout {side} flip {scout.gap}" if scout.flip else f"scout {side} {scout.gap}"


def format_action(action: Action) -> str:
    """The canonical notation of an action."""
    if isinstance(action, Flip):
        return "flip" if action.flip else "keep"
    if isinstance(action, Show):
        return _format_show(action)
    if isinstance(action, Scout):
        return _format_scout(action)
    show = "show none" if action.show is None else _format_show(action.show)
    return f"{_format_scout(action.scout)} {show}"


_SCOUT = re.compile(r"^scout\s+(left|right)(\s+flip)?\s+(\d+)(?:\s+(show\b.*))?$", re.IGNORECASE | re.ASCII)
_SHOW = re.compile(r"^show\s+(?:(none)|(\d+)(?:\s*-\s*(\d+))?)$", re.IGNORECASE | re.ASCII)
_EXPECTED = (
    "expected keep, flip, 'show I' or 'show I-J', 'scout left|right [flip] GAP', "
    "or 'scout left|right [flip] GAP show I-J'"
)


def _parse_show(text: str, whole: str) -> Show | None:
    m = _SHOW.match(text)
    if not m:
        raise NotationError(f"{whole!r} is not a move: {_EXPECTED}")
    if m[1]:
        return None
    first = int(m[2])
    last = int(m[3]) if m[3] else first
    if first < 1 or last < first:
        raise NotationError(f"{whole!r}: a show runs from card I to card J, with 1 <= I <= J")
    return Show(first - 1, last - first + 1)


def parse_action(text: str) -> Action:
    """Parse the notation (case and spacing are free); raises NotationError saying what was expected."""
    if len(text) > MAX_NOTATION:  # an action is a few words: never echo, split or int() a long text
        raise NotationError(f"{excerpt(text)} is not a move: a move is at most {MAX_NOTATION} characters")
    whole = " ".join(text.split())
    word = whole.lower()
    if word in ("keep", "flip"):
        return Flip(word == "flip")
    m = _SCOUT.match(whole)
    if not m:
        show = _parse_show(whole, whole)
        if show is None:
            raise NotationError(f"{whole!r}: 'show none' only follows a scout, in a Scout & Show")
        return show
    scout = Scout(LEFT if m[1].lower() == "left" else RIGHT, bool(m[2]), int(m[3]))
    if m[4] is None:
        return scout
    return ScoutShow(scout, _parse_show(m[4], whole))
