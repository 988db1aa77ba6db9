"""A table that looks like a game (issue 29), measured in Chromium at 1366x768 and 390x844:

- a hand of 15 cards (16 while a scouted card is placed) is one row that never scrolls, in every
  language, each card's top number at least 14 px and its corner never under the next card;
- the opponents sit around the felt, each with card backs, chips and captured pile;
- the last move's caption is never covered by a card flying to the table;
- your turn shows in the tab's title, and an optional beep (off by default) says it too;
- the keyboard plays: arrows, Space, Enter, S, F and Escape; the hand is one Tab stop;
- every control of the table is at least 44 px each way on a phone;
- what is read is whole: the hints in whole lines, the practice badge, the caption with no ellipsis, and on a
  phone with room the active set as cards with their large numbers;
- the last round's end and the final standings whole on one screen at 1280x800, 390x844 and 360x640.

The 15-card hands come from a pasted spec (official rules, the whole deck of 45 cards, 15 each
to 3 players, the seat after yours starting), so your first turn finds an active set to scout from.
Screenshots: artifacts/screenshots/layout-*.png.
"""

from __future__ import annotations

import pytest
from driver import keep_hand, screenshot, select_by_keys, state
from seen import AXE, axe_violations, measure

LANGUAGES = ["en", "ar", "fa", "el", "bg"]
SIZES = [(1366, 768), (390, 844)]
TOUCH = 44

BIG_HANDS = """schema_version: 1
extends: official
name: big-hands
title: {en: "Big hands"}
description: {en: "Fifteen cards each: the layout tests' hands."}
kind: house
players: [3]
deck:
  remove: {"3": {containing: []}}
deal:
  hand_size: {"3": 15}
rounds:
  first_starting_seat: 1
"""

# Runs in the page: the hand is one row that does not scroll, and every card shows its top number whole,
# at least 14 px, in a corner no other card (nor anything but the scout's transparent gaps) lies over;
# no button of the table on two lines.
HAND = """() => {
  const problems = [];
  const wrap = document.querySelector('.hand-wrap');
  if (wrap.scrollWidth > wrap.clientWidth + 1) problems.push(`the hand is ${wrap.scrollWidth}px wide in ${wrap.clientWidth}px`);
  if (getComputedStyle(wrap).overflowX !== 'visible') problems.push('the hand scrolls sideways');
  const cards = [...document.querySelectorAll('#hand .card')];
  const under = (x, y) => document.elementsFromPoint(x, y).find((e) => !e.closest('#gaps'));
  cards.forEach((card, i) => {
    const top = card.querySelector('.top');
    const size = parseFloat(getComputedStyle(top).fontSize);
    if (size < 14) problems.push(`card ${i + 1}: its top number is ${size}px`);
    const r = top.getBoundingClientRect();
    const points = [[r.left + 1, r.top + 1], [r.right - 1, r.top + 1], [r.left + 1, r.bottom - 1], [r.right - 1, r.bottom - 1],
                    [(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
    for (const [x, y] of points) {
      const at = under(x, y);
      if (!at || !card.contains(at)) { problems.push(`card ${i + 1}: its top number is covered at ${Math.round(x)},${Math.round(y)} by ${at ? at.className : 'nothing'}`); break; }
    }
    const next = cards[i + 1];
    if (next && r.right > next.getBoundingClientRect().left + 0.5) problems.push(`card ${i + 1}: its top number reaches under card ${i + 2}`);
  });
  // No button's words wrap: each is one line (a tab that wrapped in Bulgarian was two).
  for (const b of document.querySelectorAll('#game button:not(.card):not(.gap), #game select')) {
    const box = b.getBoundingClientRect();
    if (!box.width || getComputedStyle(b).visibility === 'hidden') continue;
    const range = document.createRange();
    range.selectNodeContents(b);
    const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    if (lines.size > 1) problems.push(`the button "${b.textContent.trim()}" is on ${lines.size} lines`);
  }
  return {problems, count: cards.length};
}"""


# Runs in the page: what a player reads on the table is whole. The hints show whole lines only (none half in their
# box); the practice badge is one line inside its frame; the caption is not cut short with an ellipsis; and on a
# phone with room (not a short one) the active set is drawn as cards, the large numbers in the middle, wherever
# its cards fit the row at 50 px (table.js's size for them).
READ = """() => {
  const problems = [];
  const lines = (e) => { const range = document.createRange(); range.selectNodeContents(e); return [...range.getClientRects()].filter((r) => r.width > 0); };
  const hints = document.querySelector('#hints');
  if (hints && getComputedStyle(hints).visibility !== 'hidden') {
    const box = hints.getBoundingClientRect();
    const beside = (r) => r.right > box.left + 1 && r.left < box.right - 1;
    for (const r of lines(hints).filter(beside))
      if ((r.top < box.bottom - 1 && r.bottom > box.bottom + 1) || (r.top < box.top - 1 && r.bottom > box.top + 1))
        problems.push(`a line of the hints is cut by their box: ${Math.round(r.top)}-${Math.round(r.bottom)} in ${Math.round(box.top)}-${Math.round(box.bottom)}`);
  }
  for (const badge of document.querySelectorAll('#practice, .practice-short summary')) {
    const frame = badge.closest('.practice').getBoundingClientRect();
    if (!frame.width) continue;
    const text = lines(badge);
    const rows = new Set(text.map((r) => Math.round(r.top))).size;
    if (badge.tagName === 'SUMMARY' && rows > 1) problems.push(`the practice badge is on ${rows} lines`);
    if (text.some((r) => r.left < frame.left + 2 || r.right > frame.right - 2)) problems.push(`the practice badge "${badge.textContent}" is cut`);
    if (frame.left < 0 || frame.right > innerWidth) problems.push('the practice badge is out of view');
  }
  const caption = document.querySelector('#caption');
  if (caption.textContent) {
    const style = getComputedStyle(caption);
    const room = caption.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const width = lines(caption).reduce((sum, r) => sum + r.width, 0);
    if (width > room + 0.05) problems.push(`the caption is cut short: ${width.toFixed(2)}px of text in ${room.toFixed(2)}px`);
  }
  const active = document.querySelector('#active');
  const n = active.querySelectorAll('.card').length;
  const phone = innerWidth < 700, roomy = innerHeight > 720;
  if (phone && roomy && n && n * 50 + (n - 1) * 4 <= active.clientWidth) {
    const last = active.querySelector('.card:last-child');
    if (last.getBoundingClientRect().width < 50 || getComputedStyle(last, '::before').content === 'none')
      problems.push(`the active set's ${n} cards are drawn ${Math.round(last.getBoundingClientRect().width)}px wide, without their large numbers`);
  }
  return problems;
}"""


def big_match(page, server: str, seed: int = 3) -> str:
    answer = page.request.post(f"{server}/api/new", data={"spec": BIG_HANDS, "players": 3, "bots": ["greedy", "greedy"], "seed": seed, "practice": True})
    assert answer.ok, answer.text()
    return answer.json()["token"]


def phone_context(browser, width: int, height: int):
    phone = width < 700
    return browser.new_context(viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone)


def open_big_match(server: str, browser, lang: str, width: int, height: int):
    """A 15-card match at the instant pace in a fresh page of this size and language, at its flip choice:
    (context, page, token, the page's script errors)."""
    context = phone_context(browser, width, height)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/?lang={lang}")
    token = big_match(page, server)
    page.evaluate("localStorage.setItem('scoutlab-pace', 'instant')")
    page.goto(f"{server}/m/{token}")
    page.wait_for_selector("#keep:not([hidden])")
    return context, page, token, errors


def look(page, name: str, cards: int) -> None:
    """Screenshot, then fail on anything clipped or out of view, on a hand that is not one whole row, on words cut
    (READ), and on axe-core."""
    screenshot(page, name)
    problems = measure(page)
    hand = page.evaluate(HAND)
    problems += page.evaluate(READ)
    if problems or hand["problems"]:  # measured again once the page has settled
        page.wait_for_timeout(500)
        problems, hand = measure(page) + page.evaluate(READ), page.evaluate(HAND)
    assert hand["count"] == cards, f"{name}: {hand['count']} cards in the hand"
    assert problems + hand["problems"] == [], name
    if AXE.exists():
        assert axe_violations(page) == [], name


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_hand_of_15_cards_is_one_row_around_a_table(server, browser, lang, size):
    width, height = size
    context, page, token, errors = open_big_match(server, browser, lang, width, height)
    tag = f"layout-{lang}-{width}"
    look(page, f"{tag}-1-flip", 15)
    # The opponents are seated around the felt, each with card backs (their count), chips and a captured pile.
    seats = page.locator("#opponents .opponent")
    assert seats.count() == 2
    assert [seats.nth(i).get_attribute("data-place") for i in range(2)] == ["top-left", "top-right"]
    felt = page.locator(".felt").bounding_box()
    for i in range(2):
        box = seats.nth(i).bounding_box()
        assert felt["x"] <= box["x"] and box["x"] + box["width"] <= felt["x"] + felt["width"] and box["y"] >= felt["y"], "a seat off the felt"
        assert seats.nth(i).locator(".back").count() == 15 and seats.nth(i).locator(".fan .count").inner_text() == "15"
        assert seats.nth(i).locator(".fact.chips").count() == 1 and seats.nth(i).locator(".fact.pile .pile-icon").count() == 1
    left, right = (seats.nth(i).bounding_box() for i in range(2))
    assert left["x"] < right["x"]  # the seat after yours on your left, in every language: the turn goes round the table
    page.click("#keep")
    page.wait_for_selector("#show:not([hidden])", timeout=20_000)
    s = state(page, token)
    assert len(s["hand"]) == 15 and s["active"] and s["legal"]["scout_ends"], "the bots did not leave a set to scout"
    look(page, f"{tag}-2-turn", 15)
    # A scouted card placed: 16 in the row.
    page.click("#active button[data-end]")
    page.click("#gaps button[data-gap='7']")
    look(page, f"{tag}-3-scouting", 16)
    page.click("#cancel")
    assert not errors, errors
    context.close()


def test_the_caption_is_never_under_a_flying_card(server, browser):
    # Two players: the opponent sits across the table, so the cards of its shows fly straight down over the caption.
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    answer = page.request.post(f"{server}/api/new", data={"variant": "two-player", "players": 2, "bots": ["greedy"], "seed": 5, "practice": True})
    token = answer.json()["token"]
    page.goto(f"{server}/m/{token}")
    page.wait_for_selector("#keep:not([hidden])")
    page.select_option("#pace", "slow")
    # Every frame: if a card in flight lies over the caption's centre, what is at that point must be the caption.
    page.evaluate("""() => {
      window.samples = [];
      const look = () => {
        const caption = document.querySelector('#caption');
        const r = caption.getBoundingClientRect();
        if (caption.textContent && r.width) {
          const x = r.left + r.width / 2, y = r.top + r.height / 2;
          const flying = [...document.querySelectorAll('.card')].filter((c) => c.classList.contains('ghost') || c.getAnimations().length);
          if (flying.some((c) => { const b = c.getBoundingClientRect(); return b.left <= x && x <= b.right && b.top <= y && y <= b.bottom; })) {
            const at = document.elementFromPoint(x, y);
            window.samples.push(at && caption.contains(at) ? 'caption' : (at ? at.className : 'nothing'));
          }
        }
        requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    }""")
    page.click("#keep")
    for _ in range(60):
        page.wait_for_function("() => !document.querySelector('#show').hidden || !document.querySelector('#keep').hidden"
                               " || document.querySelector('#round-end').open || !document.querySelector('#final').hidden", timeout=30_000)
        if page.evaluate("window.samples.length") >= 5:
            break
        if page.locator("#round-end[open]").count():
            page.click("#continue")
            continue
        s = state(page, token)
        if s["over"]:
            break
        if not s["your_turn"]:
            page.wait_for_timeout(100)
            continue
        if s["phase"] == "flip":
            keep_hand(page)
        elif s["legal"]["shows"]:
            start, length = max(s["legal"]["shows"], key=lambda sl: sl[1])
            act(page, token, f"show {start + 1}-{start + length}")
        else:
            act(page, token, f"scout {'right' if s['legal']['scout_ends'][0] else 'left'} 0")
        page.wait_for_function("(n) => document.querySelectorAll('#log li').length > n", arg=s["log_size"])
        page.wait_for_timeout(900)  # the slow pace: the bot's answer and its flight
    samples = page.evaluate("window.samples")
    screenshot(page, "layout-caption-1366")
    assert samples, "no card flew over the caption's centre: the test saw nothing"
    assert set(samples) == {"caption"}, f"the caption was covered: {samples}"
    context.close()


def test_your_turn_shows_in_the_title_and_an_optional_beep(server, browser):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    # Count the beeps: each is one oscillator of the Web Audio API.
    page.add_init_script("""window.beeps = 0;
      const Real = window.AudioContext;
      window.AudioContext = class extends Real { createOscillator() { window.beeps++; return super.createOscillator(); } };""")
    token = big_match(page, server, seed=4)
    page.goto(f"{server}/m/{token}")
    page.wait_for_selector("#keep:not([hidden])")
    title = page.evaluate("document.title")
    assert title.startswith("● Your turn — ") and title.endswith("Big hands · scoutlab"), title
    assert page.get_attribute("#sound", "aria-pressed") == "false"  # off by default
    page.select_option("#pace", "slow")
    page.click("#keep")
    page.wait_for_function("() => !document.title.startsWith('\\u25CF')", timeout=10_000)  # the bots' turn: the plain title
    page.wait_for_selector("#show:not([hidden])", timeout=30_000)
    page.wait_for_function("() => document.title.startsWith('\\u25CF Your turn')")
    assert page.evaluate("window.beeps") == 0, "a beep with the sound off"
    page.click("#sound")  # on: a beep to hear what it will be
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    assert page.evaluate("window.beeps") == 1
    s = state(page, token)
    end = s["legal"]["scout_ends"][0]
    act(page, token, f"scout {'right' if end else 'left'} 0")
    page.wait_for_function("() => !document.title.startsWith('\\u25CF')", timeout=10_000)
    page.wait_for_function("() => document.title.startsWith('\\u25CF Your turn') || document.querySelector('#round-end').open", timeout=30_000)
    if not page.locator("#round-end[open]").count():
        page.wait_for_function("() => window.beeps === 2", timeout=5_000)  # your turn came back: one beep
    page.reload()
    assert page.get_attribute("#sound", "aria-pressed") == "true"  # the choice is kept in this browser
    context.close()


def act(page, token: str, action: str) -> None:
    """A move for the browser's seat through the API, from inside the page (as another tab would)."""
    page.evaluate("async ([t, a]) => fetch('/api/m/' + t + '/act', {method: 'POST', headers: {'Content-Type': 'application/json'},"
                  " body: JSON.stringify({action: a})})", [token, action])


def to_my_scout(page, token: str) -> dict:
    page.wait_for_selector("#show:not([hidden])", timeout=30_000)
    s = state(page, token)
    assert s["your_turn"] and s["legal"]["scout_ends"]
    return s


def test_a_pace_chosen_before_the_match_arrives_breaks_nothing(server, page_at):
    """On a slow line a player may choose the pace before the page has the match: the page raises nothing (page_at
    fails the test on any page error) and keeps the pace chosen once the match comes."""
    page = page_at(1366, 768)
    token = big_match(page, server)
    held, released = [], []

    def hold(route):  # the match and its live stream, held back until released
        if released:
            route.continue_()
        else:
            held.append(route)

    page.route(f"**/api/m/{token}**", hold)
    page.goto(f"{server}/m/{token}")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page asks for the match"
    page.select_option("#pace", "instant")
    page.keyboard.press("s")
    released.append(True)
    for route in held:
        route.continue_()
    page.wait_for_selector("#keep:not([hidden])")
    assert page.locator("#pace").input_value() == "instant"


def test_keyboard_shortcuts_play_a_show_and_a_scout(server, page_at):
    page = page_at(1366, 768)
    token = big_match(page, server, seed=3)
    page.goto(f"{server}/m/{token}")
    page.select_option("#pace", "instant")
    page.wait_for_selector("#keep:not([hidden])")
    page.click("#keep")
    s = to_my_scout(page, token)
    assert page.locator("#keys").is_visible()
    # One Tab stop for the whole hand: one card is in the Tab order, the arrows reach the others.
    assert page.locator("#hand button.card[tabindex='0']").count() == 1
    assert page.locator("#hand button.card[tabindex='-1']").count() == len(s["hand"]) - 1
    page.evaluate("document.activeElement.blur()")
    # Escape clears a scout begun with S.
    page.keyboard.press("s")
    assert page.locator("#hand .card.scouted").count() == 1
    page.keyboard.press("Escape")
    assert page.locator("#hand .card.scouted").count() == 0 and page.locator("#gaps button").count() == 0
    # S takes the left end card and puts it before the card in focus; the arrows move it, F turns it over, Enter confirms.
    page.evaluate("document.activeElement.blur()")
    for _ in range(16):
        page.keyboard.press("ArrowLeft")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.index") == "3"
    taken = s["active"][0]
    page.keyboard.press("s")
    assert page.locator("#hand .card").evaluate_all("cs => cs.findIndex(c => c.classList.contains('scouted'))") == 3
    page.keyboard.press("ArrowRight")
    page.keyboard.press("f")
    page.keyboard.press("Enter")
    page.wait_for_function("(n) => document.querySelectorAll('#log li').length > n", arg=s["log_size"])
    after = state(page, token)
    move = after["events"][s["log_size"]]
    assert (move["kind"], move["seat"], move["end"], move["gap"]) == ("scout", 0, 0, 4)
    assert move["taken"] == {"t": taken["b"], "b": taken["t"]}  # turned over
    # A show: arrows to its first card, Space on each card, Enter plays it.
    for _ in range(100):
        if page.locator("#round-end[open]").count():  # two scouts of a single card ended the round
            page.click("#continue")
        s = state(page, token)
        if s["your_turn"] and s["phase"] == "flip" and page.locator("#keep").is_visible():
            page.click("#keep")
        elif s["your_turn"] and s["phase"] == "play" and s["legal"]["shows"]:
            break
        elif s["your_turn"] and s["phase"] == "play":  # nothing to show: scout, and wait for the next turn
            end = s["legal"]["scout_ends"][0]
            act(page, token, f"scout {'right' if end else 'left'} 0")
            page.wait_for_function("(n) => document.querySelectorAll('#log li').length > n", arg=s["log_size"])
        page.wait_for_timeout(100)
    page.wait_for_selector("#show:not([hidden])")
    start, length = max(s["legal"]["shows"], key=lambda sl: sl[1])
    page.evaluate("document.activeElement.blur()")
    for _ in range(20):
        page.keyboard.press("ArrowLeft")
    select_by_keys(page, start, length)
    assert page.locator("#hand button.card[aria-pressed=true]").count() == length
    page.keyboard.press("Enter")
    page.wait_for_function("(n) => document.querySelectorAll('#log li').length > n", arg=s["log_size"])
    move = state(page, token)["events"][s["log_size"]]
    assert (move["kind"], move["seat"], move["start"], len(move["cards"])) == ("show", 0, start, length)


# Runs in the page: every visible control (a card and a scout's gap are targets within the hand's row, measured
# by the layout test) whose box is under 44 px either way; a checkbox is measured by its label.
SMALL_CONTROLS = """(min) => {
  const out = [];
  const controls = document.querySelectorAll('button, select, a[href], summary, input:not([type=hidden])');
  for (const c of controls) {
    if (c.closest('#hand, #gaps, #active, #flipped') || c.closest('.skip')) continue;
    const e = c.type === 'checkbox' && c.closest('label') ? c.closest('label') : c;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(e).visibility === 'hidden') continue;
    if (r.width < min - 0.5 || r.height < min - 0.5)
      out.push(`${e.id || e.tagName.toLowerCase()} "${e.textContent.trim().slice(0, 20)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_every_control_is_44px_on_a_phone(server, browser, lang):
    context = phone_context(browser, 390, 844)
    page = context.new_page()
    page.goto(f"{server}/?lang={lang}")
    token = big_match(page, server, seed=3)
    page.evaluate("localStorage.setItem('scoutlab-pace', 'instant')")
    page.goto(f"{server}/m/{token}")
    page.wait_for_selector("#keep:not([hidden])")
    assert page.evaluate(SMALL_CONTROLS, TOUCH) == [], "at the flip choice"
    page.click("#keep")
    page.wait_for_selector("#show:not([hidden])", timeout=20_000)
    assert page.evaluate(SMALL_CONTROLS, TOUCH) == [], "at a turn"
    page.click("#active button[data-end]")
    page.click("#gaps button[data-gap='3']")
    page.wait_for_selector("#sns-label:not([hidden])")
    screenshot(page, f"layout-controls-{lang}-390")
    assert page.evaluate(SMALL_CONTROLS, TOUCH) == [], "while scouting"
    page.click("#cancel")
    context.close()


# -- the caption on one line --------------------------------------------------------------------------------


def longest_events(lang: str, tmp_path) -> list[dict]:
    """The longest caption of each kind of move, as the server words it: you as seat 1 of 5, seat 5, 'position 16',
    a show of 10 cards (a run of the whole of one colour) capturing 9, and a show of 2 tens capturing 9."""
    from scoutlab.engine.cards import card
    from scoutlab.spec.variant import load_spec
    from scoutlab.text.i18n import gettext_for
    from scoutlab.web.events import event_json
    from scoutlab.web.matches import LogEntry, Matches
    from scoutlab.web.store import MatchStore

    match = Matches(MatchStore(str(tmp_path / f"captions-{lang}.sqlite3"))).new(load_spec("official").doc, 5, ["random"] * 4)
    run = tuple(card(n, 10 if n < 10 else 9) for n in range(1, 11))
    tens = (card(10, 9), card(10, 8))
    entries = [LogEntry(11, -1, "round_end")]
    for seat in (0, 4):
        entries += [LogEntry(0, seat, "keep"), LogEntry(0, seat, "flip"),
                    LogEntry(0, seat, "show", run, captured=9, start=0), LogEntry(0, seat, "show", tens, captured=9, start=0),
                    LogEntry(0, seat, "scout", taken=card(10, 9), end=1, gap=15),
                    LogEntry(0, seat, "scout", taken=card(10, 9), end=0, gap=15),
                    LogEntry(0, seat, "scout_and_show", run, card(10, 9), 1, captured=9, gap=15, start=0),
                    LogEntry(0, seat, "scout_and_show", run, card(10, 9), 0, captured=9, gap=15, start=0)]
    _ = gettext_for(lang)
    return [event_json(match, entry, _) for entry in entries]


# Runs in the page: the caption's lines, whether its text is cut, its type size, and whether it lies in view.
CAPTION = """() => {
  const c = document.querySelector('#caption');
  const range = document.createRange();
  range.selectNodeContents(c);
  const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  const box = c.getBoundingClientRect();
  return {text: c.textContent, said: document.querySelector('#caption-said').textContent, lines,
          cut: c.scrollWidth > c.clientWidth + 1, size: parseFloat(getComputedStyle(c).fontSize),
          inView: box.left >= 0 && box.right <= innerWidth && box.width > 0};
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_caption_is_one_whole_line_on_a_phone(server, browser, lang, tmp_path):
    import json

    context = phone_context(browser, 390, 844)
    page = context.new_page()
    answer = page.request.post(f"{server}/api/new", data={"variant": "official", "players": 5, "bots": ["random"] * 4,
                                                          "seed": 1, "practice": True})
    token = answer.json()["token"]
    page.route("**/events?*", lambda route: route.abort())  # no live stream: the page shows the state given below
    shown = []
    def answer_with(event):
        def fulfil(route):
            reply = route.fetch()
            data = reply.json()
            data["events"] = [event]
            route.fulfill(response=reply, body=json.dumps(data))
        return fulfil

    for event in longest_events(lang, tmp_path):
        page.route(f"**/api/m/{token}?*", answer_with(event))
        page.goto(f"{server}/m/{token}?lang={lang}")
        page.wait_for_function("(t) => document.querySelector('#caption-said').textContent === t", arg=event["caption"])
        seen = page.evaluate(CAPTION)
        screenshot(page, f"layout-caption-{lang}-390")
        page.unroute(f"**/api/m/{token}?*")
        assert seen["said"] == event["caption"], seen  # screen readers hear the whole sentence
        assert seen["text"] in (event["caption"], event["brief"]), seen
        assert seen["lines"] == 1 and not seen["cut"] and seen["inView"], f"{lang}: {seen}"
        assert seen["size"] >= 11, f"{lang}: the caption's type is {seen['size']} px: {seen['text']}"
        shown.append((seen["size"], seen["text"]))
    print(f"\n{lang}: smallest caption type {min(shown)[0]} px ({min(shown)[1]}); briefs used: "
          f"{sum(text != e['caption'] for (_, text), e in zip(shown, longest_events(lang, tmp_path)))} of {len(shown)}")
    context.close()


# Runs in the page: the lifted card (index, its box) and whether it is whole where a finger is not:
# its centre and the middle of each side are the card itself, nothing drawn over it.
LIFTED = """() => {
  const lifted = [...document.querySelectorAll('#hand .card.lifted')];
  return lifted.map((card) => {
    const r = card.getBoundingClientRect();
    const points = [[(r.left + r.right) / 2, (r.top + r.bottom) / 2], [r.left + 3, (r.top + r.bottom) / 2],
                    [r.right - 3, (r.top + r.bottom) / 2], [(r.left + r.right) / 2, r.top + 3]];
    const whole = points.every(([x, y]) => { const at = document.elementFromPoint(x, y); return at && card.contains(at); });
    return {index: Number(card.dataset.index), width: r.width, height: r.height, top: r.top, whole};
  });
}"""


def touch(cdp, kind: str, x: float | None = None, y: float | None = None) -> None:
    """One touch event of a single finger, as a phone sends it (Chromium makes the pointer events of it)."""
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [] if x is None else [{"x": x, "y": y}]})


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_on_a_phone_a_finger_slides_along_the_hand_to_pick_and_to_place(server, browser, lang):
    """The overlapped hand is one control on a touch screen: the card under the finger lifts whole, at least 44 px
    each way, and lifting the finger picks it; a card being placed follows the finger from gap to gap."""
    context, page, token, errors = open_big_match(server, browser, lang, 390, 844)
    page.click("#keep")
    to_my_scout(page, token)
    cdp = context.new_cdp_session(page)
    cards = page.locator("#hand .card")
    boxes = [cards.nth(i).bounding_box() for i in range(cards.count())]
    assert len(boxes) == 15 and boxes[1]["x"] - boxes[0]["x"] < TOUCH  # strips narrower than a finger: why it slides
    y = boxes[0]["y"] + boxes[0]["height"] * 0.7
    touch(cdp, "touchStart", boxes[0]["x"] + 4, y)
    for i in range(10):  # slide right, a card at a time: each lifts in turn, whole and larger than a fingertip
        touch(cdp, "touchMove", boxes[i]["x"] + 4, y)
        # a pointer move reaches the page at its next frame: wait for it, then measure
        page.wait_for_function(f"() => document.querySelector('#hand .card.lifted[data-index=\"{i}\"]')", timeout=3000)
        lifted = page.evaluate(LIFTED)
        assert [c["index"] for c in lifted] == [i], lifted
        assert lifted[0]["whole"] and lifted[0]["width"] >= TOUCH and lifted[0]["height"] >= TOUCH and lifted[0]["top"] >= 0, lifted
        if i == 6:
            screenshot(page, f"slide-{lang}-390-1-lifted")
    assert page.locator("#hand .card.selected").count() == 0  # nothing counts until the finger lifts
    touch(cdp, "touchEnd")
    assert page.evaluate(LIFTED) == []
    assert page.locator("#hand .card.selected").evaluate_all("cs => cs.map(c => Number(c.dataset.index))") == [9]
    # A plain tap on a strip picks that card too, and a tap on a picked card drops it.
    touch(cdp, "touchStart", boxes[3]["x"] + 4, y)
    touch(cdp, "touchEnd")
    touch(cdp, "touchStart", boxes[9]["x"] + 4, y)
    touch(cdp, "touchEnd")
    assert page.locator("#hand .card.selected").evaluate_all("cs => cs.map(c => Number(c.dataset.index))") == [3]
    touch(cdp, "touchStart", boxes[3]["x"] + 4, y)
    touch(cdp, "touchEnd")
    assert page.locator("#hand .card.selected").count() == 0
    # Placing a scouted card: the finger carries it from gap to gap and leaves it where it lifts.
    page.click("#active button[data-end]")
    page.click("#gaps button[data-gap='0']")
    placed = lambda: page.locator("#hand .card").evaluate_all("cs => cs.findIndex(c => c.classList.contains('scouted'))")  # noqa: E731
    assert placed() == 0
    gap = lambda k: page.locator(f"#gaps button[data-gap='{k}']").bounding_box()  # noqa: E731
    start = gap(0)
    y = start["y"] + start["height"] / 2  # the row sits higher while a card is placed (room for the gaps' markers)
    touch(cdp, "touchStart", start["x"] + start["width"] / 2, y)
    for k in range(1, 12):
        box = gap(k)
        touch(cdp, "touchMove", box["x"] + box["width"] / 2, y)
        page.wait_for_function(f"() => document.querySelectorAll('#hand .card')[{k}].classList.contains('scouted')", timeout=3000)
    screenshot(page, f"slide-{lang}-390-2-placing")
    touch(cdp, "touchEnd")
    page.wait_for_timeout(100)
    assert placed() == 11 and page.locator("#confirm").is_visible()
    look(page, f"slide-{lang}-390-3-placed", 16)
    page.click("#cancel")
    assert not errors, errors


@pytest.mark.parametrize("lang", LANGUAGES)
def test_on_a_360x640_phone_the_active_set_stays_in_view_all_turn(server, browser, lang):
    """The smallest phone: the felt is never squeezed under its seats and the active set, whatever your side
    needs (a card chosen from the active set, a scouted card placed with its buttons, a card of the hand picked),
    and nothing else leaves the window; the header's links are whole (look measures all of it)."""
    context, page, token, errors = open_big_match(server, browser, lang, 360, 640)
    page.click("#keep")
    to_my_scout(page, token)
    tag = f"small-{lang}-360"
    look(page, f"{tag}-1-turn", 15)
    page.click("#active button[data-end]")
    look(page, f"{tag}-2-chosen", 15)
    page.click("#gaps button[data-gap='7']")
    look(page, f"{tag}-3-scouting", 16)
    page.click("#cancel")
    page.locator("#hand button.card[data-index='0']").click(position={"x": 5, "y": 20})
    look(page, f"{tag}-4-picked", 15)
    assert not errors, errors
    context.close()


# -- the end of a round and of the match --------------------------------------------------------------------


def play_to_the_end(page, server: str) -> str:
    """A five-player match of the official rules, every seat played (yours by the longest show, else a scout) through
    the HTTP API until the match is over; its token."""
    answer = page.request.post(f"{server}/api/new", data={"variant": "official", "players": 5, "bots": ["greedy"] * 4,
                                                          "seed": 25, "practice": True})
    assert answer.ok, answer.text()
    token = answer.json()["token"]
    for _ in range(3000):
        s = page.request.get(f"{server}/api/m/{token}").json()
        if s["over"]:
            return token
        if not s["your_turn"]:
            page.request.post(f"{server}/api/m/{token}/advance", data={})
            continue
        shows, ends = s["legal"]["shows"], s["legal"]["scout_ends"]
        if s["phase"] == "flip":
            action = "keep"
        elif shows:
            start, length = max(shows, key=lambda sl: sl[1])
            action = f"show {start + 1}-{start + length}"
        else:
            action = f"scout {'right' if ends[0] else 'left'} 0"
        page.request.post(f"{server}/api/m/{token}/act", data={"action": action})
    raise AssertionError("the match did not end")


# Runs in the page: the open round-end screen's column headings, each on one line (where the window is wide).
HEADINGS = """() => [...document.querySelectorAll('#round-end thead th')].filter((th) => {
  const range = document.createRange();
  range.selectNodeContents(th);
  return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size > 1;
}).map((th) => th.textContent)"""

# Runs in the page: every part of the final standings in the window and not scrolled out of sight: the title, each
# step of the podium, each cell of the scores, Rematch and New match; the middle of the table does not scroll.
FINAL = """() => {
  const problems = [];
  const center = document.querySelector('.felt > .center');
  if (center.scrollHeight > center.clientHeight + 1) problems.push(`the final standings scroll: ${center.scrollHeight}px in ${center.clientHeight}px`);
  const parts = document.querySelectorAll('#final-title, #standings li, #breakdown th, #breakdown td, #final .again button, #final .again .button');
  for (const part of parts) {
    const r = part.getBoundingClientRect(), box = center.getBoundingClientRect();
    if (r.top < Math.max(0, box.top) - 1 || r.bottom > Math.min(innerHeight, box.bottom) + 1)
      problems.push(`${part.id || part.tagName.toLowerCase()} "${part.textContent.trim().slice(0, 30)}" is out of view: ${Math.round(r.top)}-${Math.round(r.bottom)}`);
  }
  return problems;
}"""


@pytest.fixture(scope="module")
def finished_match(server, browser):
    page = browser.new_page()
    token = play_to_the_end(page, server)
    page.close()
    return token


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", [(1280, 800), (390, 844), (360, 640)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_round_ends_and_the_final_standings_are_whole(server, browser, finished_match, lang, size):
    """The last round's end: its table within the screen, and at 1280 px every column heading on one line. Then the final
    standings whole on one screen, with nothing to scroll: the title and the winner at the top, Rematch at the bottom
    (on a phone the finished hand gives way); and a long match's move log never makes the page taller."""
    width, height = size
    context = phone_context(browser, width, height)
    page = context.new_page()
    page.goto(f"{server}/?lang={lang}")
    page.goto(f"{server}/m/{finished_match}")
    tag = f"end-{lang}-{width}x{height}"
    page.wait_for_selector("#round-end[open]", timeout=20_000)
    while page.locator("#round-end[open]").count():  # the last round's screen (and any other not seen here yet)
        rounds = page.get_attribute("#round-end", "data-round")
        screenshot(page, f"{tag}-round-{rounds}")
        assert measure(page) == [], f"{tag}: round {rounds}"
        if width > 1000:
            assert page.evaluate(HEADINGS) == [], f"{tag}: round {rounds}: headings on two lines"
        page.click("#continue")
        page.wait_for_timeout(200)
    page.wait_for_selector("#final:not([hidden])")
    page.wait_for_timeout(200)
    screenshot(page, f"{tag}-final")
    rounds = page.evaluate("JSON.parse(document.querySelector('#strings').textContent).rounds")
    assert page.locator("#breakdown thead tr.group th").inner_text().strip() == rounds  # numbered columns: the rounds
    assert measure(page) + page.evaluate(FINAL) == [], f"{tag}: final"
    context.close()
