"""A variant's words in each language, and the order players meet the variants in."""

from __future__ import annotations

import pytest

from scoutlab.cli import main
from scoutlab.spec import SpecError, load_spec, load_spec_text, shipped_variants
from scoutlab.text.i18n import LANGUAGES
from scoutlab.text.variant_text import description, localized, shipped_listing, title


def test_text_is_a_string_or_one_per_language_with_english_as_the_fallback():
    assert localized("Same for all", "fa") == "Same for all"
    assert localized({"en": "Hello", "fa": "سلام"}, "fa") == "سلام"
    assert localized({"en": "Hello", "fa": "سلام"}, "el") == "Hello"
    assert localized({"en": "Hello"}, "fa-IR") == "Hello"
    assert localized(None, "en") == ""


def test_a_spec_may_give_its_title_and_description_per_language_or_as_one_string():
    spec = load_spec_text("extends: official\nname: mine\ntitle: {en: Mine, fa: مال من}\ndescription: One for all.\n")
    assert title(spec.doc, "fa") == "مال من" and title(spec.doc, "bg") == "Mine"
    assert description(spec.doc, "ar") == "One for all."
    named = load_spec_text("extends: official\nname: {en: My rule, fa: قانون من}\n")
    assert named.name == "My rule" and title(named.doc, "fa") == "قانون من" and title(named.doc, "el") == "My rule"
    with pytest.raises(SpecError, match=r"\$\.name: missing required key 'en'"):
        load_spec_text("extends: official\nname: {fa: فقط}\n")
    plain = load_spec_text("extends: official\nname: plain\n")
    assert title(plain.doc, "el") == "plain" and plain.doc["kind"] == "house"  # never inherited from official
    with pytest.raises(SpecError, match=r"\$\.description: missing required key 'en'"):
        load_spec_text("extends: official\nname: x\ndescription: {fa: فقط فارسی}\n")
    with pytest.raises(SpecError, match=r"\$\.title: expected a string, or a mapping of language code to text"):
        load_spec_text("extends: official\nname: x\ntitle: 7\n")


@pytest.mark.parametrize("name", [name for name, _ in shipped_variants()])
def test_every_shipped_variant_speaks_all_five_languages(name):
    doc = load_spec(name).doc
    for key in ("title", "description"):
        assert set(doc[key]) == set(LANGUAGES), (name, key)
        english = doc[key]["en"]
        assert all(doc[key][lang] and doc[key][lang] != english for lang in LANGUAGES if lang != "en"), (name, key)


def test_lists_put_the_official_rules_first_and_house_rules_last():
    listed = shipped_listing("en")
    kinds = [entry.kind for entry in listed]
    assert kinds == sorted(kinds, key=["official", "informal", "house"].index)
    assert [entry.name for entry in listed][:2] == ["official", "two-player"]
    assert {entry.name for entry in listed if entry.kind == "house"} == {n for n, _ in shipped_variants() if n.startswith("house-")}
    assert next(e for e in listed if e.name == "two-player-28").description.startswith("An informal two-player game from a Persian product page")


def test_scoutlab_variants_groups_them_in_that_order(capsys):
    assert main(["variants"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "The publisher's rules" and lines[1].split()[0] == "official"
    assert lines.index("House rules") > lines.index("Informal variants") > 0
    assert main(["variants", "--lang", "fa"]) == 0
    assert "قوانین رسمی برای 3 تا 5 بازیکن" in capsys.readouterr().out
