"""`external:CMD`: a bot that is another program, written in any language.

For each decision the program reads one JSON line on its stdin, the seat's view as
`scoutlab engine` sends it (own hand, table, counts, history, legal actions in
notation), and writes back one line: an action in notation, e.g. `show 2-3` (or a
JSON object `{"action": "show 2-3"}`). Its stderr passes through, for debugging.

A program that cannot start, crashes, does not read its input or answer within
`timeout` seconds (option `timeout=`, default 10), writes an answer line longer than
64 KB, or answers something that is not a legal action is reported on stderr, naming
the bot and the seat, and a random legal move is played instead, so the match goes
on. After a failure to start, a crash, a hang or an endless line, the program is
stopped (with its whole process group) and the fallback plays the rest of the game.
When the bot is closed, the program's process group is ended even if the program
exited by itself, so nothing it started outlives it. See docs/engine-protocol.md.
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
import time
import weakref
from typing import IO, TYPE_CHECKING, Any

from scoutlab.base.limits import MAX_BOT_ANSWER, excerpt, loads_json, megabytes
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
            try:
                self._program = _Program(self.argv)
            except BotFailure as failure:
                self.failed = True  # said once: it would fail the same way at every decision
                raise BotFailure(f"{failure}: random legal moves play its seat from now on") from None
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
            raise BotFailure(f"answered {excerpt(answer.strip())}, not a move in notation: a random legal move is played instead") from None
        if code not in view.legal:
            raise BotFailure(f"answered {excerpt(text)}, not a legal move here: a random legal move is played instead")
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
            value = loads_json(text)
        except json.JSONDecodeError:
            return text
        except ValueError as exc:  # nested too deep, or a number too long to read
            raise BotFailure(f"answered JSON that is {exc}: a random legal move is played instead") from None
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


_hooked_pids: set[int] = set()


def _stop_all_in_this_process() -> None:
    """Also stop the programs when a simulator worker exits: pool workers leave by os._exit,
    which skips atexit, but run multiprocessing's finalizers (registered per process, after the fork)."""
    if os.getpid() in _hooked_pids:
        return
    _hooked_pids.add(os.getpid())
    from multiprocessing import util  # here, not at the top: only a process that runs a program needs it

    util.Finalize(None, _stop_all, exitpriority=0)


_TOO_LONG = object()  # the reader's word for an answer line past MAX_BOT_ANSWER


class _Program:
    """A child process spoken to in lines, in its own process group.

    A thread writes each request and another reads each answer, so a program that
    stops reading or writing is only ever waited for up to the timeout.
    """

    def __init__(self, argv: list[str]):
        try:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                start_new_session=True,  # its own process group, killed as one
            )
        except OSError as exc:
            raise BotFailure(f"could not start: {exc.strerror or exc}") from None
        if self.process.stdin is None or self.process.stdout is None:  # never: both were asked for as pipes
            raise BotFailure("could not start: no pipe to speak through")
        self.stdin: IO[bytes] = self.process.stdin
        self.stdout: IO[bytes] = self.process.stdout
        self.lines: queue.Queue[Any] = queue.Queue()  # answer lines, _TOO_LONG, or None at the end
        self.outbox: queue.Queue[bytes | None] = queue.Queue()  # requests; None closes its stdin
        self.sent: queue.Queue[bool] = queue.Queue()  # one per request: written or not
        self.writing = False  # a request is handed to the writer and not yet written
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.writer = threading.Thread(target=self._write, daemon=True)
        self.reader.start()
        self.writer.start()
        _running.add(self)
        _stop_all_in_this_process()

    def _read(self) -> None:
        while line := self.stdout.readline(MAX_BOT_ANSWER + 1):
            if len(line) > MAX_BOT_ANSWER and not line.endswith(b"\n"):
                self.lines.put(_TOO_LONG)  # read no further: the program is stopped on this answer
                return
            self.lines.put(line.decode("utf-8", "replace"))
        self.lines.put(None)  # end of output: the program closed stdout or exited

    def _write(self) -> None:
        stdin = self.stdin
        try:
            while (request := self.outbox.get()) is not None:
                try:
                    stdin.write(request)
                    stdin.flush()
                except (OSError, ValueError):
                    self.sent.put(False)
                    return
                self.sent.put(True)
        finally:
            with contextlib.suppress(OSError):
                stdin.close()  # end of input: a polite program exits

    def ask(self, request: str, timeout: float) -> str:
        """Send one line and wait for one line back, both within `timeout` s; BotFailure if it fails."""
        deadline = time.monotonic() + timeout
        self.writing = True
        self.outbox.put((request + "\n").encode("utf-8"))
        try:
            written = self.sent.get(timeout=timeout)
        except queue.Empty:
            raise BotFailure(f"did not read its input within {timeout:g} s") from None
        self.writing = False
        if not written:
            raise BotFailure(self._gone())
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise BotFailure(f"gave no answer within {timeout:g} s") from None
        if line is _TOO_LONG:
            raise BotFailure(f"answered a line longer than {megabytes(MAX_BOT_ANSWER)} ({MAX_BOT_ANSWER:,} bytes)")
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
        """Close its stdin (a polite program exits at end of input), give it `grace` seconds,
        then end its whole process group: what it started in the background goes with it."""
        _running.discard(self)
        process = self.process
        if self.writing:
            grace = 0  # the writer is stuck in a write: only ending the program frees it
        else:
            self.outbox.put(None)
        _exited(process, grace)
        _kill_group(process)
        self.outbox.put(None)
        for thread in (self.writer, self.reader):
            thread.join(timeout=1)
        if not self.reader.is_alive():
            self.stdout.close()


def _exited(process: subprocess.Popen, grace: float) -> bool:
    """Wait up to `grace` s for the program to exit, WITHOUT reaping it where the OS allows:
    while it is a zombie its process group id cannot be reused, so killing the group is safe."""
    deadline = time.monotonic() + grace
    if not hasattr(os, "waitid"):
        try:
            process.wait(timeout=grace)
            return True
        except subprocess.TimeoutExpired:
            return False
    while True:
        try:
            if os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return True
        except ChildProcessError:
            return True  # already reaped
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)


def _kill_group(process: subprocess.Popen) -> None:
    """Kill the program's whole process group: a shell script's children (e.g. jq, or `sleep &`) go with it."""
    try:
        if hasattr(os, "killpg"):
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
    except (ProcessLookupError, PermissionError):
        pass  # the group is already gone
    process.wait()
