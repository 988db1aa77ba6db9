"""Classifying and ranking shows by the built-in rules, outside the hot loop.

The built-in order's integer strength keys and the hot-loop sweeps live in `legal.py`, and
so does the trie of the hooks' answers that the sweeps walk when plugins decide
(`legal.ShowTrie`); this module answers the questions asked outside the hot loop: what
kind of show is this, and what could the hooks be asked.
"""

from __future__ import annotations

from scoutlab.engine.legal import run_key, set_key


def builtin_kind(values: tuple[int, ...] | list[int]) -> str:
    """"set", "run" or "invalid" for top numbers left to right (docs/rules.md §3A)."""
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
