"""Plural forms: which form of a counted message a number takes, per language, and `ngettext`.

Arabic has six forms, Persian, Greek and Bulgarian two (Persian's rule is CLDR's: 0 and 1
take the first form), English two. `PLURAL_FORMS` holds each language's gettext header and
the same rule as a Python function; tests/test_i18n.py checks that the catalogs' headers
say the same. The layers above use `ngettext` through `scoutlab.text.i18n`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _arabic(n: int) -> int:
    if n in (0, 1, 2):
        return n
    if 3 <= n % 100 <= 10:
        return 3
    if 11 <= n % 100 <= 99:
        return 4
    return 5


#: language -> (the catalog's Plural-Forms header, the same rule in Python: n -> form index)
PLURAL_FORMS: dict[str, tuple[str, Callable[[int], int]]] = {
    "en": ("nplurals=2; plural=(n != 1);", lambda n: int(n != 1)),
    "ar": (
        "nplurals=6; plural=(n == 0 ? 0 : n == 1 ? 1 : n == 2 ? 2 : n % 100 >= 3 && n % 100 <= 10 ? 3 : "
        "n % 100 >= 11 && n % 100 <= 99 ? 4 : 5);",
        _arabic,
    ),
    "fa": ("nplurals=2; plural=(n > 1);", lambda n: int(n > 1)),
    "el": ("nplurals=2; plural=(n != 1);", lambda n: int(n != 1)),
    "bg": ("nplurals=2; plural=(n != 1);", lambda n: int(n != 1)),
}


def plural_index(lang: str, n: int) -> int:
    """Which of a language's plural forms the number `n` takes (English's rule for an unknown language)."""
    return PLURAL_FORMS.get(lang, PLURAL_FORMS["en"])[1](abs(int(n)))


def ngettext(singular: str, plural: str, n: int, _: Callable[..., str] | None = None, **values: Any) -> str:
    """The form of a counted message that `n` takes, translated by `_` when it knows plurals, then formatted.

    `_` is a catalog's gettext (`scoutlab.text.i18n.gettext_for(lang)`); without one, or with a
    plain function that has no plural forms, English: `singular` for 1, `plural` otherwise.
    Babel extracts `ngettext("...", "...", n, _, ...)` as a plural message (docs/i18n.md).
    """
    choose = getattr(_, "ngettext", None)
    if choose is not None:
        return str(choose(singular, plural, n, **values))
    text = singular if n == 1 else plural
    return text.format(**values) if values else text
