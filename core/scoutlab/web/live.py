"""Live sync: a server-sent event stream per open table, so every tab of a match follows the server.

The stream sends the seat's whole state (events.table_json) whenever the number of moves
made changes, whoever made them: this tab, another tab, or a bot moved by another tab.
A move wakes the streams of its match (`Streams.moved`, called by Matches from the worker
thread that made it, through the event loop's call_soon_threadsafe); a stream otherwise
sleeps, checking the match every `INTERVAL` seconds in case a wake-up was missed. (Until
issue 29 each stream checked its match 4 times a second and asked whether the browser had
left: at 500 open tables, 2,000 wake-ups a second on the event loop. A stream whose browser
leaves is cancelled by Starlette, which listens for the disconnect.) The state is made on
the event loop, usually a copy of the one just made for the move's answer (events.table_json
keeps it); the match's lock is only tried there, never waited for: while a worker thread
holds it (storing a move, making its answer) the stream sleeps 2 ms and tries again.
Each stream is bounded: at most `MAX_STREAMS` open at once (more are refused with 503 and
the page polls instead) and `LIFETIME` seconds long (the page reopens it, asking only for
the log lines it lacks).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool

from scoutlab.web.matches import Match, Matches

MAX_STREAMS = 500
LIFETIME = 300.0  # seconds; a browser reopens the stream, so a forgotten tab holds nothing for long
INTERVAL = 5.0  # seconds between checks of the match when no move woke the stream
HEARTBEAT = 15.0  # seconds: a comment line, so proxies keep the connection open
LOCK_WAIT = 0.002  # seconds between tries of a match's lock that a worker thread holds


class Streams:
    """Counts the open streams, so their number stays bounded, and wakes those of a match when it moves."""

    def __init__(self, limit: int | None = None):
        self.limit = MAX_STREAMS if limit is None else limit
        self.open = 0
        self._waiting: dict[str, set[asyncio.Event]] = {}  # token -> the events of its open streams (event loop only)
        self._loop: asyncio.AbstractEventLoop | None = None

    def full(self) -> bool:
        return self.open >= self.limit

    def moved(self, token: str) -> None:
        """A match moved (called from any thread): wake its streams, if it has any."""
        loop = self._loop
        if loop is not None and token in self._waiting:  # a racy look, harmless: a stream also checks every INTERVAL
            with contextlib.suppress(RuntimeError):  # the loop has closed: the server is stopping
                loop.call_soon_threadsafe(self._wake, token)

    def _wake(self, token: str) -> None:
        for event in self._waiting.get(token, ()):
            event.set()

    def _join(self, token: str) -> asyncio.Event:
        self._loop = asyncio.get_running_loop()
        event = asyncio.Event()
        self._waiting.setdefault(token, set()).add(event)
        return event

    def _leave(self, token: str, event: asyncio.Event) -> None:
        events = self._waiting.get(token)
        if events is not None:
            events.discard(event)
            if not events:
                del self._waiting[token]


def render_event(state: dict[str, Any]) -> tuple[int, int, str]:
    """What a stream's `render` answers for a state: its ply, its log size and its `state` event."""
    return state["ply"], state["log_size"], sse("state", state)


def sse(event: str, data: Any) -> str:
    """One server-sent event; JSON has no raw newlines, so the data is a single line."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def state_stream(
    matches: Matches,
    token: str,
    render: Callable[[Match, int], tuple[int, int, str]],
    log_from: int,
    streams: Streams,
    is_disconnected: Callable[[], Any],
    lifetime: float | None = None,
) -> AsyncIterator[str]:
    """Yield the seat's state now and after every change of the match, until the browser leaves
    or `lifetime` seconds have passed. `render(match, log_from)` builds the state's event, called holding the
    match's lock: the moves it counts, its log size and the event's text (`render_event`)."""
    lifetime = LIFETIME if lifetime is None else lifetime
    streams.open += 1
    woken = streams._join(token)
    try:
        yield "retry: 2000\n\n"
        sent_ply, sent_log = -1, log_from
        started = last = time.monotonic()
        while (left := lifetime - (time.monotonic() - started)) > 0:
            woken.clear()  # before reading the match: a move after this read sets it again
            match = matches.in_memory(token)
            if match is None:  # dropped from memory: loading it reads the file, so not on the event loop
                match = await run_in_threadpool(matches.get, token)
                if match is None:
                    return
            if len(match.state.history) != sent_ply:
                while not match.lock.acquire(blocking=False):  # a worker thread is moving it or making its answer:
                    await asyncio.sleep(LOCK_WAIT)  # the event loop never waits on a thread's lock
                try:
                    sent_ply, sent_log, text = render(match, sent_log)
                finally:
                    match.lock.release()
                yield text
                last = time.monotonic()
            elif time.monotonic() - last > HEARTBEAT:
                if await is_disconnected():
                    return
                yield ": still here\n\n"
                last = time.monotonic()
            if len(match.state.history) != sent_ply:
                continue  # moved while the state was rendered or sent
            with contextlib.suppress(asyncio.TimeoutError):  # woken by a move, or time to check anyway
                await asyncio.wait_for(woken.wait(), min(INTERVAL, left, max(0.0, HEARTBEAT - (time.monotonic() - last)) + 0.01))
    finally:
        streams._leave(token, woken)
        streams.open -= 1
