"""Compact snapshots of a live match, so a restarted server loads a match instead of replaying it.

A snapshot is the game state's changing fields and the match's public log, as compressed
JSON (`body`), plus the deal's random stream (`rng`, 2.5 KB, which changes only when a round
is dealt, so it is encoded once per deal). It is written after every `EVERY`-th move (and
the last) in the same SQLite transaction as that move (store.add_move), so it is never
ahead of the moves, and at most EVERY - 1 moves behind them. Each carries

- `format`: this module's format number and a fingerprint of the engine's source
  (core/scoutlab/engine/*.py): a snapshot written by another engine is stale and is not used;
- `ply`: how many of the match's moves it includes;
- `check`: a BLAKE2b digest of the three above and both blobs: a damaged one is refused.

`restore` also checks that the state's history has `ply` moves and that its first and last
moves are written as the stored moves are (a code layout that changed would show there).
Anything that fails raises `Refused`; the caller then tries the older snapshot, replaying the
few moves after it, and at worst replays the whole match from its seed (matches.Matches.get).

A state holding fields that are not the engine's own (a plugin may keep its own) is not
snapshotted (`encode` returns None): such a match is replayed, as before.
"""

from __future__ import annotations

import hashlib
import json
import random
import zlib
from array import array
from dataclasses import dataclass, fields
from importlib import resources
from typing import TYPE_CHECKING, Any

from scoutlab.base.values import RoundEnd
from scoutlab.engine.state import GameState

if TYPE_CHECKING:
    from scoutlab.rules import Rules
    from scoutlab.web.matches import LogEntry

#: Bump when the layout of `body` changes: older snapshots are then stale and matches replay once.
FORMAT = 1
#: A snapshot is kept after every EVERY-th move and after the last: loading a match replays at most
#: EVERY - 1 moves after its newest snapshot (2 * EVERY - 1 after the older one, if the newest is refused).
#: Every move would cost about 0.1 ms more CPU a move (encoding, and 3.7 KB written instead of 0.1 KB).
EVERY = 4


def slot(ply: int) -> int:
    """Which of a match's two snapshot slots the snapshot after `ply` moves goes in: the other keeps the one before."""
    return ply // EVERY % 2


def due(ply: int, over: bool) -> bool:
    """Whether a snapshot is kept after `ply` moves."""
    return ply % EVERY == 0 or over

# The state's fields a snapshot keeps: those play changes (turns.FIELDS without the rules' knobs, which
# `_knobs` copies from the rules, and without `beat` and `_legal`, which follow from the rest), and GameState's own.
KEPT = (
    "rounds", "round", "pool", "set_aside", "deals", "totals",
    "hands", "active", "active_owner", "last_shower", "last_seat", "last_kind", "last_scouted",
    "round_start", "captured", "chips_received", "chips_held", "chips_paid", "scout_show_chips",
    "turn", "starting_seat", "to_act", "flips_left", "phase", "_replayable", "seed", "removed",
)
# Read from the rules, derived or a cache: the rest of `fields()`. Any other field makes a state unsnapshottable.
_NOT_KEPT = frozenset({
    "rules", "players", "layout", "guarded", "builtin_shows", "observed", "observers", "scores_hooked", "adjusters",
    "builtin_ends", "end_names", "end_exempts", "scout_pays", "extra_turn", "sns_fallback", "flip_reverses", "exemption",
    "max_turns", "points_captured", "points_received", "points_unspent", "points_in_hand",
    "beat", "_legal", "_facts", "rng", "history", "round_ends",
})
_KNOWN = frozenset(KEPT) | _NOT_KEPT
_ROUND_END = tuple(field.name for field in fields(RoundEnd))
#: matches.LogEntry's fields in order (matches.py checks this when it is imported).
LOG_ENTRY = ("round", "seat", "kind", "cards", "taken", "end", "captured", "gap", "start")


def _engine_fingerprint() -> str:
    digest = hashlib.sha256()
    folder = resources.files("scoutlab.engine")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".py"):
            digest.update(entry.name.encode() + b"\0" + entry.read_bytes())
    return digest.hexdigest()[:16]


#: What a snapshot must say to be used: the format and the engine that wrote it.
FORMAT_TAG = f"{FORMAT}:{_engine_fingerprint()}"


class Refused(Exception):
    """A snapshot that may not be used: damaged, stale or inconsistent; the message says which."""


@dataclass(frozen=True)
class Snapshot:
    """One stored snapshot, as store.py reads and writes it."""

    ply: int
    format: str
    body: bytes
    rng: bytes
    check: bytes

    @classmethod
    def sealed(cls, ply: int, body: bytes, rng: bytes) -> Snapshot:
        return cls(ply, FORMAT_TAG, body, rng, _check(ply, FORMAT_TAG, body, rng))


def _check(ply: int, tag: str, body: bytes, rng: bytes) -> bytes:
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{ply}\0{tag}\0{len(body)}\0".encode())
    digest.update(body)
    digest.update(rng)
    return digest.digest()


class Encoder:
    """A match's snapshot parts already encoded: the random stream (it changes only when a round is dealt)
    and the JSON of each history entry and log line (they only grow), so each move encodes only its own."""

    __slots__ = ("deals", "history", "log", "rng", "rng_blob")

    def __init__(self) -> None:
        self.rng: Any = None
        self.deals = -1
        self.rng_blob = b""
        self.history: list[str] = []
        self.log: list[str] = []

    def rng_of(self, state: GameState) -> bytes:
        if state.rng is not self.rng or len(state.deals) != self.deals:
            self.rng, self.deals, self.rng_blob = state.rng, len(state.deals), encode_rng(state.rng)
        return self.rng_blob

    def history_of(self, history: list[tuple[int, int, int]]) -> str:
        done = self.history
        if len(done) > len(history):  # a shorter history than last time (an undone move): encode it again
            done.clear()
        done.extend(f"[{r},{s},{c}]" for r, s, c in history[len(done) :])
        return ",".join(done)

    def log_of(self, log: list[LogEntry]) -> str:
        done = self.log
        if len(done) > len(log):
            done.clear()
        dumps = json.dumps
        done.extend(dumps([getattr(entry, name) for name in LOG_ENTRY], separators=(",", ":")) for entry in log[len(done) :])
        return ",".join(done)


def encode_rng(rng: random.Random) -> bytes:
    version, internal, gauss = rng.getstate()
    if version != 3 or gauss is not None or type(rng) is not random.Random:
        raise ValueError("not a plain Mersenne Twister state")
    return array("I", internal).tobytes()


def decode_rng(blob: bytes) -> random.Random:
    internal = array("I")
    internal.frombytes(blob)
    if len(internal) != 625:
        raise ValueError(f"a random stream of {len(internal)} words, not 625")
    rng = random.Random()
    rng.setstate((3, tuple(internal), None))
    return rng


def encode(state: GameState, log: list[LogEntry], ply: int, encoder: Encoder) -> Snapshot | None:
    """The snapshot of a match after `ply` moves, or None when its state holds fields a snapshot would not keep."""
    if not _KNOWN.issuperset(vars(state)) or len(state.history) != ply:  # the compiled table's own fields are fixed
        return None
    try:
        rng = encoder.rng_of(state)
    except ValueError:
        return None
    fields = {name: getattr(state, name) for name in KEPT}
    fields["round_ends"] = [[getattr(end, name) for name in _ROUND_END] for end in state.round_ends]
    text = (f'{{"state":{json.dumps(fields, separators=(",", ":"))},"history":[{encoder.history_of(state.history)}],'
            f'"log":[{encoder.log_of(log)}]}}')
    return Snapshot.sealed(ply, zlib.compress(text.encode(), 1), rng)


def _round_end(values: list) -> RoundEnd:
    (rnd, reason, exempt, scores, captured, received, held, in_hand, turns, adjustments, last_shower) = values
    return RoundEnd(rnd, reason, exempt, tuple(scores), tuple(captured), tuple(received), tuple(held), tuple(in_hand),
                    turns, tuple((name, tuple(points)) for name, points in adjustments), last_shower)


def restore(snapshot: Snapshot, rules: Rules, players: int, seed: int, moves: list[str]) -> tuple[GameState, list[tuple]]:
    """The state and the log's rows (LogEntry fields) a snapshot holds; Refused if it may not be used.

    `moves` are the match's stored moves: the snapshot must include at most them, and its first
    and last moves must read as they do.
    """
    if snapshot.format != FORMAT_TAG:
        raise Refused(f"written by another engine or format ({snapshot.format[:40]!r})")
    if _check(snapshot.ply, snapshot.format, snapshot.body, snapshot.rng) != snapshot.check:
        raise Refused("its check digest does not match (a damaged record)")
    if not 0 <= snapshot.ply <= len(moves):
        raise Refused(f"it holds {snapshot.ply} moves, the match has {len(moves)}")
    try:
        doc = json.loads(zlib.decompress(snapshot.body))
        state = GameState.__new__(GameState)
        state._knobs(rules, players)
        fields = doc["state"]
        for name in KEPT:  # JSON gives back the lists as lists: only the tuples need making again
            setattr(state, name, fields[name])
        state.history = [(r, s, c) for r, s, c in doc["history"]]
        state.round_ends = [_round_end(values) for values in fields["round_ends"]]
        state.rng = decode_rng(snapshot.rng)
        state.beat = rules.strength(state.active)
        state._legal = None
        log = [tuple(row) for row in doc["log"]]
    except Refused:
        raise
    except Exception as exc:  # a body that is not what this format writes: refused, never a traceback
        raise Refused(f"its record cannot be read ({type(exc).__name__}: {str(exc)[:80]})") from None
    if state.seed != seed or state.players != players:
        raise Refused("it belongs to another deal")
    history = state.history
    if len(history) != snapshot.ply:
        raise Refused(f"its history has {len(history)} moves, not {snapshot.ply}")
    try:
        for index in {0, len(history) - 1} if history else ():
            if state.format(history[index][2]) != moves[index]:
                raise Refused(f"its move {index + 1} does not read as the stored one")
    except Refused:
        raise
    except Exception as exc:
        raise Refused(f"its moves cannot be read ({type(exc).__name__})") from None
    return state, log
