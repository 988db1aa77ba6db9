"""Shared by the web tests: an app on a temporary database and a scripted browser seat."""

from __future__ import annotations

import html
import json
import random
import re

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed")
pytest.importorskip("httpx2", reason="the web extra is not installed")

from fastapi.testclient import TestClient

from scoutlab.web.app import create_app


def client_for(db_path) -> TestClient:
    return TestClient(create_app(str(db_path), bot_delay_ms=0))


def new_match(client: TestClient, variant="official", players=3, bots=None, seed=None, lang="en") -> tuple[str, dict]:
    """A new match through the API: a secret deal, or a practice match dealt from `seed` when one is given."""
    bots = bots or ["random"] * (players - 1)
    body = {"variant": variant, "players": players, "bots": bots}
    if seed is not None:
        body.update(practice=True, seed=seed)
    answer = client.post(f"/api/new?lang={lang}", json=body)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    return body["token"], body["state"]


def server_match(client: TestClient, token: str):
    """The server's own match object: tests use it to know what is legal, never to decide what the browser sees."""
    return client.app.state.matches.get(token)


def random_move(client: TestClient, token: str, rng: random.Random) -> str:
    """A random legal move for the browser's seat, in notation."""
    state = server_match(client, token).state
    return state.format(rng.choice(state.legal_actions()))


def step(client: TestClient, token: str, rng: random.Random, lang="en") -> dict:
    """One step of a scripted browser: its own move when it is to act, else ask for one bot move."""
    current = client.get(f"/api/m/{token}?lang={lang}").json()
    if current["your_turn"]:
        answer = client.post(f"/api/m/{token}/act?lang={lang}", json={"action": random_move(client, token, rng)})
    else:
        answer = client.post(f"/api/m/{token}/advance?lang={lang}")
    assert answer.status_code == 200, answer.text
    return answer.json()


def play_to_end(client: TestClient, token: str, seed=0, limit=5000) -> dict:
    rng = random.Random(seed)
    for _ in range(limit):
        state = step(client, token, rng)
        if state["over"]:
            return state
    raise AssertionError("the match did not end")


_TAG = re.compile(r"<(script|style)\b.*?</\1>|<[^>]+>", re.S)
_ATTRIBUTE = re.compile(r'\b(?:aria-label|title|placeholder|alt)="([^"]*)"')


def readable(page: str) -> str:
    """The text of an HTML page as a player reads it: its words and its labels, with the table script's strings
    (not values or ids)."""
    strings = re.search(r'<script type="application/json" id="strings">(.*?)</script>', page, re.S)
    text = _TAG.sub(" ", page) + " " + " ".join(_ATTRIBUTE.findall(page))
    if strings:
        text += " " + " ".join(json.loads(strings.group(1)).values())
    return " ".join(html.unescape(text).split())


def state_strings(state: dict, skip: tuple[str, ...] = ("variant", "bot_id", "legal")) -> str:
    """Every string of a match state the table's script may show, one space apart; the keys in `skip` hold
    identifiers or notation, not words."""
    found: list[str] = []

    def walk(value):
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                if key not in skip:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(state)
    return " ".join(" ".join(found).split())
