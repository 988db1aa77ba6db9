"""Live sync: a server-sent event stream per open table, so every tab of a match follows the server.

The stream sends the seat's whole state (events.table_json) whenever the number of moves
made changes, whoever made them: this tab, another tab, or a bot moved by another tab.
It checks the match in memory a few times a second (a dictionary lookup and a length),
rather than having every move notify every stream across threads. Each stream is bounded:
at most `MAX_STREAMS` open at once (more are refused with 503 and the page polls instead)
and `LIFETIME` seconds long (the page reopens it, asking only for the log lines it lacks).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool

from scoutlab.web.matches import Match, Matches

MAX_STREAMS = 500
LIFETIME = 300.0  # seconds; a browser reopens the stream, so a forgotten tab holds nothing for long
INTERVAL = 0.25  # seconds between checks of the match
HEARTBEAT = 15.0  # seconds: a comment line, so proxies keep the connection open


class Streams:
    """Counts the open streams, so their number stays bounded."""

    def __init__(self, limit: int | None = None):
        self.limit = MAX_STREAMS if limit is None else limit
        self.open = 0

    def full(self) -> bool:
        return self.open >= self.limit


def sse(event: str, data: Any) -> str:
    """One server-sent event; JSON has no raw newlines, so the data is a single line."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def state_stream(
    matches: Matches,
    token: str,
    render: Callable[[Match, int], dict[str, Any]],
    log_from: int,
    streams: Streams,
    is_disconnected: Callable[[], Any],
    lifetime: float | None = None,
) -> AsyncIterator[str]:
    """Yield the seat's state now and after every change of the match, until the browser leaves
    or `lifetime` seconds have passed. `render(match, log_from)` builds the state under the match's lock."""
    lifetime = LIFETIME if lifetime is None else lifetime
    streams.open += 1
    try:
        yield "retry: 2000\n\n"
        sent_ply, sent_log = -1, log_from
        started = last = time.monotonic()
        while time.monotonic() - started < lifetime:
            match = matches.in_memory(token)
            if match is None:  # dropped from memory: rebuilding replays the file, so not on the event loop
                match = await run_in_threadpool(matches.get, token)
                if match is None:
                    return
            ply = len(match.state.history)
            if ply != sent_ply:
                state = render(match, sent_log)
                sent_ply, sent_log = state["ply"], state["log_size"]
                yield sse("state", state)
                last = time.monotonic()
            elif time.monotonic() - last > HEARTBEAT:
                yield ": still here\n\n"
                last = time.monotonic()
            if await is_disconnected():
                return
            await asyncio.sleep(INTERVAL)
    finally:
        streams.open -= 1
