"""Matches kept in SQLite: each match is its variant document, secret deal seed, seats and list of moves.

A match is its moves from the seed: replaying them rebuilds it exactly. Beside them, each
fourth move's transaction (and the last's) also keeps a compact snapshot of the match after
it (snapshots.py), in one of two slots per match, so a restarted server loads a match instead of replaying it;
a snapshot that is damaged or stale is refused and the match is replayed from the other
slot's snapshot or, at worst, from the seed.
The seed is the match's secret (it decides every hand), so it lives here and nowhere
a player can read it. The file is marked as ours (`application_id`) with a schema
version (`user_version`), so a foreign or corrupt file is refused with a clear
message instead of being silently overwritten; a file of the previous schema is
migrated in place.

Failures while serving are sorted into two kinds the app answers differently:
`StorageFull` (disk full, read-only, locked for too long: nothing is lost, try
again later) and `MatchDamaged` (the pages holding one match cannot be read: that
match says so, the others go on).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass

from scoutlab.web.snapshots import Snapshot, slot

#: "SCOU" in ASCII: marks a SQLite file as a scoutlab match database.
APPLICATION_ID = 0x53434F55
#: 2: seeds are 128-bit secrets kept as decimal text (SQLite integers stop at 64 bits), and `practice` marks chosen deals.
#: 3: snapshots of each match's state, so a restart need not replay every match.
SCHEMA_VERSION = 3
#: A writer waits this long for another connection's lock before giving up (milliseconds).
BUSY_TIMEOUT_MS = 5000

_SCHEMA = """
CREATE TABLE matches (
    token    TEXT PRIMARY KEY,
    created  REAL NOT NULL,
    spec     TEXT NOT NULL,     -- the merged variant document, JSON
    players  INTEGER NOT NULL,
    seed     TEXT NOT NULL,     -- the deal's seed in decimal: a 128-bit secret, or the number a practice match chose
    seat     INTEGER NOT NULL,  -- the browser's seat
    bots     TEXT NOT NULL,     -- JSON list, one bot name per seat (null for the browser's seat)
    practice INTEGER NOT NULL DEFAULT 0  -- 1: the deal can be known in advance (a chosen seed, or a schema-1 31-bit seed)
);
CREATE TABLE moves (
    token  TEXT NOT NULL REFERENCES matches(token),
    ply    INTEGER NOT NULL,
    action TEXT NOT NULL,      -- notation, e.g. "show 2-3": readable, and independent of code layout
    PRIMARY KEY (token, ply)
);
""" + """
CREATE TABLE snapshots (
    token  TEXT NOT NULL REFERENCES matches(token),
    slot   INTEGER NOT NULL,   -- 0 or 1 (snapshots.slot): the newest snapshot and the one before it
    ply    INTEGER NOT NULL,   -- the moves it includes
    format TEXT NOT NULL,      -- snapshots.FORMAT_TAG: its format and the engine that wrote it
    body   BLOB NOT NULL,      -- zlib-compressed JSON: the state's changing fields and the public log
    rng    BLOB NOT NULL,      -- the deal's random stream (625 words)
    checks BLOB NOT NULL,      -- BLAKE2b of all the above: a damaged snapshot is refused
    PRIMARY KEY (token, slot)
);
"""
_SNAPSHOTS = _SCHEMA[_SCHEMA.index("CREATE TABLE snapshots") :]

# Schema 1 kept 31-bit seeds as INTEGER; a 128-bit number would be turned into a lossy REAL by that
# column's affinity, so the table is rebuilt with a TEXT seed. Those old deals are guessable: practice.
_MIGRATE_1_TO_2 = """
CREATE TABLE matches_v2 (
    token    TEXT PRIMARY KEY,
    created  REAL NOT NULL,
    spec     TEXT NOT NULL,
    players  INTEGER NOT NULL,
    seed     TEXT NOT NULL,
    seat     INTEGER NOT NULL,
    bots     TEXT NOT NULL,
    practice INTEGER NOT NULL DEFAULT 0
);
INSERT INTO matches_v2 (token, created, spec, players, seed, seat, bots, practice)
    SELECT token, created, spec, players, CAST(seed AS TEXT), seat, bots, 1 FROM matches;
DROP TABLE matches;
ALTER TABLE matches_v2 RENAME TO matches;
"""


class StoreError(Exception):
    """The match database cannot be used; the message says which file and why."""


class StorageFull(StoreError):
    """A move or match could not be written (disk full, read-only, busy): nothing was kept; try again later."""


class MatchDamaged(StoreError):
    """The stored match cannot be read back (a damaged page, or a move that no longer replays)."""


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
    practice: bool = False
    snapshots: tuple[Snapshot, ...] = ()  # newest first


def _write_failure(exc: sqlite3.Error) -> StoreError:
    """The StoreError a failed write becomes: a damaged file, or storage that is full or unavailable."""
    text = str(exc)
    if isinstance(exc, sqlite3.DatabaseError) and "malformed" in text:
        return MatchDamaged(f"the match database is damaged ({text})")
    return StorageFull(f"the match could not be saved ({text})")


class MatchStore:
    """The match database. Safe to share between threads: one connection behind a lock."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = os.fspath(path)
        self._lock = threading.Lock()
        folder = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(folder):  # sqlite would say "unable to open database file", as if the file were bad
            raise StoreError(f"cannot keep matches in {self.path}: there is no folder {folder}; pass another --db")
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._open()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a scoutlab match database ({exc}); move it aside or pass another --db") from None

    def _open(self) -> None:
        db = self._db
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")  # another process holding the lock: wait, then fail clearly
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
        elif version in (1, 2):  # schema 2 gains the snapshots table; its matches replay once, then have snapshots
            first = _MIGRATE_1_TO_2 if version == 1 else ""
            db.executescript("BEGIN IMMEDIATE;" + first + _SNAPSHOTS + f"PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
        elif version != SCHEMA_VERSION:
            newer = "a newer" if version > SCHEMA_VERSION else "an older"
            raise StoreError(f"{self.path} was written by {newer} scoutlab (match schema {version}, this one reads {SCHEMA_VERSION})")
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]  # readers never wait for the writer
        if mode != "wal":
            raise StoreError(f"{self.path} cannot be opened in WAL mode (the file system gave {mode!r}); pass a --db on a local disk")
        # Durability: a move is answered after its transaction commits. In WAL mode with synchronous = NORMAL the
        # commit is written to the WAL file (in the operating system's cache) but not fsynced, so a killed server
        # (even kill -9) loses nothing: the kernel still writes it. Only a power loss or a crash of the operating
        # system can lose the commits since the last sync (each checkpoint syncs), and it never corrupts the file.
        # FULL would fsync every commit: 160 us a commit (median) against 15 us on this machine's disk.
        db.execute("PRAGMA synchronous = NORMAL")

    def create(self, token: str, spec: dict, players: int, seed: int, seat: int, bots: list[str | None], practice: bool = False) -> None:
        """Keep a new match; StorageFull (or MatchDamaged) if it cannot be written."""
        try:
            with self._lock, self._db:
                self._db.execute(
                    "INSERT INTO matches (token, created, spec, players, seed, seat, bots, practice) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (token, time.time(), json.dumps(spec), players, str(seed), seat, json.dumps(bots), int(practice)),
                )
        except sqlite3.Error as exc:
            raise _write_failure(exc) from None

    def add_move(self, token: str, ply: int, action: str, snapshot: Snapshot | None = None) -> None:
        """Record move number `ply` (0-based) of a match, and the snapshot after it in the same transaction;
        StorageFull (or MatchDamaged) if it cannot be written."""
        try:
            with self._lock, self._db:
                self._db.execute("INSERT INTO moves (token, ply, action) VALUES (?, ?, ?)", (token, ply, action))
                if snapshot is not None:
                    self._put_snapshot(token, snapshot)
        except sqlite3.Error as exc:
            raise _write_failure(exc) from None

    def add_snapshot(self, token: str, snapshot: Snapshot) -> None:
        """Keep a snapshot on its own (after a replay); StorageFull (or MatchDamaged) if it cannot be written."""
        try:
            with self._lock, self._db:
                self._put_snapshot(token, snapshot)
        except sqlite3.Error as exc:
            raise _write_failure(exc) from None

    def _put_snapshot(self, token: str, snapshot: Snapshot) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO snapshots (token, slot, ply, format, body, rng, checks) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (token, slot(snapshot.ply), snapshot.ply, snapshot.format, snapshot.body, snapshot.rng, snapshot.check),
        )

    def load(self, token: str) -> StoredMatch | None:
        """The stored match, or None when there is no match with this token; MatchDamaged if it cannot be read."""
        try:
            with self._lock:
                row = self._db.execute(
                    "SELECT spec, players, seed, seat, bots, practice FROM matches WHERE token = ?", (token,)
                ).fetchone()
                if row is None:
                    return None
                moves = [m for (m,) in self._db.execute("SELECT action FROM moves WHERE token = ? ORDER BY ply", (token,))]
                snapshots = self._snapshots(token)
            spec, players, seed, seat, bots, practice = row
            return StoredMatch(token, json.loads(spec), players, int(seed), seat, json.loads(bots), moves, bool(practice), snapshots)
        except sqlite3.OperationalError as exc:
            raise StorageFull(f"the match could not be read ({exc})") from None
        except (sqlite3.DatabaseError, ValueError, TypeError) as exc:
            # A damaged page or a mangled row: this match is lost to us, the rest of the file may be fine.
            raise MatchDamaged(f"its stored record cannot be read ({_short(str(exc))})") from None

    def _snapshots(self, token: str) -> tuple[Snapshot, ...]:
        """The match's snapshots, newest first (the caller holds the lock). A damaged page or row here costs
        only the snapshot: the match is then replayed from its moves, which are read on their own."""
        try:
            rows = self._db.execute(
                "SELECT ply, format, body, rng, checks FROM snapshots WHERE token = ? ORDER BY ply DESC", (token,)
            ).fetchall()
        except sqlite3.OperationalError:
            raise
        except sqlite3.DatabaseError:
            return ()
        kept = []
        for ply, tag, body, rng, check in rows:
            if isinstance(ply, int) and isinstance(tag, str) and all(isinstance(b, bytes) for b in (body, rng, check)):
                kept.append(Snapshot(ply, tag, body, rng, check))
            else:  # a mangled row: the restore refuses it by its check
                kept.append(Snapshot(ply if isinstance(ply, int) else -1, str(tag), b"", b"", b""))
        return tuple(kept)

    def count(self) -> int:
        with self._lock:
            return self._db.execute("SELECT count(*) FROM matches").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
