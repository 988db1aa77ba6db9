"""Property: no response the browser gets ever holds a card its seat may not see (docs/rules.md §10.9).

A seat may see its own hand, the active set, and every card that has been shown on
the table at some time in the match. It may not see another seat's cards that were
never shown, or the cards set aside (the removed ones are public: the rules page lists them). Hypothesis drives whole
matches of every shipped variant and player count through the HTTP API, with moves
chosen at random (including refused ones), and every response is scanned for cards
in any form: `{"t": top, "b": bottom}` objects and `top/bottom` notation in text.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from web_helpers import client_for, new_match, server_match

from scoutlab.engine.actions import ScoutShow, Show
from scoutlab.engine.cards import card, identity
from scoutlab.rules import load_rules
from scoutlab.spec.variant import shipped_variants

CASES = [(name, n) for name, _ in shipped_variants() for n in load_rules(name).players]
_NOTATION = re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})(?![\d/])")


def cards_in(text: str) -> set[int]:
    """Every card a response mentions, by identity (orientation does not hide a card)."""
    found = set()
    def walk(node):
        if isinstance(node, dict):
            if set(node) == {"t", "b"}:
                found.add(identity(card(node["t"], node["b"])))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
        elif isinstance(node, str):
            found.update(identity(card(int(a), int(b))) for a, b in _NOTATION.findall(node) if a != b)
    try:
        walk(json.loads(text))
    except ValueError:
        walk(text)  # an HTML page: scan its text
    return found


def ever_shown(state) -> set[int]:
    """Every card that has been part of a show in this match, replayed from the seed."""
    again = state.rules.new_game(state.players, state.seed)
    shown: set[int] = set()
    for _round, _seat, code in state.history:
        action = state.rules.codec.decode(code)
        hand = list(again.hands[again.to_act])
        shown.update(identity(c) for c in again.active)
        if isinstance(action, ScoutShow) and action.show is not None:
            taken = again.active[-1] if action.scout.end else again.active[0]
            hand.insert(action.scout.gap, taken)
            action = action.show
        if isinstance(action, Show):
            shown.update(identity(c) for c in hand[action.start : action.start + action.length])
        again.apply(code)
    return shown | {identity(c) for c in again.active}


def secret_cards(state, seat: int) -> set[int]:
    others = {identity(c) for s, hand in enumerate(state.hands) if s != seat for c in hand}
    unseen = others | {identity(c) for c in state.set_aside}  # removed cards are public: the rules list them
    return unseen - ever_shown(state) - {identity(c) for c in state.hands[seat]}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return client_for(tmp_path_factory.mktemp("secrecy") / "matches.sqlite3")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**20), lang=st.sampled_from(["en", "ar", "bg"]), steps=st.integers(20, 120))
def test_no_response_holds_a_card_the_seat_may_not_see(client, case, seed, lang, steps):
    variant, players = case
    rng = random.Random(seed)
    token, first = new_match(client, variant, players, ["random"] * (players - 1), seed=seed, lang=lang)
    match = server_match(client, token)
    responses = [json.dumps(first), client.get(f"/m/{token}?lang={lang}").text]
    for _ in range(steps):
        if match.state.is_over:
            break
        if match.your_turn:
            legal = match.state.legal_actions()
            code = rng.choice(legal)
            if rng.random() < 0.2:  # a refused move answers with a reason and the state: scan those too
                try:
                    code = rng.randrange(match.rules.codec.size)
                    match.state.format(code)
                except ValueError:  # a code no action has
                    code = rng.choice(legal)
            action = match.state.format(code)
            answer = client.post(f"/api/m/{token}/act?lang={lang}", json={"action": action})
            if code not in legal:
                responses.append(client.get(f"/api/m/{token}/explain", params={"action": action, "lang": lang}).text)
        else:
            answer = client.post(f"/api/m/{token}/advance?lang={lang}")
        responses.append(answer.text)
        secret = secret_cards(match.state, match.seat)
        for text in responses:
            leaked = cards_in(text) & secret
            assert not leaked, f"the browser was sent hidden cards {sorted(leaked)}"
        responses.clear()
        assert {identity(c) for c in match.state.hands[match.seat]} <= cards_in(answer.text)


def test_the_scanner_finds_cards_in_every_form():
    assert cards_in('{"hand": [{"t": 3, "b": 7}], "log": ["Player 2 shows \\u20662/5 10/1\\u2069."]}') == {
        identity(card(3, 7)), identity(card(2, 5)), identity(card(1, 10))
    }
    assert cards_in("<p>round 1/3 is not a card but 1/3 looks like one</p>") == {identity(card(1, 3))}
