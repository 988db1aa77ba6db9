"""The start page and How to play, in Chromium at a laptop's and a phone's size, in all five languages.

What a player sees: the variants listed official first, How to play with its example
cards drawn (each row of cards on one line), no sideways scrolling, and screenshots
kept in artifacts/screenshots/ for a person to look at.
"""

from __future__ import annotations

import pytest
from driver import screenshot

LANGUAGES = ["en", "ar", "fa", "el", "bg"]
SIZES = {"desktop": (1366, 768), "phone": (390, 844)}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_how_to_play_draws_its_example_cards(server, browser, lang, size):
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{server}/rules/two-player?lang={lang}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"
    rows = page.locator(".example .cards")
    assert rows.count() >= 5
    for i in range(rows.count()):
        box = rows.nth(i).bounding_box()
        card = rows.nth(i).locator(".card").first.bounding_box()
        assert box["height"] < card["height"] * 1.5, "a row of example cards wraps"
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
    first = page.locator("section.rules-section h2").first.inner_text()
    assert page.locator("section.rules-differences").count() == 1 and first  # the differences come first
    screenshot(page, f"rules-two-player-{lang}-{size}")
    page.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_start_page_lists_the_official_rules_first(server, browser, lang):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{server}/?lang={lang}")
    values = page.locator("input[name=variant]").evaluate_all("inputs => inputs.map(i => i.value)")
    assert values[:2] == ["official", "two-player"] and values[-3:] == ["house-no-exemption", "house-runs-first", "house-wrap"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, f"start-{lang}-phone")
    page.close()
