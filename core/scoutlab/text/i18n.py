"""Translations of every string a player reads, for the browser game and the terminal game.

The stable API:

    from scoutlab.text.i18n import LANGUAGES, gettext_for, is_rtl, normalize
    _ = gettext_for("el")
    _("Round {number} of {rounds}", number=1, rounds=3)   # translated, then formatted
    ngettext("{count} card", "{count} cards", n, _, count=n)  # the plural form n takes in Greek

Catalogs are gettext `.po` files in `scoutlab/text/locale/<lang>/LC_MESSAGES/scoutlab.po`, English
source strings as message ids. They are read here with a small reader of our own, so
playing needs no third-party package; Babel is used only to extract and update them
(`python -m scoutlab.text.i18n_tools`, see docs/i18n.md). A string missing from a catalog falls
back to English at run time, and `tests/test_i18n.py` fails so it never ships that way.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from scoutlab.base.limits import excerpt
from scoutlab.base.plural import PLURAL_FORMS, ngettext, plural_index

__all__ = [
    "DEFAULT",
    "DOMAIN",
    "LANGUAGES",
    "N_",
    "PLURAL_FORMS",
    "Gettext",
    "N_plural",
    "catalog",
    "from_accept_language",
    "gettext_for",
    "is_rtl",
    "language_of",
    "left_to_right",
    "ngettext",
    "normalize",
    "plural_index",
    "read_po",
]

DOMAIN = "scoutlab"
DEFAULT = "en"

#: Each language by its code, named in itself (as the language menu shows it).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "ar": "العربية",
    "fa": "فارسی",
    "el": "Ελληνικά",
    "bg": "Български",
}

_RIGHT_TO_LEFT = {"ar", "fa"}

Gettext = Callable[..., str]


def _code(lang: str | None) -> str:
    """The language part of a tag or locale name: `"ar-EG"`, `"fa_IR.UTF-8"` -> `"ar"`, `"fa"`."""
    return (lang or "").strip().lower().replace("_", "-").split("-")[0]


def normalize(lang: str | None) -> str:
    """A supported language code for `lang` (`"ar-EG"` -> `"ar"`); English when unknown or empty."""
    code = _code(lang)
    return code if code in LANGUAGES else DEFAULT


def chosen(lang: str | None) -> str | None:
    """A `--lang` option as given, checked: None stays None; a language not supported is a ValueError, not English."""
    if lang is not None and _code(lang) not in LANGUAGES:
        raise ValueError(f"--lang {excerpt(lang, 20)}: the languages are {', '.join(LANGUAGES)}")
    return lang


def is_rtl(lang: str) -> bool:
    """Whether the language is written right to left (Arabic, Persian)."""
    return normalize(lang) in _RIGHT_TO_LEFT


def left_to_right(text: str) -> str:
    """`text` in a left-to-right isolate (U+2066 ... U+2069): notation, keys and numbers keep their order in Arabic or Persian."""
    return f"\u2066{text}\u2069"


UNREADABLE = 0.0001  # the quality of a language whose q= cannot be read: wanted, but least of all (q=0 is "not this")


def from_accept_language(header: str | None) -> str:
    """The first supported language of an HTTP Accept-Language header, by quality; English if none."""
    choices = []
    for index, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = UNREADABLE
            if not 0.0 <= quality <= 1.0:  # NaN, inf or 2 is no quality (HTTP's run from 0 to 1): the least
                quality = UNREADABLE
        choices.append((-quality, index, tag.strip()))
    for quality, _, tag in sorted(choices):
        code = tag.lower().split("-")[0]
        if code in LANGUAGES and quality < 0:  # q=0 says "not this one" (RFC 9110)
            return code
    return DEFAULT


@cache
def catalog(lang: str) -> dict[str, str]:
    """The translations of one language as {English message id: translation}; empty for English."""
    lang = normalize(lang)
    if lang == DEFAULT:
        return {}
    path = resources.files("scoutlab.text") / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.is_file():
        return {}  # English it is; tests/test_i18n.py makes sure no catalog is missing
    return read_po(path.read_text(encoding="utf-8"))


def gettext_for(lang: str | None) -> Gettext:
    """`_(message, **values)` for a language: the translation of `message`, formatted with `values`."""
    return _gettext(normalize(lang))


class _Translator:
    """A language's `_`: call it for a message; `ngettext` (via `scoutlab.text.i18n.ngettext`) for a counted one."""

    def __init__(self, lang: str):
        self.lang = lang
        self.messages = catalog(lang)

    def __call__(self, message: str, **values: Any) -> str:
        text = self.messages.get(message) or message
        return text.format(**values) if values else text

    def ngettext(self, singular: str, plural: str, n: int, **values: Any) -> str:
        forms = self.messages.get(singular, "").split("\x00")
        index = plural_index(self.lang, n)
        if len(forms) > index and forms[index]:
            text = forms[index]
        else:  # not translated: English
            text = singular if n == 1 else plural
        return text.format(**values) if values else text


def language_of(_: Gettext) -> str:
    """The language a `_` from `gettext_for` translates into; English for any other callable (they word English)."""
    return _.lang if isinstance(_, _Translator) else DEFAULT


@cache
def _gettext(lang: str) -> Gettext:
    return _Translator(lang)


def N_(message: str) -> str:
    """Marks a string for extraction where it is defined; translate it later with `gettext_for`."""
    return message


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Marks a counted message for extraction as a plural entry; translate it later with `ngettext`."""
    return singular, plural


def read_po(text: str) -> dict[str, str]:
    """{msgid: msgstr} of a .po file's translated entries; fuzzy and empty ones are left out.

    A plural entry (msgid_plural, msgstr[0], msgstr[1], ...) is kept as gettext keeps it:
    under its singular msgid, its forms joined by NUL; it counts only when every form is there.
    """
    entries: dict[str, str] = {}
    fields: dict[str, str] = {}
    field = ""
    fuzzy = next_fuzzy = False

    def finish() -> None:
        msgid, msgstr = fields.get("msgid"), fields.get("msgstr")
        if "msgid_plural" in fields:
            forms = [value for key, value in sorted(fields.items()) if key.startswith("msgstr[")]
            msgstr = "\x00".join(forms) if forms and all(forms) else None
        if msgid and msgstr and not fuzzy:
            key = f"{fields['msgctxt']}\x04{msgid}" if "msgctxt" in fields else msgid  # as gettext keys them
            entries[key] = msgstr

    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#,") and "fuzzy" in line:
            next_fuzzy = True
        if not line or line.startswith("#"):
            continue
        if line.startswith('"'):
            fields[field] += ast.literal_eval(line)  # a continuation of the field above
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and (any(key.startswith("msgstr") for key in fields) or not fields):
            finish()  # a new entry starts
            fields, fuzzy, next_fuzzy = {}, next_fuzzy, False
        field = keyword
        fields[field] = ast.literal_eval(rest)
    finish()
    return entries
