"""Playing in a real browser by clicking: a whole two-player match, part of a four-player match at
phone width, an illegal show explained, a Scout & Show built with the mouse, the keyboard, and the
right-to-left layout in Arabic."""

from __future__ import annotations

from driver import (
    click_card,
    click_scout,
    close_round_end,
    keep_hand,
    play_until,
    screenshot,
    select_by_keys,
    state,
    wait_for_turn_or_end,
)


def start(page, server: str, variant: str, players: int, lang: str = "en") -> str:
    """Fill in the new-match form as a person would; returns the match token."""
    page.goto(f"{server}/?lang={lang}")
    page.check(f"input[name=variant][value={variant}]")
    page.select_option("#players", str(players))
    for i in range(1, players):
        page.select_option(f"#bot{i}", "greedy")
    page.click("form.new-match button[type=submit]")
    page.wait_for_url("**/m/*")
    page.wait_for_selector("#hand .card")
    return page.url.rsplit("/", 1)[1]


def test_a_whole_two_player_match_by_clicking(server, page_at):
    page = page_at(1280)
    token = start(page, server, "two-player", 2)
    # Before choosing, the flipped hand is shown too: every card turned, the order kept (two-player keeps it).
    hand = state(page, token)["hand"]
    preview = page.locator("#flipped .card").evaluate_all("cs => cs.map(c => c.querySelector('.top').textContent)")
    assert preview == [str(card["b"]) for card in hand]
    screenshot(page, "two-player-flip-1280")
    moves = play_until(page, token, lambda s: s["over"])
    assert moves.count("keep") == 2  # one flip choice per round
    page.wait_for_selector("#final:not([hidden])")
    final = state(page, token)
    standings = page.locator("#standings li").all_inner_texts()
    assert len(final["round_ends"]) == 2 and len(standings) >= 2
    winners = [row["seat"] for row in final["standings"] if row["winner"]]
    assert sum("winner" in line for line in standings) == len(winners)
    assert page.locator("#log li").count() == len(final["log"])
    screenshot(page, "two-player-final-1280")


def test_part_of_a_four_player_match_at_phone_width(server, page_at):
    page = page_at(390, 844)
    token = start(page, server, "official", 4)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing sticks out sideways
    screenshot(page, "four-player-flip-390")
    # Eleven cards overlap at this width; a hovered card must not cover the strip its neighbour shows.
    page.click("#keep")
    assert page.locator("#hand.tight").count() == 1
    page.hover("#hand button.card[data-index='0']", position={"x": 5, "y": 20})
    hit = page.evaluate("""() => { const b = document.querySelector("#hand .card[data-index='1']").getBoundingClientRect();
                                   return document.elementFromPoint(b.left + 5, b.top + b.height / 2).closest('.card').dataset.index; }""")
    assert hit == "1"
    play_until(page, token, lambda s: len(s["log"]) >= 16 or s["over"])
    screenshot(page, "four-player-play-390")
    play_until(page, token, lambda s: s["round"] > 1 or s["over"])  # through the end of round 1
    assert state(page, token)["round_ends"][0]["lines"]
    screenshot(page, "four-player-round-2-390")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_an_illegal_show_is_explained_and_a_scout_and_show_is_built_by_clicking(server, page_at):
    page = page_at(1280)
    token = start(page, server, "official", 3)
    page.click("#keep")
    for _ in range(50):
        wait_for_turn_or_end(page)
        if close_round_end(page):
            continue
        s = state(page, token)
        if s["your_turn"] and s["phase"] == "play" and s["active"] and s["legal"]["scout_show"]:
            break
        if s["your_turn"] and s["phase"] == "flip":  # a later round began: keep the hand as dealt
            keep_hand(page)
            continue
        if s["your_turn"]:
            start_, length = max(s["legal"]["shows"], key=lambda sl: sl[1]) if s["legal"]["shows"] else (None, None)
            if start_ is None:
                click_scout(page, s["legal"]["scout_ends"][0], 0)
            else:
                for i in range(start_, start_ + length):
                    click_card(page, i)
                page.click("#show")
            page.wait_for_timeout(100)
    s = state(page, token)
    assert s["legal"]["scout_show"], "no Scout & Show chance came up"
    # An illegal show: the whole hand is never a set or a run here.
    hand = [c["t"] for c in s["hand"]]
    pair = next(i for i in range(len(hand) - 1) if abs(hand[i] - hand[i + 1]) > 1)
    click_card(page, pair)
    click_card(page, pair + 1)
    # Selected, a calm guide (no show uses them); played anyway, refused in the rules' words.
    page.wait_for_function("() => document.querySelector('#message').className.includes('is-guide')")  # a function: the CSP forbids eval
    assert "neither a set" not in page.inner_text("#message")
    page.click("#show")
    page.wait_for_function("() => document.querySelector('#message').textContent.includes('neither a set')")  # a function: the CSP forbids eval
    assert len(state(page, token)["log"]) == len(s["log"])
    click_card(page, pair)
    click_card(page, pair + 1)
    # Scout & Show: take the left end card, turned over, put it first, then show it on its own if that beats what is left.
    page.click("#active button[data-end='0']")
    page.click("#gaps button[data-gap='0']")
    page.click("#turn")
    page.check("#sns")
    page.click("#confirm")
    assert page.locator("#hand button.card.scouted").count() == 1
    screenshot(page, "scout-and-show-1280")
    before = len(state(page, token)["log"])
    click_card(page, 0)
    page.click("#show")
    page.wait_for_function(
        "async ([t, n]) => document.querySelector('#message').textContent.length > 0"
        " || (await (await fetch('/api/m/' + t)).json()).log.length > n",
        arg=[token, before],
    )
    after = state(page, token)
    if len(after["log"]) > before:
        assert "scouts" in after["log"][before] and "shows" in after["log"][before]
    else:  # the single card did not beat what was left: the refusal says so in the rules' words
        assert "is not stronger than what is left of the active set" in page.inner_text("#message")


def test_the_hand_is_playable_with_the_keyboard(server, page_at):
    page = page_at(1280)
    token = start(page, server, "two-player", 2)
    page.focus("#keep")
    page.keyboard.press("Enter")
    wait_for_turn_or_end(page)
    close_round_end(page)
    s = state(page, token)
    if not s["your_turn"] or not s["legal"]["shows"]:
        return
    start_, length = s["legal"]["shows"][0]
    page.focus("#hand button.card[data-index='0']")
    select_by_keys(page, start_, length)
    assert page.locator("#hand button.card[aria-pressed=true]").count() == length
    before = len(s["log"])
    page.focus("#show")
    page.keyboard.press("Enter")
    page.wait_for_function("async ([t, n]) => (await (await fetch('/api/m/' + t)).json()).log.length > n", arg=[token, before])


def test_arabic_is_laid_out_right_to_left(server, page_at):
    page = page_at(1280)
    token = start(page, server, "official", 3, lang="ar")
    assert page.get_attribute("html", "dir") == "rtl" and page.get_attribute("html", "lang") == "ar"
    width = 1280
    # The page mirrors: the brand sits on the right, the language menu on the left...
    brand = page.locator(".brand").bounding_box()
    menu = page.locator(".languages").bounding_box()
    assert brand["x"] > width / 2 > menu["x"]
    # ...and the score sheet is on the left of the table, as the reader meets the table first.
    assert page.locator(".center").bounding_box()["x"] > page.locator(".side").bounding_box()["x"]
    # The cards stay left to right: card 1 is the leftmost, as the notation counts them.
    assert page.eval_on_selector("#hand", "e => getComputedStyle(e).direction") == "ltr"
    assert page.eval_on_selector("#sheet-total td", "e => getComputedStyle(e).direction") == "ltr"  # "-13", not "13-"
    xs = [page.locator(f"#hand [data-index='{i}']").bounding_box()["x"] for i in range(3)]
    assert xs == sorted(xs)
    assert "يمكنك الآن قلب جميع بطاقات يدك معًا مرة واحدة" in page.inner_text("#hints")  # seed 001's hint
    screenshot(page, "arabic-flip-1280")
    page.click("#keep")
    play_until(page, token, lambda s: len(s["log"]) > 6 or s["over"])
    screenshot(page, "arabic-play-1280")
    phone = page_at(390, 844)
    phone.goto(f"{server}/m/{token}?lang=ar")
    phone.wait_for_selector("#hand .card")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "arabic-play-390")


def test_the_new_match_form_and_the_rules_page_fit_a_phone(server, page_at):
    page = page_at(390, 844)
    page.goto(f"{server}/?lang=fa")
    assert page.get_attribute("html", "dir") == "rtl"
    # Choosing the two-player variant offers only 2 players and one opponent.
    page.check("input[name=variant][value=two-player]")
    offered = page.eval_on_selector_all("#players option:not([disabled])", "os => os.map(o => o.value)")
    assert offered == ["0", "2"]
    assert page.locator(".pick[data-opponent]:not([hidden])").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "new-match-fa-390")
    page.goto(f"{server}/rules/official?lang=fa")
    assert "نمایش" in page.inner_text("main")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "rules-fa-390")
