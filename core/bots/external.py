"""`external:CMD`: a bot that is another program, written in any language.

For each decision the program reads one JSON line on its stdin, the seat's view as
`scoutlab engine` sends it (own hand, table, counts, history, legal actions in
notation), and writes back one line: an action in notation, e.g. `show 2-3` (or a
JSON object `{"action": "show 2-3"}`). Its stderr passes through, for debugging.

A program that cannot start, crashes, hangs past `timeout` seconds (option
`timeout=`, default 10), or answers something that is not a legal action is
reported on stderr, naming the bot and the seat, and a random legal move is played
instead, so the match goes on. After a crash or a hang the program is stopped and
the fallback plays the rest of the game. See docs/engine-protocol.md.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import queue
import random
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import weakref
from typing import TYPE_CHECKING, Any

from scoutlab.bots import BotError
from scoutlab.engine.actions import NotationError
from scoutlab.protocol import action_code, view_to_json

if TYPE_CHECKING:
    from scoutlab.engine.state import View
    from scoutlab.rules import Rules

DEFAULT_TIMEOUT = 10.0


class BotFailure(Exception):
    """The program did not give a usable answer; the message says how."""


class ExternalBot:
    """Asks an external program for each move; falls back to a random legal move when it fails."""

    def __init__(self, rules: Rules, rng: random.Random, options: dict[str, Any]):
        options = dict(options)
        command = options.pop("arg", None)
        timeout = options.pop("timeout", DEFAULT_TIMEOUT)
        if not isinstance(command, str) or not command.strip():
            raise BotError("bot 'external' needs a command: external:CMD, e.g. external:node examples/bots/greedy.js")
        if options:
            raise BotError(f"bot 'external' takes a command and timeout=SECONDS, not {', '.join(sorted(options))}")
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
            raise BotError(f"bot external:{command}: timeout must be a number of seconds above 0, got {timeout!r}")
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:
            raise BotError(f"bot external:{command}: {exc}") from None
        if shutil.which(self.argv[0]) is None:
            raise BotError(f"bot external:{command}: cannot run {self.argv[0]!r}: no such executable")
        self.name = f"external:{command}"
        self.rules = rules
        self.rng = rng
        self.timeout = float(timeout)
        self.failed = False  # after a crash or a hang, the fallback plays on
        # Started on the first decision: a bot built in each simulator worker starts its own there.
        self._program: _Program | None = None

    def act(self, view: View) -> int:
        """The program's answer if it is a legal action; otherwise a warning and a random legal one."""
        if not self.failed:
            try:
                return self._ask(view)
            except BotFailure as failure:
                self._warn(view.seat, str(failure))
        return view.legal[self.rng.randrange(len(view.legal))]

    def _ask(self, view: View) -> int:

        if self._program is None:
            self._program = _Program(self.argv)
        try:
            answer = self._program.ask(json.dumps(view_to_json(view, self.rules)), self.timeout)
        except BotFailure as failure:
            self.failed = True
            self._program.close(grace=0)  # it already failed to answer: no point waiting for it
            self._program = None
            raise BotFailure(f"{failure}: stopped; random legal moves play its seat from now on") from None
        text = _action_text(answer)
        try:
            code = action_code(self.rules, text)
        except NotationError:
            raise BotFailure(f"answered {answer.strip()[:80]!r}, not a move in notation: a random legal move is played instead") from None
        if code not in view.legal:
            raise BotFailure(f"answered {text!r}, not a legal move here: a random legal move is played instead")
        return code

    def _warn(self, seat: int, message: str) -> None:
        print(f"scoutlab: warning: bot {self.name} (seat P{seat + 1}) {message}", file=sys.stderr, flush=True)

    def close(self) -> None:
        """Stop the program, if it runs."""
        if self._program is not None:
            self._program.close()
            self._program = None

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at interpreter exit the atexit hook has already stopped it
            self.close()


def _action_text(answer: str) -> str:
    """The action in an answer line: plain notation, or a JSON string or {"action": ...}."""
    text = answer.strip()
    if text.startswith(("{", '"')):
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            return text
        if isinstance(value, dict):
            value = value.get("action")
        if isinstance(value, str):
            return value
    return text


_running: weakref.WeakSet[_Program] = weakref.WeakSet()


@atexit.register
def _stop_all() -> None:
    """No program outlives scoutlab, whatever path the match ended by."""
    for program in list(_running):
        program.close()


class _Program:
    """A child process spoken to in lines; a thread reads its stdout so a hang can time out."""

    def __init__(self, argv: list[str]):
        try:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, encoding="utf-8",
                errors="replace", start_new_session=True,  # its own process group, killed as one
            )
        except OSError as exc:
            raise BotFailure(f"could not start: {exc}") from None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        _running.add(self)

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)  # end of output: the program closed stdout or exited

    def ask(self, request: str, timeout: float) -> str:
        """Send one line and wait for one line back; BotFailure if it dies or is silent for `timeout` s."""
        try:
            self.process.stdin.write(request + "\n")
            self.process.stdin.flush()
        except OSError:
            raise BotFailure(self._gone()) from None
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise BotFailure(f"gave no answer within {timeout:g} s") from None
        if line is None:
            raise BotFailure(self._gone())
        return line

    def _gone(self) -> str:
        try:
            code = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return "closed its output without answering"
        return f"exited with code {code} without answering"

    def close(self, grace: float = 1.0) -> None:
        """Close its stdin (a polite bot exits at end of input); kill it and its children after `grace` seconds."""
        _running.discard(self)
        process = self.process
        with contextlib.suppress(OSError):
            process.stdin.close()
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            _kill_group(process)
        self.reader.join(timeout=1)
        if not self.reader.is_alive():
            process.stdout.close()


def _kill_group(process: subprocess.Popen) -> None:
    """Kill the program's whole process group: a shell script's children (e.g. jq) go with it."""
    try:
        if hasattr(os, "killpg"):
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
    except ProcessLookupError:
        pass  # already gone
    process.wait()
