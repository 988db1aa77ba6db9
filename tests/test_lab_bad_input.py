"""The lab's bad-input corpus (tests/bad_web/lab_requests.yaml): every request gets its status and a one-line reason.

As for the table's doors (test_web_bad_input.py), every answer is also checked for what no answer may hold:
a traceback or Python's own error text, a quote of more than a short excerpt of the input, or a 5xx other than 503.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
import yaml
from lab_helpers import lab_client

from scoutlab.web.lab_jobs import Jobs

CASES = yaml.safe_load((Path(__file__).parent / "bad_web" / "lab_requests.yaml").read_text(encoding="utf-8"))
FILLERS = {
    "long_token": "t" * 5000,
    "long_number": "9" * 5000,
    "huge_text": "x" * 70_000,
    "long_name": "b" * 5000,
    "long_variant": "v" * 5000,
    "deep_yaml": "a: " + "[" * 10_000,
    "deep_mapping": "".join(" " * i + f"k{i}:\n" for i in range(300)),
    # nine levels of nine aliases each: 9^10 values once expanded, in 380 bytes
    "billion_laughs": 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(9)),
    "surrogate": "\ud800",
}
PYTHON_TEXT = ("Traceback", "invalid literal", "Exceeds the limit", "RecursionError", "OverflowError", "Internal Server Error",
               "object has no attribute", "NoneType", "codec can't")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lab")
    jobs = Jobs(folder / "jobs")
    yield lab_client(jobs, folder)
    jobs.close()


def filled(value):
    """The case's JSON with each {filler} replaced (only where a whole string is one)."""
    if isinstance(value, str):
        for key, text in FILLERS.items():
            value = value.replace("{" + key + "}", text)
        return value
    if isinstance(value, list):
        return [filled(v) for v in value]
    if isinstance(value, dict):
        return {k: filled(v) for k, v in value.items()}
    return value


def body_of(parts: list) -> bytes:
    text = "".join(part if isinstance(part, str) else part[0] * part[1] for part in parts)
    return text.encode("utf-8", errors="surrogateescape")


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_bad_input_gets_its_status_and_one_line_reason(client, case):
    method = case.get("method", "POST")
    path = filled(case["path"])
    headers = dict(case.get("headers", {}))
    if "body" in case:
        answer = client.request(method, path, content=body_of(case["body"]), headers={"content-type": "application/json", **headers})
    elif "json" in case:
        answer = client.request(method, path, content=json.dumps(filled(case["json"])),
                                headers={"content-type": "application/json", **headers})
    else:
        answer = client.request(method, path, headers=headers)
    assert answer.status_code == case["status"], answer.text[:300]
    text = answer.text
    for python in PYTHON_TEXT:
        assert python not in text, f"{python!r} reached the client"
    for filler in ("9" * 100, "v" * 100, "x" * 100, "t" * 100, "[" * 100, "b" * 100):
        assert filler not in text, "the answer quotes more than an excerpt of the input"
    body = answer.json()
    if case["status"] == 200:  # a text the spec layer refuses: its problems, each one line
        assert not body["valid"] and body["problems"], body
        assert all("\n" not in p and len(p) < 400 for p in body["problems"]), body["problems"]
        assert body["problems"] == case.get("problems", body["problems"])
        return
    message = body.get("error", "")
    assert message and "\n" not in message and len(message) < 300, message
    assert not any(unicodedata.category(c) in ("Cc", "Cs") for c in message), message  # no control character or lone surrogate echoed
    if case.get("message"):
        assert case["message"].lower() in message.lower(), message[:300]


def test_the_corpus_covers_every_door():
    paths = {case["path"].split("/{")[0] for case in CASES}
    assert {"/lab/api/check", "/lab/api/jobs"} <= paths
    assert any(case["path"].endswith("/cancel") for case in CASES) and any(case["path"].startswith("/lab/jobs/") for case in CASES)
    assert {case["status"] for case in CASES} >= {400, 403, 404, 413, 422}
