"""Classifying and ranking shows: the built-in order by name, and the hook-driven general path.

The built-in order's integer strength keys and the hot-loop sweeps live in `legal.py`;
this module answers the questions asked outside the hot loop (what kind of show is this,
what could the hooks be asked) and walks the trie of hook answers when plugins decide.
"""

from __future__ import annotations

from collections.abc import Callable

from scoutlab.engine.legal import run_key, set_key


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
    grow: list[tuple[int, ...]] = [(v,) for v in numbers]
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


class ShowNode:
    """One run of top numbers, as the plugin hooks classified it; its children extend it by one card.

    Shows are found by walking this trie card by card, so under plugins the hot loop does
    one dict lookup per card instead of building a tuple and calling a hook.
    """

    __slots__ = ("children", "kind", "values", "verdicts")

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
            if active is None or verdicts is None:
                out.append(row + j - i)  # an empty table: any show will do
                continue
            verdict = verdicts.get(id(node))
            if verdict is None:
                verdict = judge(node, active)
            if verdict:
                out.append(row + j - i)
