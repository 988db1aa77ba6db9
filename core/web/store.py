"""Matches kept in SQLite: each match is its variant document, seed, seats and list of moves.

A match is never stored as a snapshot of its state: it is rebuilt by replaying its
moves from the seed, so a restarted server resumes every match exactly where it was.
The file is marked as ours (`application_id`) with a schema version (`user_version`),
so a foreign or corrupt file is refused with a clear message instead of being
silently overwritten.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass

#: "SCOU" in ASCII: marks a SQLite file as a scoutlab match database.
APPLICATION_ID = 0x53434F55
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE matches (
    token   TEXT PRIMARY KEY,
    created REAL NOT NULL,
    spec    TEXT NOT NULL,     -- the merged variant document, JSON
    players INTEGER NOT NULL,
    seed    INTEGER NOT NULL,
    seat    INTEGER NOT NULL,  -- the browser's seat
    bots    TEXT NOT NULL      -- JSON list, one bot name per seat (null for the browser's seat)
);
CREATE TABLE moves (
    token  TEXT NOT NULL REFERENCES matches(token),
    ply    INTEGER NOT NULL,
    action TEXT NOT NULL,      -- notation, e.g. "show 2-3": readable, and independent of code layout
    PRIMARY KEY (token, ply)
);
"""


class StoreError(Exception):
    """The match database cannot be used; the message says which file and why."""


@dataclass(frozen=True)
class StoredMatch:
    """One match as stored: enough to rebuild it exactly by replay."""

    token: str
    spec: dict
    players: int
    seed: int
    seat: int
    bots: list[str | None]
    moves: list[str]


class MatchStore:
    """The match database. Safe to share between threads: one connection behind a lock."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = os.fspath(path)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._open()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a scoutlab match database ({exc}); move it aside or pass another --db") from None

    def _open(self) -> None:
        db = self._db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app_id == 0 and tables == 0:
            db.executescript("BEGIN;" + _SCHEMA + f"PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
        elif app_id != APPLICATION_ID:
            raise StoreError(
                f"{self.path} is a SQLite database of another program (application_id {app_id}), "
                "not a scoutlab match database; pass another --db"
            )
        elif version != SCHEMA_VERSION:
            newer = "a newer" if version > SCHEMA_VERSION else "an older"
            raise StoreError(f"{self.path} was written by {newer} scoutlab (match schema {version}, this one reads {SCHEMA_VERSION})")
        db.execute("PRAGMA journal_mode = WAL")  # readers never wait for the writer
        db.execute("PRAGMA synchronous = NORMAL")  # WAL keeps the file consistent; a crash loses at most the last move

    def create(self, token: str, spec: dict, players: int, seed: int, seat: int, bots: list[str | None]) -> None:
        with self._lock, self._db:
            self._db.execute(
                "INSERT INTO matches (token, created, spec, players, seed, seat, bots) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (token, time.time(), json.dumps(spec), players, seed, seat, json.dumps(bots)),
            )

    def add_move(self, token: str, ply: int, action: str) -> None:
        """Record move number `ply` (0-based) of a match."""
        with self._lock, self._db:
            self._db.execute("INSERT INTO moves (token, ply, action) VALUES (?, ?, ?)", (token, ply, action))

    def load(self, token: str) -> StoredMatch | None:
        """The stored match, or None when there is no match with this token."""
        with self._lock:
            row = self._db.execute(
                "SELECT spec, players, seed, seat, bots FROM matches WHERE token = ?", (token,)
            ).fetchone()
            if row is None:
                return None
            moves = [m for (m,) in self._db.execute("SELECT action FROM moves WHERE token = ? ORDER BY ply", (token,))]
        spec, players, seed, seat, bots = row
        return StoredMatch(token, json.loads(spec), players, seed, seat, json.loads(bots), moves)

    def count(self) -> int:
        with self._lock:
            return self._db.execute("SELECT count(*) FROM matches").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()
