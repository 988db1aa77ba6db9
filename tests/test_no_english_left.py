"""Every page a player reads, in Arabic, Persian, Greek and Bulgarian, carries no English sentence.

Each page is rendered through the app (the start page, How to play for every variant,
the table page and its rules, a refused spec) and each match state the table's script
receives, from the first move to the final standings. Any English message of the
catalogs of four words or more (or a stretch of four words between its fields) found
in what a player reads fails the test, as does a shipped variant's English title or
description. So a string added without `_()`, a catalog entry left empty, or a
variant without its translations shows up here, by language and page.
"""

from __future__ import annotations

import re

import pytest
from web_helpers import client_for, readable, state_strings, step

from scoutlab.text import i18n
from scoutlab.text.variant_text import shipped_listing

babel = pytest.importorskip("babel", reason="Babel reads the message template")

from scoutlab.text import i18n_tools  # noqa: E402

OTHERS = [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT]
WORDS = 4  # a stretch of English this long is a sentence, not a name or notation
_FIELD = re.compile(r"\{\w+(?::[^{}]*)?\}")


def english_stretches() -> set[str]:
    """Each catalog message's literal stretches of WORDS words or more (fields cut them apart)."""
    stretches = set()
    for message in i18n_tools.read(i18n_tools.TEMPLATE):
        if not message.id:
            continue
        for part in (_FIELD.split(message.id) if isinstance(message.id, str) else
                     [part for form in message.id for part in _FIELD.split(form)]):  # a plural entry: both forms
            part = " ".join(part.split()).strip(" .,:;")
            if len(part.split()) >= WORDS:
                stretches.add(part)
    for entry in shipped_listing("en"):
        stretches.update(text for text in (entry.title, entry.description) if len(text.split()) >= WORDS)
    return stretches


STRETCHES = sorted(english_stretches())


def state_text(state: dict) -> str:
    """Every string of a match state the table's script may show ("reason" is notation, not words)."""
    return state_strings(state, ("variant", "bot_id", "legal", "reason"))


def english_in(text: str, lang: str) -> list[str]:
    translated = i18n.catalog(lang)
    # A stretch the translator kept as it is (notation such as 'scout left|right') is not English left over.
    kept = {part for msgid, text_ in translated.items() for part in _FIELD.split(msgid) if part.strip() and part.strip() in text_}
    return [stretch for stretch in STRETCHES if stretch in text and stretch not in kept]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return client_for(tmp_path_factory.mktemp("web") / "matches.db")


def test_the_check_finds_a_sentence_left_in_english(client, monkeypatch):
    intro = "Choose your opponents and play a whole match, with no sign-up, no download and no waiting for other players."
    assert english_in(readable(client.get("/?lang=fa").text), "fa") == []
    monkeypatch.delitem(i18n.catalog("fa"), intro)  # as if the translator had left it empty
    assert english_in(readable(client.get("/?lang=fa").text), "fa") == [intro.rstrip(".")]


@pytest.mark.parametrize("lang", OTHERS)
def test_pages_show_no_english(client, lang):
    pages = {"/": client.get(f"/?lang={lang}").text}
    for entry in shipped_listing(lang):
        pages[f"/rules/{entry.name}"] = client.get(f"/rules/{entry.name}?lang={lang}").text
    bad_spec = "extends: official\nname: x\nscout: {payment: nope}\ndeal: {hand_size: {\"3\": 40}}\nfoo: 1\n"
    answer = client.post(f"/new?lang={lang}", data={"variant": "official", "spec_text": bad_spec})
    assert answer.status_code == 422
    pages["/new (a bad spec)"] = answer.text
    token = client.post(f"/api/new?lang={lang}", json={"variant": "two-player", "players": 2, "seed": 4, "practice": True}).json()["token"]
    pages["/m/<token>"] = client.get(f"/m/{token}?lang={lang}").text
    pages["/m/<token>/rules"] = client.get(f"/m/{token}/rules?lang={lang}").text
    found = {path: english_in(readable(page), lang) for path, page in pages.items()}
    assert {path: words for path, words in found.items() if words} == {}


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("variant, players", [("two-player", 2), ("official", 3)])
def test_match_states_show_no_english_from_the_first_move_to_the_standings(client, lang, variant, players):
    answer = client.post(f"/api/new?lang={lang}", json={"variant": variant, "players": players, "seed": 7, "practice": True})
    token = answer.json()["token"]
    import random

    rng = random.Random(3)
    seen = [answer.json()["state"]]
    while not seen[-1]["over"]:
        seen.append(step(client, token, rng, lang))
    found = sorted({stretch for state in seen for stretch in english_in(state_text(state), lang)})
    assert found == []
    assert seen[-1]["round_ends"], "the match ended with its rounds' summaries"
