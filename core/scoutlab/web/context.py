"""What every route of the web app shares, passed to the routers explicitly: one `WebContext` per app.

A route reaches it through `web_context(request)` (the app's `state.web`), in a FastAPI route
and a plain Starlette one alike. So a router mounted on a bare app with a context of its own runs
exactly as it does in the whole app (tests/test_web_routers.py does that for each one).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.templating import Jinja2Templates

from scoutlab.base.limits import digits
from scoutlab.text import i18n
from scoutlab.web.events import table_json
from scoutlab.web.live import Streams
from scoutlab.web.matches import Match, Matches
from scoutlab.web.store import MatchStore
from scoutlab.web.strings import page_strings

if TYPE_CHECKING:
    from scoutlab.web.lab import Lab


def language(request: Request) -> str:
    """The request's language: ?lang=, then the `lang` cookie, then Accept-Language."""
    chosen = request.query_params.get("lang") or request.cookies.get("lang")
    # Each read only so far (a language code is short, a browser's header far shorter): a huge one costs no time.
    if chosen:
        return i18n.normalize(chosen[:20])
    return i18n.from_accept_language((request.headers.get("accept-language") or "")[:500])


def gettext_of(request: Request) -> i18n.Gettext:
    """The request's catalog, in its language (language() above)."""
    return i18n.gettext_for(language(request))


def error(status: int, message: str) -> JSONResponse:
    """A refusal as the API words it: `{"error": one sentence}`."""
    return JSONResponse({"error": message}, status_code=status)


def no_match(request: Request) -> JSONResponse:
    return error(404, gettext_of(request)("There is no match at this address."))


def log_from(request: Request) -> int:
    """The first log line the client lacks (`?log_from=N`), checked by length before any int()."""
    text = request.query_params.get("log_from", "0")
    return int(text) if digits(text) and len(text) < 10 else 0


@dataclass
class WebContext:
    """The matches and their live streams, the pages' templates, the worker threads and the table's pace."""

    matches: Matches
    streams: Streams
    templates: Jinja2Templates
    engine_pool: ThreadPoolExecutor
    bot_pool: ThreadPoolExecutor
    compile_pool: ThreadPoolExecutor
    bot_delay_ms: int = 700
    lab: Lab | None = None  # the variant lab's runs and threads, set when its router is made (lab.make_router)

    @classmethod
    def open(cls, db_path: str, bot_delay_ms: int = 700, engine_threads: int = 4, bot_threads: int = 4) -> WebContext:
        """A context keeping its matches in the SQLite file `db_path` (raises StoreError if it is not ours)."""
        matches = Matches(MatchStore(db_path))
        streams = Streams()
        matches.on_move = streams.moved  # a move wakes the live streams of its match
        # Engine work runs off the event loop in a few threads: under the GIL more threads add no
        # speed, only contention (and a longer p99). Bots think in a pool of their own, so slow search
        # bots hold up only other bots' moves, never a player's move or a page's state.
        # New matches (a pasted spec may take seconds to compile) have two threads of their own:
        # a burst of big specs delays other new matches, never a move.
        return cls(
            matches=matches, streams=streams,
            templates=Jinja2Templates(directory=str(resources.files("scoutlab.web") / "templates")),
            engine_pool=ThreadPoolExecutor(engine_threads, thread_name_prefix="scoutlab-engine"),
            bot_pool=ThreadPoolExecutor(bot_threads, thread_name_prefix="scoutlab-bots"),
            compile_pool=ThreadPoolExecutor(2, thread_name_prefix="scoutlab-compile"),
            bot_delay_ms=bot_delay_ms,
        )

    def install(self, app: FastAPI) -> None:
        """Make this the context of `app`'s routes (and `app.state.matches` the matches, as the tests read them)."""
        app.state.web = self
        app.state.matches = self.matches
        app.state.pools = (self.engine_pool, self.bot_pool, self.compile_pool)

    def page(self, request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        """A page in the request's language; a `?lang=` choice is kept in a cookie for a year."""
        lang = language(request)
        _ = i18n.gettext_for(lang)
        response = self.templates.TemplateResponse(
            request,
            template,
            {"_": _, "lang": lang, "rtl": i18n.is_rtl(lang), "languages": i18n.LANGUAGES, "strings": page_strings(_), **context},
            status_code=status,
        )
        if request.query_params.get("lang"):
            response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="lax")
        return response

    async def off_loop(self, work: Callable[[], Any], pool: ThreadPoolExecutor | None = None) -> Any:
        """Run `work` in a worker thread (the engine's unless `pool`); the event loop goes on serving meanwhile."""
        return await asyncio.get_running_loop().run_in_executor(pool or self.engine_pool, work)

    def find(self, token: str) -> Match | None:
        """The match, replayed from the database if need be (call in a worker thread); MatchDamaged, StorageFull."""
        return self.matches.get(token) if len(token) < 100 else None

    def state_of(self, request: Request, match: Match) -> dict[str, Any]:
        """The seat's state in the request's language, from the log line it asks for (call in a worker thread)."""
        with match.lock:  # held only while a move is applied, never while a bot thinks
            state = table_json(match, gettext_of(request), log_from(request))
        state["practice"] = match.practice
        return state

    def state_response(self, request: Request, match: Match) -> JSONResponse:
        # Plain JSON already: straight to json.dumps, skipping FastAPI's slower generic encoder.
        return JSONResponse(self.state_of(request, match))

    def loading_report(self) -> None:
        """On shutdown: what loading matches from the database cost (snapshots.py)."""
        matches = self.matches
        if matches.loaded:
            print(f"scoutlab serve: {matches.loaded} matches loaded from the database, {matches.full_replays} replayed from "
                  f"the seed, {matches.moves_replayed} moves replayed, {matches.snapshots_refused} snapshots refused",
                  file=sys.stderr, flush=True)


def web_context(request: Request) -> WebContext:
    """The context of the app serving `request` (set by WebContext.install)."""
    return request.app.state.web

