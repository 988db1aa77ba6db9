"""The server's outermost door: which host names it answers to, HEAD as GET, no caching of what shows a hand,
and a bound on how long a connection may take to send a request's headers.

`Doors` is a plain ASGI middleware, outside the Guard (guard.py): a request whose Host header is not one
the server was told it is called (localhost, 127.0.0.1, [::1], the address it listens on, and each
--allowed-host), or that is not a host name or IP literal with an optional port, is refused before anything
else, so a page on another site that rebinds its own DNS name to 127.0.0.1 cannot read a match (DNS
rebinding). `bounded_h11` is the HTTP protocol `scoutlab serve` runs uvicorn with: uvicorn's h11 protocol,
plus a timer that closes a connection whose request headers are not complete within `seconds` (uvicorn's own
keep-alive timer stops at the first byte, so a client sending one header byte a minute would hold a
connection for ever).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterable
from typing import Any

from scoutlab.text import i18n
from scoutlab.web.guard import Message, Receive, Scope, Send
from scoutlab.web.refusals import refusal

#: Names a server on this machine is always reached by.
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
#: Seconds a connection may take to send a request's headers, from its first byte (or from connecting).
HEADER_SECONDS = 10.0
#: Paths whose answers may be cached: the same for every player, no hand and no match address in them.
_CACHEABLE = ("/static/", "/rules/")
_WILDCARDS = ("", "0.0.0.0", "::", "*")
#: A Host header as a browser sends it: a host name (dot-separated labels of letters, digits, '-' and '_'; an IPv4
#: literal is one), or an IPv6 literal in brackets, then maybe ':' and a port of 1 to 5 digits. Nothing else: a
#: form no browser sends (`127.0.0.1:80@evil.example`, `[::1]x`, `localhost:`) is not read as a name it contains.
_HOST = re.compile(r"(?:(?P<name>[a-z0-9_-]{1,63}(?:\.[a-z0-9_-]{1,63})*)|\[(?P<ipv6>[0-9a-f:.]+)\])(?::[0-9]{1,5})?")
_NUMERIC_LABEL = re.compile(r"[0-9]+")


def host_name(header: str) -> str | None:
    """`Localhost:8000` -> `localhost`, `[::1]:8000` -> `::1`: the Host header without its port, lowercased; None
    for a header that is not a host name, an IPv4 literal or a bracketed IPv6 literal with an optional port."""
    found = _HOST.fullmatch(header.lower())
    if found is None:
        return None
    if found["ipv6"] is not None:
        return _ipv6(found["ipv6"])
    name = found["name"]
    if len(name) > 253 or (_NUMERIC_LABEL.fullmatch(name.rsplit(".", 1)[-1]) and not _ipv4(name)):
        return None  # a browser reads a name ending in a number as an IPv4 address, and sends it as four numbers
    return name


def _ipv4(name: str) -> bool:
    """Whether `name` is an IPv4 literal as a browser writes it: four numbers 0-255, no leading zeros."""
    try:
        ipaddress.IPv4Address(name)
    except ValueError:
        return False
    return True


def _ipv6(literal: str) -> str | None:
    """An IPv6 literal in its shortest form (`0:0::1` -> `::1`, as a browser writes it); None if it is not one."""
    try:
        return ipaddress.IPv6Address(literal).compressed
    except ValueError:
        return None


def allowed_hosts(bound: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The host names a server listening on `bound` answers to: this machine's, `bound` itself, and `extra`."""
    names = {*LOCAL_HOSTS, *(_given_name(name) for name in extra if name.strip())}
    if bound not in _WILDCARDS:
        names.add(_given_name(bound if ":" not in bound or bound.startswith("[") else f"[{bound}]"))
    return frozenset(names)


def _given_name(name: str) -> str:
    """A name the server was told it is called, as a Host header would carry it; one that no header can match is kept
    as given (lowercased), so the start-up line still lists it."""
    name = name.strip()
    return host_name(name) or name.lower()


class Doors:
    """ASGI middleware: Host check (when `hosts` is given), HEAD answered as GET without a body, no-store caching."""

    def __init__(self, app: Callable, hosts: frozenset[str] | None = None):
        self.app = app
        self.hosts = hosts  # None: any Host (an app built for tests or embedding; `scoutlab serve` always gives them)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.hosts is not None:
            header = next((value.decode("latin-1") for key, value in scope.get("headers", ()) if key == b"host"), "")
            name = host_name(header)
            if name is None or name not in self.hosts:
                await _refuse_host(scope, send, sorted(self.hosts))
                return
        head = scope["method"] == "HEAD"
        if head:
            scope = {**scope, "method": "GET"}  # the GET's status and headers, without its body
        no_store = not scope["path"].startswith(_CACHEABLE)
        answered = False  # a HEAD's answer is whole once its headers are out

        async def send_at_the_door(message: Message) -> None:
            nonlocal answered
            if answered:
                return  # the GET's body, which a HEAD does not carry
            if message["type"] == "http.response.start" and no_store:
                headers = [(key, value) for key, value in message.get("headers", []) if key.lower() != b"cache-control"]
                message = {**message, "headers": [*headers, (b"cache-control", b"no-store")]}
            await send(message)
            if message["type"] == "http.response.start" and head:
                answered = True  # ended here, so an event stream's HEAD does not hold the connection open
                await send({"type": "http.response.body", "body": b"", "more_body": False})

        async def receive_at_the_door() -> Message:
            if answered:
                return {"type": "http.disconnect"}  # a stream answered to a HEAD stops: no one reads it
            return await receive()

        await self.app(scope, receive_at_the_door, send_at_the_door)


async def _refuse_host(scope: Scope, send: Send, hosts: list[str]) -> None:
    """421 in the request's language: a page for a browser's navigation (it shows JSON escaped), JSON for the rest."""
    names = ", ".join(f"[{name}]" if ":" in name else name for name in hosts)

    def say(_: i18n.Gettext) -> str:
        shown = i18n.left_to_right(names) if i18n.is_rtl(i18n.language_of(_)) else names  # kept in order in RTL text
        return _("This server answers only to the host names it was given ({names}); start it with --allowed-host NAME to add one.",
                 names=shown)

    body, kind = refusal(scope, 421, say)
    await send({"type": "http.response.start", "status": 421, "headers": [
        (b"content-type", kind), (b"content-length", str(len(body)).encode()), (b"cache-control", b"no-store"),
    ]})
    await send({"type": "http.response.body", "body": body})


def bounded_h11(seconds: float = HEADER_SECONDS) -> Any:
    """uvicorn's h11 protocol, closing a connection whose request headers take more than `seconds` to arrive."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class BoundedHeaders(H11Protocol):
        _header_timer: Any = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()  # a connection that sends nothing at all is closed too

        def data_received(self, data: bytes) -> None:
            if self._header_timer is None and (self.cycle is None or self.cycle.response_complete):
                self._arm()  # the first bytes of a new request: its headers have `seconds` to be complete
            super().data_received(data)

        def handle_events(self) -> None:
            before = self.cycle
            super().handle_events()
            if self.cycle is not before:  # a request's headers are complete: the app's own work is not bounded here
                self._disarm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                self.transport.close()

    return BoundedHeaders
