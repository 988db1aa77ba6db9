"""A variant's words in the player's language, and the order players meet the variants in.

A spec's `title` and `description` are either a string (one language for everyone) or
a mapping of language code to text with `en` required (`description: {en: ..., fa: ...}`),
so a variant carries its own translations and needs no catalog entry. `name` stays the
identifier that records, statistics, `extends` and addresses use; `title` is what a
player reads. Lists put the publisher's rules first, then informal variants, then house
rules (the spec's `kind`), so a new player meets the official game before the variations.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoutlab.spec.variant import load_spec, shipped_variants
from scoutlab.text.i18n import DEFAULT, normalize

#: The order of the variant lists, by the spec's `kind`.
KINDS = ("official", "informal", "house")


def localized(text: str | Mapping[str, str] | None, lang: str | None) -> str:
    """`text` in `lang`: a plain string as it is, a mapping's entry for the language, else its English."""
    if text is None:
        return ""
    if isinstance(text, str):
        return text
    return text.get(normalize(lang)) or text.get(DEFAULT) or ""


def title(doc: Mapping[str, Any], lang: str | None) -> str:
    """What a player calls the variant: its `title` in their language, else its `name`."""
    return localized(doc.get("title"), lang) or str(doc.get("name", ""))


def description(doc: Mapping[str, Any], lang: str | None) -> str:
    """The variant's one-line description in the player's language ("" where it has none)."""
    return localized(doc.get("description"), lang)


@dataclass(frozen=True)
class VariantEntry:
    """One shipped variant as a list shows it."""

    name: str
    title: str
    description: str
    kind: str
    players: tuple[int, ...]


def shipped_listing(lang: str | None = DEFAULT) -> list[VariantEntry]:
    """Every shipped variant, official first, then informal, then house rules; by name within each."""
    entries = []
    for name, _english in shipped_variants():
        doc = load_spec(name).doc
        entries.append(VariantEntry(name, title(doc, lang), description(doc, lang), doc["kind"], tuple(doc["players"])))
    return sorted(entries, key=lambda entry: (KINDS.index(entry.kind), entry.name))
