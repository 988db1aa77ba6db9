"""The two-player How-to-play page, as a person reads it: both cases of round end (ii) (docs/rules.md §7),
in every language, at desktop and phone width."""

from __future__ import annotations

import pytest
from driver import screenshot

from scoutlab.host.builtin import scoutlab_end_conditions
from scoutlab.text.i18n import LANGUAGES, gettext_for

STUCK = scoutlab_end_conditions()["opponent_stuck"].description


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize("width,height", [(1366, 768), (390, 844)])
def test_the_two_player_rules_say_stuck_after_a_show_and_on_the_extra_turn(server, page_at, lang, width, height):
    page = page_at(width, height)
    page.goto(f"{server}/rules/two-player?lang={lang}")
    said = gettext_for(lang)(STUCK)
    assert lang == "en" or said != STUCK, f"no {lang} translation of {STUCK!r}"
    text = page.inner_text("main")
    # Among the ways a round ends and the ends that spare the last show's owner: in the full
    # rules, and again in how this variant differs from the official rules, which comes first.
    assert text.count(said) == 4, text
    assert page.locator("main").get_by_text(said, exact=False).first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"rules-two-player-{lang}-{width}")
