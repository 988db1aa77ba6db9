"""`external:CMD`: a bot that is another program, written in any language.

For each decision the program reads one JSON line on its stdin, the seat's view as
`scoutlab engine` sends it (own hand, table, counts, history, legal actions in
notation), and writes back one line: an action in notation, e.g. `show 2-3` (or a
JSON object `{"action": "show 2-3"}`). Its stderr passes through, for debugging.

A program that cannot start, crashes, does not read its input or answer within
`timeout` seconds (option `timeout=`, default 10, finite, at most a day), writes an
answer line longer than 64 KB or more than 16 lines it was not asked for, or answers
something that is not a legal action is reported on stderr, naming the bot and the
seat, and a random legal move is played instead, so the match goes on. After a failure
to start, a crash, a hang, an endless line or a flood, the program is stopped (with
everything it started) and the fallback plays the rest of the game. When the bot is
closed, or scoutlab exits or gets SIGTERM or SIGHUP, the program's process group and
its descendants (even those that called setsid: see _kill_tree) are ended even if the
program exited by itself, so nothing it started outlives it. See docs/engine-protocol.md.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import math
import os
import queue
import random
import secrets
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
from scoutlab.base.signals import on_termination
from scoutlab.bots import BotError
from scoutlab.engine.actions import NotationError
from scoutlab.engine.view_json import action_code, view_to_json

if TYPE_CHECKING:
    from scoutlab.engine.state import View
    from scoutlab.rules import Rules

DEFAULT_TIMEOUT = 10.0
#: The longest `timeout=` accepted, in seconds (a day): a finite wait, so a stuck program always ends.
MAX_TIMEOUT = 86_400.0
#: Answer lines a program may have written and not yet been asked for; past them it is flooding, and is stopped.
MAX_PENDING_LINES = 16


def _why_not_run(program: str) -> str:
    """Why `which` found no program to run: a file that is not executable, one not on the PATH, or nothing at all."""
    if not os.path.isfile(program):
        return "no such executable"
    if os.sep in program:
        return "the file is not executable (chmod +x it)"
    return f"no such executable on the PATH (a program in this folder is run as ./{program})"


def _seconds(value: Any) -> float | None:
    """`value` as a finite number of seconds in (0, MAX_TIMEOUT], or None (inf, nan, 0, a bool, text, a huge int)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, int) and value.bit_length() > 64:
        return None  # float() of it would overflow
    seconds = float(value)
    return seconds if math.isfinite(seconds) and 0 < seconds <= MAX_TIMEOUT else None


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
        seconds = _seconds(timeout)
        if seconds is None:
            raise BotError(f"bot external:{excerpt(command)[1:-1]}: timeout must be a number of seconds above 0 and at most "
                           f"{MAX_TIMEOUT:g}, got {excerpt(timeout)}")
        named = f"bot external:{excerpt(command)[1:-1]}"
        try:
            self.argv = shlex.split(command)
        except ValueError:  # shlex's own words: "No closing quotation"
            raise BotError(f"{named}: a quote is never closed in the command") from None
        if shutil.which(self.argv[0]) is None:
            raise BotError(f"{named}: cannot run {excerpt(self.argv[0])}: {_why_not_run(self.argv[0])}")
        self.name = f"external:{command}"
        self.rules = rules
        self.rng = rng
        self.timeout = seconds
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
_FLOOD = object()  # the reader's word for more than MAX_PENDING_LINES lines written and not asked for


class _Program:
    """A child process spoken to in lines, in its own process group.

    A thread writes each request and another reads each answer, so a program that
    stops reading or writing is only ever waited for up to the timeout.
    """

    def __init__(self, argv: list[str]):
        self.mark = f"{os.getpid()}-{secrets.token_hex(8)}"  # in the environment of everything it starts (see _kill_tree)
        on_termination(_stop_at_once)
        try:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                start_new_session=True,  # its own session and process group, killed as one
                env={**os.environ, _MARK: self.mark},
            )
        except OSError as exc:
            raise BotFailure(f"could not start: {exc.strerror or exc}") from None
        if self.process.stdin is None or self.process.stdout is None:  # never: both were asked for as pipes
            raise BotFailure("could not start: no pipe to speak through")
        self.stdin: IO[bytes] = self.process.stdin
        self.stdout: IO[bytes] = self.process.stdout
        # Answer lines, _TOO_LONG, _FLOOD or None at the end; bounded, so a program that writes lines nobody
        # asked for holds at most MAX_PENDING_LINES of them (64 KB each) in scoutlab's memory, then is stopped.
        self.lines: queue.Queue[Any] = queue.Queue(MAX_PENDING_LINES + 2)
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
            if self.lines.qsize() >= MAX_PENDING_LINES:
                self.lines.put(_FLOOD)  # read no further: its pipe fills and it waits until it is stopped
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
        if self.lines.qsize() >= MAX_PENDING_LINES:  # lines written since the last answer, none of them asked for
            raise BotFailure(f"wrote more than {MAX_PENDING_LINES} lines it was not asked for (one answer per request)")
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
        if line is _FLOOD:
            raise BotFailure(f"wrote more than {MAX_PENDING_LINES} lines it was not asked for (one answer per request)")
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
        _kill_tree(process, self.mark)
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


_MARK = "SCOUTLAB_BOT_PROCESS"


def _kill_tree(process: subprocess.Popen, mark: str) -> None:
    """Kill the program and everything it started, then reap it.

    Its process group goes first (a shell script's children, `sleep &`). A child that called setsid
    has left the group and, once the program exits, its parent link too (it is adopted by init), so
    without cgroups nothing in the kernel still ties it to the program. Two things do: while the
    program lives (it is not reaped until the end of this function, so even after it exits its
    pid, group and session ids cannot be reused), /proc names its descendants by parent pid; and
    every process it starts inherits its environment, where `mark` (unique to this program) is
    set. So /proc is scanned for processes in its session or group, below it by parent pid, or
    carrying the mark, and each is killed; the scan repeats until it finds none (a fork between
    scan and kill is caught by the next). A descendant that both setsids and clears its
    environment after its parent has exited escapes; a cgroup would be needed for that. A
    subreaper (PR_SET_CHILD_SUBREAPER) was not used: it would change how every orphan of the
    whole scoutlab process is reparented, including the simulator's pool workers'.
    """
    with contextlib.suppress(ProcessLookupError, PermissionError, AttributeError):
        os.killpg(process.pid, signal.SIGKILL)
    if os.path.isdir("/proc/self"):
        for _ in range(10):
            found = _tree_of(process.pid, mark)
            if not found:
                break
            for pid in found:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        process.kill()
    process.wait()


def _tree_of(root: int, mark: str) -> list[int]:
    """Live processes (not zombies) started by `root`: by session, group, parent links or the environment mark."""
    parents: dict[int, int] = {}
    chosen: set[int] = set()
    wanted = f"{_MARK}={mark}".encode()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) in (root, os.getpid()):
            continue
        pid = int(entry.name)
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat_file:
                fields = stat_file.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if fields[0] == b"Z":
            continue  # already dead: only its parent's wait is missing
        parent, group, session = int(fields[1]), int(fields[2]), int(fields[3])
        parents[pid] = parent
        if root in (group, session):
            chosen.add(pid)
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as environ:
                if wanted in environ.read().split(b"\0"):
                    chosen.add(pid)
        except OSError:
            pass  # another user's process, or gone: not ours to read (nor to kill)
    below = {root}
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in below and pid not in below:
                below.add(pid)
                grew = True
    return sorted(chosen | (below - {root}))


def _stop_at_once() -> None:
    """On SIGTERM or SIGHUP (base/signals.py), stop every program (and what it started) before scoutlab dies of it:
    the default would end the process at once, skipping atexit (_stop_all), and the programs' sessions would live on."""
    for program in list(_running):
        with contextlib.suppress(Exception):
            program.close(grace=0)
