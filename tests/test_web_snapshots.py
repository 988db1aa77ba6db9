"""Snapshots of live matches (core/scoutlab/web/snapshots.py): a match loaded from one equals the replayed match in
everything a player can see and in what may be played next, in every shipped variant; a damaged or stale
snapshot is refused and the match replayed from the older one or the seed; a server killed with SIGKILL
loads each match on its first access without replaying it."""

from __future__ import annotations

import dataclasses
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from web_helpers import client_for, new_match, step

from scoutlab.spec.variant import load_spec, shipped_variants
from scoutlab.text import i18n
from scoutlab.web import snapshots
from scoutlab.web.events import table_json
from scoutlab.web.matches import Match, Matches, rules_for
from scoutlab.web.store import MatchStore

VARIANTS = [name for name, _ in shipped_variants()]


def _play(matches: Matches, match: Match, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        if match.state.is_over:
            return
        if match.your_turn:
            matches.play(match, match.state.format(rng.choice(match.state.legal_actions())))
        else:
            matches.advance(match)


def _seen(match: Match) -> dict:
    """Everything a player can be shown of a match, in two languages, and every seat's view and next moves."""
    state = match.state
    return {
        "table": [table_json(match, i18n.gettext_for(lang)) for lang in ("en", "ar")],
        "views": [state.view(seat) for seat in range(state.players)],
        "legal": state.legal_actions() if not state.is_over else [],
        "log": match.log,
        "fields": {name: getattr(state, name) for name in snapshots.KEPT + ("history", "round_ends", "beat")},
        "rng": state.rng.getstate(),
    }


def _replayed(store: MatchStore, token: str) -> Match:
    """The match rebuilt the old way: every move replayed from the seed, no snapshot read."""
    stored = dataclasses.replace(store.load(token), snapshots=())
    matches = Matches(store, snapshots=False)
    match = matches._load(stored)
    assert matches.full_replays == 1
    return match


def _same_future(a: Match, b: Match, matches_a: Matches, matches_b: Matches, moves: int = 12) -> None:
    """Both play on with the same browser moves and fresh bots: the same moves come out, the same states."""
    rng_a, rng_b = random.Random(5), random.Random(5)
    for _ in range(moves):
        if a.state.is_over:
            break
        _play(matches_a, a, 1, rng_a)
        _play(matches_b, b, 1, rng_b)
        assert _seen(a) == _seen(b)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_match_loaded_from_its_snapshot_equals_the_replayed_one(tmp_path, variant):
    doc = load_spec(variant).doc
    for players in rules_for(doc).players:
        store = MatchStore(tmp_path / f"{variant}-{players}.sqlite3")
        live = Matches(store)
        rng = random.Random(players)
        match = live.new(doc, players, ["random"] * (players - 1))
        # moments: a snapshot just taken, moves after one, a round's end passed, the match over
        for moves in (snapshots.EVERY * 3, 1, 2, 30, 10_000):
            _play(live, match, moves, rng)
            fresh = Matches(MatchStore(store.path))
            loaded = fresh.get(match.token)
            assert fresh.full_replays == 0 and fresh.moves_replayed < snapshots.EVERY, f"{variant} {players}p replayed"
            replayed = _replayed(MatchStore(store.path), match.token)
            assert _seen(loaded) == _seen(replayed) == _seen(match)
        assert match.state.is_over and len(match.state.round_ends) == match.state.rounds
    # and the future: from the middle of a match, both play on alike
    store = MatchStore(tmp_path / f"{variant}-future.sqlite3")
    live = Matches(store)
    players = rules_for(doc).players[0]
    match = live.new(doc, players, ["random"] * (players - 1))
    _play(live, match, 21, random.Random(9))
    store.close()  # checkpointed: the file alone is the match, copied so each side plays on its own
    copy = tmp_path / f"{variant}-future-copy.sqlite3"
    shutil.copyfile(store.path, copy)
    fresh_a, fresh_b = Matches(MatchStore(store.path)), Matches(MatchStore(copy), snapshots=False)
    loaded = fresh_a.get(match.token)
    replayed = fresh_b._load(dataclasses.replace(fresh_b.store.load(match.token), snapshots=()))
    assert fresh_a.full_replays == 0 and fresh_b.full_replays == 1
    _same_future(loaded, replayed, fresh_a, fresh_b, moves=400)


def _stored_match(tmp_path, moves: int = 25) -> tuple[MatchStore, Match]:
    store = MatchStore(tmp_path / "m.sqlite3")
    live = Matches(store)
    match = live.new(load_spec("official").doc, 3, ["random", "random"])
    _play(live, match, moves, random.Random(3))
    return store, match


def _damage(path, ply: int | None = None, **columns) -> None:
    with sqlite3.connect(path) as raw:
        (newest,) = raw.execute("SELECT max(ply) FROM snapshots").fetchone()
        sets = ", ".join(f"{name} = ?" for name in columns)
        raw.execute(f"UPDATE snapshots SET {sets} WHERE ply = ?", (*columns.values(), newest if ply is None else ply))


@pytest.mark.parametrize("damage", [
    {"body": b"\x78\x01garbage"},  # bytes flipped on disk: the check digest tells
    {"checks": b"0" * 16},
    {"format": "1:0000000000000000"},  # written by another engine: stale
    {"rng": b"short"},
    {"body": "text, not a blob"},  # a value of another type where a blob belongs
])
def test_a_damaged_or_stale_snapshot_is_refused_and_the_older_one_is_used(tmp_path, damage, caplog):
    store, match = _stored_match(tmp_path)
    _damage(store.path, **damage)
    fresh = Matches(MatchStore(store.path))
    loaded = fresh.get(match.token)
    assert fresh.snapshots_refused == 1 and fresh.full_replays == 0
    assert 0 < fresh.moves_replayed < 2 * snapshots.EVERY  # a bounded replay from the older snapshot
    assert _seen(loaded) == _seen(match)
    assert "refused" in caplog.text
    again = Matches(MatchStore(store.path))  # a fresh snapshot was written after that replay
    assert _seen(again.get(match.token)) == _seen(match) and again.snapshots_refused == 0


def test_a_snapshot_that_is_well_sealed_but_not_a_state_is_refused(tmp_path):
    store, match = _stored_match(tmp_path)
    with sqlite3.connect(store.path) as raw:
        for ply, in raw.execute("SELECT ply FROM snapshots").fetchall():
            for body in (b"not zlib", __import__("zlib").compress(b'{"state": {}}')):
                fake = snapshots.Snapshot.sealed(ply, body, b"\0" * 2500)
                raw.execute("UPDATE snapshots SET body = ?, checks = ? WHERE ply = ?", (fake.body, fake.check, ply))
    fresh = Matches(MatchStore(store.path))
    assert _seen(fresh.get(match.token)) == _seen(match)
    assert fresh.snapshots_refused == 2 and fresh.full_replays == 1  # both slots refused: replayed from the seed


def test_a_snapshot_ahead_of_the_moves_or_of_another_deal_is_refused(tmp_path):
    store, match = _stored_match(tmp_path)
    with sqlite3.connect(store.path) as raw:
        raw.execute("DELETE FROM moves WHERE ply >= 10")  # as if the snapshot outlived its moves
    fresh = Matches(MatchStore(store.path))
    loaded = fresh.get(match.token)
    assert len(loaded.state.history) == 10 and fresh.full_replays == 1 and fresh.snapshots_refused == 2
    other = Matches(store).new(load_spec("official").doc, 3, ["random", "random"])
    _play(Matches(store), other, 8, random.Random(1))
    with sqlite3.connect(store.path) as raw:  # another match's snapshots under this token
        raw.execute("DELETE FROM snapshots WHERE token = ?", (match.token,))
        raw.execute("UPDATE snapshots SET token = ? WHERE token = ?", (match.token, other.token))
    fresh = Matches(MatchStore(store.path))
    assert _seen(fresh.get(match.token))["log"] == _seen(loaded)["log"] and fresh.snapshots_refused == 2


def test_the_web_answers_a_match_whose_snapshots_are_damaged(tmp_path):
    db = tmp_path / "m.sqlite3"
    client = client_for(db)
    token, _ = new_match(client, "official", 3)
    rng = random.Random(2)
    for _ in range(30):
        step(client, token, rng)
    before = client.get(f"/api/m/{token}").json()
    client.app.state.matches.store.close()
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE snapshots SET body = X'00', rng = X'00'")
    again = client_for(db)
    assert again.get(f"/api/m/{token}").json() == before
    assert again.app.state.matches.full_replays == 1


def test_a_schema_2_database_gains_snapshots_and_its_matches_replay_once(tmp_path):
    store, match = _stored_match(tmp_path)
    store.close()
    with sqlite3.connect(store.path) as raw:
        raw.execute("DROP TABLE snapshots")
        raw.execute("PRAGMA user_version = 2")
    first = Matches(MatchStore(store.path))
    assert _seen(first.get(match.token)) == _seen(match) and first.full_replays == 1
    second = Matches(MatchStore(store.path))
    assert _seen(second.get(match.token)) == _seen(match) and second.full_replays == 0


# -- a real server, killed ----------------------------------------------------------------------------


def _cpu_ns(pid: int) -> int:
    """CPU time of every thread of a process so far, in nanoseconds (schedstat: finer than the clock ticks of stat)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as stat:
                total += int(stat.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total


@pytest.mark.skipif(not os.path.exists("/proc/self/schedstat"), reason="needs Linux's /proc schedstat")
def test_a_killed_server_loads_each_match_on_first_access_without_replaying_it(tmp_path):
    """kill -9, restart: each match is loaded from its snapshot on first access, not replayed (the server counts
    both and says so), and gives what it gave before the kill.

    The CPU time of the first and second accesses is printed, not asserted: this shared machine drifts too much
    for a bound on time (loading from a snapshot was measured at about 0.3-0.4 ms a match, a replay about 2-3 ms)."""
    httpx = pytest.importorskip("httpx2")
    from test_web_faults import _free_port, _serve

    db, port = tmp_path / "m.sqlite3", _free_port()
    base = f"http://127.0.0.1:{port}"
    server = _serve(db, port)
    count = 30
    try:
        with httpx.Client(base_url=base, timeout=30) as http:
            tokens = []
            for index in range(count):
                body = http.post("/api/new", json={"variant": "official", "bots": ["random", "random"]}).json()
                token, state, rng = body["token"], body["state"], random.Random(index)
                while not state["over"]:
                    if state["your_turn"]:
                        move = _move(state, rng)
                        state = http.post(f"/api/m/{token}/act", json={"action": move}).json()
                    else:
                        state = http.post(f"/api/m/{token}/advance").json()
                tokens.append(token)
            before = {token: http.get(f"/api/m/{token}").json() for token in tokens}
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    log = tmp_path / "restart.log"
    server = _serve_logged(db, port, log)
    try:
        with httpx.Client(base_url=base, timeout=30) as http:
            http.get("/api/m/warm-up")
            time.sleep(0.2)
            started = _cpu_ns(server.pid)
            first = {token: http.get(f"/api/m/{token}").json() for token in tokens}
            middle = _cpu_ns(server.pid)
            second = {token: http.get(f"/api/m/{token}").json() for token in tokens}
            ended = _cpu_ns(server.pid)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()
    assert first == second == before
    loading = ((middle - started) - (ended - middle)) / count / 1e6  # ms a match beyond a plain read
    print(f"first access {(middle - started) / count / 1e6:.2f} ms a match, second {(ended - middle) / count / 1e6:.2f} ms:"
          f" loading {loading:.2f} ms")
    said = log.read_text()
    assert f"{count} matches loaded from the database, 0 replayed from the seed, 0 moves replayed, 0 snapshots refused" in said, said


def _serve_logged(db, port, log) -> subprocess.Popen:
    httpx = pytest.importorskip("httpx2")
    with open(log, "wb") as out:
        server = subprocess.Popen([sys.executable, "-m", "scoutlab.cli", "serve", "--db", str(db), "--port", str(port),
                                   "--bot-delay", "0"], stdout=subprocess.DEVNULL, stderr=out, start_new_session=True)
    for _ in range(150):
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
            return server
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    pytest.fail("the server did not start")


def _move(state: dict, rng: random.Random) -> str:
    legal = state["legal"]
    if legal["flip"]:
        return rng.choice(["keep", "flip"])
    if legal["shows"] and (not legal["scout_ends"] or rng.random() < 0.7):
        start, length = rng.choice(legal["shows"])
        return f"show {start + 1}" if length == 1 else f"show {start + 1}-{start + length}"
    return f"scout {'right' if rng.choice(legal['scout_ends']) else 'left'} {rng.randint(0, len(state['hand']))}"
