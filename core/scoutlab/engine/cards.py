"""Cards as small integers, decks built from a spec, and the card and hand notation.

A card in a hand or on the table is one int: its top number in the high bits, its
bottom number in the low five. Turning it over swaps the two fields. Ints keep the
engine's hot loop free of object allocation.
"""

from __future__ import annotations

from scoutlab.base.errors import NumberOutOfRange
from scoutlab.base.limits import digits, excerpt

SHIFT = 5
MASK = (1 << SHIFT) - 1
HIGHEST_NUMBER = MASK  # numbers must fit in five bits


def card(top: int, bottom: int) -> int:
    """The card showing `top`, with `bottom` at the other end."""
    return (top << SHIFT) | bottom


def top(c: int) -> int:
    return c >> SHIFT


def bottom(c: int) -> int:
    return c & MASK


def flipped(c: int) -> int:
    """The same card turned around: the bottom number comes to the top."""
    return ((c & MASK) << SHIFT) | (c >> SHIFT)


def identity(c: int) -> int:
    """The card regardless of orientation (lower number on top): for conservation checks."""
    t, b = c >> SHIFT, c & MASK
    return card(t, b) if t < b else card(b, t)


def full_deck(lowest: int, highest: int) -> list[int]:
    """One card for every pair of distinct numbers from lowest to highest, lower number on top."""
    return [card(a, b) for a in range(lowest, highest + 1) for b in range(a + 1, highest + 1)]


def format_card(c: int) -> str:
    """`top/bottom`, e.g. `3/7` for a card showing 3 with 7 at the other end."""
    return f"{c >> SHIFT}/{c & MASK}"


def parse_card(text: str) -> int:
    """Parse `top/bottom`; raises ValueError with the reason, NumberOutOfRange for a number no card notation has."""
    parts = text.strip().split("/")
    if len(parts) != 2 or not all(digits(p.strip()) for p in parts):
        raise ValueError(f"{excerpt(text)} is not a card: write it as top/bottom, e.g. 3/7")
    numbers = [p.strip().lstrip("0") or "0" for p in parts]
    if any(len(n) > len(str(HIGHEST_NUMBER)) for n in numbers):  # before int(): 4,300 digits would stop Python itself
        raise NumberOutOfRange(f"{excerpt(text)} is not a card: numbers run from 1 to {HIGHEST_NUMBER}")
    t, b = (int(n) for n in numbers)
    if t == b:
        raise ValueError(f"{excerpt(text)} is not a card: its two numbers must differ")
    if not (0 < t <= HIGHEST_NUMBER and 0 < b <= HIGHEST_NUMBER):
        raise NumberOutOfRange(f"{excerpt(text)} is not a card: numbers run from 1 to {HIGHEST_NUMBER}")
    return card(t, b)


def format_hand(cards: list[int] | tuple[int, ...]) -> str:
    return " ".join(format_card(c) for c in cards)


def parse_hand(text: str) -> list[int]:
    """Parse space-separated cards, e.g. `3/7 2/5 10/1`."""
    return [parse_card(t) for t in text.split()]
