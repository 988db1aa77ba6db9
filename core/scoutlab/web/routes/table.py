"""The match pages: the start page and its form, the table, a rematch, and How to play for a match's own variant."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from fastapi.datastructures import FormData
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from scoutlab.bots import BotError
from scoutlab.bots.levels import DEFAULT_LEVEL, available_levels
from scoutlab.spec.variant import SpecError
from scoutlab.text.bot_names import bot_label
from scoutlab.text.i18n import Gettext
from scoutlab.text.spec_messages import translate_problem
from scoutlab.text.variant_text import shipped_listing, title as variant_title
from scoutlab.web.context import WebContext, gettext_of, language, web_context
from scoutlab.web.inputs import excerpt, short_problems, whole_number
from scoutlab.web.matches import Match, rules_for
from scoutlab.web.new_match import (
    MAX_PLAYERS,
    MAX_SPEC_BYTES,
    count_range,
    level_spec,
    offered_bots,
    players_message,
    practice_seed,
    spec_from,
    start_match,
)
from scoutlab.web.rulespage import rules_sections, variant_words
from scoutlab.web.yours import remember, your_matches

router = APIRouter()


def variants_info(lang: str) -> list[dict[str, Any]]:
    """The shipped variants in the player's language: the official rules first, house rules last."""
    return [
        {
            "name": entry.name, "title": entry.title, "description": entry.description, "kind": entry.kind,
            "players": list(entry.players), "players_text": count_range(list(entry.players)),
        }
        for entry in shipped_listing(lang)
    ]


def new_match_page(web: WebContext, request: Request, status: int = 200, problems: Sequence[str] = (),
                   form: dict | None = None) -> HTMLResponse:
    _ = gettext_of(request)
    variants = variants_info(language(request))
    form = form or {"variant": "official" if any(v["name"] == "official" for v in variants) else variants[0]["name"]}
    bots = [{"name": name, "label": bot_label(name, _)} for name in offered_bots()]
    # a level by its word; how it plays and its bot spec only in the details line, for the curious
    levels = [{"name": level.name, "label": _(level.word), "how": _(level.description), "bot": level.bot} for level in available_levels()]
    yours = your_matches(request, web.matches, _, language(request))
    return web.page(
        request, "new.html", status, variants=variants, bots=bots, levels=levels, problems=list(problems),
        form={"level": DEFAULT_LEVEL, **form}, yours=yours,
    )


@router.get("/", response_class=HTMLResponse)
def new_match_form(request: Request):
    web = web_context(request)
    return new_match_page(web, request)


def field(form_data: FormData, name: str, default: str = "") -> str:
    """A text field of the form, or `default` for a missing one or a file where text belongs."""
    value = form_data.get(name, default)
    return value if isinstance(value, str) else default


@router.post("/new")
async def new_match(request: Request):
    web = web_context(request)
    _ = gettext_of(request)
    form_data = await request.form()  # the body is capped by the Guard before it is read
    variant, spec_text = field(form_data, "variant", "official"), field(form_data, "spec_text")
    level = field(form_data, "level", DEFAULT_LEVEL)
    opponents = [field(form_data, f"bot{i}") for i in range(1, 5)]
    text, filename = spec_text, "pasted.yaml"
    upload = form_data.get("spec_file")
    if upload is not None and not isinstance(upload, str) and upload.filename:
        raw = await upload.read(MAX_SPEC_BYTES + 1)
        text, filename = raw.decode("utf-8", errors="replace"), excerpt(upload.filename, 60)[1:-1]
    form = {"variant": variant, "players": 0, "spec_text": spec_text[:MAX_SPEC_BYTES], "opponents": opponents,
            "level": level, "seed": field(form_data, "seed")[:60]}  # a refused seed is shown again, to be corrected

    def start() -> Match:
        players = whole_number(field(form_data, "players", "0") or "0", 0, MAX_PLAYERS, players_message(_))
        form["players"] = players
        seed = practice_seed(field(form_data, "practice") in ("on", "1", "true"), field(form_data, "seed").strip() or None, _)
        spec = spec_from(variant, text, filename, _)
        players = players or rules_for(spec).players[0]
        bots = [b or level_spec(level, _) for b in opponents[: players - 1]]  # an opponent left as the level
        return start_match(web.matches, spec.doc, players, bots, seed, _)

    try:
        match = await web.off_loop(start, web.compile_pool)
    except SpecError as exc:
        problems = short_problems([translate_problem(p, _) for p in exc.problems], _)
        return await web.off_loop(partial(new_match_page, web, request, 422, problems, form))
    except (ValueError, BotError) as exc:
        return await web.off_loop(partial(new_match_page, web, request, 422, [str(exc)], form))
    response = RedirectResponse(f"/m/{match.token}", status_code=303)
    remember(request, response, match.token)
    return response


def no_match_page(web: WebContext, request: Request) -> HTMLResponse:
    _: Gettext = gettext_of(request)
    return web.page(request, "message.html", 404, message=_("There is no match at this address."))


@router.post("/m/{token}/rematch")
async def rematch(request: Request, token: str):
    """A new match with the same variant, number of players and opponents (a new deal)."""
    web = web_context(request)

    def again() -> Response:
        match = web.find(token)
        if match is None:
            return no_match_page(web, request)
        with match.lock:
            doc, players = match.rules.spec.doc, match.state.players
        bots = [name for name in match.bot_names if name is not None]
        fresh = web.matches.new(doc, players, bots)
        response = RedirectResponse(f"/m/{fresh.token}", status_code=303)
        remember(request, response, fresh.token)
        return response

    return await web.off_loop(again, web.compile_pool)


@router.get("/m/{token}", response_class=HTMLResponse)
def table(request: Request, token: str):
    web = web_context(request)
    match = web.find(token)
    if match is None:
        return no_match_page(web, request)
    return web.page(
        request, "table.html", token=token, variant=variant_title(match.rules.spec.doc, language(request)),
        bot_delay_ms=web.bot_delay_ms, has_scout_show=match.rules.sns_chips > 0, practice=match.practice,
    )


@router.get("/m/{token}/rules", response_class=HTMLResponse)
def match_rules_page(request: Request, token: str):
    web = web_context(request)
    match = web.find(token)
    _ = gettext_of(request)
    if match is None:
        return no_match_page(web, request)
    return web.page(request, "rules.html", rules=match.rules, sections=rules_sections(match.rules, _), token=token,
                    words=variant_words(match.rules, language(request)))
