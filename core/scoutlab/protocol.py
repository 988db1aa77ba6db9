"""The `scoutlab engine` protocol: JSON lines over stdin/stdout, as chess engines speak UCI.

Each request is one JSON object on one line; each gets exactly one JSON line back,
`{"ok": true, ...}` with the answer or `{"ok": false, "error": "..."}`, echoing the
request's `id`. The engine never dies on bad input: a malformed line, an unknown
command or an illegal move is an error reply, and the next request is served.
The same JSON view is what `external:` bots receive (`view_to_json`, engine/view_json.py).
docs/engine-protocol.md documents every command with a transcript.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from scoutlab import __version__
from scoutlab.base.errors import user_errors
from scoutlab.base.limits import MAX_PROTOCOL_LINE, excerpt, json_mistake, loads_json
from scoutlab.engine.state import IllegalAction
from scoutlab.engine.view_json import round_end_json, view_to_json
from scoutlab.records.position import load_position, position_from_data
from scoutlab.rules import load_rules
from scoutlab.spec.variant import shipped_variants
from scoutlab.text.log import describe_action

if TYPE_CHECKING:
    from scoutlab.engine.state import GameState
    from scoutlab.rules import Rules

PROTOCOL_VERSION = 1


class ProtocolError(ValueError):
    """A request the engine cannot serve; its message is the reply's `error`."""


_SURROGATE = re.compile("[\ud800-\udfff]")  # what no UTF-8 text holds: bytes that are not UTF-8, or a lone escape


# -- one session: a game and the commands that drive it -------------------------------------


class EngineSession:
    """Holds at most one game and answers requests about it; `handle` never raises."""

    def __init__(self) -> None:
        self.rules: Rules | None = None
        self.state: GameState | None = None
        self.finished = False  # set by `quit`
        self.commands: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "hello": self.hello,
            "new_game": self.new_game,
            "position": self.position,
            "view": self.view,
            "legal": self.legal,
            "act": self.act,
            "quit": self.quit,
        }

    def handle_line(self, line: str) -> dict[str, Any] | None:
        """Answer one line of input; a blank line is not a request and gets no answer."""
        if not line.strip():
            return None
        if len(line) > MAX_PROTOCOL_LINE:
            return _line_too_long(len(line))
        line = line.removeprefix("\ufeff")  # a byte order mark some editors and pipes put first: not part of the request
        if _SURROGATE.search(line):  # bytes that are not UTF-8, as the standard input decodes them
            return {"id": None, "ok": False, "error": "not a JSON line: it is not UTF-8 text"}
        try:
            request = loads_json(line.rstrip("\r\n"))  # a line cut short is then wrong at its end, not on a line 2
        except json.JSONDecodeError as exc:
            return {"id": None, "ok": False, "error": f"not a JSON line: {json_mistake(exc, lines=False)}"}
        except ValueError as exc:  # nested too deep, or a number too long to read
            return {"id": None, "ok": False, "error": f"not a request: {exc}"}
        if _SURROGATE.search(json.dumps(request, ensure_ascii=False)):  # a `\ud800` escape: no UTF-8 answer could echo it
            return {"id": None, "ok": False, "error": "not a request: a string holds a lone surrogate (an escape such as "
                                                      "\\ud800 with no pair), which UTF-8 text cannot hold"}
        return self.handle(request)

    def handle(self, request: Any) -> dict[str, Any]:
        """Answer one decoded request with `ok` true or false; bad input and bugs alike become an error reply."""
        if not isinstance(request, dict):
            return {"id": None, "ok": False, "error": f"a request is a JSON object, got {_json_kind(request)}"}
        reply: dict[str, Any] = {"id": _short_id(request.get("id"))}
        try:
            reply.update(ok=True, **self._dispatch(request))
        except Exception as exc:  # the engine must answer every line, whatever went wrong
            reply.update(ok=False, error=_error_text(exc))
        return reply

    def _dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        name = request.get("cmd")
        if not isinstance(name, str):
            raise ProtocolError(f"a request needs a \"cmd\" (one of {', '.join(self.commands)})")
        command = self.commands.get(name)
        if command is None:
            close = difflib.get_close_matches(name, list(self.commands), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise ProtocolError(f"unknown command {excerpt(name)}{hint} (commands: {', '.join(self.commands)})")
        return command(request)

    # -- commands ------------------------------------------------------------------------

    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        """Who is speaking: name, version, protocol version, commands and shipped variants."""

        return {
            "engine": "scoutlab",
            "version": __version__,
            "protocol": PROTOCOL_VERSION,
            "commands": list(self.commands),
            "variants": [name for name, _ in shipped_variants()],
        }

    def new_game(self, request: dict[str, Any]) -> dict[str, Any]:
        """Deal a new game: `variant` (name or spec path), `players`, `seed`."""

        variant = _field(request, "variant", str, "official")
        rules = load_rules(variant)
        players = _field(request, "players", int, rules.players[0])
        seed = _field(request, "seed", int, 0)
        if seed < 0:  # as a position's seed: a record could not replay it
            raise ProtocolError(f"'seed' must be 0 or more, got {excerpt(seed)}")
        state = rules.new_game(players, seed)
        self.rules, self.state = rules, state
        return {"variant": rules.name, "players": players, "seed": seed, **self._status()}

    def position(self, request: dict[str, Any]) -> dict[str, Any]:
        """Set up a position (docs/positions.md): `position` is YAML text or the same document as a JSON object."""

        position = request.get("position")
        if isinstance(position, dict):
            state = position_from_data(position)
        elif isinstance(position, str) and position.strip():
            state = load_position(position)
        else:
            raise ProtocolError("position needs \"position\": YAML text, a JSON object, or a file path")
        self.rules, self.state = state.rules, state
        return {"variant": state.rules.name, "players": state.players, "seed": state.seed, **self._status()}

    def view(self, request: dict[str, Any]) -> dict[str, Any]:
        """What `seat` may know (default: the seat to act)."""
        state = self._game()
        seat = _field(request, "seat", int, state.to_act)
        if not 0 <= seat < state.players:
            raise ProtocolError(f"seat {excerpt(seat)} does not exist: seats are 0 to {state.players - 1}")
        return {"view": view_to_json(state.view(seat), state.rules)}

    def legal(self, request: dict[str, Any]) -> dict[str, Any]:
        """The legal actions of the seat to act, in notation."""
        state = self._game()
        return {"seat": state.to_act, "legal": [state.format(code) for code in state.legal_actions()]}

    def act(self, request: dict[str, Any]) -> dict[str, Any]:
        """Play `action` (notation, or an int action code) for the seat to act."""

        state = self._game()
        if state.is_over:
            raise ProtocolError("the game is over: start another with new_game")
        action = request.get("action")
        if action is None:
            raise ProtocolError("act needs \"action\": a move in notation, e.g. \"show 2-3\"")
        if isinstance(action, bool) or not isinstance(action, (str, int)):
            raise ProtocolError(f"\"action\" must be a move in notation (e.g. \"show 2-3\") or an action code, got {_shown(action)}")
        if isinstance(action, int) and not 0 <= action < state.rules.codec.size:
            raise ProtocolError(f"action code {excerpt(action)} does not exist: codes run from 0 to {state.rules.codec.size - 1}")
        code = action if isinstance(action, int) else state.code(action)
        seat, rounds_ended = state.to_act, len(state.round_ends)
        if code not in state.legal_actions():

            raise IllegalAction(state.explain(code))
        detail = describe_action(state, code)
        state.apply(code)
        reply = {"seat": seat, "action": state.format(code), "detail": detail, **self._status()}
        if len(state.round_ends) > rounds_ended:
            reply["round_end"] = round_end_json(state.round_ends[-1])
        return reply

    def quit(self, request: dict[str, Any]) -> dict[str, Any]:
        """Say goodbye; the engine exits after this answer."""
        self.finished = True
        return {"bye": True}

    # -- helpers -------------------------------------------------------------------------

    def _game(self) -> GameState:
        if self.state is None:
            raise ProtocolError("no game yet: send new_game first")
        return self.state

    def _status(self) -> dict[str, Any]:
        """Where the game stands, for every answer that changes it."""
        state = self._game()
        status = {
            "round": state.round,
            "rounds": state.rounds,
            "phase": state.phase,
            "to_act": state.to_act,
            "turn": state.turn,
            "totals": list(state.totals),
            "game_over": state.is_over,
        }
        if state.is_over:
            status["winners"] = state.winners()
        return status


def _field(request: dict[str, Any], name: str, kind: type, default: Any) -> Any:
    value = request.get(name, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, kind):
        wanted = {int: "an integer", str: "a string"}.get(kind, kind.__name__)
        raise ProtocolError(f"{name!r} must be {wanted}, got {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    """A request's value in an error, as JSON when short, else an excerpt or just its kind."""
    if isinstance(value, int) and value.bit_length() > 128:
        return excerpt(value)  # json.dumps would write every digit
    text = json.dumps(value)
    if len(text) <= 60:
        return text
    return excerpt(value) if isinstance(value, str) else _json_kind(value)


def _json_kind(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return {list: "an array", str: "a string", int: "a number", float: "a number"}.get(type(value), type(value).__name__)


def _error_text(exc: Exception) -> str:
    if isinstance(exc, (ProtocolError, *user_errors())):
        return _cut(str(exc))
    return f"internal error ({type(exc).__name__}: {_cut(str(exc), 200)}); the engine is still running"


def _cut(text: str, limit: int = 2000) -> str:
    """An error as long as it needs to say what and where (a spec's every problem), not as long as an input."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text) - limit:,} more characters)"


def _short_id(value: Any) -> Any:
    """The request's `id` echoed back, unless it is a document in itself."""
    if isinstance(value, (str, int, list, dict)) and len(json.dumps(value)) > 200:  # ints: at most 4,300 digits read
        return None
    return value


def _line_too_long(size: int | None) -> dict[str, Any]:
    length = "more than" if size is None else f"{size:,} characters, more than"
    return {"id": None, "ok": False, "error": f"request line ignored: {length} the limit of {MAX_PROTOCOL_LINE:,} characters"}


def serve(infile: TextIO, outfile: TextIO) -> int:
    """Answer requests line by line until `quit` or the end of input."""
    session = EngineSession()
    while line := infile.readline(MAX_PROTOCOL_LINE + 1):
        reply: dict[str, Any] | None
        if len(line) > MAX_PROTOCOL_LINE and not line.endswith("\n"):
            _skip_line(infile)  # the rest of an endless line is never held in memory
            reply = _line_too_long(None)
        else:
            # A plugin that prints must not corrupt the protocol: anything printed goes to stderr.
            with contextlib.redirect_stdout(sys.stderr):
                reply = session.handle_line(line)
        if reply is not None:
            outfile.write(json.dumps(reply) + "\n")
            outfile.flush()
        if session.finished:
            break
    return 0


def _skip_line(infile: TextIO) -> None:
    """Read and drop input up to the next newline (or the end), a bounded chunk at a time."""
    while chunk := infile.readline(MAX_PROTOCOL_LINE):
        if chunk.endswith("\n"):
            return
