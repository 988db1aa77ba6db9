"""The web app: pages for a new match, the table and the rules, and a small JSON API the table's script calls.

The server is the only authority: every move goes through the engine, a match is
reached only through its unguessable token, and each response carries only what the
browser's seat may know (see present.py).
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from fastapi import FastAPI, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool

from scoutlab.bots import BotError, known_bots
from scoutlab.engine import explain
from scoutlab.engine.actions import NotationError, parse_action
from scoutlab.engine.state import IllegalAction
from scoutlab.spec.variant import SpecError, load_spec, load_spec_text, shipped_variants
from scoutlab.text import i18n
from scoutlab.text.bot_names import bot_label
from scoutlab.text.spec_messages import translate_problem
from scoutlab.text.variant_text import description as variant_description
from scoutlab.text.variant_text import shipped_listing
from scoutlab.text.variant_text import title as variant_title
from scoutlab.web.matches import Match, Matches, NotYourTurn, default_bot, rules_for
from scoutlab.web.present import match_json
from scoutlab.web.rulespage import rules_sections
from scoutlab.web.store import MatchStore, StoreError
from scoutlab.web.strings import page_strings

#: Bots a browser may choose. `external` runs a program on the server, so it is never offered.
UNSAFE_BOTS = {"external"}
MAX_SPEC_BYTES = 64 * 1024


def offered_bots() -> list[str]:
    """Bot names a browser may pick, the default first."""
    default = default_bot()
    names = sorted(name for name in known_bots() if name not in UNSAFE_BOTS and name != default)
    return [default, *names]


def _count_range(counts: list[int]) -> str:
    """`3–5` for consecutive counts, else `2, 4`; isolated left to right, so Arabic and Persian keep the order."""
    if len(counts) > 1 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"\u2066{counts[0]}–{counts[-1]}\u2069"
    return "\u2066" + ", ".join(map(str, counts)) + "\u2069"


def create_app(db_path: str, bot_delay_ms: int = 700) -> FastAPI:
    """The app, keeping its matches in the SQLite file `db_path` (raises StoreError if it is not ours)."""
    app = FastAPI(title="scoutlab", docs_url=None, redoc_url=None, openapi_url=None)
    matches = Matches(MatchStore(db_path))
    app.state.matches = matches
    folder = resources.files("scoutlab.web")
    templates = Jinja2Templates(directory=str(folder / "templates"))
    app.mount("/static", StaticFiles(directory=str(folder / "static")), name="static")

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

    def error(request: Request, status: int, message: str) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    def find(token: str) -> Match | None:
        return matches.get(token) if len(token) < 100 else None

    def state_of(request: Request, match: Match) -> dict[str, Any]:
        try:
            log_from = int(request.query_params.get("log_from", 0))
        except ValueError:
            log_from = 0
        with match.lock:  # held only while a move is applied, never while a bot thinks
            return match_json(match, i18n.gettext_for(language(request)), log_from)

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

    def new_match_page(request: Request, status: int = 200, problems: list[str] = (), form: dict | None = None) -> HTMLResponse:
        _ = i18n.gettext_for(language(request))
        variants = variants_info(language(request))
        form = form or {"variant": "official" if any(v["name"] == "official" for v in variants) else variants[0]["name"]}
        bots = [{"name": name, "label": bot_label(name, _)} for name in offered_bots()]
        return page(
            request, "new.html", status, variants=variants, bots=bots, problems=list(problems), form=form,
        )

    @app.get("/", response_class=HTMLResponse)
    def new_match_form(request: Request):
        return new_match_page(request)

    @app.post("/new")
    async def new_match(
        request: Request,
        variant: str = Form("official"),
        players: int = Form(0),
        spec_text: str = Form(""),
        spec_file: UploadFile | None = None,
        seed: str = Form(""),
    ):
        _ = i18n.gettext_for(language(request))
        form_data = await request.form()
        opponents = [str(form_data.get(f"bot{i}", "")) for i in range(1, 5)]
        form = {"variant": variant, "players": players, "spec_text": spec_text, "opponents": opponents}
        text, filename = spec_text, "pasted.yaml"
        if spec_file is not None and spec_file.filename:
            raw = await spec_file.read(MAX_SPEC_BYTES + 1)
            text, filename = raw.decode("utf-8", errors="replace"), spec_file.filename
        try:
            spec = _spec_from(variant, text, filename, _)
            rules = rules_for(spec)
            players = players or rules.players[0]
            bots = [b or default_bot() for b in opponents[: players - 1]]
            match = _start(spec.doc, players, bots, seed, _)
        except SpecError as exc:
            return new_match_page(request, 422, [translate_problem(p, _) for p in exc.problems], form)
        except (ValueError, BotError) as exc:
            return new_match_page(request, 422, [str(exc)], form)
        return RedirectResponse(f"/m/{match.token}", status_code=303)

    @app.get("/m/{token}", response_class=HTMLResponse)
    def table(request: Request, token: str):
        match = find(token)
        if match is None:
            _ = i18n.gettext_for(language(request))
            return page(request, "message.html", 404, message=_("There is no match at this address."))
        return page(
            request, "table.html", token=token, variant=variant_title(match.rules.spec.doc, language(request)), bot_delay_ms=bot_delay_ms,
            has_scout_show=match.rules.sns_chips > 0,
        )

    @app.get("/rules/{variant}", response_class=HTMLResponse)
    def rules_page(request: Request, variant: str):
        _ = i18n.gettext_for(language(request))
        if variant not in {name for name, _d in shipped_variants()}:
            return page(request, "message.html", 404, message=_("There is no variant called {name}.", name=variant))
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
        if text.strip():
            if len(text.encode()) > MAX_SPEC_BYTES:
                raise ValueError(_("A variant spec may be at most {size} KB.", size=MAX_SPEC_BYTES // 1024))
            spec = load_spec_text(text, filename)
            rules_for(spec)  # compiling checks end conditions and plugins, as `scoutlab validate` does
            return spec
        if variant not in {name for name, _d in shipped_variants()}:
            raise ValueError(_("There is no variant called {name}.", name=variant))
        return load_spec(variant)

    def _start(doc: dict, players: int, bots: list[str], seed: str | int | None, _) -> Match:
        counts = rules_for(doc).players
        if players not in counts:
            raise ValueError(_(
                "The variant {variant} is for {counts} players, not {players}.",
                variant=doc["name"], counts=_count_range(list(counts)), players=players,
            ))
        allowed = set(offered_bots())
        for bot in bots:
            if bot not in allowed:
                raise BotError(_("Unknown opponent {name}; choose one of: {names}.", name=bot, names=", ".join(sorted(allowed))))
        if isinstance(seed, str):
            seed = int(seed) if seed.strip().isdigit() else None
        return matches.new(doc, players, bots, seed)

    @app.post("/api/new")
    async def api_new(request: Request):
        _ = i18n.gettext_for(language(request))
        try:
            body = await request.json()
            if not isinstance(body, dict):
                raise ValueError("expected a JSON object")
        except ValueError:
            return error(request, 400, _("Send a JSON object: variant or spec, players, bots."))
        try:
            spec = _spec_from(str(body.get("variant", "official")), str(body.get("spec", "")), "pasted.yaml", _)
            rules = rules_for(spec)
            players = int(body.get("players") or rules.players[0])
            bots = body.get("bots") or [default_bot()] * (players - 1)
            if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
                raise ValueError(_("bots must be a list of bot names, one per opponent."))
            seed = body.get("seed")
            match = _start(spec.doc, players, bots, seed if isinstance(seed, int) else None, _)
        except SpecError as exc:
            problems = [translate_problem(p, _) for p in exc.problems]
            return JSONResponse({"error": "\n".join(problems), "problems": problems}, status_code=422)
        except (ValueError, BotError, TypeError) as exc:
            return error(request, 422, str(exc))
        return JSONResponse({"token": match.token, "url": f"/m/{match.token}", "state": state_of(request, match)})

    @app.get("/api/m/{token}")
    async def api_state(request: Request, token: str):
        match = find(token)
        if match is None:
            return error(request, 404, i18n.gettext_for(language(request))("There is no match at this address."))
        return state_response(request, match)

    @app.post("/api/m/{token}/act")
    async def api_act(request: Request, token: str):
        _ = i18n.gettext_for(language(request))
        match = find(token)
        if match is None:
            return error(request, 404, _("There is no match at this address."))
        try:
            body = await request.json()
            text = body["action"] if isinstance(body, dict) else None
        except ValueError:
            text = None
        if not isinstance(text, str):
            return error(request, 400, _("Send a JSON object with the move in notation, e.g. {example}.", example='{"action": "show 2-3"}'))
        try:
            matches.play(match, text)
        except NotYourTurn:
            return error(request, 409, _("It is not your turn."))
        except NotationError:
            return error(request, 400, _("{move} is not a move.", move=repr(text)))
        except IllegalAction:
            with match.lock:
                reason = _illegal_reason(match, text, _)
            return JSONResponse({"error": reason, "state": state_of(request, match)}, status_code=409)
        return state_response(request, match)

    def _illegal_reason(match: Match, text: str, _) -> str:
        try:
            code = match.rules.codec.encode(parse_action(text))
        except ValueError:
            return _("{move} is not a move.", move=repr(text))
        return explain.reason(match.state, code, _)

    @app.get("/api/m/{token}/explain")
    def api_explain(request: Request, token: str, action: str = ""):
        _ = i18n.gettext_for(language(request))
        match = find(token)
        if match is None:
            return error(request, 404, _("There is no match at this address."))
        with match.lock:
            if not match.your_turn:
                return {"legal": False, "reason": _("It is not your turn.")}
            try:
                code = match.rules.codec.encode(parse_action(action))
            except ValueError:
                return {"legal": False, "reason": _("{move} is not a move.", move=repr(action))}
            if code in match.state.legal_actions():
                return {"legal": True, "reason": ""}
            return {"legal": False, "reason": explain.reason(match.state, code, _)}

    @app.post("/api/m/{token}/advance")
    async def api_advance(request: Request, token: str):
        """Play one bot move if a bot is to act (the page calls this after a short delay)."""
        match = find(token)
        if match is None:
            return error(request, 404, i18n.gettext_for(language(request))("There is no match at this address."))
        # A bot may think for a while (search bots): in a worker thread, so other matches go on.
        await run_in_threadpool(matches.advance, match)
        return state_response(request, match)

    @app.exception_handler(StoreError)
    def store_failed(request: Request, exc: StoreError) -> Response:
        return JSONResponse({"error": str(exc)}, status_code=500)

    return app
