"""The web server's bad-input corpus (tests/bad_web/requests.yaml): every request gets its status and a one-line reason.

Besides each case's own status and message, every answer is checked for what no answer
may hold: a traceback or Python's own error text, a quote of more than a short excerpt
of the input, or a 5xx other than 503.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
import yaml
from web_helpers import client_for, new_match

CASES = yaml.safe_load((Path(__file__).parent / "bad_web" / "requests.yaml").read_text(encoding="utf-8"))
FILLERS = {
    "long_token": "t" * 5000,
    "long_action": "show%20" + "1" * 5000,
    "long_number": "9" * 5000,
    "huge_text": "x" * 200_000,
    "long_name": "b" * 100_000,
    "long_variant": "v" * 5000,
}
PYTHON_TEXT = ("Traceback", "invalid literal", "Exceeds the limit", "RecursionError", "OverflowError", "Internal Server Error",
               "object has no attribute", "NoneType", "codec can't", '"detail"')


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return client_for(tmp_path_factory.mktemp("bad_web") / "matches.sqlite3")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The app as `scoutlab serve --host 127.0.0.1` builds it: answering only to this machine's host names."""
    # imported here, after web_helpers has skipped these tests where the web extra is missing
    from fastapi.testclient import TestClient

    from scoutlab.web.app import create_app
    from scoutlab.web.doors import allowed_hosts

    app = create_app(str(tmp_path_factory.mktemp("bad_web_served") / "matches.sqlite3"), bot_delay_ms=0, hosts=allowed_hosts("127.0.0.1"))
    return TestClient(app, base_url="http://127.0.0.1:8000")


def fill(text: str, token: str) -> str:
    return text.format(token=token, **FILLERS)


def body_of(parts: list) -> bytes:
    text = "".join(part if isinstance(part, str) else part[0] * part[1] for part in parts)
    return text.encode("utf-8", errors="surrogateescape")


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_bad_input_gets_its_status_and_one_line_reason(client, served, case):
    token, _ = new_match(client, "official", 3)
    if case.get("served"):
        client = served
    method = case.get("method", "POST")
    path = fill(case["path"], token)
    headers = dict(case.get("headers", {}))
    if "body" in case:
        answer = client.request(method, path, content=body_of(case["body"]), headers={"content-type": "application/json", **headers})
    elif "json" in case:
        answer = client.request(method, path, json=case["json"], headers=headers)
    elif "form" in case:
        form = {key: fill(value, token) for key, value in case["form"].items()}
        answer = client.request(method, path, data=form, headers=headers, follow_redirects=False)
    else:
        answer = client.request(method, path, headers=headers)
    assert answer.status_code == case["status"], answer.text[:300]
    text = answer.text
    for python in PYTHON_TEXT:
        assert python not in text, f"{python!r} reached the client"
    for filler in ("1" * 100, "9" * 100, "v" * 100, "x" * 100, "p" * 100, "t" * 100, "[" * 100, "7" * 100, "b" * 100):
        assert filler not in text, "the answer quotes more than an excerpt of the input"
    if answer.headers["content-type"].startswith("application/json"):
        message = answer.json().get("error") or answer.json().get("reason") or ""
        assert "\n" not in message and len(message) < 300, message
        assert not any(unicodedata.category(c) in ("Cc", "Cs") for c in message), message  # no control character or lone surrogate echoed
    else:
        message = text
    if "message" in case:
        assert case["message"].lower() in message.lower(), message[:300]
    if "problems" in case:
        assert answer.json()["problems"] == case["problems"]


def test_the_corpus_covers_every_door():
    paths = {case["path"].split("?")[0] for case in CASES}
    assert {"/api/new", "/new", "/api/m/{token}/act", "/api/m/{token}/explain", "/api/m/{token}"} <= paths
    assert {case["status"] for case in CASES} >= {400, 403, 404, 413, 422}
