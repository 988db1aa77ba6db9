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


def builtin_show_domain(lowest: int, highest: int) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Every show the built-in rules accept with these numbers, and every one-card extension of one.

    These are all the questions the engine can ask the show hooks: it grows shows card by
    card from a single card and stops at the first that is no show. A set can be no longer
    than the cards carrying its number, a run no longer than the numbers there are.
    """
    numbers = range(lowest, highest + 1)
    longest = highest - lowest + 1
    shows: list[tuple[int, ...]] = []
    extensions: list[tuple[int, ...]] = []
    grow = [(v,) for v in numbers]
    while grow:
        values = grow.pop()
        if builtin_kind(values) == "invalid":
            extensions.append(values)
            continue
        shows.append(values)
        if len(values) <= longest:
            grow.extend(values + (v,) for v in numbers)
    return shows, extensions


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


class ShowNode:
    """One run of top numbers, as the plugin hooks classified it; its children extend it by one card.

    Shows are found by walking this trie card by card, so under plugins the hot loop does
    one dict lookup per card instead of building a tuple and calling a hook.
    """

    __slots__ = ("values", "kind", "children", "verdicts")

    def __init__(self, values: tuple[int, ...], kind: str | None):
        self.values = values
        self.kind = kind  # None: not a show
        self.children: dict[int, ShowNode] = {}
        self.verdicts: dict[int, bool] = {}  # id(show node) -> does it beat this node as active set?


def append_general_shows(
    tops: list[int],
    active: ShowNode | None,
    root: ShowNode,
    grow: Callable[[ShowNode, int], ShowNode],
    judge: Callable[[ShowNode, ShowNode], bool],
    base: int,
    width: int,
    out: list[int],
) -> None:
    """The same sweep with classification and comparison from the plugin hooks, cached in the trie."""
    n = len(tops)
    verdicts = active.verdicts if active is not None else None
    for i in range(n):
        row = base + i * width
        node = root
        for j in range(i, n):
            child = node.children.get(tops[j])
            node = child if child is not None else grow(node, tops[j])
            if node.kind is None:
                break  # every prefix of a show is a show, so nothing longer can be one
            if verdicts is None:
                out.append(row + j - i)
                continue
            verdict = verdicts.get(id(node))
            if verdict is None:
                verdict = judge(node, active)
            if verdict:
                out.append(row + j - i)


def append_builtin_insertion_shows(
    tops: list[int], value: int, gap: int, beat_key: int, base: int, width: int, out: list[int]
) -> None:
    """Append the shows of two or more cards that include a card of `value` inserted at `gap`.

    Shows that avoid the new card are the hand's own shows, found once per scout by the
    caller, and so is the new card alone; only the sets and runs through it are new.
    Codes count positions in the hand after the insertion, where the new card sits at `gap`.
    """
    n = len(tops)
    left_value = tops[gap - 1] if gap else None
    right_value = tops[gap] if gap < n else None
    # A step (0: set, +1/-1: run left to right) extends only if a neighbour continues it.
    steps = {s for s in (value - left_value if gap else 9, right_value - value if gap < n else 9) if -1 <= s <= 1}
    for step in steps:
        left = 0
        while gap - left > 0 and tops[gap - left - 1] == value - step * (left + 1):
            left += 1
        right = 0
        while gap + right < n and tops[gap + right] == value + step * (right + 1):
            right += 1
        for a in range(left + 1):
            for b in range(right + 1):
                count = a + b + 1
                if count == 1:
                    continue
                if step == 0:
                    key = (((count << 1) | 1) << SHIFT) + value
                else:
                    lowest = value - a if step == 1 else value - b
                    key = ((count << 1) << SHIFT) + lowest
                if key > beat_key:
                    out.append(base + (gap - a) * width + count - 1)
