"""The brief caption a phone shows when the whole sentence would take two lines (events.brief): it names the same
player, the scouted card and the ends of the show and the count captured, says "You" for your own seat, and is
translated in every language."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoutlab.engine.cards import card, format_card
from scoutlab.spec.variant import load_spec
from scoutlab.text.i18n import LANGUAGES, gettext_for
from scoutlab.web.events import brief, caption
from scoutlab.web.matches import LogEntry, Matches
from scoutlab.web.store import MatchStore

RUN = tuple(card(n, 10 if n < 10 else 9) for n in range(4, 9))
TAKEN = card(10, 9)
KINDS = [LogEntry(0, 0, "keep"), LogEntry(0, 0, "flip"), LogEntry(0, 0, "show", RUN, captured=3, start=0),
         LogEntry(0, 0, "show", RUN[:2], start=0), LogEntry(0, 0, "scout", taken=TAKEN, end=1, gap=6),
         LogEntry(0, 0, "scout", taken=TAKEN, end=0, gap=6), LogEntry(0, 0, "scout_and_show", RUN, TAKEN, 1, captured=1, gap=6, start=0)]


@pytest.fixture(scope="module")
def match(tmp_path_factory):
    return Matches(MatchStore(str(tmp_path_factory.mktemp("c") / "m.sqlite3"))).new(load_spec("official").doc, 4, ["random"] * 3)


@pytest.mark.parametrize("seat", [0, 2])
def test_the_brief_caption_keeps_who_what_and_how_many(match, seat):
    english = gettext_for("en")
    for entry in KINDS:
        entry = replace(entry, seat=seat)
        said = brief(match, entry, english)
        assert len(said) <= len(caption(match, entry, english)), said
        assert said.startswith("You " if seat == 0 else "Player 3 "), said
        if entry.cards:
            assert format_card(entry.cards[0]) in said and format_card(entry.cards[-1]) in said, said
            assert (" … " in said) == (len(entry.cards) > 2), said
        if entry.taken is not None:
            assert format_card(entry.taken) in said, said
        if entry.kind == "scout":
            assert ("right" if entry.end else "left") in said and "position 7" in said, said
        if entry.captured and entry.kind == "show":
            assert f"captures {entry.captured}." in said or f"capture {entry.captured}." in said, said


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_brief_caption_is_translated(match, lang):
    _, english = gettext_for(lang), gettext_for("en")
    for seat in (0, 2):
        for entry in KINDS:
            entry = replace(entry, seat=seat)
            said = brief(match, entry, _)
            assert said != brief(match, entry, english), (lang, said)
            assert not any(word in said for word in ("You ", "scout", "show", "captures", "position")), (lang, said)
