"""Live matches: one browser seat against bots, every move checked by the engine and stored.

`Matches` is the only way the web app touches a game. It creates a match, finds it
by its unguessable token (rebuilding it from the database by replay when it is not
in memory), plays the browser's moves and the bots' moves one at a time, and keeps a
public log of what happened: only what every player at the table saw.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache

from scoutlab.bots import Bot, known_bots, make_bot
from scoutlab.engine.actions import ScoutShow, Show, parse_action
from scoutlab.engine.cards import flipped
from scoutlab.engine.state import GameState, IllegalAction
from scoutlab.match import bot_seed
from scoutlab.rules import Rules
from scoutlab.spec.variant import Spec, load_spec_text
from scoutlab.web.store import MatchStore, StoreError

#: The strongest bot available is the default opponent.
BOT_PREFERENCE = ("heuristic", "greedy", "random")


def default_bot() -> str:
    """'heuristic' if it is installed, else 'greedy', else 'random'."""
    bots = known_bots()
    return next((name for name in BOT_PREFERENCE if name in bots), "random")


@lru_cache(maxsize=64)
def _compiled(spec_json: str, filename: str) -> Rules:
    return Rules(load_spec_text(spec_json, filename))


def rules_for(spec: Spec | dict) -> Rules:
    """Compiled rules for a merged spec document, shared by every match of that document."""
    doc = spec.doc if isinstance(spec, Spec) else spec
    # A merged document is valid YAML as JSON, and loads back to the same rules.
    return _compiled(json.dumps(doc), f"{doc['name']}.yaml")  # key order kept: summaries list configs as written


@dataclass(frozen=True)
class LogEntry:
    """One public event: a move (kind = keep, flip, show, scout, scout_and_show) or a round's end.

    `cards` are the cards shown, `taken` the card scouted as it went into the hand,
    `captured` how many cards the show captured; all of it was seen by every player.
    """

    round: int
    seat: int
    kind: str
    cards: tuple[int, ...] = ()
    taken: int | None = None
    end: int | None = None
    captured: int = 0


class NotYourTurn(Exception):
    """The browser tried to move while another seat is to act, or after the game ended."""


class Match:
    """One match: the game state, the bots of the other seats and the public log."""

    def __init__(self, token: str, rules: Rules, players: int, seed: int, seat: int, bots: list[str | None]):
        self.token = token
        self.rules = rules
        self.seed = seed
        self.seat = seat
        self.bot_names = bots
        self.state: GameState = rules.new_game(players, seed)
        self.bots: list[Bot | None] = [
            None if name is None else make_bot(name, rules, bot_seed(seed, s)) for s, name in enumerate(bots)
        ]
        self.log: list[LogEntry] = []
        self.log_text: dict[object, list[str]] = {}  # the log's lines per language, rendered once each
        self.lock = threading.Lock()  # one move at a time per match

    @property
    def bot_to_act(self) -> bool:
        return not self.state.is_over and self.bots[self.state.to_act] is not None

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
        return LogEntry(state.round, seat, kind, tuple(shown), captured=len(state.active))
    scout = action.scout if isinstance(action, ScoutShow) else action
    taken = state.active[-1] if scout.end else state.active[0]
    taken = flipped(taken) if scout.flip else taken
    if not isinstance(action, ScoutShow) or action.show is None:
        return LogEntry(state.round, seat, "scout", taken=taken, end=scout.end)
    hand.insert(scout.gap, taken)
    shown = hand[action.show.start : action.show.start + action.show.length]
    return LogEntry(state.round, seat, kind, tuple(shown), taken, scout.end, captured=len(state.active) - 1)


class Matches:
    """Every match of the server: created, found by token, played and stored."""

    def __init__(self, store: MatchStore, keep_in_memory: int = 2000):
        self.store = store
        self._live: OrderedDict[str, Match] = OrderedDict()
        self._keep = keep_in_memory  # older matches are dropped from memory and rebuilt on demand
        self._lock = threading.Lock()

    def new(self, spec_doc: dict, players: int, bots: list[str], seed: int | None = None) -> Match:
        """Start a match with the browser in seat 0 and one bot per other seat; raises ValueError or BotError."""
        rules = rules_for(spec_doc)
        if players not in rules.players:
            allowed = ", ".join(map(str, rules.players))
            raise ValueError(f"variant {rules.name!r} is for {allowed} players, not {players}")
        if len(bots) != players - 1:
            raise ValueError(f"{players} players need {players - 1} opponents, got {len(bots)}")
        seed = secrets.randbelow(2**31) if seed is None else seed
        token = secrets.token_urlsafe(16)
        seats: list[str | None] = [None, *bots]
        match = Match(token, rules, players, seed, 0, seats)  # builds the bots: a bad name fails here
        self.store.create(token, spec_doc, players, seed, 0, seats)
        with self._lock:
            return self._remember(match)

    def get(self, token: str) -> Match | None:
        """The match with this token, rebuilt from the database if needed; None if there is none."""
        with self._lock:
            match = self._live.get(token)
            if match is not None:
                self._live.move_to_end(token)
                return match
        stored = self.store.load(token)
        if stored is None:
            return None
        match = Match(token, rules_for(stored.spec), stored.players, stored.seed, stored.seat, stored.bots)
        for ply, text in enumerate(stored.moves):
            try:
                code = match.rules.codec.encode(parse_action(text))
                match.apply(code)
            except (IllegalAction, ValueError) as exc:
                raise StoreError(f"match {token} cannot be resumed: stored move {ply + 1} {text!r} is refused: {exc}") from None
        with self._lock:
            return self._remember(match)

    def _remember(self, match: Match) -> Match:
        """Keep a match in memory (the caller holds self._lock); two rebuilds at once keep the first."""
        existing = self._live.setdefault(match.token, match)
        self._live.move_to_end(match.token)
        while len(self._live) > self._keep:
            self._live.popitem(last=False)
        return existing

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
        code = bot.act(view)  # a search bot may think a while: the match stays readable meanwhile
        with match.lock:
            if len(match.state.history) != ply:
                return None  # another request moved this match first: its move stands
            return self._apply(match, code)

    def _apply(self, match: Match, code: int) -> str:
        ply = len(match.state.history)
        text = match.apply(code)
        try:
            self.store.add_move(match.token, ply, text)
        except Exception:
            with self._lock:  # memory is a move ahead of the file: forget it, the next request replays the file
                self._live.pop(match.token, None)
            raise
        return text

