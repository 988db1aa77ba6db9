"""Serve the browser game: pick a variant and opponents, then play a whole match against bots."""

from __future__ import annotations

import argparse
import socket
import sys

from scoutlab.base.limits import excerpt, shown_safely

help = "play in the browser: a web server for matches against bots (needs the `web` extra)"


#: Seconds a thread may hold the GIL while others wait for it, in the server (Python's default: 0.005).
SWITCH_INTERVAL = 0.001
MAX_BOT_DELAY_MS = 60_000  # a minute between bot moves; play --delay allows as long


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="port, 1 to 65535 (default: 8000)")
    parser.add_argument("--db", default="scoutlab-matches.sqlite3", help="SQLite file keeping the matches (default: %(default)s)")
    parser.add_argument("--bot-delay", type=int, default=700, metavar="MS", help="pause before each bot move, in milliseconds (default: 700)")
    parser.add_argument(
        "--allowed-host", action="append", default=[], metavar="NAME",
        help="a host name browsers may reach the server by, besides localhost, 127.0.0.1, [::1] and --host "
             "(repeatable; other Host headers are refused, against DNS rebinding)",
    )


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to `host`:`port` and listening; ValueError with one line if it cannot be."""
    if not 1 <= port <= 65535:
        raise ValueError(f"--port must be a whole number from 1 to 65535, not {excerpt(port)}")
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise ValueError(f"cannot listen on {host[:60]!r}: {getattr(exc, 'strerror', None) or exc}") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise ValueError(f"cannot listen on {host[:60]} port {port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        # imported here: without the web extra the import fails, and this says which package to install
        from scoutlab.web.app import create_app
        from scoutlab.web.doors import allowed_hosts, bounded_h11
        from scoutlab.web.store import StoreError
    except ImportError as exc:
        raise ValueError(f"the browser game needs the web extra ({exc.name} is missing): pip install 'scoutlab[web]'") from None

    if not 0 <= args.bot_delay <= MAX_BOT_DELAY_MS:  # it goes into every page: a pause of years, or of less than none
        raise ValueError(f"--bot-delay must be from 0 to {MAX_BOT_DELAY_MS:,} milliseconds, not {excerpt(args.bot_delay)}")
    # Bound before anything else: a port that cannot be had is one line and exit 1, not uvicorn's log and exit 3.
    sock = listening_socket(args.host, args.port)
    hosts = allowed_hosts(args.host, args.allowed_host)
    try:
        app = create_app(args.db, bot_delay_ms=args.bot_delay, hosts=hosts)
    except StoreError as exc:
        sock.close()
        raise ValueError(str(exc)) from None
    # names as given, escaped: an --allowed-host with an escape in it is shown, not obeyed by the terminal
    print(shown_safely(f"scoutlab: matches kept in {args.db}; open http://{args.host}:{args.port}/ (answers to: {', '.join(sorted(hosts))})"))
    # A thread back from SQLite or zlib waits for the GIL up to the switch interval while another thread computes,
    # holding the store's lock meanwhile: 1 ms instead of Python's 5 ms keeps that queue short under load.
    sys.setswitchinterval(SWITCH_INTERVAL)
    # Keep-alive longer than uvicorn's 5 s: a page that sits on the end-of-round screen reuses its connection.
    config = uvicorn.Config(app, log_level="warning", timeout_keep_alive=15, http=bounded_h11())
    uvicorn.Server(config).run(sockets=[sock])
    return 0
