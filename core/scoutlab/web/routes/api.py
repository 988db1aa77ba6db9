"""The JSON API the table's script calls (docs/web.md, "The HTTP API"): new match, state, move, explain, bot move, live stream.

Its routes are plain Starlette routes: FastAPI's parameter machinery cost about 85 us a request
(an eighth of one), and these read their few inputs themselves, bounded.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from scoutlab.bots import BotError
from scoutlab.bots.levels import DEFAULT_LEVEL
from scoutlab.engine import explain
from scoutlab.engine.actions import NotationError, parse_action
from scoutlab.engine.state import IllegalAction
from scoutlab.spec.variant import SpecError
from scoutlab.text.i18n import Gettext, ngettext
from scoutlab.text.spec_messages import translate_problem
from scoutlab.web.context import WebContext, error, gettext_of, log_from, no_match, web_context
from scoutlab.web.events import table_json
from scoutlab.web.inputs import MAX_ACTION_CHARS, BadInput, excerpt, parse_json, short_problems, whole_number, with_hint
from scoutlab.web.live import render_event, state_stream
from scoutlab.web.matches import Match, NotYourTurn, rules_for
from scoutlab.web.new_match import MAX_PLAYERS, level_spec, players_message, practice_seed, spec_from, start_match
from scoutlab.web.yours import remember

router = APIRouter()


async def json_body(request: Request) -> Any:
    """The request's JSON (the Guard has capped its size); BadInput for anything that is not JSON."""
    return parse_json(await request.body(), gettext_of(request))


def new_from(web: WebContext, body: dict[str, Any], _: Gettext) -> Match:
    """The match `body` asks for, every field checked (in a worker thread); BadInput, ValueError, BotError, SpecError."""
    variant, spec_text = body.get("variant", "official"), body.get("spec", "")
    if not isinstance(variant, str) or not isinstance(spec_text, str):
        raise BadInput(_("variant and spec must be text."))
    players = body.get("players")
    players = None if players is None else whole_number(players, 2, MAX_PLAYERS, players_message(_))
    seed = practice_seed(body.get("practice", False), body.get("seed"), _)
    bots = body.get("bots")
    if bots is not None and (not isinstance(bots, list) or len(bots) > MAX_PLAYERS or not all(isinstance(b, str) for b in bots)):
        raise BadInput(_("bots must be a list of bot names, one per opponent."))
    spec = spec_from(variant, spec_text, "pasted.yaml", _)
    players = players or rules_for(spec).players[0]
    level = level_spec(body.get("level", DEFAULT_LEVEL), _)
    return start_match(web.matches, spec.doc, players, [level] * (players - 1) if bots is None else bots, seed, _)


async def api_new(request: Request) -> Response:
    web = web_context(request)
    _ = gettext_of(request)
    try:
        body = await json_body(request)
        if not isinstance(body, dict):
            raise BadInput("")
    except BadInput as exc:
        return error(400, with_hint(exc, _("Send a JSON object: variant or spec, players, bots.")))
    try:
        match = await web.off_loop(partial(new_from, web, body, _), web.compile_pool)
    except SpecError as exc:
        problems = short_problems([translate_problem(p, _) for p in exc.problems], _)
        more = len(exc.problems) - 1
        first = problems[0] if not more else ngettext("{problem} (and {count} more)", "{problem} (and {count} more)", more, _,
                                                     problem=problems[0], count=more)
        return JSONResponse({"error": first, "problems": problems}, status_code=422)
    except (ValueError, BotError, TypeError) as exc:
        return error(422, str(exc))
    state = await web.off_loop(partial(web.state_of, request, match))
    response = JSONResponse({"token": match.token, "url": f"/m/{match.token}", "state": state})
    remember(request, response, match.token)
    return response


async def api_state(request: Request) -> Response:
    web, token = web_context(request), request.path_params["token"]

    def read() -> Response:
        match = web.find(token)
        if match is None:
            return no_match(request)
        return web.state_response(request, match)

    return await web.off_loop(read)


async def api_act(request: Request) -> Response:
    web, token = web_context(request), request.path_params["token"]
    _ = gettext_of(request)
    hint = _("Send a JSON object with the move in notation, e.g. {example}.", example='{"action": "show 2-3"}')
    try:
        body = await json_body(request)
    except BadInput as exc:
        return error(400, with_hint(exc, hint))
    text = body.get("action") if isinstance(body, dict) else None
    if not isinstance(text, str):
        return error(400, hint)
    if len(text) > MAX_ACTION_CHARS:
        return error(400, _("A move is at most {count} characters.", count=MAX_ACTION_CHARS))
    return await web.off_loop(partial(act, web, request, token, text, _))


def act(web: WebContext, request: Request, token: str, text: str, _: Gettext) -> Response:
    """Play the browser's move `text` (in a worker thread); the new state, or why not."""
    match = web.find(token)
    if match is None:
        return no_match(request)
    try:
        web.matches.play(match, text)
    except NotYourTurn:  # with the state: a stale page catches up at once
        return JSONResponse({"error": not_your_turn(match, _), "state": web.state_of(request, match)}, status_code=409)
    except IllegalAction:  # a ValueError too: caught first
        with match.lock:
            reason = illegal_reason(match, text, _)
        return JSONResponse({"error": reason, "state": web.state_of(request, match)}, status_code=409)
    except (NotationError, ValueError):  # ValueError: numbers notation cannot hold
        return error(400, _("{move} is not a move.", move=excerpt(text)))
    return web.state_response(request, match)


def not_your_turn(match: Match, _: Gettext) -> str:
    return _("The match is over.") if match.state.is_over else _("It is not your turn.")


def illegal_reason(match: Match, text: str, _: Gettext) -> str:
    try:
        code = match.rules.codec.encode(parse_action(text))
    except ValueError:
        return _("{move} is not a move.", move=excerpt(text))
    return explain.reason(match.state, code, _)


async def api_explain(request: Request) -> Response:
    web = web_context(request)
    answer = await web.off_loop(partial(explain_move, web, request, request.path_params["token"], request.query_params.get("action", "")))
    return answer if isinstance(answer, Response) else JSONResponse(answer)


def explain_move(web: WebContext, request: Request, token: str, action: str) -> Response | dict[str, Any]:
    """Whether the move would be legal now and, if not, why; without playing it."""
    _ = gettext_of(request)
    match = web.find(token)
    if match is None:
        return error(404, _("There is no match at this address."))
    if len(action) > MAX_ACTION_CHARS:
        return {"legal": False, "reason": _("A move is at most {count} characters.", count=MAX_ACTION_CHARS)}
    with match.lock:
        if not match.your_turn:
            return {"legal": False, "reason": not_your_turn(match, _)}
        try:
            code = match.rules.codec.encode(parse_action(action))
        except ValueError:
            return {"legal": False, "reason": _("{move} is not a move.", move=excerpt(action))}
        if code in match.state.legal_actions():
            return {"legal": True, "reason": ""}
        return {"legal": False, "reason": explain.reason(match.state, code, _)}


async def api_advance(request: Request) -> Response:
    """Play one bot move if a bot is to act (the page calls this after a short delay)."""
    web, token = web_context(request), request.path_params["token"]

    def advance() -> Response:  # in a worker thread: a bot that thinks a while holds up no other match
        match = web.find(token)
        if match is None:
            return no_match(request)
        web.matches.advance(match)
        return web.state_response(request, match)

    return await web.off_loop(advance, web.bot_pool)


async def api_events(request: Request) -> Response:
    """Server-sent events: the state now, then after every move (see live.py)."""
    web, token = web_context(request), request.path_params["token"]
    _ = gettext_of(request)
    match = await web.off_loop(partial(web.find, token))
    if match is None:
        return no_match(request)
    if web.streams.full():
        return error(503, _("Too many open tables; this one checks for moves every few seconds instead."))

    def render(live: Match, start: int) -> tuple[int, int, str]:  # the stream holds the match's lock
        return render_event(table_json(live, _, start))

    stream = state_stream(web.matches, token, render, log_from(request), web.streams, request.is_disconnected)
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return StreamingResponse(stream, media_type="text/event-stream", headers=headers)


router.add_route("/api/new", api_new, methods=["POST"])
router.add_route("/api/m/{token}", api_state, methods=["GET"])
router.add_route("/api/m/{token}/act", api_act, methods=["POST"])
router.add_route("/api/m/{token}/explain", api_explain, methods=["GET"])
router.add_route("/api/m/{token}/advance", api_advance, methods=["POST"])
router.add_route("/api/m/{token}/events", api_events, methods=["GET"])
