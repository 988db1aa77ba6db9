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


def append_general_scout_shows(
    tops: list[int],
    value: int,
    active: ShowNode | None,
    root: ShowNode,
    grow: Callable[[ShowNode, int], ShowNode],
    judge: Callable[[ShowNode, ShowNode], bool],
    first: int,
    stride: int,
    width: int,
    fallback: int,
    out: list[int],
) -> None:
    """Scout & Show under the plugin hooks, for one scouted card of top number `value`: for each gap in
    turn, every show of the new hand stronger than `active`, as `append_general_shows` lists them in
    that hand (codes from `first + gap * stride`), then `fallback` if no show was found and it is not -1.

    A show that avoids the new card is one of the hand's own (one place further on, right of the
    card), so the hand is read once, and gap by gap only the shows through the new card are walked.
    """
    n = len(tops)
    verdicts = active.verdicts if active is not None else None

    def stronger(node: ShowNode) -> bool:
        if active is None or verdicts is None:
            return True  # an empty table: any show will do
        verdict = verdicts.get(id(node))
        return judge(node, active) if verdict is None else verdict

    # walks[s]: the nodes of tops[s:s + 1], tops[s:s + 2], ... while they are shows; own[s]: the
    # lengths of those stronger than `active`, shortest first
    walks: list[list[ShowNode]] = []
    own: list[list[int]] = []
    for s in range(n):
        node, nodes, lengths = root, [], []
        for j in range(s, n):
            child = node.children.get(tops[j])
            node = child if child is not None else grow(node, tops[j])
            if node.kind is None:
                break  # every prefix of a show is a show, so nothing longer can be one
            nodes.append(node)
            if stronger(node):
                lengths.append(j - s + 1)
        walks.append(nodes)
        own.append(lengths)

    def through(node: ShowNode, row: int, length: int, gap: int) -> None:
        """The shows that go on from `node` (of `length` cards, ending at the gap) through the new card."""
        for v in [value] + tops[gap:]:
            child = node.children.get(v)
            node = child if child is not None else grow(node, v)
            if node.kind is None:
                return
            length += 1
            if stronger(node):
                out.append(row + length - 1)

    for gap in range(n + 1):
        base = first + gap * stride
        before = len(out)
        for s in range(gap):  # starting left of the new card: the own shows that end before it, then through it
            row = base + s * width
            for length in own[s]:
                if s + length > gap:
                    break
                out.append(row + length - 1)
            if gap - s <= len(walks[s]):
                through(walks[s][gap - s - 1], row, gap - s, gap)
        through(root, base + gap * width, 0, gap)  # starting with the new card
        for s in range(gap, n):  # right of the new card: the own shows, one place further on
            row = base + (s + 1) * width
            for length in own[s]:
                out.append(row + length - 1)
        if fallback >= 0 and len(out) == before:
            out.append(fallback + gap * stride)
