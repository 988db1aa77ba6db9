"""The opponents' level on the start page, in Chromium at a phone's size in all five languages: each level
offered by its translated word alone (its bot spec folded in the details line), expert chosen, the form fitting
the width and Start in view; a match started with it names each opponent's bot in the player's language."""

from __future__ import annotations

import pytest
from driver import screenshot
from seen import measure

from scoutlab.bots.levels import LEVELS, level_bot
from scoutlab.text.bot_names import bot_label
from scoutlab.text.i18n import gettext_for

LANGUAGES = ["en", "ar", "fa", "el", "bg"]
ISOLATES = dict.fromkeys(map(ord, "\u2066\u2069"))
# The options of the form's visible selects that would be cut when chosen: a copy of the select holding only
# that option, free to take its natural width, is wider than the select itself.
CLIPPED_SELECTS = """() => [...document.querySelectorAll('form.new-match select')].filter((s) => s.offsetParent).flatMap((s) => {
  const has = s.getBoundingClientRect().width;
  return [...s.options].filter((o) => !o.hidden).flatMap((option) => {
    const copy = s.cloneNode(false);
    copy.removeAttribute('id');
    copy.append(new Option(option.textContent));
    Object.assign(copy.style, {position: 'absolute', visibility: 'hidden', width: 'auto', maxWidth: 'none', minWidth: '0'});
    s.after(copy);
    const need = copy.getBoundingClientRect().width;
    copy.remove();
    return need > has + 1 ? [`#${s.id}: "${option.textContent}" needs ${Math.round(need)} px, has ${Math.round(has)}`] : [];
  });
})"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_level_is_chosen_by_name_and_the_table_names_each_bot(server, browser, lang):
    _ = gettext_for(lang)
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(f"{server}/?lang={lang}")
    offered = page.locator("#level option").evaluate_all("os => os.map(o => [o.value, o.textContent, o.selected])")
    assert [value for value, _text, _chosen in offered] == [level.name for level in LEVELS]
    assert [text.translate(ISOLATES) for _value, text, _chosen in offered] == [_(level.word) for level in LEVELS]
    assert [value for value, _text, chosen in offered if chosen] == ["expert"]
    page.locator("#level").scroll_into_view_if_needed()
    box = page.locator("#level").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, "the level's select sticks out"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(CLIPPED_SELECTS) == []
    screenshot(page, f"start-level-{lang}-390")

    # Five players at the default level, the last opponent chosen by hand: it wins over the level.
    page.check("input[name=variant][value=official]")
    page.select_option("#players", "5")
    page.select_option("#bot4", "random")
    page.evaluate("localStorage.setItem('scoutlab-pace', 'slow')")  # the flip choice stays on screen
    page.click("form.new-match button[type=submit]")
    page.wait_for_url("**/m/*")
    page.wait_for_selector("#keep:not([hidden])")
    shown = page.locator("#opponents .opponent .who small").all_inner_texts()
    assert [text.replace("\u200b", "").strip(" ·") for text in shown] == [bot_label(level_bot("expert"), _)] * 3 + [_("Random bot")]
    screenshot(page, f"level-table-{lang}-390")
    assert measure(page) == []
    context.close()


def test_a_chosen_level_plays_its_bot(server, page_at):
    page = page_at(1366, 768)
    page.goto(f"{server}/?lang=en")
    page.check("input[name=variant][value=official]")
    page.select_option("#players", "3")
    page.select_option("#level", "hard")
    page.click("form.new-match button[type=submit]")
    page.wait_for_url("**/m/*")
    page.wait_for_selector("#hand .card")
    shown = page.locator("#opponents .opponent .who small").all_inner_texts()
    assert [text.replace("\u200b", "").strip(" ·") for text in shown] == [bot_label(level_bot("hard"), gettext_for("en"))] * 2


SPEC = r"\b(mcts|skilled|heuristic|greedy|random)(:|\b)"


@pytest.mark.parametrize("width, height", [(1366, 768), (390, 844)])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_start_is_in_view_without_scrolling_and_no_bot_spec_is_read(server, browser, lang, width, height):
    import re

    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{server}/?lang={lang}")
    start = page.locator("form.new-match button[type=submit]")
    box = start.bounding_box()
    assert page.evaluate("window.scrollY") == 0
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, f"Start at {box}, below the first screen"
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    hit = start.evaluate("(b) => { const r = b.getBoundingClientRect(); return b.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }")
    assert hit, "Start is covered by something"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert not re.search(SPEC, page.inner_text("main")), "a bot spec is read outside the folded details line"
    screenshot(page, f"start-{lang}-{width}")
    page.click(".level-details summary")  # the curious open the details: each level's bot is there
    assert all(level.bot in page.inner_text(".level-details") for level in LEVELS)
    page.close()
