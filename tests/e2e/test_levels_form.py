"""The opponents' level on the start page, in Chromium at a phone's size in all five languages: each level
offered by its translated word alone (its bot spec folded in the details line), expert chosen, the form fitting
the width and Start in view; a match started with it names each opponent's bot in the player's language."""

from __future__ import annotations

import pytest
from driver import SCREENSHOTS, screenshot, state
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


# Runs in the page: the practice box's summary, label and seed field each on one line, the label and the field
# side by side, all inside the window (the page no wider than it), the field not under the sticky Start bar.
PRACTICE_FITS = """() => {
  const problems = [], vw = innerWidth;
  const lines = (e) => { const range = document.createRange(); range.selectNodeContents(e);
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size; };
  const summary = document.querySelector('.practice-deal > summary'), label = document.querySelector('label[for=seed]');
  const seed = document.querySelector('#seed');
  for (const [name, e] of [['the summary', summary], ['the label', label]])
    if (lines(e) !== 1) problems.push(`${name} "${e.textContent.trim()}" is on ${lines(e)} lines`);
  const l = label.getBoundingClientRect(), s = seed.getBoundingClientRect();
  if (Math.abs((l.top + l.bottom) / 2 - (s.top + s.bottom) / 2) > 4) problems.push('the seed field wrapped below its label');
  if (s.width < 96) problems.push(`the seed field is ${Math.round(s.width)}px wide`);
  const hit = document.elementFromPoint((s.left + s.right) / 2, (s.top + s.bottom) / 2);
  if (hit !== seed) problems.push(`the seed field is covered by ${hit && (hit.className || hit.tagName)}`);
  for (const [name, r] of [['the summary', summary.getBoundingClientRect()], ['the label', l], ['the seed field', s]])
    if (r.left < -1 || r.right > vw + 1) problems.push(`${name} reaches out of the window: ${Math.round(r.left)} to ${Math.round(r.right)}`);
  if (document.documentElement.scrollWidth > vw) problems.push(`page is ${document.documentElement.scrollWidth}px wide`);
  return problems;
}"""


@pytest.mark.parametrize("width, height", [(390, 844), (360, 640), (1280, 800)])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_practice_deal_is_folded_translated_and_fits_on_one_line(server, browser, lang, width, height):
    _ = gettext_for(lang)
    phone = width < 700
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone)
    page = context.new_page()
    page.goto(f"{server}/?lang={lang}")
    assert not page.locator("#seed").is_visible()  # folded: most matches are dealt in secret
    page.click(".practice-deal > summary")
    assert page.inner_text(".practice-deal > summary").strip() == _("Practice deal")
    assert page.inner_text("label[for=seed]").strip() == _("Seed")
    assert page.get_attribute("#seed", "dir") == "ltr"
    page.locator("#seed").scroll_into_view_if_needed()
    screenshot(page, f"start-practice-{lang}-{width}")
    page.screenshot(path=str(SCREENSHOTS / f"start-practice-{lang}-{width}-window.png"))  # as the window shows it
    assert page.evaluate(PRACTICE_FITS) == []
    context.close()


def test_a_practice_match_started_from_the_page_deals_the_same_cards_again(server, browser):
    context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(30_000)

    def start(seed: str) -> dict:
        page.goto(f"{server}/?lang=fa")
        page.check("input[name=variant][value=official]")
        page.select_option("#players", "3")
        if seed:
            page.click(".practice-deal > summary")
            page.fill("#seed", seed)
        page.click("form.new-match button[type=submit]")
        page.wait_for_url("**/m/*")
        page.wait_for_selector("#hand .card")
        return state(page, page.url.rsplit("/", 1)[1])

    first, again, other, secret = start("4242"), start("4242"), start("4243"), start("")
    assert first["practice"] and again["practice"] and other["practice"]
    assert first["hand"] == again["hand"] and first["hand"] != other["hand"]
    assert not secret["practice"] and page.locator("#practice").count() == 0  # an empty seed: a secret deal
    context.close()
