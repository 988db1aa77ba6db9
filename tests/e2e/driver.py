"""Playing the browser game by clicking, as a person would: the moves are chosen from the
server's own list of legal moves for this seat, then made with the page's buttons."""

from __future__ import annotations

import json
from pathlib import Path

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"  # gitignored


def screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def state(page, token: str) -> dict:
    """The seat's state, fetched by the page itself (so it carries the page's language)."""
    return page.evaluate("async (t) => (await fetch('/api/m/' + t)).json()", token)


def close_round_end(page) -> bool:
    """Dismiss the end-of-round screen if it is open; True if it was."""
    if page.locator("#round-end[open]").count():
        page.click("#continue")
        return True
    return False


def keep_hand(page) -> None:
    """Keep the hand as dealt once the state says a round began: the page may still be about to show the
    last round's end screen (its #keep hidden behind it), which is dismissed first, as a person would."""
    page.wait_for_function("() => !document.querySelector('#keep').hidden || document.querySelector('#round-end').open")
    close_round_end(page)
    page.click("#keep")


def wait_for_turn_or_end(page, timeout: float = 30_000) -> None:
    """Wait until it is the browser's turn, the match is over, or a round ended."""
    page.wait_for_function(
        """() => !document.querySelector('#keep').hidden || !document.querySelector('#show').hidden
               || !document.querySelector('#final').hidden || document.querySelector('#round-end').open""",
        timeout=timeout,
    )


def click_card(page, index: int) -> None:
    """Click a card of the hand near its left edge, as a person does: in a tight hand the cards overlap
    and only that strip of each shows (the next card covers its middle)."""
    card = page.locator(f"#hand button.card[data-index='{index}']")
    box = card.bounding_box()
    card.click(position={"x": 5, "y": box["height"] / 2 if box else 10})


def select_by_keys(page, start: int, length: int) -> None:
    """From the hand's first card, with the keyboard: move right to card `start`, then select `length` cards."""
    for _ in range(start):
        page.keyboard.press("ArrowRight")
    for i in range(length):
        page.keyboard.press("Space")
        if i + 1 < length:
            page.keyboard.press("ArrowRight")


def click_show(page, start: int, length: int) -> None:
    for i in range(start, start + length):
        click_card(page, i)
    page.click("#show")


def click_scout(page, end: int, gap: int, flip: bool = False) -> None:
    """Scout as a person does: pick the end card, put it in a gap, maybe turn it over, confirm."""
    page.click(f"#active button[data-end='{end}']")
    page.click(f"#gaps button[data-gap='{gap}']")
    if flip:
        page.click("#turn")
    page.click("#confirm")


def play_one_move(page, token: str, moves: list[str]) -> None:
    """Make one move for the browser's seat: keep at round start, else the longest show, else a scout."""
    s = state(page, token)
    before = len(s["log"])
    if s["phase"] == "flip":
        keep_hand(page)
        moves.append("keep")
    elif s["legal"]["shows"]:
        start, length = max(s["legal"]["shows"], key=lambda sl: (sl[1], sl[0]))
        click_show(page, start, length)
        moves.append(f"show {start + 1}-{start + length}")
    else:
        end = s["legal"]["scout_ends"][0]
        click_scout(page, end, 0)
        moves.append(f"scout {end} 0")
    page.wait_for_function(
        "async ([t, n]) => (await (await fetch('/api/m/' + t)).json()).log.length > n", arg=[token, before]
    )


def play_until(page, token: str, done, limit: int = 400) -> list[str]:
    """Play the browser's moves until `done(state)` holds; returns the moves made."""
    moves: list[str] = []
    for _ in range(limit):
        wait_for_turn_or_end(page)
        if close_round_end(page):
            continue
        s = state(page, token)
        if done(s):
            return moves
        if s["your_turn"]:
            play_one_move(page, token, moves)
    raise AssertionError(f"not done after {limit} steps: {json.dumps(state(page, token))[:500]}")
