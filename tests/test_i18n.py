"""Translations: every string a player reads is in every catalog, translated, with the same fields.

Fails when someone adds a `_("...")` string (or a summary message) without translating
it into Arabic, Persian, Greek and Bulgarian: run `python -m scoutlab.text.i18n_tools extract`,
then `update`, translate the new entries, and `check`.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoutlab.text import i18n

babel = pytest.importorskip("babel", reason="Babel (web extra) extracts and checks the catalogs")

from scoutlab.text import i18n_tools  # noqa: E402

OTHERS = [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT]


def test_the_template_is_up_to_date_with_the_code():
    fresh = {m.id for m in i18n_tools.extract() if m.id}
    committed = {m.id for m in i18n_tools.read(i18n_tools.TEMPLATE) if m.id}
    assert fresh - committed == set(), "strings not extracted yet: run python -m scoutlab.text.i18n_tools extract, then update"
    assert committed - fresh == set(), "the template lists strings the code no longer has: run extract, then update"


def test_every_catalog_has_every_string_translated_with_the_same_fields():
    template = i18n_tools.extract()
    assert i18n_tools.problems(template) == []


def test_the_check_catches_a_missing_and_a_mistranslated_string(tmp_path, monkeypatch):
    from babel.messages.catalog import Catalog

    template = Catalog()
    template.add("Round {number} of {rounds}")
    template.add("A brand new string")
    monkeypatch.setattr(i18n_tools, "LOCALE", tmp_path)
    for lang in OTHERS:
        catalog = Catalog(locale=lang)
        catalog.add("Round {number} of {rounds}", "Round {number}")  # a field lost in translation
        i18n_tools.write(catalog, i18n_tools.po_path(lang))
    found = i18n_tools.problems(template)
    assert f"{OTHERS[0]}: missing 'A brand new string'" in found
    assert any("fields of 'Round {number} of {rounds}' differ" in line for line in found)


@pytest.mark.parametrize("lang", OTHERS)
def test_our_po_reader_agrees_with_babel(lang):
    catalog = i18n_tools.read(i18n_tools.po_path(lang), lang)
    expected = {m.id: m.string for m in catalog if m.id and m.string and not m.fuzzy and not m.pluralizable}
    # a plural entry: under its singular, every form joined by NUL, as gettext keeps it
    expected |= {m.id[0]: "\x00".join(m.string) for m in catalog if m.pluralizable and all(m.string) and not m.fuzzy}
    assert i18n.catalog(lang) == expected


def test_the_po_reader_skips_fuzzy_and_empty_entries_and_joins_lines():
    text = '''msgid ""
msgstr "Language: el\\n"

#, fuzzy
msgid "Keep"
msgstr "Old guess"

msgid "Long"
msgstr ""
"one "
"two"

msgid "Empty"
msgstr ""
'''
    assert i18n.read_po(text) == {"Long": "one two"}


def test_gettext_translates_formats_and_falls_back_to_english():
    _ = i18n.gettext_for("el")
    assert _("Round {number} of {rounds}", number=2, rounds=3) == "Γύρος 2 από 3"
    assert _("a string nobody translated") == "a string nobody translated"
    assert i18n.gettext_for("xx")("Your turn.") == "Your turn."


def test_languages_and_directions():
    assert set(i18n.LANGUAGES) == {"en", "ar", "fa", "el", "bg"}
    assert [lang for lang in i18n.LANGUAGES if i18n.is_rtl(lang)] == ["ar", "fa"]
    assert i18n.normalize("ar-EG") == "ar" and i18n.normalize("de") == "en" and i18n.normalize(None) == "en"
    assert i18n.from_accept_language("de-DE,de;q=0.9,fa;q=0.8,en;q=0.5") == "fa"
    assert i18n.from_accept_language("") == "en"
    for odd in ("NaN", "nan", "inf", "2", "-1"):  # not a quality: ranked last, not first
        assert i18n.from_accept_language(f"ar;q={odd},el;q=0.5") == "el", odd
        assert i18n.from_accept_language(f"ar;q={odd}") == "ar", odd  # still wanted, if least of all
    assert i18n.from_accept_language("el;q=0") == "en"  # q=0 is "not Greek" (RFC 9110): it gave Greek
    assert i18n.from_accept_language("bg;q=0, fa;q=0.1") == "fa"


def test_the_seeds_own_words_are_used_where_they_have_them():
    """Seeds 001 (Arabic) and 003 (Greek) are the online version's text: its hints read the same here."""
    hint = "You may flip your whole hand now. After the first move, its order and orientation lock."
    assert i18n.gettext_for("ar")(hint) == "يمكنك الآن قلب جميع بطاقات يدك معًا مرة واحدة. بعد الحركة الأولى يصبح ترتيبها واتجاهها ثابتين."
    assert i18n.gettext_for("el")(hint) == (
        "Μπορείς να γυρίσεις όλα τα φύλλα σου μαζί μόνο τώρα. Μετά την πρώτη κίνηση, η σειρά και ο προσανατολισμός τους κλειδώνουν."
    )
    ended = "Nobody beat the last show, so the round ended."
    assert i18n.gettext_for("ar")(ended) == "لم يتغلب أحد على آخر عرض، لذا انتهت الجولة."


def test_every_string_the_table_script_uses_is_handed_to_it():
    from scoutlab.web.strings import page_strings

    script = (Path(i18n.__file__).parent.parent / "web" / "static" / "table.js").read_text()
    used = set(re.findall(r"\bS\.(\w+)", script))
    given = set(page_strings(i18n.gettext_for("en")))
    assert used <= given, f"table.js uses strings the page does not give it: {sorted(used - given)}"
    assert given <= used, f"strings given to table.js that it never uses: {sorted(given - used)}"


# -- Persian: the zero-width non-joiner (U+200C) ---------------------------------------------------

def test_the_spacing_check_catches_the_common_patterns_and_accepts_their_fixes():
    from scoutlab.text.persian_spacing import problems

    wrong = ["کارتهای", "میدهد", "نمیتواند", "شکستخورده", "گونهای", "بازیای", "قویتر", "وارونهاش", "ژتونها",
             "برمیدارد", "انتخابشده", "کردهاید", "هیچکس", "باقیماندهٔ"]
    right = ["کارت‌های", "می‌دهد", "نمی‌تواند", "شکست‌خورده", "گونه‌ای", "بازی‌ای", "قوی‌تر", "وارونه‌اش", "ژتون‌ها",
             "برمی‌دارد", "انتخاب‌شده", "کرده‌اید", "هیچ‌کس", "باقی‌ماندهٔ"]
    assert [problems(word) != [] for word in wrong] == [True] * len(wrong)
    assert [problems(word) for word in right] == [[]] * len(right)
    # Words that only look like a pattern, and suffixes after letters that never join.
    assert problems("میز میان تنها بیشتر دورها کارها عددها کلیدهای نشده شده نهایی") == []


def test_the_persian_catalog_has_its_zero_width_non_joiners():
    from scoutlab.text.persian_spacing import problems

    found = {msgid: problems(text) for msgid, text in i18n.catalog("fa").items() if problems(text)}
    assert found == {}


def test_the_shipped_variants_persian_words_have_their_zero_width_non_joiners():
    from scoutlab.text.persian_spacing import problems
    from scoutlab.text.variant_text import shipped_listing

    for entry in shipped_listing("fa"):
        assert problems(entry.title) + problems(entry.description) == [], entry.name


def test_the_catalog_check_reports_a_missing_non_joiner(tmp_path, monkeypatch):
    from babel.messages.catalog import Catalog

    template = Catalog()
    template.add("Your turn.")
    monkeypatch.setattr(i18n_tools, "LOCALE", tmp_path)
    for lang in OTHERS:
        catalog = Catalog(locale=lang)
        catalog.add("Your turn.", "نوبت شما است، کارتهای خود را ببینید." if lang == "fa" else "x")
        i18n_tools.write(catalog, i18n_tools.po_path(lang))
    assert i18n_tools.problems(template) == ["fa: کارتهای (plural ها/های) lacks a zero-width non-joiner, in 'Your turn.'"]


# -- Plural forms ---------------------------------------------------------------------------------

CAPTURES = ("{player} shows {cards} and captures {count} card.", "{player} shows {cards} and captures {count} cards.")


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", {1: "1 card.", 2: "2 cards.", 5: "5 cards.", 11: "11 cards.", 100: "100 cards."}),
    # Arabic: one, two (dual), 3-10 (plural), 11-99 (singular accusative), 100 (singular)
    ("ar", {1: "بطاقة واحدة.", 2: "بطاقتين.", 5: "5 بطاقات.", 11: "11 بطاقة.", 100: "100 بطاقة.", 103: "103 بطاقات."}),
    ("fa", {1: "1 کارت می‌برد.", 2: "2 کارت می‌برد.", 5: "5 کارت می‌برد.", 11: "11 کارت می‌برد.", 100: "100 کارت می‌برد."}),
    ("el", {1: "1 φύλλο.", 2: "2 φύλλα.", 5: "5 φύλλα.", 11: "11 φύλλα.", 100: "100 φύλλα."}),
    ("bg", {1: "1 карта.", 2: "2 карти.", 5: "5 карти.", 11: "11 карти.", 100: "100 карти."}),
])
def test_a_count_takes_its_languages_plural_form(lang, expected):
    _ = i18n.gettext_for(lang)
    for n, ending in expected.items():
        text = i18n.ngettext(*CAPTURES, n, _, player="P1", cards="3/7", count=n)
        assert text.endswith(ending), (lang, n, text)


def test_the_plural_rules_match_the_catalog_headers_and_cldr():
    from babel import Locale

    for lang in OTHERS:
        header = " ".join(i18n_tools.read(i18n_tools.po_path(lang), lang).plural_forms.split())
        assert header == i18n.PLURAL_FORMS[lang][0]
    categories = {"ar": ["zero", "one", "two", "few", "many", "other"], "fa": ["one", "other"], "el": ["one", "other"],
                  "bg": ["one", "other"]}
    for lang, names in categories.items():
        plural = Locale(lang).plural_form
        for n in [*range(230), 1000, 1001, 1002, 1011]:
            assert names[i18n.plural_index(lang, n)] == plural(n), (lang, n)


@pytest.mark.parametrize("lang", OTHERS)
def test_every_plural_entry_has_every_form_of_its_language(lang):
    catalog = i18n_tools.read(i18n_tools.po_path(lang), lang)
    plurals = [m for m in catalog if m.pluralizable]
    assert len(plurals) >= 20
    for message in plurals:
        assert len(message.string) == catalog.num_plurals and all(message.string), message.id


def test_counted_messages_are_extracted_as_plural_entries():
    extracted = {m.id for m in i18n_tools.extract() if m.id}
    assert CAPTURES in extracted
    assert ("must list at least {count} item", "must list at least {count} items") in extracted  # N_plural
    assert ("A game has {count} round.", "A game has {count} rounds.") in extracted  # the summary's PLURALS
    assert not any(isinstance(i, str) and re.search(r"\{count\} (cards|chips|rounds)\b", i) for i in extracted)


def test_the_check_catches_a_missing_plural_form(tmp_path, monkeypatch):
    from babel.messages.catalog import Catalog

    template = Catalog()
    template.add(CAPTURES)
    monkeypatch.setattr(i18n_tools, "LOCALE", tmp_path)
    for lang in OTHERS:
        catalog = Catalog(locale=lang)
        catalog.add(CAPTURES, tuple(["{player} {cards} {count}"] * (catalog.num_plurals - 1)) + ("",))
        i18n_tools.write(catalog, i18n_tools.po_path(lang))
    assert "ar: untranslated " + repr(CAPTURES) in i18n_tools.problems(template)


def test_english_without_a_catalog_still_says_one_card():
    from scoutlab.engine.explain import english

    assert i18n.ngettext(*CAPTURES, 1, english, player="P1", cards="3/7", count=1) == "P1 shows 3/7 and captures 1 card."
    assert i18n.ngettext(*CAPTURES, 1, None, player="P1", cards="3/7", count=1) == "P1 shows 3/7 and captures 1 card."
