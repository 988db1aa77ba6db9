"""The table's live parts on the server: move events with captions, the server-sent event
stream every tab follows, a refused move that carries the state, "your matches" and rematch."""

from __future__ import annotations

import json
import random

import pytest
from web_helpers import client_for, new_match, server_match, step

from scoutlab.web import live


@pytest.fixture
def client(tmp_path):
    return client_for(tmp_path / "m.sqlite3")


def _play_until(client, token, done, limit=400):
    rng = random.Random(3)
    for _ in range(limit):
        state = step(client, token, rng)
        if done(state):
            return state
    raise AssertionError("never happened")


def test_events_run_in_step_with_the_log_and_say_where_a_scouted_card_went(client):
    token, state = new_match(client, players=3, seed=5)
    assert state["events"] == [] and state["ply"] == 0
    seen_scout = None
    rng = random.Random(1)
    for _ in range(300):
        match = server_match(client, token)
        codec = match.rules.codec
        if match.state.to_act == 0 and not match.state.is_over:
            scouts = [c for c in match.state.legal_actions() if codec.kind(c) == "scout"]
            code = scouts[0] if scouts else rng.choice(match.state.legal_actions())
            answer = client.post(f"/api/m/{token}/act", json={"action": match.state.format(code)}).json()
        else:
            answer = client.post(f"/api/m/{token}/advance").json()
        seen_scout = next((e for e in answer["events"] if e["kind"] == "scout"), seen_scout)
        if seen_scout:
            break
    full = client.get(f"/api/m/{token}").json()
    assert len(full["events"]) == len(full["log"]) == full["log_size"]
    assert full["ply"] == len(server_match(client, token).state.history)
    # The caption names the end, the card as it went in and its place, counted from 1.
    card = f"{seen_scout['taken']['t']}/{seen_scout['taken']['b']}"
    side = "right" if seen_scout["end"] else "left"
    assert seen_scout["caption"].endswith(f"from the {side} end and puts it at position {seen_scout['gap'] + 1}.")
    assert card in seen_scout["caption"]
    # The browser's own moves say so.
    who = "Player 1 (you) " if seen_scout["seat"] == 0 else f"Player {seen_scout['seat'] + 1} "
    assert seen_scout["caption"].startswith(who)
    # Only the lines asked for: the events follow log_from.
    tail = client.get(f"/api/m/{token}?log_from={full['log_size'] - 1}").json()
    assert len(tail["events"]) == 1 and tail["events"][0] == full["events"][-1]


def test_a_show_event_says_where_the_cards_sat_and_what_it_captured(client):
    token, _state = new_match(client, players=3, seed=2)
    state = _play_until(client, token, lambda s: any(e["kind"] == "show" and e["captured"] for e in s["events"]))
    event = next(e for e in client.get(f"/api/m/{token}").json()["events"] if e["kind"] == "show" and e["captured"])
    assert event["start"] >= 0 and len(event["cards"]) >= 1
    noun = "card" if event["captured"] == 1 else "cards"  # "captures 1 card", never "1 cards"
    assert f"captures {event['captured']} {noun}." in event["caption"]
    assert state["ply"] >= 2


def test_a_move_out_of_turn_is_refused_with_the_state(client):
    token, _state = new_match(client, players=3, seed=1)
    client.post(f"/api/m/{token}/act", json={"action": "keep"})
    answer = client.post(f"/api/m/{token}/act", json={"action": "keep"})
    assert answer.status_code == 409
    body = answer.json()
    assert body["error"] == "It is not your turn." and body["state"]["your_turn"] is False and body["state"]["ply"] == 1


def _first_events(client, url, count):
    """The first `count` state events of a stream, parsed."""
    found = []
    with client.stream("GET", url) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        event = None
        for line in response.iter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "state":
                found.append(json.loads(line[6:]))
                if len(found) == count:
                    return found
    return found


def test_the_stream_sends_the_state_then_every_change(client, monkeypatch):
    monkeypatch.setattr(live, "LIFETIME", 3.0)
    monkeypatch.setattr(live, "INTERVAL", 0.02)
    token, _state = new_match(client, players=3, seed=4)
    client.post(f"/api/m/{token}/act", json={"action": "keep"})  # the stream opens after this move...
    client.post(f"/api/m/{token}/advance")
    [first] = _first_events(client, f"/api/m/{token}/events?lang=el", 1)
    assert first["ply"] == 2 and first["status"].endswith("…") and len(first["events"]) == 2
    # ...and a stream that ends after LIFETIME seconds sends one state when nothing moves.
    assert len(_first_events(client, f"/api/m/{token}/events?log_from=2", 5)) == 1


def _keep_soon(client, token: str) -> None:
    """Keep the hand in another thread half a second from now: a move made elsewhere while a stream waits."""
    import threading
    import time

    def move_soon():
        time.sleep(0.5)
        client.post(f"/api/m/{token}/act", json={"action": "keep"})

    threading.Thread(target=move_soon).start()


def test_the_stream_follows_moves_made_elsewhere(client, monkeypatch):

    monkeypatch.setattr(live, "LIFETIME", 4.0)
    monkeypatch.setattr(live, "INTERVAL", 0.02)
    token, _state = new_match(client, players=3, seed=4)
    _keep_soon(client, token)
    states = _first_events(client, f"/api/m/{token}/events", 2)
    assert [s["ply"] for s in states] == [0, 1]
    assert states[1]["log_from"] == 0 and states[1]["events"][0]["kind"] == "keep"


def test_a_full_server_refuses_a_stream_so_the_page_polls(tmp_path, monkeypatch):
    monkeypatch.setattr(live, "MAX_STREAMS", 0)  # read when the app is made
    full = client_for(tmp_path / "full.sqlite3")
    token, _state = new_match(full)
    answer = full.get(f"/api/m/{token}/events")
    assert answer.status_code == 503 and "every few seconds" in answer.json()["error"]


def test_the_start_page_lists_the_matches_this_browser_started(client):
    token, _state = new_match(client, players=3, seed=1)
    assert client.cookies.get("scoutlab_matches") == token
    page = client.get("/").text
    assert f'href="/m/{token}"' in page
    # A cookie that holds anything but tokens is read without an error, and lists nothing it should not.
    client.cookies.set("scoutlab_matches", "../etc/passwd.<script>." + "x" * 5000)
    page = client.get("/")
    assert page.status_code == 200 and "<script>." not in page.text and "/m/../" not in page.text


def test_rematch_starts_a_new_deal_with_the_same_opponents(client):
    token, _state = new_match(client, players=4, bots=["greedy", "random", "greedy"], seed=9)
    answer = client.post(f"/m/{token}/rematch", follow_redirects=False)
    assert answer.status_code == 303
    again = answer.headers["location"].rsplit("/", 1)[1]
    assert again != token
    old, new = server_match(client, token), server_match(client, again)
    assert new.bot_names == old.bot_names and new.rules.name == old.rules.name and new.state.players == 4
    assert client.cookies.get("scoutlab_matches").split(".")[:2] == [again, token]
    assert client.post("/m/nope/rematch").status_code == 404


# Bad requests to the table's live parts: each gets a one-line answer, never a traceback or a hang.
BAD_REQUESTS = [
    ("GET", "/api/m/{long}/events", 404),
    ("GET", "/api/m/nope/events", 404),
    ("POST", "/m/{long}/rematch", 404),
    ("POST", "/m/nope/rematch", 404),
]


@pytest.mark.parametrize("method, path, status", BAD_REQUESTS)
def test_bad_requests_get_a_one_line_answer(client, method, path, status):
    answer = client.request(method, path.format(long="x" * 5000))
    assert answer.status_code == status
    assert "Traceback" not in answer.text and "x" * 200 not in answer.text


@pytest.mark.parametrize("log_from", ["abc", "-5", "1" * 40, ""])
def test_a_stream_with_a_bad_log_start_sends_the_whole_log(client, monkeypatch, log_from):
    monkeypatch.setattr(live, "LIFETIME", 0.5)
    token, _state = new_match(client, players=3, seed=4)
    client.post(f"/api/m/{token}/act", json={"action": "keep"})
    [first] = _first_events(client, f"/api/m/{token}/events?log_from={log_from}", 1)
    assert first["log_from"] in (0, first["log_size"]) and len(first["events"]) == len(first["log"])


def test_a_move_wakes_the_stream_at_once(client, monkeypatch):
    """A move made elsewhere reaches the stream without its fallback check (which would come only after the stream's
    lifetime here): the stream sleeps until a move wakes it, rather than asking the match 4 times a second."""

    monkeypatch.setattr(live, "LIFETIME", 3.0)
    monkeypatch.setattr(live, "INTERVAL", 60.0)
    token, _state = new_match(client, players=3, seed=4)
    _keep_soon(client, token)
    states = _first_events(client, f"/api/m/{token}/events", 2)
    assert [s["ply"] for s in states] == [0, 1]


def test_the_answer_to_a_move_and_the_streams_state_after_it_are_made_once(client):
    from scoutlab.text import i18n
    from scoutlab.web.events import table_json

    token, _state = new_match(client, players=3, seed=4)
    answer = client.post(f"/api/m/{token}/act?log_from=0", json={"action": "keep"}).json()
    match = client.app.state.matches.get(token)
    with match.lock:
        kept = match.rendered
        again = table_json(match, i18n.gettext_for("en"), 0)
    assert kept is not None and match.rendered is kept  # made once, given out twice
    assert {k: v for k, v in answer.items() if k != "practice"} == again
    again["extra"] = 1  # each caller's copy is its own
    with match.lock:
        assert "extra" not in table_json(match, i18n.gettext_for("en"), 0)
