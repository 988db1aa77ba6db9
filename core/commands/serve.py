"""Serve the browser game: pick a variant and opponents, then play a whole match against bots."""

from __future__ import annotations

import argparse

help = "play in the browser: a web server for matches against bots (needs the `web` extra)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    parser.add_argument("--db", default="scoutlab-matches.sqlite3", help="SQLite file keeping the matches (default: %(default)s)")
    parser.add_argument("--bot-delay", type=int, default=700, metavar="MS", help="pause before each bot move, in milliseconds (default: 700)")


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        # imported here: without the web extra the import fails, and this says which package to install
        from scoutlab.web.app import create_app
        from scoutlab.web.store import StoreError
    except ImportError as exc:
        raise ValueError(f"the browser game needs the web extra ({exc.name} is missing): pip install 'scoutlab[web]'") from None

    try:
        app = create_app(args.db, bot_delay_ms=args.bot_delay)
    except StoreError as exc:
        raise ValueError(str(exc)) from None
    print(f"scoutlab: matches kept in {args.db}; open http://{args.host}:{args.port}/")
    # Keep-alive longer than uvicorn's 5 s: a page that sits on the end-of-round screen reuses its connection.
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", timeout_keep_alive=15)
    return 0
