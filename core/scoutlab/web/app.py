"""The web app: pages for a new match, the table and the rules, and a small JSON API the table's script calls.

The server is the only authority: every move goes through the engine, a match is
reached only through its unguessable token, and each response carries only what the
browser's seat may know (see present.py). Every door is bounded (guard.py: body caps,
same-origin writes, security headers; inputs.py: numbers, moves, excerpts), and the
engine, replays and spec compiling run in worker threads, never on the event loop.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from scoutlab.bots import BotError, known_bots
from scoutlab.bots.levels import DEFAULT_LEVEL, LEVELS, available_levels, find_level, level_bot
from scoutlab.engine import explain
from scoutlab.engine.actions import NotationError, parse_action
from scoutlab.engine.state import IllegalAction
from scoutlab.spec.variant import SpecError, load_spec, load_spec_text, shipped_variants
from scoutlab.text import i18n
from scoutlab.text.bot_names import bot_label
from scoutlab.text.spec_messages import translate_problem
from scoutlab.text.variant_text import description as variant_description, shipped_listing, title as variant_title
from scoutlab.web.deals import PRACTICE_SEED_LIMIT
from scoutlab.web.doors import Doors
from scoutlab.web.events import table_json
from scoutlab.web.guard import Guard
from scoutlab.web.inputs import MAX_ACTION_CHARS, BadInput, excerpt, parse_json, short_problems, whole_number
from scoutlab.web.live import Streams, render_event, state_stream
from scoutlab.web.matches import Match, Matches, NotYourTurn, rules_for
from scoutlab.web.rulespage import rules_sections
from scoutlab.web.store import MatchDamaged, MatchStore, StorageFull
from scoutlab.web.strings import page_strings
from scoutlab.web.yours import remember, your_matches

#: Bots a browser may choose. `external` runs a program on the server, so it is never offered.
UNSAFE_BOTS = {"external"}
MAX_SPEC_BYTES = 64 * 1024
#: The most players any variant seats (the schema's limit); a larger number is refused before anything is built.
MAX_PLAYERS = 5


def offered_bots() -> list[str]:
    """Bot names a browser may pick for one opponent, besides the levels' bots."""
    return sorted(name for name in known_bots() if name not in UNSAFE_BOTS)


def allowed_bots() -> set[str]:
    """Every bot a match may seat: the offered names and each level's bot spec (with its budget)."""
    return {*offered_bots(), *(level.bot for level in LEVELS)}


def _count_range(counts: list[int]) -> str:
    """`3–5` for consecutive counts, else `2, 4`; isolated left to right, so Arabic and Persian keep the order."""
    if len(counts) > 1 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"\u2066{counts[0]}–{counts[-1]}\u2069"
    return "\u2066" + ", ".join(map(str, counts)) + "\u2069"


def create_app(db_path: str, bot_delay_ms: int = 700, engine_threads: int = 4, bot_threads: int = 4,
               hosts: frozenset[str] | None = None) -> FastAPI:
    """The app, keeping its matches in the SQLite file `db_path` (raises StoreError if it is not ours).

    `hosts`: the Host names it answers to (doors.allowed_hosts; None: any, as in tests).

    Moves, states and replays run in `engine_threads` worker threads, bots' moves in `bot_threads`,
    new matches (spec loading and compiling) in two more.
    """
    app = FastAPI(title="scoutlab", docs_url=None, redoc_url=None, openapi_url=None)
    matches = Matches(MatchStore(db_path))
    app.state.matches = matches
    streams = Streams()
    matches.on_move = streams.moved  # a move wakes the live streams of its match
    folder = resources.files("scoutlab.web")
    templates = Jinja2Templates(directory=str(folder / "templates"))
    app.mount("/static", StaticFiles(directory=str(folder / "static")), name="static")

    def guard_message(scope: dict, what: str, limit: int) -> str:
        _ = i18n.gettext_for(language(Request(scope)))
        if what == "too-large":
            return _("The request is too large: at most {size} KB.", size=limit // 1024)
        return _("Requests from other sites are refused.")

    app.add_middleware(Guard, message=guard_message)
    app.add_middleware(Doors, hosts=hosts)  # added last, so outermost: the Host is checked before anything else

    def language(request: Request) -> str:
        chosen = request.query_params.get("lang") or request.cookies.get("lang")
        if chosen:
            return i18n.normalize(chosen)
        return i18n.from_accept_language(request.headers.get("accept-language"))

    def page(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        lang = language(request)
        _ = i18n.gettext_for(lang)
        response = templates.TemplateResponse(
            request,
            template,
            {
                "_": _,
                "lang": lang,
                "rtl": i18n.is_rtl(lang),
                "languages": i18n.LANGUAGES,
                "strings": page_strings(_),
                **context,
            },
            status_code=status,
        )
        if request.query_params.get("lang"):
            response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="lax")
        return response

    # Engine work runs off the event loop in a few threads: under the GIL more threads add no
    # speed, only contention (and a longer p99). Bots think in a pool of their own, so slow search
    # bots hold up only other bots' moves, never a player's move or a page's state.
    # New matches (a pasted spec may take seconds to compile) have two threads of their own:
    # a burst of big specs delays other new matches, never a move.
    engine_pool = ThreadPoolExecutor(engine_threads, thread_name_prefix="scoutlab-engine")
    bot_pool = ThreadPoolExecutor(bot_threads, thread_name_prefix="scoutlab-bots")
    compile_pool = ThreadPoolExecutor(2, thread_name_prefix="scoutlab-compile")
    app.state.pools = (engine_pool, bot_pool, compile_pool)

    def loading_report() -> None:  # on shutdown: what loading matches from the database cost (snapshots.py)
        if matches.loaded:
            print(f"scoutlab serve: {matches.loaded} matches loaded from the database, {matches.full_replays} replayed from "
                  f"the seed, {matches.moves_replayed} moves replayed, {matches.snapshots_refused} snapshots refused",
                  file=sys.stderr, flush=True)

    app.router.on_shutdown.append(loading_report)

    async def off_loop(work: Callable[[], Any], pool: ThreadPoolExecutor = engine_pool) -> Any:
        """Run `work` in a worker thread; the event loop goes on serving meanwhile."""
        return await asyncio.get_running_loop().run_in_executor(pool, work)

    def error(request: Request, status: int, message: str) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    def find(token: str) -> Match | None:
        """The match, replayed from the database if need be (call in a worker thread); MatchDamaged, StorageFull."""
        return matches.get(token) if len(token) < 100 else None

    def state_of(request: Request, match: Match) -> dict[str, Any]:
        text = request.query_params.get("log_from", "0")
        log_from = int(text) if text.isdigit() and len(text) < 10 else 0
        with match.lock:  # held only while a move is applied, never while a bot thinks
            state = table_json(match, i18n.gettext_for(language(request)), log_from)
        state["practice"] = match.practice
        return state

    def state_response(request: Request, match: Match) -> JSONResponse:
        # Plain JSON already: straight to json.dumps, skipping FastAPI's slower generic encoder.
        return JSONResponse(state_of(request, match))

    # -- pages --------------------------------------------------------------------------------

    def variants_info(lang: str) -> list[dict[str, Any]]:
        """The shipped variants in the player's language: the official rules first, house rules last."""
        return [
            {
                "name": entry.name, "title": entry.title, "description": entry.description, "kind": entry.kind,
                "players": list(entry.players), "players_text": _count_range(list(entry.players)),
            }
            for entry in shipped_listing(lang)
        ]

    def new_match_page(request: Request, status: int = 200, problems: Sequence[str] = (), form: dict | None = None) -> HTMLResponse:
        _ = i18n.gettext_for(language(request))
        variants = variants_info(language(request))
        form = form or {"variant": "official" if any(v["name"] == "official" for v in variants) else variants[0]["name"]}
        bots = [{"name": name, "label": bot_label(name, _)} for name in offered_bots()]
        # a level by its word; how it plays and its bot spec only in the details line, for the curious
        levels = [{"name": level.name, "label": _(level.word), "how": _(level.description), "bot": level.bot} for level in available_levels()]
        yours = your_matches(request, matches, _, language(request))
        return page(
            request, "new.html", status, variants=variants, bots=bots, levels=levels, problems=list(problems),
            form={"level": DEFAULT_LEVEL, **form}, yours=yours,
        )

    @app.get("/", response_class=HTMLResponse)
    def new_match_form(request: Request):
        return new_match_page(request)

    @app.post("/new")
    async def new_match(request: Request):
        _ = i18n.gettext_for(language(request))
        form_data = await request.form()  # the body is capped by the Guard before it is read

        def field(name: str, default: str = "") -> str:
            value = form_data.get(name, default)
            return value if isinstance(value, str) else default

        variant, spec_text, level = field("variant", "official"), field("spec_text"), field("level", DEFAULT_LEVEL)
        opponents = [field(f"bot{i}") for i in range(1, 5)]
        text, filename = spec_text, "pasted.yaml"
        upload = form_data.get("spec_file")
        if upload is not None and not isinstance(upload, str) and upload.filename:
            raw = await upload.read(MAX_SPEC_BYTES + 1)
            text, filename = raw.decode("utf-8", errors="replace"), excerpt(upload.filename, 60)[1:-1]
        form = {"variant": variant, "players": 0, "spec_text": spec_text[:MAX_SPEC_BYTES], "opponents": opponents,
                "level": level}

        def start() -> Match:
            players = whole_number(field("players", "0") or "0", 0, MAX_PLAYERS, players_message(_))
            form["players"] = players
            seed = practice_seed(field("practice") in ("on", "1", "true"), field("seed").strip() or None, _)
            spec = _spec_from(variant, text, filename, _)
            players = players or rules_for(spec).players[0]
            bots = [b or level_spec(level, _) for b in opponents[: players - 1]]  # an opponent left as the level
            return _start(spec.doc, players, bots, seed, _)

        try:
            match = await off_loop(start, compile_pool)
        except SpecError as exc:
            problems = short_problems([translate_problem(p, _) for p in exc.problems])
            return await off_loop(partial(new_match_page, request, 422, problems, form))
        except (ValueError, BotError) as exc:
            return await off_loop(partial(new_match_page, request, 422, [str(exc)], form))
        response = RedirectResponse(f"/m/{match.token}", status_code=303)
        remember(request, response, match.token)
        return response

    @app.post("/m/{token}/rematch")
    async def rematch(request: Request, token: str):
        """A new match with the same variant, number of players and opponents (a new deal)."""

        def again() -> Response:
            match = find(token)
            if match is None:
                return page(request, "message.html", 404, message=i18n.gettext_for(language(request))("There is no match at this address."))
            with match.lock:
                doc, players = match.rules.spec.doc, match.state.players
            bots = [name for name in match.bot_names if name is not None]
            fresh = matches.new(doc, players, bots)
            response = RedirectResponse(f"/m/{fresh.token}", status_code=303)
            remember(request, response, fresh.token)
            return response

        return await off_loop(again, compile_pool)

    @app.get("/m/{token}", response_class=HTMLResponse)
    def table(request: Request, token: str):
        match = find(token)
        if match is None:
            _ = i18n.gettext_for(language(request))
            return page(request, "message.html", 404, message=_("There is no match at this address."))
        return page(
            request, "table.html", token=token, variant=variant_title(match.rules.spec.doc, language(request)), bot_delay_ms=bot_delay_ms,
            has_scout_show=match.rules.sns_chips > 0, practice=match.practice,
        )

    @app.get("/rules/{variant}", response_class=HTMLResponse)
    def rules_page(request: Request, variant: str):
        _ = i18n.gettext_for(language(request))
        if variant not in {name for name, _d in shipped_variants()}:
            return page(request, "message.html", 404, message=_("There is no variant called {name}.", name=excerpt(variant)[1:-1]))
        rules = rules_for(load_spec(variant))
        return page(request, "rules.html", rules=rules, sections=rules_sections(rules, _), words=_variant_words(rules, request))

    @app.get("/m/{token}/rules", response_class=HTMLResponse)
    def match_rules_page(request: Request, token: str):
        match = find(token)
        _ = i18n.gettext_for(language(request))
        if match is None:
            return page(request, "message.html", 404, message=_("There is no match at this address."))
        return page(request, "rules.html", rules=match.rules, sections=rules_sections(match.rules, _), token=token,
                    words=_variant_words(match.rules, request))

    def _variant_words(rules, request: Request) -> dict[str, str]:
        lang = language(request)
        return {"title": variant_title(rules.spec.doc, lang), "description": variant_description(rules.spec.doc, lang)}

    # -- the JSON API ---------------------------------------------------------------------------

    def _spec_from(variant: str, text: str, filename: str, _):
        """The spec to play (call in a worker thread: it may compile); SpecError or ValueError with the reason."""
        if text.strip():
            if len(text.encode()) > MAX_SPEC_BYTES:
                raise ValueError(_("A variant spec may be at most {size} KB.", size=MAX_SPEC_BYTES // 1024))
            try:
                spec = load_spec_text(text, filename)
                rules_for(spec)  # compiling checks end conditions and plugins, as `scoutlab validate` does
            except RecursionError:  # the YAML reader recurses once per level of nesting
                raise ValueError(_("The variant spec is nested too deeply to read.")) from None
            return spec
        if variant not in {name for name, _d in shipped_variants()}:
            raise ValueError(_("There is no variant called {name}.", name=excerpt(variant)[1:-1]))
        return load_spec(variant)

    def level_spec(level: Any, _) -> str:
        """The bot spec a level plays with (or the next installed level's); BadInput for a level that is not one."""
        try:
            if not isinstance(level, str):
                raise ValueError(level)
            find_level(level)
        except ValueError:
            raise BadInput(_("Unknown level {name}; choose one of: {names}.", name=excerpt(str(level))[1:-1],
                             names=", ".join(known.name for known in LEVELS))) from None
        return level_bot(level)

    def players_message(_) -> str:
        return _("The number of players must be a whole number from {low} to {high}.", low=2, high=MAX_PLAYERS)

    def practice_seed(practice: Any, seed: Any, _) -> int | None:
        """The chosen seed of a practice match, or None for a secret deal; BadInput when a seed comes without practice."""
        if not isinstance(practice, bool):
            raise BadInput(_("practice must be true or false."))
        if seed is None:
            return None
        if not practice:
            raise BadInput(_("A chosen seed is only allowed in a practice match (send practice: true with it)."))
        return whole_number(seed, 0, PRACTICE_SEED_LIMIT - 1, _("The seed must be a whole number from 0 to 2^128 − 1."))

    def _start(doc: dict, players: int, bots: list[str], seed: int | None, _) -> Match:
        counts = rules_for(doc).players
        if players not in counts:
            raise ValueError(_(
                "The variant {variant} is for {counts} players, not {players}.",
                variant=doc["name"], counts=_count_range(list(counts)), players=players,
            ))
        allowed = allowed_bots()
        for bot in bots:
            if bot not in allowed:
                raise BotError(_("Unknown opponent {name}; choose one of: {names}.", name=excerpt(bot)[1:-1], names=", ".join(sorted(allowed))))
        return matches.new(doc, players, bots, seed)

    async def json_body(request: Request) -> Any:
        """The request's JSON (the Guard has capped its size); BadInput for anything that is not JSON."""
        return parse_json(await request.body())

    # The JSON API's routes are plain Starlette routes: FastAPI's parameter machinery cost about
    # 85 us a request (an eighth of one), and these read their few inputs themselves, bounded.
    def api_route(path: str, method: str):
        def register(endpoint):
            app.add_route(path, endpoint, methods=[method])
            return endpoint
        return register

    @api_route("/api/new", "POST")
    async def api_new(request: Request):
        _ = i18n.gettext_for(language(request))
        try:
            body = await json_body(request)
            if not isinstance(body, dict):
                raise BadInput("")
        except BadInput:
            return error(request, 400, _("Send a JSON object: variant or spec, players, bots."))

        def start() -> Match:
            variant, spec_text = body.get("variant", "official"), body.get("spec", "")
            if not isinstance(variant, str) or not isinstance(spec_text, str):
                raise BadInput(_("variant and spec must be text."))
            players = body.get("players")
            players = None if players is None else whole_number(players, 2, MAX_PLAYERS, players_message(_))
            seed = practice_seed(body.get("practice", False), body.get("seed"), _)
            bots = body.get("bots")
            if bots is not None and (not isinstance(bots, list) or len(bots) > MAX_PLAYERS or not all(isinstance(b, str) for b in bots)):
                raise BadInput(_("bots must be a list of bot names, one per opponent."))
            spec = _spec_from(variant, spec_text, "pasted.yaml", _)
            players = players or rules_for(spec).players[0]
            level = level_spec(body.get("level", DEFAULT_LEVEL), _)
            return _start(spec.doc, players, bots or [level] * (players - 1), seed, _)

        try:
            match = await off_loop(start, compile_pool)
        except SpecError as exc:
            problems = short_problems([translate_problem(p, _) for p in exc.problems])
            first = problems[0] if len(exc.problems) == 1 else f"{problems[0]} (and {len(exc.problems) - 1} more)"
            return JSONResponse({"error": first, "problems": problems}, status_code=422)
        except (ValueError, BotError, TypeError) as exc:
            return error(request, 422, str(exc))
        state = await off_loop(partial(state_of, request, match))
        response = JSONResponse({"token": match.token, "url": f"/m/{match.token}", "state": state})
        remember(request, response, match.token)
        return response

    def no_match(request: Request) -> JSONResponse:
        return error(request, 404, i18n.gettext_for(language(request))("There is no match at this address."))

    @api_route("/api/m/{token}", "GET")
    async def api_state(request: Request):
        token = request.path_params["token"]

        def read() -> Response:
            match = find(token)
            if match is None:
                return no_match(request)
            return state_response(request, match)

        return await off_loop(read)

    @api_route("/api/m/{token}/act", "POST")
    async def api_act(request: Request):
        token = request.path_params["token"]
        _ = i18n.gettext_for(language(request))
        try:
            body = await json_body(request)
            text = body["action"] if isinstance(body, dict) else None
        except (BadInput, KeyError):
            text = None
        if not isinstance(text, str):
            return error(request, 400, _("Send a JSON object with the move in notation, e.g. {example}.", example='{"action": "show 2-3"}'))
        if len(text) > MAX_ACTION_CHARS:
            return error(request, 400, _("A move is at most {count} characters.", count=MAX_ACTION_CHARS))

        def act() -> Response:
            match = find(token)
            if match is None:
                return no_match(request)
            try:
                matches.play(match, text)
            except NotYourTurn:  # with the state: a stale page catches up at once
                return JSONResponse({"error": _("It is not your turn."), "state": state_of(request, match)}, status_code=409)
            except IllegalAction:  # a ValueError too: caught first
                with match.lock:
                    reason = _illegal_reason(match, text, _)
                return JSONResponse({"error": reason, "state": state_of(request, match)}, status_code=409)
            except (NotationError, ValueError):  # ValueError: numbers notation cannot hold
                return error(request, 400, _("{move} is not a move.", move=excerpt(text)))
            return state_response(request, match)

        return await off_loop(act)

    def _illegal_reason(match: Match, text: str, _) -> str:
        try:
            code = match.rules.codec.encode(parse_action(text))
        except ValueError:
            return _("{move} is not a move.", move=excerpt(text))
        return explain.reason(match.state, code, _)

    @api_route("/api/m/{token}/explain", "GET")
    async def api_explain(request: Request):
        answer = await off_loop(partial(explain_move, request, request.path_params["token"], request.query_params.get("action", "")))
        return answer if isinstance(answer, Response) else JSONResponse(answer)

    def explain_move(request: Request, token: str, action: str) -> Response | dict[str, Any]:
        """Whether the move would be legal now and, if not, why; without playing it."""
        _ = i18n.gettext_for(language(request))
        match = find(token)
        if match is None:
            return error(request, 404, _("There is no match at this address."))
        if len(action) > MAX_ACTION_CHARS:
            return {"legal": False, "reason": _("A move is at most {count} characters.", count=MAX_ACTION_CHARS)}
        with match.lock:
            if not match.your_turn:
                return {"legal": False, "reason": _("It is not your turn.")}
            try:
                code = match.rules.codec.encode(parse_action(action))
            except ValueError:
                return {"legal": False, "reason": _("{move} is not a move.", move=excerpt(action))}
            if code in match.state.legal_actions():
                return {"legal": True, "reason": ""}
            return {"legal": False, "reason": explain.reason(match.state, code, _)}

    @api_route("/api/m/{token}/advance", "POST")
    async def api_advance(request: Request):
        token = request.path_params["token"]
        """Play one bot move if a bot is to act (the page calls this after a short delay)."""

        def advance() -> Response:  # in a worker thread: a bot that thinks a while holds up no other match
            match = find(token)
            if match is None:
                return no_match(request)
            matches.advance(match)
            return state_response(request, match)

        return await off_loop(advance, bot_pool)

    @api_route("/api/m/{token}/events", "GET")
    async def api_events(request: Request):
        """Server-sent events: the state now, then after every move (see live.py)."""
        token = request.path_params["token"]
        _ = i18n.gettext_for(language(request))
        match = await off_loop(partial(find, token))
        if match is None:
            return no_match(request)
        if streams.full():
            return error(request, 503, _("Too many open tables; this one checks for moves every few seconds instead."))
        text = request.query_params.get("log_from", "0")
        log_from = int(text) if text.isdigit() and len(text) < 10 else 0

        def render(live: Match, start: int) -> tuple[int, int, str]:  # the stream holds the match's lock
            return render_event(table_json(live, _, start))

        stream = state_stream(matches, token, render, log_from, streams, request.is_disconnected)
        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return StreamingResponse(stream, media_type="text/event-stream", headers=headers)

    def store_failure(request: Request, status: int, message: str) -> Response:
        if request.url.path.startswith("/api/"):
            return error(request, status, message)
        return page(request, "message.html", status, message=message)

    @app.exception_handler(MatchDamaged)
    def match_damaged(request: Request, exc: MatchDamaged) -> Response:
        # Only this match: the others in the file are read on their own and go on.
        _ = i18n.gettext_for(language(request))
        return store_failure(request, 503, _("This match cannot be restored: {reason}", reason=str(exc)))

    @app.exception_handler(StorageFull)
    def storage_full(request: Request, exc: StorageFull) -> Response:
        _ = i18n.gettext_for(language(request))
        return store_failure(request, 503, _("The server could not store this: its disk is full or unavailable. Nothing was changed; try again later."))

    @app.exception_handler(RequestValidationError)
    def bad_request(request: Request, exc: RequestValidationError) -> Response:
        # FastAPI's own answer would quote the input back; one sentence instead.
        _ = i18n.gettext_for(language(request))
        return error(request, 400, _("The request is not one this server understands."))

    return app
