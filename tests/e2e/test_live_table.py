"""The table in motion: two tabs of one match follow each other (server-sent events, and polling
where those are missing); bots' moves captioned and highlighted at the chosen pace, with "skip to
my turn"; a scout made by drag and drop; "your matches" on the start page."""

from __future__ import annotations

import time

from driver import keep_hand, screenshot, state


def new_match(page, server: str, players: int = 3, seed: int = 5, variant: str = "official") -> str:
    answer = page.request.post(f"{server}/api/new", data={"variant": variant, "players": players, "bots": ["greedy"] * (players - 1), "seed": seed, "practice": True})
    assert answer.ok, answer.text()
    return answer.json()["token"]


def open_table(page, server: str, token: str) -> None:
    page.goto(f"{server}/m/{token}")
    page.wait_for_selector("#hand .card")


def test_a_second_tab_follows_the_first(server, browser):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    first, second = context.new_page(), context.new_page()
    token = new_match(first, server)
    open_table(first, server, token)
    open_table(second, server, token)
    assert second.locator("#keep").is_visible()
    first.click("#keep")
    # The second tab is told by the server: its flip choice goes, the move appears in its log.
    second.wait_for_selector("#keep", state="hidden", timeout=10_000)
    second.wait_for_function("() => document.querySelector('#log').textContent.includes('Player 1 (you) keeps')")
    assert second.locator("#status").inner_text() != "Your turn." or state(second, token)["your_turn"]
    context.close()


def test_without_server_sent_events_a_tab_polls(server, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    first, second = context.new_page(), context.new_page()
    second.add_init_script("delete window.EventSource;")
    token = new_match(first, server)
    open_table(first, server, token)
    open_table(second, server, token)
    first.click("#keep")
    second.wait_for_selector("#keep", state="hidden", timeout=10_000)
    context.close()


def test_a_refused_move_from_a_stale_tab_brings_the_state(server, browser):
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    token = new_match(page, server)
    open_table(page, server, token)
    page.evaluate("async (t) => fetch('/api/m/' + t + '/act', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({action: 'keep'})})", token)
    answer = page.evaluate(
        "async (t) => { const r = await fetch('/api/m/' + t + '/act', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({action: 'keep'})}); return [r.status, await r.json()]; }", token)
    assert answer[0] == 409 and answer[1]["state"]["ply"] >= 1
    page.close()


def test_bot_moves_are_captioned_and_highlighted_and_skip_goes_to_my_turn(server, browser):
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    token = new_match(page, server, players=4, seed=8)
    open_table(page, server, token)
    page.select_option("#pace", "slow")
    page.click("#keep")
    # At a slow pace the first bot move comes after a while, with its caption and its seat marked.
    page.wait_for_selector(".opponent.moved", timeout=10_000)
    caption = page.inner_text("#caption")
    assert caption.startswith("Player 2 ") and page.locator(".opponent.moved").get_attribute("data-seat") == "1"
    assert caption == state(page, token)["events"][-1]["caption"] or len(state(page, token)["events"]) > 2
    # Skip to my turn: the other bots move at once.
    page.wait_for_selector("#skip:not([hidden])")
    page.click("#skip")
    page.wait_for_function("() => !document.querySelector('#show').hidden || document.querySelector('#round-end').open", timeout=10_000)
    s = state(page, token)
    assert s["your_turn"] or s["round_ends"]
    assert page.evaluate("localStorage.getItem('scoutlab-pace')") == "slow"  # the pace is kept for the next visit
    page.reload()
    assert page.input_value("#pace") == "slow"
    page.close()


def reach_a_scout(page, token: str) -> dict:
    """Play (by the API, longest show) until the browser's seat may scout; returns that state."""
    for _ in range(100):
        page.wait_for_function("() => !document.querySelector('#show').hidden || !document.querySelector('#keep').hidden"
                               " || document.querySelector('#round-end').open", timeout=20_000)
        if page.locator("#round-end[open]").count():
            page.click("#continue")
            continue
        s = state(page, token)
        if not s["your_turn"]:
            page.wait_for_timeout(50)
            continue
        if s["phase"] == "flip":
            keep_hand(page)
            continue
        if s["legal"]["scout_ends"]:
            return s
        start, length = max(s["legal"]["shows"], key=lambda sl: sl[1])
        page.evaluate("async ([t, a]) => fetch('/api/m/' + t + '/act', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({action: a})})",
                      [token, f"show {start + 1}-{start + length}"])
        page.wait_for_function("(n) => document.querySelectorAll('#log li').length > n", arg=s["log_size"])
    raise AssertionError("no scout came up")


def test_a_scout_by_drag_and_drop_then_confirmed(server, page_at):
    page = page_at(1366, 768)
    token = new_match(page, server, players=3, seed=5)
    open_table(page, server, token)
    for _attempt in range(6):
        page.select_option("#pace", "instant")
        s = reach_a_scout(page, token)
        page.select_option("#pace", "slow")  # time to look at the hand before the bots move
        end = s["legal"]["scout_ends"][-1]
        # Drop the end card on the third card of the hand: it goes into the gap nearest to where it fell.
        wrap = page.locator(".hand-wrap").bounding_box()
        target = page.locator("#hand .card").nth(2).bounding_box()
        page.drag_and_drop(f"#active button[data-end='{end}']", ".hand-wrap", target_position={"x": target["x"] - wrap["x"] + 2, "y": 20})
        assert page.locator("#hand .card.scouted").count() == 1
        assert page.locator("#hand .card").evaluate_all("cs => cs.findIndex(c => c.classList.contains('scouted'))") == 2
        screenshot(page, "scout-dropped-1366")
        page.click("#confirm")
        page.wait_for_function("(n) => document.querySelectorAll('#log li').length > n", arg=s["log_size"])
        after = state(page, token)
        scout = after["events"][s["log_size"]]
        assert scout["kind"] == "scout" and scout["seat"] == 0 and scout["gap"] == 2 and scout["end"] == end
        if after["round"] == s["round"]:
            # Your own last move is highlighted too: the scouted card, where it went.
            assert page.locator("#hand .card.fresh").evaluate_all("cs => cs.map(c => [...c.parentNode.children].indexOf(c))") == [2]
            return
    raise AssertionError("every scout tried ended its round")


def test_the_start_page_lists_your_matches(server, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{server}/")
    page.check("input[name=variant][value=official]")
    page.click("form.new-match button[type=submit]")
    page.wait_for_url("**/m/*")
    token = page.url.rsplit("/", 1)[1]
    page.goto(f"{server}/")
    assert page.locator(f".yours a[href='/m/{token}']").count() == 1
    page.click(f".yours a[href='/m/{token}']")
    page.wait_for_selector("#hand .card")
    context.close()


def test_after_a_two_player_scout_you_act_again_with_a_fresh_hand(server, page_at):
    # The answer to the scout and the live stream race; whichever comes first, the scout being
    # built is gone and the hand is ready for the next move (a regression: the page once stuck).
    page = page_at(1366, 768)
    token = new_match(page, server, players=2, seed=3, variant="two-player")
    open_table(page, server, token)
    page.select_option("#pace", "instant")
    def late(route):
        # The move's answer comes late, so the live stream always brings the new state first.
        answer = route.fetch()
        time.sleep(0.8)
        route.fulfill(response=answer)

    for _attempt in range(5):
        s = reach_a_scout(page, token)
        page.route("**/act?*", late)
        page.click(f"#active button[data-end='{s['legal']['scout_ends'][0]}']")
        page.click("#gaps button[data-gap='0']")
        page.click("#confirm")
        page.wait_for_function("(n) => document.querySelectorAll('#log li').length > n", arg=s["log_size"])
        page.wait_for_timeout(1000)
        page.unroute("**/act?*")
        after = state(page, token)
        if after["your_turn"] and after["round"] == s["round"]:
            page.wait_for_selector("#show:not([hidden])")
            assert page.locator("#scouting").is_hidden() and page.locator("#gaps button").count() == 0
            assert len(after["hand"]) == len(s["hand"]) + 1
            return
    raise AssertionError("no scout left the browser's seat to act again")
