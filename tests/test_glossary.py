"""The game's words in each language: core/scoutlab/text/locale/glossary.yaml, and the catalogs keeping to it.

- No Latin "Scout" or "Show" inside a translated sentence unless the glossary allows it for
  that language (notation in quotes, `{field}` names and the game's title SCOUT are not words).
- Greek: a player's name ("Παίκτης 2") is never put after a genitive or accusative article,
  where it would need declining ("του Παίκτη 2"); sentences say it in the nominative.
- One register per language: Bulgarian and Persian formal, Greek and Arabic informal singular.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from scoutlab.text import i18n

GLOSSARY = yaml.safe_load((Path(i18n.__file__).parent / "locale" / "glossary.yaml").read_text(encoding="utf-8"))
OTHERS = [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT]


def texts(lang: str) -> dict[str, list[str]]:
    """Every translation of a catalog, a plural entry's forms each on their own."""
    return {msgid: text.split("\x00") for msgid, text in i18n.catalog(lang).items()}


def latin_terms(text: str) -> list[str]:
    """The Latin words Scout and Show in a translation, outside notation, field names and the title."""
    text = re.sub(r"'[^']*'", "", text)  # notation in quotes: 'show 2-3', 'scout left|right [flip] GAP'
    text = re.sub(r"\{[^{}]*\}", "", text)  # fields: {show}
    return re.findall(r"(?i)(?<![\w-])(?:scout|show)(?![\w-])", text.replace("SCOUT", ""))


def test_the_glossary_covers_every_language_and_term():
    assert set(GLOSSARY) == set(OTHERS)
    for lang, entry in GLOSSARY.items():
        assert entry["source"] and entry["register"] in ("formal", "informal")
        assert {"show", "scout", "Scout & Show", "active set", "hand", "round", "Scout chip", "captured"} <= set(entry["terms"])
        for term, choice in entry["terms"].items():
            assert choice["word"] and choice["follows"], (lang, term)


@pytest.mark.parametrize("lang", OTHERS)
def test_no_latin_scout_or_show_inside_a_translation(lang):
    allowed = {word.lower() for word in GLOSSARY[lang]["latin_allowed"]}
    found = {msgid: words for msgid, forms in texts(lang).items()
             for words in [[w for form in forms for w in latin_terms(form) if w.lower() not in allowed]] if words}
    assert found == {}


def test_the_latin_check_catches_one_and_spares_notation():
    assert latin_terms("Μάρκες Scout") == ["Scout"]
    assert latin_terms("κάνει Show {cards}") == ["Show"]
    assert latin_terms("شرائح Scout") == ["Scout"]
    assert latin_terms("اكتب حركة مثل 'show 2-3' أو 'scout left 0'، أو help.") == []
    assert latin_terms("σχηματίζουν {show} · Πώς παίζεται το SCOUT · scoutlab") == []


GREEK_OBLIQUE = r"(?<![\w])(?:του|τον|της|την|των|τους|στον|στου|στη|στην)\s+"


def test_no_greek_player_name_after_a_genitive_or_accusative_article():
    names = r"\{(?:player|opponent|first|name|you|winner|seat)\}"
    bad = {msgid: form for msgid, forms in texts("el").items() for form in forms
           if re.search(GREEK_OBLIQUE + r"(?:Παίκτης\b|" + names + ")", form)}
    assert bad == {}
    assert i18n.gettext_for("el")("Player {number}", number=2) == "Παίκτης 2"  # the name is nominative


def test_greek_sentences_about_a_player_read_in_the_nominative():
    from scoutlab.text.i18n import gettext_for

    _ = gettext_for("el")
    player = _("Player {number}", number=2)
    lines = [
        _("Active set of {player}: {show}", player=player, show="3/7"),
        _("Nobody beat the show of {player}: everyone else scouted instead.", player=player),
        _("After the show of {player}, {opponent} could neither show nor scout.", player=player, opponent=_("Player {number}", number=1)),
        i18n.ngettext("{player} shows {cards} and captures {count} card.", "{player} shows {cards} and captures {count} cards.",
                      1, _, player=player, cards="3/7", count=1),
    ]
    for line in lines:
        assert not re.search(GREEK_OBLIQUE + "Παίκτης", line), line
    assert lines[3] == "Ο Παίκτης 2 παίζει 3/7 και κερδίζει 1 φύλλο."


#: Marks of the register a language does not use: second person singular in Bulgarian (formal: вие),
#: the polite plural in Greek (informal: εσύ), the familiar تو in Persian (formal: شما).
OTHER_REGISTER = {
    "bg": r"(?<![\w-])(?:ти|Ти|твоят|твоя|твоите|твоята|можеш|искаш|печелиш|Взимаш|изиграеш|Напиши|Сложи|Обърни|Разузнай|Изиграй|Започни|Избери)(?![\w-])",
    "el": r"(?<![\w-])(?:σας|Σας|μπορείτε|Μπορείτε|δοκιμάστε|επιλέξτε|Επιλέξτε|παίξτε|Παίξτε|πάρτε|Πάρτε|διαλέξτε|Διαλέξτε)(?![\w-])",
    "fa": r"(?<![\w-])(?:تو|تویی|می‌توانی|نمی‌توانی|داری)(?![\w-])",
    "ar": r"(?<![\w-])(?:العبوا|اختاروا|خذوا|استكشفوا|أنتم|يمكنكم)(?![\w-])",
}


@pytest.mark.parametrize("lang", OTHERS)
def test_one_register_per_language(lang):
    pattern = re.compile(OTHER_REGISTER[lang])
    found = {msgid: pattern.findall(form) for msgid, forms in texts(lang).items() for form in forms if pattern.search(form)}
    assert found == {}, f"{lang} is {GLOSSARY[lang]['register']}: {found}"


@pytest.mark.parametrize(("lang", "msgid", "word"), [
    ("ar", "Scout chips", "شرائح الاستكشاف"),
    ("fa", "Scout chips", "ژتون"),
    ("el", "Scout chips", "Μάρκες ανίχνευσης"),
    ("bg", "Scout chips", "Жетони за разузнаване"),
    ("el", "Active set", "Ενεργός συνδυασμός"),
    ("ar", "Active set", "العرض النشط"),
])
def test_the_glossarys_words_are_the_catalogs_words(lang, msgid, word):
    assert word in i18n.gettext_for(lang)(msgid)


@pytest.mark.parametrize("lang", OTHERS)
def test_no_latin_scout_or_show_in_the_shipped_variants_words(lang):
    from scoutlab.text.variant_text import shipped_listing

    allowed = {word.lower() for word in GLOSSARY[lang]["latin_allowed"]}
    found = [(entry.name, text) for entry in shipped_listing(lang) for text in (entry.title, entry.description)
             if any(w.lower() not in allowed for w in latin_terms(text))]
    assert found == []
