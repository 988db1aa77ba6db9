"""Finding and ranking shows: the built-in rules as fast integer keys, and the hook-driven general path.

A show's strength under the official order is one int, so comparing against the active
set is a single integer comparison in the hot loop:
    key = ((2 * count + is_set) << 5) | lowest
More cards beat fewer; with equal counts a set beats a run; then the higher lowest number.
Equal keys are equal strength, which never beats.
"""

from __future__ import annotations

from typing import Callable

from .cards import SHIFT

NOTHING_TO_BEAT = -1  # the key of an empty table: every show beats it
SINGLE_KEY = 3 << SHIFT  # a single card is a set of one: (2*1 + 1) << 5


def set_key(count: int, value: int) -> int:
    return (((count << 1) | 1) << SHIFT) | value


def run_key(count: int, lowest: int) -> int:
    return ((count << 1) << SHIFT) | lowest


def builtin_kind(values: tuple[int, ...] | list[int]) -> str:
    """"set", "run" or "invalid" for top numbers left to right (RULES.md 3A)."""
    first = values[0]
    if all(v == first for v in values):
        return "set"
    step = values[1] - first
    if step not in (1, -1):
        return "invalid"
    if all(values[i + 1] - values[i] == step for i in range(len(values) - 1)):
        return "run"
    return "invalid"


def builtin_key(values: tuple[int, ...] | list[int]) -> int | None:
    """The strength key of a valid show under the official order, or None when it is no show."""
    kind = builtin_kind(values)
    if kind == "set":
        return set_key(len(values), values[0])
    if kind == "run":
        return run_key(len(values), min(values[0], values[-1]))
    return None


def active_set_key(cards: list[int]) -> int:
    """The key of an active set, which is always a valid show (or what scouting left of one).

    Its first two cards tell a set from a run, so no scan is needed: this runs after every move.
    """
    if not cards:
        return NOTHING_TO_BEAT
    first = cards[0] >> SHIFT
    if len(cards) == 1:
        return SINGLE_KEY + first
    if cards[1] >> SHIFT == first:
        return set_key(len(cards), first)
    return run_key(len(cards), min(first, cards[-1] >> SHIFT))


def append_builtin_shows(tops: list[int], beat_key: int, base: int, width: int, out: list[int]) -> None:
    """Append the code of every show in `tops` stronger than `beat_key`.

    A show from position i with n cards has code base + i*width + (n - 1). One sweep per
    start position: a set or run can only grow while the next card keeps its step.
    """
    n = len(tops)
    for i in range(n):
        v = tops[i]
        row = base + i * width
        if SINGLE_KEY + v > beat_key:
            out.append(row)
        if i + 1 == n:
            continue
        step = tops[i + 1] - v
        if step == 0:
            j = i + 1
            while j < n and tops[j] == v:
                j += 1
                if ((((j - i) << 1) | 1) << SHIFT) + v > beat_key:
                    out.append(row + j - i - 1)
        elif step == 1 or step == -1:
            j = i + 1
            prev = v
            while j < n and tops[j] - prev == step:
                prev = tops[j]
                j += 1
                lowest = v if step == 1 else prev
                if (((j - i) << 1) << SHIFT) + lowest > beat_key:
                    out.append(row + j - i - 1)


def append_general_shows(
    tops: list[int],
    active: tuple | None,
    classify: Callable[[tuple[int, ...]], str | None],
    beats: Callable[[tuple[int, ...], str, tuple], bool],
    base: int,
    width: int,
    out: list[int],
) -> None:
    """The same sweep with classification and comparison taken from the plugin hooks."""
    n = len(tops)
    for i in range(n):
        row = base + i * width
        for j in range(i + 1, n + 1):
            values = tuple(tops[i:j])
            kind = classify(values)
            if kind is None:
                break  # every prefix of a show is a show, so nothing longer can be one
            if active is None or beats(values, kind, active):
                out.append(row + j - i - 1)


def append_builtin_insertion_shows(
    tops: list[int], value: int, gap: int, beat_key: int, base: int, width: int, out: list[int]
) -> None:
    """Append the shows that include a card of `value` inserted at `gap` (Scout & Show).

    Shows that avoid the new card are the hand's own shows, found once per scout by the
    caller; only the sets and runs through the new card are new. Codes count positions
    in the hand after the insertion, where the new card sits at `gap`.
    """
    n = len(tops)
    if SINGLE_KEY + value > beat_key:
        out.append(base + gap * width)
    # (left, right): how many neighbours continue a set, an ascending or a descending run.
    for step in (0, 1, -1):
        left = 0
        while gap - left > 0 and tops[gap - left - 1] == value - step * (left + 1):
            left += 1
        right = 0
        while gap + right < n and tops[gap + right] == value + step * (right + 1):
            right += 1
        if not left and not right:
            continue
        for a in range(left + 1):
            for b in range(right + 1):
                count = a + b + 1
                if count == 1:
                    continue
                if step == 0:
                    key = (((count << 1) | 1) << SHIFT) + value
                else:
                    lowest = value - a * step if step == 1 else value - b
                    key = ((count << 1) << SHIFT) + lowest
                if key > beat_key:
                    out.append(base + (gap - a) * width + count - 1)
