"""The match database under faults: WAL with a busy timeout, the schema-1 migration, a full disk,
a damaged page and a server killed with SIGKILL; each answered with a message, nothing else lost."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time

import pytest
from web_helpers import client_for, new_match, step

from scoutlab.rules import load_rules
from scoutlab.web.store import BUSY_TIMEOUT_MS, SCHEMA_VERSION, MatchStore

SCHEMA_1 = """
CREATE TABLE matches (token TEXT PRIMARY KEY, created REAL NOT NULL, spec TEXT NOT NULL, players INTEGER NOT NULL,
                      seed INTEGER NOT NULL, seat INTEGER NOT NULL, bots TEXT NOT NULL);
CREATE TABLE moves (token TEXT NOT NULL REFERENCES matches(token), ply INTEGER NOT NULL, action TEXT NOT NULL,
                    PRIMARY KEY (token, ply));
PRAGMA application_id = 1396920149;
PRAGMA user_version = 1;
"""


def test_the_database_is_in_wal_mode_with_a_busy_timeout(tmp_path):
    store = MatchStore(tmp_path / "m.sqlite3")
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA busy_timeout").fetchone()[0] == BUSY_TIMEOUT_MS == 5000


def test_a_schema_1_database_is_migrated_and_its_matches_resume_as_practice(tmp_path):
    db = tmp_path / "old.sqlite3"
    rules = load_rules("official")
    state = rules.new_game(3, 1_234_567)
    rng = random.Random(3)
    moves = []
    for _ in range(25):
        code = rng.choice(state.legal_actions())
        moves.append(state.format(code))
        state.apply(code)
    with sqlite3.connect(db) as raw:
        raw.executescript(SCHEMA_1)
        raw.execute("INSERT INTO matches VALUES ('oldtoken0000000000000', 0, ?, 3, 1234567, 0, ?)",
                    (json.dumps(rules.spec.doc), json.dumps([None, "random", "random"])))
        raw.executemany("INSERT INTO moves VALUES ('oldtoken0000000000000', ?, ?)", list(enumerate(moves)))
    client = client_for(db)
    answer = client.get("/api/m/oldtoken0000000000000")
    assert answer.status_code == 200
    resumed = answer.json()
    assert resumed["practice"]  # a 31-bit seed can be found from a hand: labelled for what it is
    assert [(c["t"], c["b"]) for c in resumed["hand"]] == [(c >> 5, c & 31) for c in state.hands[0]]
    assert len(resumed["log"]) >= 25
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
        assert raw.execute("SELECT typeof(seed), seed, practice FROM matches").fetchone() == ("text", "1234567", 1)


def test_a_128_bit_seed_is_kept_exactly(tmp_path):
    client = client_for(tmp_path / "m.sqlite3")
    token, _ = new_match(client, "official", 3)
    seed = client.app.state.matches.get(token).seed
    assert MatchStore(tmp_path / "m.sqlite3").load(token).seed == seed and seed.bit_length() > 64


def test_a_full_disk_answers_503_and_loses_nothing(tmp_path):
    """SQLite's own SQLITE_FULL, from a page limit: the move is refused, memory and file stay in step."""
    db = tmp_path / "m.sqlite3"
    client = client_for(db)
    tokens = [new_match(client, "official", 3)[0] for _ in range(6)]
    store = client.app.state.matches.store
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages}")  # the file may not grow: a full disk, as SQLite sees one
    rng = random.Random(2)
    failed = None
    for _ in range(200):
        for token in tokens:
            current = client.get(f"/api/m/{token}").json()
            if current["over"]:
                continue
            if current["your_turn"]:
                move = rng.choice(["keep", "flip"]) if current["legal"]["flip"] else _legal_move(current, rng)
                answer = client.post(f"/api/m/{token}/act", json={"action": move})
            else:
                answer = client.post(f"/api/m/{token}/advance")
            if answer.status_code != 200:
                failed = token
                break
        if failed:
            break
    assert failed and answer.status_code == 503, answer.text
    assert "disk is full or unavailable" in answer.json()["error"] and "\n" not in answer.json()["error"]
    starts = [client.post("/api/new", json={"variant": "official"}) for _ in range(20)]
    assert {a.status_code for a in starts} == {503} or {a.status_code for a in starts} == {200, 503}
    assert all("disk is full" in a.json()["error"] for a in starts if a.status_code == 503)
    shown = client.get(f"/api/m/{failed}").json()  # rebuilt from the file: the refused move never happened
    with sqlite3.connect(db) as raw:
        stored = raw.execute("SELECT count(*) FROM moves WHERE token = ?", (failed,)).fetchone()[0]
    assert stored == len(client.app.state.matches.get(failed).state.history)
    assert shown["log_size"] == stored + sum(1 for line in shown["log"] if line.startswith("Round "))
    store._db.execute("PRAGMA max_page_count = 1073741823")
    assert step(client, failed, rng)  # room again: the match goes on


def _legal_move(state: dict, rng: random.Random) -> str:
    legal = state["legal"]
    if legal["shows"]:
        start, length = rng.choice(legal["shows"])
        return f"show {start + 1}-{start + length}"
    return f"scout {'right' if rng.choice(legal['scout_ends']) else 'left'} 0"


def test_a_damaged_page_loses_only_the_matches_on_it(tmp_path, caplog):
    db = tmp_path / "m.sqlite3"
    client = client_for(db)
    rng = random.Random(1)
    tokens = []
    for _ in range(16):
        token, _ = new_match(client, "official", 3)
        for _ in range(30):
            step(client, token, rng)
        tokens.append(token)
    client.app.state.matches.store.close()  # the last connection checkpoints the WAL into the file
    with sqlite3.connect(db) as raw:
        leaves = [page for (page,) in raw.execute("SELECT pageno FROM dbstat WHERE name = 'moves' AND pagetype = 'leaf'")]
    data = bytearray(db.read_bytes())
    victim = tokens[5]
    page = next(p for p in leaves if victim.encode() in data[(p - 1) * 4096 : p * 4096])
    data[(page - 1) * 4096 : (page - 1) * 4096 + 12] = b"\xff" * 12  # the page's header: no longer a b-tree page
    db.write_bytes(bytes(data))
    fresh = client_for(db)  # a restarted server: every match must come from the file
    answers = {token: fresh.get(f"/api/m/{token}") for token in tokens}
    assert answers[victim].status_code == 503
    message = answers[victim].json()["error"]
    assert message == "This match cannot be restored: the server's copy of it is damaged."
    assert "malformed" in caplog.text  # why, in the server's log
    assert all(a.status_code in (200, 503) for a in answers.values())
    working = [t for t, a in answers.items() if a.status_code == 200]
    assert len(working) >= 8, f"only {len(working)} of 16 matches survived one damaged page"
    for token in working[:3]:
        assert step(fresh, token, rng)  # the others go on playing
    page_answer = fresh.get(f"/m/{victim}", headers={"accept": "text/html"})
    assert page_answer.status_code == 503 and "cannot be restored" in page_answer.text
    assert page_answer.headers["content-type"].startswith("text/html")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(db, port) -> subprocess.Popen:
    httpx = pytest.importorskip("httpx2")
    server = subprocess.Popen([sys.executable, "-m", "scoutlab.cli", "serve", "--db", str(db), "--port", str(port), "--bot-delay", "0"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    for _ in range(150):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/m/x", timeout=1)
            return server
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    pytest.fail("the server did not start")


def test_a_server_killed_mid_match_resumes_every_match_exactly(tmp_path):
    import httpx2 as httpx  # the maintained line of httpx, as the web extra installs it

    db, port = tmp_path / "m.sqlite3", _free_port()
    base = f"http://127.0.0.1:{port}"
    server = _serve(db, port)
    try:
        with httpx.Client(base_url=base, timeout=10) as http:
            tokens = [http.post("/api/new", json={"variant": "official", "bots": ["random", "random"]}).json()["token"] for _ in range(3)]
            rng = random.Random(4)
            for _ in range(25):
                for token in tokens:
                    state = http.get(f"/api/m/{token}").json()
                    if state["your_turn"]:
                        move = rng.choice(["keep", "flip"]) if state["legal"]["flip"] else _legal_move(state, rng)
                        http.post(f"/api/m/{token}/act", json={"action": move})
                    else:
                        http.post(f"/api/m/{token}/advance")
            before = {token: http.get(f"/api/m/{token}").json() for token in tokens}
    finally:
        os.killpg(server.pid, signal.SIGKILL)  # no shutdown, no checkpoint: the WAL is all there is
        server.wait()
    assert all(len(state["log"]) > 10 for state in before.values())
    server = _serve(db, port)
    try:
        after = {token: httpx.get(f"{base}/api/m/{token}", timeout=10).json() for token in tokens}
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()
    assert after == before
