"""Secret deals: a served match is dealt from 128 bits of OS randomness that never reach the browser,
its bots draw from streams derived from that secret, and a chosen seed makes a labelled practice match."""

from __future__ import annotations

import itertools
import json
import random

from web_helpers import client_for, new_match, server_match, step

from scoutlab.web import deals
from scoutlab.web.deals import SEED_BITS, bot_seed


def windows(number: int, width: int = 12) -> set[str]:
    """Every run of `width` digits of a number, in decimal and in hex: a response holding one names part of it."""
    found = set()
    for text in (str(number), format(number, "x")):
        found.update(text[i : i + width] for i in range(max(1, len(text) - width + 1)))
    return found


def test_a_served_match_is_dealt_from_128_bits_the_browser_never_receives(tmp_path):
    client = client_for(tmp_path / "matches.sqlite3")
    token, first = new_match(client, "official", 4)
    match = server_match(client, token)
    secrets_of_match = {match.seed} | {bot_seed(match.seed, seat) for seat in range(1, 4)}
    assert not match.practice and not first["practice"]
    responses = [json.dumps(first), client.get(f"/m/{token}").text, client.get(f"/m/{token}/rules").text]
    rng = random.Random(0)
    for _ in range(60):
        responses.append(json.dumps(step(client, token, rng)))
    answer = client.get(f"/api/m/{token}")
    responses += [answer.text, json.dumps(dict(answer.headers))]
    pieces = set().union(*(windows(s) for s in secrets_of_match))
    for text in responses:
        assert not any(piece in text for piece in pieces), "a piece of the deal's secret reached the browser"
        assert '"seed"' not in text


def test_the_leak_check_would_see_a_seed(tmp_path):
    seed = deals.secret_seed()
    assert any(piece in json.dumps({"x": f"dealt from {seed:x}"}) for piece in windows(seed))
    assert any(piece in f"<p>{seed}</p>" for piece in windows(seed))


def test_each_deal_draws_fresh_os_randomness_and_no_two_are_related(tmp_path, monkeypatch):
    drawn = []
    real = deals.secrets.randbits

    def recording(bits):
        value = real(bits)
        drawn.append((bits, value))
        return value

    monkeypatch.setattr(deals.secrets, "randbits", recording)
    client = client_for(tmp_path / "matches.sqlite3")
    seeds = []
    for _ in range(20):
        token, _state = new_match(client, "two-player", 2)
        seeds.append(server_match(client, token).seed)
    assert [bits for bits, _value in drawn] == [SEED_BITS] * 20 and seeds == [value for _bits, value in drawn]
    # 20 draws of 128 bits: all distinct, none small (P(< 2^100) = 2^-28 each), and no fixed step between them.
    assert len(set(seeds)) == 20 and min(s.bit_length() for s in seeds) > 100
    assert len({b - a for a, b in itertools.pairwise(seeds)}) == 19


def test_two_matches_are_not_linked_by_what_a_player_sees(tmp_path):
    """Matches started together get unrelated hands, and the bots' seeds are hashes nothing visible narrows."""
    client = client_for(tmp_path / "matches.sqlite3")
    hands = []
    for _ in range(8):
        token, state = new_match(client, "official", 3)
        hands.append(tuple((c["t"], c["b"]) for c in state["hand"]))
        match = server_match(client, token)
        seats = [bot_seed(match.seed, s) for s in (1, 2)]
        # Each bot's seed is 128 bits of its own, not the deal's seed shifted or masked (the old 48-bit formula was).
        assert len(set(seats)) == 2 and all(s.bit_length() > 64 and s != match.seed for s in seats)
        assert (match.seed * 1_000_003 + 7919 + 1) & 0xFFFFFFFFFFFF not in seats
    assert len(set(hands)) == 8
    # What one match shows says nothing of the next: no two dealt hands share their first six cards in order.
    assert len({hand[:6] for hand in hands}) == 8


def test_bot_seeds_follow_from_the_stored_seed_so_replay_needs_nothing_else():
    assert bot_seed(12345, 1) == bot_seed(12345, 1) != bot_seed(12345, 2) != bot_seed(12346, 2)
    assert all(0 <= bot_seed(2**127 + s, s) < 2**128 for s in range(5))


def test_a_chosen_seed_makes_a_practice_match_that_says_so(tmp_path):
    client = client_for(tmp_path / "matches.sqlite3")
    token, state = new_match(client, "official", 3, seed=42)
    _again, same = new_match(client, "official", 3, seed=42)
    assert state["practice"] and state["hand"] == same["hand"]  # a practice deal can be known in advance
    page = client.get(f"/m/{token}?lang=el").text
    assert 'id="practice"' in page and "Αγώνας εξάσκησης" in page
    secret, _state = new_match(client, "official", 3)
    assert 'id="practice"' not in client.get(f"/m/{secret}").text
    refused = client.post("/api/new", json={"variant": "official", "seed": 42})
    assert refused.status_code == 422 and "practice" in refused.json()["error"]
    form = client.post("/new", data={"variant": "official", "players": "3", "seed": "42"}, follow_redirects=False)
    assert form.status_code == 422
    practice_form = client.post("/new", data={"variant": "official", "players": "3", "seed": "42", "practice": "on"}, follow_redirects=False)
    assert practice_form.status_code == 303
    assert server_match(client, practice_form.headers["location"].rsplit("/", 1)[1]).practice
