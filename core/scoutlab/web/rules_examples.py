"""Pictures for the How to play page: example cards made from the variant's own rules.

Each example is a few rows of cards (a hand, the active set) with a caption, built
from the compiled rules: the numbers come from the variant's deck, and which show
is stronger is asked of the rules themselves (`rules.classify`, `rules.beats`), so a
house rule that lets runs beat sets, or runs wrap around, shows its own examples.
The page draws the cards with HTML and CSS; nothing here knows about markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoutlab.engine.cards import MASK, SHIFT
from scoutlab.engine.explain import describe_show
from scoutlab.rules import Rules
from scoutlab.text.i18n import Gettext


def _pairs(rules: Rules) -> set[frozenset[int]]:
    """The cards in play (with the most players the variant allows), each as its two numbers."""
    return {frozenset((c >> SHIFT, c & MASK)) for c in rules.deck_for(max(rules.players))}


def _numbers(rules: Rules) -> list[int]:
    """The numbers the cards in play carry, lowest first (a 28-card deck has no 9 or 10)."""
    return sorted({n for pair in _pairs(rules) for n in pair})


def _card(rules: Rules, top: int, used: set[frozenset[int]], mark: str = "") -> dict[str, Any]:
    """A card in play showing `top`, its other number chosen so that no two example cards are the same card."""
    numbers = _numbers(rules)
    pairs = _pairs(rules)
    offsets = [4, 6, 3, 7, 2, 5, 8, 1, 9] + list(range(1, len(numbers)))
    for step in offsets:
        bottom = numbers[(numbers.index(top) + step) % len(numbers)] if top in numbers else numbers[step % len(numbers)]
        card = frozenset((top, bottom))
        if bottom != top and card in pairs and card not in used:
            used.add(card)
            return {"t": top, "b": bottom, "mark": mark}
    other = next(n for n in numbers if n != top)
    return {"t": top, "b": other, "mark": mark}


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _row(rules: Rules, tops: Sequence[int], used: set, marked: Sequence[int] = (), mark: str = "play") -> list[dict[str, Any]]:
    return [_card(rules, top, used, mark if i in marked else "") for i, top in enumerate(tops)]


def _describe(rules: Rules, values: Sequence[int], _: Gettext) -> str:
    return describe_show(values, rules.classify(tuple(values)), _)


def show_example(rules: Rules, _: Gettext) -> dict[str, Any]:
    """A hand with three adjacent cards that form a run (a wrapping one where the variant allows it)."""
    numbers = _numbers(rules)
    low, high = numbers[0], numbers[-1]
    wrap = (high - 1, high, low)
    run = wrap if rules.classify(wrap) == "run" else tuple(range(min(low + 3, high - 2), min(low + 3, high - 2) + 3))
    others = [n for n in range(high, low - 1, -1) if all(abs(n - r) > 1 for r in run)][:3] or [low]
    tops = [others[0], *run, *others[1:]]
    used: set = set()
    return {
        "title": _("A show"),
        "rows": [{"label": _("Your hand"), "cards": _row(rules, tops, used, marked=(1, 2, 3))}],
        "caption": _(
            "The marked cards sit next to each other and make {show}, so you may show them together.",
            show=_describe(rules, run, _),
        ),
    }


def stronger_example(rules: Rules, _: Gettext) -> dict[str, Any] | None:
    """An active set, a show the rules say beats it, and one they say does not."""
    numbers = _numbers(rules)
    low = numbers[0]
    active = (low + 2, low + 3)
    candidates = [(low + 1, low + 1), (low + 4, low + 4), (low + 4, low + 5), (low, low + 1, low + 2), (low,), (low + 3, low + 4)]
    candidates = [c for c in candidates if set(c) <= set(numbers) and rules.classify(c) is not None]
    stronger = next((c for c in candidates if rules.beats(c, active)), None)
    weaker = next((c for c in candidates if not rules.beats(c, active) and c != stronger), None)
    if stronger is None:
        return None
    used: set = set()
    rows = [
        {"label": _("The active set"), "cards": _row(rules, active, used)},
        {"label": _("Stronger: may be played"), "cards": _row(rules, stronger, used, marked=range(len(stronger)))},
    ]
    caption = _capital(_("{stronger} beats {active}.", stronger=_describe(rules, stronger, _), active=_describe(rules, active, _)))
    if weaker is not None:
        rows.append({"label": _("Not stronger: may not be played"), "cards": _row(rules, weaker, used, marked=range(len(weaker)), mark="refused")})
        caption += " " + _capital(_("{weaker} does not.", weaker=_describe(rules, weaker, _)))
    return {"title": _("A stronger show"), "rows": rows, "caption": caption}


def scout_example(rules: Rules, _: Gettext) -> dict[str, Any]:
    """Taking the right end card of the active set, turning it over, and putting it into the hand."""
    numbers = _numbers(rules)
    low, high = numbers[0], numbers[-1]
    used: set = set()
    active = _row(rules, (low + 4, low + 5), used)
    taken = active[-1]
    active[-1] = {**taken, "mark": "taken"}
    hand = _row(rules, (high, low + 1, low + 2), used)
    turned = {"t": taken["b"], "b": taken["t"], "mark": "play"}
    after = [hand[0], turned, *hand[1:]]
    return {
        "title": _("A scout"),
        "rows": [
            {"label": _("The active set"), "cards": active},
            {"label": _("Your hand"), "cards": hand},
            {"label": _("Your hand after the scout"), "cards": after},
        ],
        "caption": _(
            "You take the {top} from the right end of the active set, turn it over so the {bottom} is on top, "
            "and put it between your first and second card.",
            top=taken["t"], bottom=taken["b"],
        ),
    }


def flip_example(rules: Rules, _: Gettext) -> dict[str, Any] | None:
    """A hand before and after the round-start flip, as the variant flips it (order kept or reversed)."""
    if not rules.flip_allowed:
        return None
    numbers = _numbers(rules)
    used: set = set()
    hand = _row(rules, (numbers[-1], numbers[1], numbers[4], numbers[2]), used)
    turned = [{"t": c["b"], "b": c["t"], "mark": ""} for c in (reversed(hand) if rules.flip_reverses else hand)]
    caption = (
        _("Flipping the hand swaps the two numbers of every card, and the order of the cards reverses.")
        if rules.flip_reverses else
        _("Flipping the hand swaps the two numbers of every card; the cards stay in their order.")
    )
    return {
        "title": _("Flipping the hand"),
        "rows": [{"label": _("Your hand as dealt"), "cards": hand}, {"label": _("Your hand flipped"), "cards": turned}],
        "caption": caption,
    }


def scout_show_example(rules: Rules, _: Gettext) -> dict[str, Any] | None:
    """A Scout & Show: the right end card taken into the hand, then a show with it that beats what is left."""
    if not rules.sns_chips:
        return None
    numbers = _numbers(rules)
    low, high = numbers[0], numbers[-1]
    shown = (low + 3, low + 4, low + 5)
    left = (low + 2,)
    if not (rules.classify(shown) and rules.beats(shown, left)):
        return None  # a house rule this example does not fit: the text says it
    used: set = set()
    active = _row(rules, (low + 2, low + 3), used)
    taken = active[-1]
    active[-1] = {**taken, "mark": "taken"}
    hand = _row(rules, (high, low + 4, low + 5, low + 1), used)
    after = [hand[0], {**taken, "mark": "play"}, {**hand[1], "mark": "play"}, {**hand[2], "mark": "play"}, hand[3]]
    return {
        "title": _("A Scout & Show"),
        "rows": [
            {"label": _("The active set"), "cards": active},
            {"label": _("Your hand"), "cards": hand},
            {"label": _("Your hand after the scout"), "cards": after},
        ],
        "caption": _(
            "You take the {top} from the right end of the active set and put it after your first card, "
            "then show {show} at once: it beats what is left of the active set, {left}.",
            top=taken["t"], show=_describe(rules, shown, _), left=_describe(rules, left, _),
        ),
    }


def examples(rules: Rules, _: Gettext) -> dict[str, list[dict[str, Any]]]:
    """{summary section id: [examples]} for the page to draw under those sections."""
    stronger = stronger_example(rules, _)
    flip = flip_example(rules, _)
    return {
        "hand": [flip] if flip else [],
        "turn": [e for e in (show_example(rules, _), scout_example(rules, _), scout_show_example(rules, _)) if e],
        "strength": [stronger] if stronger else [],
    }
