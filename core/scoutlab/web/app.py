"""The web app: pages for a new match, the table and the rules, and a small JSON API the table's script calls.

The server is the only authority: every move goes through the engine, a match is
reached only through its unguessable token, and each response carries only what the
browser's seat may know (see present.py). Every door is bounded (guard.py: body caps,
same-origin writes, security headers; inputs.py: numbers, moves, excerpts), and the
engine, replays and spec compiling run in worker threads, never on the event loop.

The routes live in routers, one module each (routes/); what they share is a WebContext
(context.py), the app's `state.web`, which each route reads through `web_context(request)`.
"""

from __future__ import annotations

from fastapi import APIRouter, FastAPI

from scoutlab.text import i18n
from scoutlab.web.context import WebContext
from scoutlab.web.doors import Doors
from scoutlab.web.failures import HANDLERS
from scoutlab.web.guard import Guard
from scoutlab.web.lab import make_router as lab_router
from scoutlab.web.refusals import refusal
from scoutlab.web.routes import api, static, table


def routers(web: WebContext) -> list[APIRouter]:
    """The app's routers, in the order they are matched. To add one, add a line; called once per app, so a
    router with state of its own (a `make_router(web)` call, keeping it in the app's context) gets a fresh one for each app."""
    return [
        api.router,  # /api/...: the JSON API the table's script calls
        table.router,  # /, /new, /m/...: the start page and the match pages
        static.router,  # /static/..., /rules/...: the scripts and styles, How to play for each shipped variant
        lab_router(web),  # /lab...: the variant lab, its checks and its runs (docs/lab.md)
    ]


def guard_refusal(scope: dict, status: int, what: str, limit: int) -> tuple[bytes, bytes]:
    """The Guard's refusal (a body over its cap or its time, a write from another site) in the request's language."""

    def say(_: i18n.Gettext) -> str:
        if what == "too-large":
            return _("The request is too large: at most {size} KB.", size=limit // 1024)
        if what == "too-slow":
            return _("The request's body came too slowly: it must arrive within {seconds} seconds.", seconds=limit)
        return _("Requests from other sites are refused.")

    return refusal(scope, status, say)


def create_app(db_path: str, bot_delay_ms: int = 700, engine_threads: int = 4, bot_threads: int = 4,
               hosts: frozenset[str] | None = None) -> FastAPI:
    """The app, keeping its matches in the SQLite file `db_path` (raises StoreError if it is not ours).

    `hosts`: the Host names it answers to (doors.allowed_hosts; None: any, as in tests).

    Moves, states and replays run in `engine_threads` worker threads, bots' moves in `bot_threads`,
    new matches (spec loading and compiling) in two more.
    """
    app = FastAPI(title="scoutlab", docs_url=None, redoc_url=None, openapi_url=None)
    web = WebContext.open(db_path, bot_delay_ms, engine_threads, bot_threads)
    web.install(app)
    app.router.on_shutdown.append(web.loading_report)
    app.add_middleware(Guard, refusal=guard_refusal)
    app.add_middleware(Doors, hosts=hosts)  # added last, so outermost: the Host is checked before anything else
    for kind, handler in HANDLERS.items():
        app.add_exception_handler(kind, handler)
    for router in routers(web):
        app.include_router(router)
    return app
