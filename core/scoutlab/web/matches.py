"""Live matches: one browser seat against bots, every move checked by the engine and stored.

`Matches` is the only way the web app touches a game. It creates a match, finds it
by its unguessable token (loading it from the database when it is not in memory: from
its latest snapshot, else by replay), plays the browser's moves and the bots' moves one at a time, and keeps a
public log of what happened: only what every player at the table saw.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, fields

from scoutlab.bots import Bot, make_bot
from scoutlab.engine.actions import ScoutShow, Show, parse_action
from scoutlab.engine.cards import flipped
from scoutlab.engine.state import GameState, IllegalAction
from scoutlab.rules import Rules
from scoutlab.spec.variant import Spec
from scoutlab.web.deals import bot_seed, secret_seed
from scoutlab.web.rulescache import RulesCache, rules_weight
from scoutlab.web.snapshots import EVERY, LOG_ENTRY, Encoder, Refused, Snapshot, due as snapshot_due, encode, restore
from scoutlab.web.store import MatchDamaged, MatchStore, StorageFull, StoredMatch

log = logging.getLogger("scoutlab.web")

#: Estimated bytes of one live match besides its rules, and per line of its log (measured with tracemalloc: about
#: 15 KB fresh and 30 KB for a finished 3-player official match of 50 log lines; the log's text is kept per language).
MATCH_BASE_BYTES = 16_000
MATCH_BYTES_PER_LOG_LINE = 600
#: Live matches are dropped from memory (and replayed from the database when asked for) beyond this many estimated bytes.
LIVE_BUDGET_BYTES = 512 * 2**20

_RULES = RulesCache()


def rules_for(spec: Spec | dict) -> Rules:
    """Compiled rules for a merged spec document, shared by every match of that document (cached by its digest)."""
    return _RULES.get(spec.doc if isinstance(spec, Spec) else spec)


@dataclass(frozen=True)
class LogEntry:
    """One public event: a move (kind = keep, flip, show, scout, scout_and_show) or a round's end.

    `cards` are the cards shown, `taken` the card scouted as it went into the hand,
    `captured` how many cards the show captured, `gap` where the scouted card went and
    `start` where the shown cards sat in the hand (0-based, before the move's show);
    all of it was seen by every player, who see the backs of each hand.
    """

    round: int
    seat: int
    kind: str
    cards: tuple[int, ...] = ()
    taken: int | None = None
    end: int | None = None
    captured: int = 0
    gap: int | None = None
    start: int | None = None


if tuple(f.name for f in fields(LogEntry)) != LOG_ENTRY:  # a snapshot keeps a log entry as its fields in this order
    raise ImportError("scoutlab.web.snapshots.LOG_ENTRY does not list LogEntry's fields")


class NotYourTurn(Exception):
    """The browser tried to move while another seat is to act, or after the game ended."""


class Match:
    """One match: the game state, the bots of the other seats and the public log."""

    def __init__(self, token: str, rules: Rules, players: int, seed: int, seat: int, bots: list[str | None], practice: bool = False,
                 state: GameState | None = None, log: list[LogEntry] | None = None):
        """A new match (its bots built at once, so a bad name fails here), or one loaded with its `state` and `log`
        (its bots built when first asked for: a search bot takes a while to build, and reading a state needs none)."""
        self.token = token
        self.rules = rules
        self.seed = seed  # the deal's secret: never sent to the browser
        self.practice = practice  # dealt from a chosen seed: its cards can be known in advance
        self.seat = seat
        self.bot_names = bots
        self.state: GameState = rules.new_game(players, seed) if state is None else state
        self._bots: list[Bot | None] | None = None
        if state is None:
            self._bots = self._build_bots()
        self.log: list[LogEntry] = [] if log is None else log
        self.log_text: dict[object, list[str]] = {}  # the log's lines per language, rendered once each
        self.lock = threading.Lock()  # one move at a time per match
        self.encoder = Encoder()  # the parts of its snapshot already encoded
        self.rendered: tuple[tuple, dict] | None = None  # the last state events.table_json made, by what it was made for

    def _build_bots(self) -> list[Bot | None]:
        return [None if name is None else make_bot(name, self.rules, bot_seed(self.seed, s)) for s, name in enumerate(self.bot_names)]

    @property
    def bots(self) -> list[Bot | None]:
        """The seats' bots (None for the browser's), fresh from their seeds as on every resume; MatchDamaged when a
        stored bot can no longer be built."""
        if self._bots is None:
            try:
                self._bots = self._build_bots()
            except Exception as exc:  # a bot no longer installed
                raise MatchDamaged(f"its bots cannot be rebuilt ({type(exc).__name__}: {str(exc)[:120]})") from None
        return self._bots

    @property
    def bot_to_act(self) -> bool:
        return not self.state.is_over and self.bot_names[self.state.to_act] is not None

    @property
    def your_turn(self) -> bool:
        return not self.state.is_over and self.state.to_act == self.seat

    def apply(self, code: int) -> str:
        """Play `code` for the seat to act (IllegalAction if it may not); returns its notation."""
        state = self.state
        if code not in state.legal_actions():
            raise IllegalAction(state.explain(code))  # before reading the move: it may name cards that are not there
        entry = _public_entry(state, code)
        ends = len(state.round_ends)
        state.apply(code)
        self.log.append(entry)
        for end in state.round_ends[ends:]:
            self.log.append(LogEntry(end.round, -1, "round_end"))
        return state.format(code)


def _public_entry(state: GameState, code: int) -> LogEntry:
    """What everyone at the table sees of this move, read before it is applied."""
    seat, codec = state.to_act, state.rules.codec
    action = codec.decode(code)
    kind = codec.kind(code)
    if kind == "flip":
        return LogEntry(state.round, seat, "flip" if action.flip else "keep")
    hand = list(state.hands[seat])
    if isinstance(action, Show):
        shown = hand[action.start : action.start + action.length]
        return LogEntry(state.round, seat, kind, tuple(shown), captured=len(state.active), start=action.start)
    scout = action.scout if isinstance(action, ScoutShow) else action
    taken = state.active[-1] if scout.end else state.active[0]
    taken = flipped(taken) if scout.flip else taken
    if not isinstance(action, ScoutShow) or action.show is None:
        return LogEntry(state.round, seat, "scout", taken=taken, end=scout.end, gap=scout.gap)
    hand.insert(scout.gap, taken)
    shown = hand[action.show.start : action.show.start + action.show.length]
    return LogEntry(
        state.round, seat, kind, tuple(shown), taken, scout.end, captured=len(state.active) - 1,
        gap=scout.gap, start=action.show.start,
    )


class Matches:
    """Every match of the server: created, found by token, played and stored."""

    def __init__(self, store: MatchStore, keep_in_memory: int = 2000, budget: int = LIVE_BUDGET_BYTES, snapshots: bool = True):
        self.store = store
        self.snapshots = snapshots  # False: no snapshot is written (measurements of what they cost)
        # What loading matches from the database cost: matches loaded, of them whole replays from the seed,
        # moves replayed in all (after a snapshot, or from the seed) and snapshots refused.
        self.loaded = self.full_replays = self.moves_replayed = self.snapshots_refused = 0
        self.on_move: Callable[[str], None] | None = None  # told the token after each stored move (live.Streams.moved)
        self._live: OrderedDict[str, Match] = OrderedDict()
        self._keep = keep_in_memory  # older matches are dropped from memory and rebuilt on demand
        self.budget = budget  # ... and so are they beyond this many estimated bytes, rules included
        self._weights: dict[str, int] = {}  # token -> the match's own estimated bytes when last remembered
        self._users: Counter[int] = Counter()  # id(rules) -> live matches sharing them: shared rules count once
        self._rules_bytes = 0
        self._match_bytes = 0
        self._lock = threading.Lock()

    def new(self, spec_doc: dict, players: int, bots: list[str], seed: int | None = None) -> Match:
        """Start a match with the browser in seat 0 and one bot per other seat; raises ValueError or BotError.

        Without `seed` the deal is a 128-bit secret; with one it is a practice match, marked as such.
        """
        rules = rules_for(spec_doc)
        if players not in rules.players:
            allowed = ", ".join(map(str, rules.players))
            raise ValueError(f"variant {rules.name!r} is for {allowed} players, not {players}")
        if len(bots) != players - 1:
            raise ValueError(f"{players} players need {players - 1} opponents, got {len(bots)}")
        practice = seed is not None
        seed = secret_seed() if seed is None else seed
        token = secrets.token_urlsafe(16)  # drawn apart from the seed: the address says nothing of the deal
        seats: list[str | None] = [None, *bots]
        match = Match(token, rules, players, seed, 0, seats, practice)  # builds the bots: a bad name fails here
        self.store.create(token, spec_doc, players, seed, 0, seats, practice)
        with self._lock:
            return self._remember(match)

    def get(self, token: str) -> Match | None:
        """The match with this token, rebuilt from the database if needed; None if there is none."""
        with self._lock:
            match = self._live.get(token)
            if match is not None:
                self._live.move_to_end(token)
                return match
        stored = self.store.load(token)  # MatchDamaged when its pages cannot be read
        if stored is None:
            return None
        match = self._load(stored)
        with self._lock:
            return self._remember(match)

    def _load(self, stored: StoredMatch) -> Match:
        """The match from its newest usable snapshot and the moves after it, else replayed from the seed."""
        try:
            rules = rules_for(stored.spec)
        except Exception as exc:  # a stored document this version no longer compiles
            raise MatchDamaged(f"its variant cannot be rebuilt ({type(exc).__name__}: {str(exc)[:120]})") from None
        self.loaded += 1
        for snapshot in stored.snapshots:
            try:
                state, rows = restore(snapshot, rules, stored.players, stored.seed, stored.moves)
                match = Match(stored.token, rules, stored.players, stored.seed, stored.seat, stored.bots, stored.practice,
                              state, [_entry(row) for row in rows])
            except (Refused, TypeError) as exc:  # TypeError: log rows of another shape
                self.snapshots_refused += 1
                log.warning("match %s…: snapshot after move %d refused: %s", stored.token[:6], snapshot.ply, exc)
                continue
            self._replay(match, stored.moves, snapshot.ply)
            if len(stored.moves) - snapshot.ply >= EVERY:  # the newest was refused or missing: the next load starts here
                self._snapshot_now(match)
            return match
        try:
            match = Match(stored.token, rules, stored.players, stored.seed, stored.seat, stored.bots, stored.practice)
        except Exception as exc:  # a bot no longer installed
            raise MatchDamaged(f"its variant or bots cannot be rebuilt ({type(exc).__name__}: {str(exc)[:120]})") from None
        self.full_replays += 1
        self._replay(match, stored.moves, 0)
        if stored.moves:
            self._snapshot_now(match)
        return match

    def _replay(self, match: Match, moves: list[str], start: int) -> None:
        for ply in range(start, len(moves)):
            text = moves[ply]
            try:
                code = match.rules.codec.encode(parse_action(text))
                match.apply(code)
            except (IllegalAction, ValueError) as exc:
                raise MatchDamaged(f"stored move {ply + 1} {text[:40]!r} is refused: {str(exc)[:160]}") from None
        self.moves_replayed += len(moves) - start

    @staticmethod
    def _encode(match: Match) -> Snapshot | None:
        """The match's snapshot now, or None (a state a snapshot cannot hold: the match is replayed instead)."""
        try:
            return encode(match.state, match.log, len(match.state.history), match.encoder)
        except (TypeError, ValueError) as exc:  # e.g. a plugin's value JSON cannot hold
            log.warning("match %s…: no snapshot (%s)", match.token[:6], str(exc)[:120])
            return None

    def _snapshot_now(self, match: Match) -> None:
        """Keep a snapshot of a match just loaded by replay, so the next load need not replay; best effort."""
        if not self.snapshots:
            return
        snapshot = self._encode(match)
        if snapshot is None:
            return
        with contextlib.suppress(StorageFull, MatchDamaged):  # the moves are kept; the next load replays again
            self.store.add_snapshot(match.token, snapshot)

    def in_memory(self, token: str) -> Match | None:
        """The match if it is in memory, else None: never reads the database (the live stream asks often)."""
        with self._lock:
            return self._live.get(token)

    def _remember(self, match: Match) -> Match:
        """Keep a match in memory (the caller holds self._lock); two rebuilds at once keep the first.

        The oldest matches leave memory while there are more than `keep_in_memory` of them or
        their estimated bytes (their own, plus each distinct rules once) pass the budget;
        the match just remembered always stays.
        """
        existing = self._live.setdefault(match.token, match)
        self._live.move_to_end(match.token)
        if existing is match:
            self._reweigh(match)
            if self._users[id(match.rules)] == 0:
                self._rules_bytes += rules_weight(match.rules)
            self._users[id(match.rules)] += 1
        while len(self._live) > 1 and (len(self._live) > self._keep or self.weight > self.budget):
            self._forget(next(iter(self._live)))
        return existing

    def _forget(self, token: str) -> None:
        """Drop a match from memory (the caller holds self._lock); the database still has it."""
        match = self._live.pop(token, None)
        if match is None:
            return
        self._match_bytes -= self._weights.pop(token, 0)
        key = id(match.rules)
        self._users[key] -= 1
        if self._users[key] <= 0:
            del self._users[key]
            self._rules_bytes -= rules_weight(match.rules)

    @property
    def weight(self) -> int:
        """Estimated bytes of the live matches, each distinct rules counted once (as of when each was remembered)."""
        return self._match_bytes + self._rules_bytes

    def _reweigh(self, match: Match) -> None:
        weight = match_weight(match)
        self._match_bytes += weight - self._weights.get(match.token, 0)
        self._weights[match.token] = weight

    def __len__(self) -> int:
        return len(self._live)

    def play(self, match: Match, text: str) -> str:
        """The browser's move in notation; raises NotYourTurn, NotationError or IllegalAction."""
        with match.lock:
            if not match.your_turn:
                raise NotYourTurn
            code = match.rules.codec.encode(parse_action(text))
            return self._apply(match, code)

    def advance(self, match: Match) -> str | None:
        """Play one bot move if a bot is to act; returns its notation, or None when none was due."""
        with match.lock:
            if not match.bot_to_act:
                return None
            seat, ply = match.state.to_act, len(match.state.history)
            bot, view = match.bots[seat], match.state.view(seat)
        if bot is None:  # bot_to_act said a bot sits there; this keeps the type checker sure of it
            return None
        code = bot.act(view)  # a search bot may think a while: the match stays readable meanwhile
        with match.lock:
            if len(match.state.history) != ply:
                return None  # another request moved this match first: its move stands
            return self._apply(match, code)

    def _apply(self, match: Match, code: int) -> str:
        ply = len(match.state.history)
        text = match.apply(code)
        try:
            due = self.snapshots and snapshot_due(ply + 1, match.state.is_over)
            self.store.add_move(match.token, ply, text, self._encode(match) if due else None)
        except Exception:
            with self._lock:  # memory is a move ahead of the file: forget it, the next request replays the file
                self._forget(match.token)
            raise
        if self.on_move is not None:
            self.on_move(match.token)
        if len(match.log) % 16 == 0:  # refresh the match's weight now and then as its log grows
            with self._lock:
                if match.token in self._weights:
                    self._reweigh(match)
        return text


def _entry(row: tuple) -> LogEntry:
    """A log entry from a snapshot's row of its fields (JSON gave the cards back as a list)."""
    rnd, seat, kind, cards, *rest = row
    return LogEntry(rnd, seat, kind, tuple(cards), *rest)


def match_weight(match: Match) -> int:
    """Estimated bytes of a live match apart from its rules (a model calibrated with tracemalloc)."""
    return MATCH_BASE_BYTES + MATCH_BYTES_PER_LOG_LINE * len(match.log)

