"""The server's outer door, before any route runs: body size caps, same-origin checks and security headers.

A plain ASGI middleware (no buffering): it answers 413 from the
Content-Length alone, or as soon as a streamed body passes the cap, so a 100 MB body
is never held (the rest of a refused body is read and discarded, up to 64 MB or 10 s,
so a client that sends before it reads gets the 413 rather than a reset); it answers 408 to a body that has not
arrived whole within BODY_SECONDS; it refuses a state-changing request that a browser marks as
coming from another site (403); and it adds the headers that keep the match address
(the match's only key) out of Referer headers, frames and sniffed content.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from scoutlab.base.limits import digits

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

#: Bytes a request body may have: a new match carries a spec (64 KB) as a form or JSON; anything else
#: carries a move, but gets room enough that malformed JSON (100,000 levels deep) is refused as such, with a 400.
NEW_MATCH_BODY_LIMIT = 160 * 1024
BODY_LIMIT = 128 * 1024
_NEW_MATCH_PATHS = ("/new", "/api/new")

#: Scripts, styles and connections from this origin only; no inline script or style, no frames, no plugins.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # the match address is its secret: never in a Referer
    (b"x-frame-options", b"DENY"),  # frame-ancestors for browsers that predate it
    (b"cross-origin-opener-policy", b"same-origin"),
]
_SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
#: A refused body is read and thrown away, up to this many bytes and seconds, before the 413 is sent: a client
#: that sends its whole body before reading (curl, most libraries) then reads the 413. Unread data at the
#: close would make the kernel reset the connection, and the client would see only the reset.
DRAIN_BYTES = 64 * 1024 * 1024
DRAIN_SECONDS = 10.0
#: Seconds a request body may take to arrive, from the request's head: a client that stalls or drips its body
#: would otherwise hold its connection, and the route reading it, for ever (uvicorn bounds only the head).
BODY_SECONDS = 20.0


async def drain(receive: Receive, already: int, declared: int | None) -> None:
    """Read and discard the rest of a request body, within DRAIN_BYTES and DRAIN_SECONDS; past them, stop."""
    if declared is not None and declared > DRAIN_BYTES:
        return  # more than is worth reading: the client gets the 413 if it reads before it has sent it all

    async def discard() -> None:
        seen = already
        while seen <= DRAIN_BYTES:
            message = await receive()
            if message["type"] != "http.request":
                return
            seen += len(message.get("body", b""))
            if not message.get("more_body", False):
                return

    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(discard(), DRAIN_SECONDS)


def body_limit(path: str) -> int:
    """The byte cap of a request body to `path`."""
    return NEW_MATCH_BODY_LIMIT if path in _NEW_MATCH_PATHS else BODY_LIMIT


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def cross_site(scope: Scope) -> bool:
    """Whether a browser says this request comes from another site (Sec-Fetch-Site, else Origin against Host).

    A request with neither header is not from a browser's page (curl, scripts, tests), which
    cannot ride on a player's open match page, so it is let through, as Go's CrossOriginProtection does.
    """
    site = _header(scope, b"sec-fetch-site")
    if site is not None:
        return site not in ("same-origin", "none")  # none: typed or bookmarked by the user
    origin = _header(scope, b"origin")
    if origin is None:
        return False
    host = _header(scope, b"host") or ""
    return origin == "null" or origin.split("://", 1)[-1].rstrip("/").lower() != host.lower()


class Guard:
    """ASGI middleware: caps bodies, refuses cross-site writes, adds security headers to every answer."""

    def __init__(self, app: Callable, refusal: Callable[[Scope, int, str, int], tuple[bytes, bytes]]):
        self.app = app
        self.refusal = refusal  # (scope, status, what, limit) -> (body, content type), in the request's language

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = refused = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the 413 has gone out: whatever the app says after its body was cut off is dropped
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        async def refuse(status: int, what: str, limit: int = 0) -> None:
            body, kind = self.refusal(scope, status, what, limit)
            await send_with_headers({"type": "http.response.start", "status": status, "headers": [
                (b"content-type", kind), (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),  # the rest of an oversized body is never read
            ]})
            await send_with_headers({"type": "http.response.body", "body": body})

        if scope["method"] not in _SAFE_METHODS and cross_site(scope):
            await refuse(403, "cross-site")
            return
        limit = body_limit(scope["path"])
        declared = _header(scope, b"content-length")
        if declared is not None and (not digits(declared) or len(declared) > 15 or int(declared) > limit):
            if digits(declared) and len(declared) <= 15 and (_header(scope, b"expect") or "").lower() != "100-continue":
                await drain(receive, 0, int(declared))  # a client waiting for 100-continue has sent nothing: answer now
            await refuse(413, "too-large", limit)
            return
        seen = 0
        # Only a request that declares a body has one to wait for; a stream's later reads wait for a disconnect.
        body_done = declared in (None, "0") and "chunked" not in (_header(scope, b"transfer-encoding") or "").lower()
        deadline = asyncio.get_running_loop().time() + BODY_SECONDS

        async def capped_receive() -> Message:
            # A streamed (chunked) body past the cap: answer 413 now, and tell the app the client has gone.
            nonlocal seen, refused, body_done
            if refused:
                return {"type": "http.disconnect"}
            if body_done:  # what comes after the body (a disconnect, awaited by a stream) has no deadline
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - asyncio.get_running_loop().time()))
            except asyncio.TimeoutError:
                if not started:
                    await refuse(408, "too-slow", int(BODY_SECONDS))
                refused = True
                return {"type": "http.disconnect"}
            if message["type"] == "http.request":
                body_done = not message.get("more_body", False)
                seen += len(message.get("body", b""))
                if seen > limit:
                    if not started:
                        if message.get("more_body", False):
                            await drain(receive, seen, None)
                        await refuse(413, "too-large", limit)
                    refused = True
                    return {"type": "http.disconnect"}
            return message

        try:
            await self.app(scope, capped_receive, send_with_headers)
        except Exception:
            if not refused:
                raise
            # the app stopped on the disconnect we made up: the 413 already answered
