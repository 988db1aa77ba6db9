"""The variant lab: write a house rule, read its rules and differences, run a comparison or a sweep, play it.

`make_router()` gives the lab's routes, included by the web app (the app's Guard and Doors
then cap bodies, check the Host and add the security headers to them as to every page):

    GET  /lab                           the page (lab.html, static/lab.js, static/lab.css)
    POST /lab/api/check                 {text, set?: {path, value}, start?: variant} -> the text checked
    POST /lab/api/jobs                  {kind, text, against, players, games, knob, values} -> {id, url}
    GET  /lab/api/jobs/{id}             the job: state, progress, findings, charts, files
    POST /lab/api/jobs/{id}/cancel      stops it
    GET  /lab/jobs/{id}/{file}          a chart, the report or the per-game data

Checking runs in two threads of the lab's own; runs play in processes (lab_jobs.py), never on the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates

from scoutlab.rules import Rules, load_rules
from scoutlab.text import i18n
from scoutlab.text.i18n import N_, Gettext
from scoutlab.text.variant_text import shipped_listing, title as variant_title
from scoutlab.web.inputs import BadInput, excerpt, parse_json, whole_number
from scoutlab.web.lab_jobs import (
    MAX_GAMES,
    MAX_JOB_GAMES,
    MAX_RUNNING,
    MAX_SECONDS,
    MAX_SWEEP_VALUES,
    Ask,
    Busy,
    Job,
    Jobs,
    Refused,
)
from scoutlab.web.lab_spec import (
    BUILTIN_END_CONDITIONS,
    KNOBS,
    MAX_SPEC_BYTES,
    ROUNDS_HIGH,
    SWEEPABLE,
    KnobRefused,
    TooDeep,
    differences,
    knob,
    knob_values,
    load,
    offered_plugins,
    parent_of,
    problem_line,
    set_knob,
    shipped_names,
    starter,
)
from scoutlab.web.rulespage import rules_sections
from scoutlab.web.strings import page_strings

#: The games a new run offers by default: a quick first look.
DEFAULT_GAMES = 100
#: Files a job offers for download, with their labels.
DOWNLOADS = {
    "report.html": N_("The report (HTML)"),
    "games.csv": N_("One row per game and seat (CSV)"),
    "rounds.csv": N_("One row per round and seat (CSV)"),
    "games.parquet": N_("One row per game and seat (Parquet)"),
    "rounds.parquet": N_("One row per round and seat (Parquet)"),
}
#: The simulator's charts by their file stem, titled in the page's language (the pictures' own words are English).
CHART_TITLES = {
    "scores": N_("Final score distribution per seat"),
    "win_rates": N_("Seat win rates with 95% intervals"),
    "round_lengths": N_("Round length in turns"),
    "end_reasons": N_("How rounds end, with 95% intervals"),
    "scout_timing": N_("When scouts happen in a round, with 95% intervals"),
}


def language(request: Request) -> str:
    """The page's language, as the rest of the app chooses it: ?lang=, the cookie, then the browser's."""
    chosen = request.query_params.get("lang") or request.cookies.get("lang")
    if chosen:
        return i18n.normalize(chosen[:20])
    return i18n.from_accept_language((request.headers.get("accept-language") or "")[:500])


def lab_strings(_: Gettext) -> dict[str, str]:
    """{key: translated text} for static/lab.js: the script holds no words of its own."""
    return {
        "checking": _("Checking…"),
        "valid": _("The variant is valid."),
        "problems": _("Problems:"),
        "warning": _("Warning:"),
        "no_differences": _("The same rules as its parent."),
        "running": _("Games played: {done} of {total}."),
        "preparing": _("Preparing the run…"),
        "finished": _("Finished. Games played: {done}."),
        "time_limit": _("Stopped at the time limit; the figures cover the games played: {done}."),
        "cancelled": _("Cancelled: nothing more is played."),
        "failed": _("The run failed."),
        "offline": _("The server did not answer; trying again…"),
        "no_findings": _("No findings."),
        "go_to_line": _("Go to line {line}"),
        "per_player": _("one per player"),
    }


def make_router(jobs: Jobs | None = None) -> APIRouter:
    """The lab's routes, with their own jobs (a temporary folder each) and two threads that check texts."""
    jobs = jobs or Jobs()
    router = APIRouter(on_shutdown=[jobs.close])  # the app's shutdown stops the runs and removes their files
    router.lab_jobs = jobs  # type: ignore[attr-defined]  # for the tests
    folder = resources.files("scoutlab.web")
    templates = Jinja2Templates(directory=str(folder / "templates"))
    check_pool = ThreadPoolExecutor(2, thread_name_prefix="scoutlab-lab")

    async def off_loop(work: Callable[[], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(check_pool, work)

    def error(status: int, message: str) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    async def body_of(request: Request) -> dict[str, Any]:
        try:
            body = parse_json(await request.body())  # the Guard has capped its size
        except BadInput:
            body = None
        if not isinstance(body, dict):
            raise BadInput("")
        return body

    def text_of(body: dict[str, Any], _: Gettext) -> str:
        text = body.get("text", "")
        if not isinstance(text, str):
            raise BadInput(_("text must be the variant's YAML, as text."))
        if len(text) > MAX_SPEC_BYTES or len(text.encode("utf-8", "replace")) > MAX_SPEC_BYTES:
            raise BadInput(_("A variant spec may be at most {size} KB.", size=MAX_SPEC_BYTES // 1024))
        return text

    @router.get("/lab", response_class=HTMLResponse)
    def lab_page(request: Request):
        lang = language(request)
        _ = i18n.gettext_for(lang)
        variants = [{"name": entry.name, "title": entry.title} for entry in shipped_listing(lang)]
        knobs = [{"path": k.path, "kind": k.kind, "label": _(k.label), "low": k.low, "high": k.high} for k in KNOBS]
        response = templates.TemplateResponse(request, "lab.html", {
            "_": _, "lang": lang, "rtl": i18n.is_rtl(lang), "languages": i18n.LANGUAGES, "strings": page_strings(_),
            "lab_strings": lab_strings(_), "variants": variants, "knobs": knobs, "sweepable": [k for k in knobs if k["kind"] == "int"],
            "conditions": BUILTIN_END_CONDITIONS, "plugins": offered_plugins(), "rounds_high": ROUNDS_HIGH,
            "caps": {"games": MAX_GAMES, "run": MAX_JOB_GAMES, "minutes": MAX_SECONDS // 60, "running": MAX_RUNNING,
                     "values": MAX_SWEEP_VALUES},
            "default_games": DEFAULT_GAMES,
        })
        if request.query_params.get("lang"):
            response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="lax")
        return response

    @router.post("/lab/api/check")
    async def api_check(request: Request):
        _ = i18n.gettext_for(language(request))
        try:
            body = await body_of(request)
            text = text_of(body, _)
        except BadInput as exc:
            return error(400, str(exc) or _("Send a JSON object: text, and set or start if you like."))
        start, change = body.get("start"), body.get("set")

        def check() -> Response:
            nonlocal text
            try:
                if start is not None:
                    if not isinstance(start, str) or start not in shipped_names():
                        return error(422, _("There is no variant called {name}.", name=excerpt(str(start))[1:-1]))
                    text = starter(start)
                if change is not None:
                    if not isinstance(change, dict) or not isinstance(change.get("path"), str):
                        return error(400, _("set must be a JSON object with a path and a value."))
                    text = set_knob(text, change["path"], change.get("value"))
                answer = checked(text, _)
                if start is None and change is None:
                    del answer["text"]  # the page has it: a text is sent back only when the lab wrote it
                return JSONResponse(answer)
            except KnobRefused as exc:
                return error(422, _(exc.message, **exc.fields))
            except TooDeep:
                return error(422, _("The variant spec is nested too deeply to read."))

        return await off_loop(check)

    def checked(text: str, _: Gettext) -> dict[str, Any]:
        """The text, its problems and warnings as `scoutlab validate` words them, and when valid its knobs, rules and diff."""
        rules, problems, warned = load(text)
        answer: dict[str, Any] = {"text": text, "valid": rules is not None, "problems": [problem_line(p, _) for p in problems[:20]],
                                  "warnings": [problem_line(w, _) for w in warned[:20]]}
        if rules is None:
            return answer
        parent = parent_of(rules, text)
        lang = language_of(_)
        answer.update(
            knobs=knob_values(rules), players=list(rules.players), parent=parent,
            parent_title=variant_title(load_rules(parent).spec.doc, lang), title=variant_title(rules.spec.doc, lang),
            rules=[{"title": s["title"], "sentences": [{"text": x["text"], "items": x["items"]} for x in s["sentences"]]}
                   for s in rules_sections(rules, _)],
            diff=differences(rules, parent),
        )
        return answer

    def language_of(_: Gettext) -> str:
        return getattr(_, "lang", i18n.DEFAULT)

    @router.post("/lab/api/jobs")
    async def api_start(request: Request):
        _ = i18n.gettext_for(language(request))
        try:
            body = await body_of(request)
            text = text_of(body, _)
        except BadInput as exc:
            return error(400, str(exc) or _("Send a JSON object: kind, text, against, players, games, knob, values."))

        def start() -> Response:
            try:
                ask = ask_of(body, text, _)
                job = jobs.start(ask)
            except BadInput as exc:
                return error(422, str(exc))
            except Refused as exc:
                return error(503 if isinstance(exc, Busy) else 422, _(exc.message, **exc.fields))
            except TooDeep:
                return error(422, _("The variant spec is nested too deeply to read."))
            return JSONResponse({"id": job.id, "url": f"/lab?job={job.id}"})

        return await off_loop(start)

    def ask_of(body: dict[str, Any], text: str, _: Gettext) -> Ask:
        """The run a request asks for, every field checked; BadInput or Refused in one sentence."""
        kind = body.get("kind")
        if kind not in ("compare", "sweep"):
            raise BadInput(_("Choose a comparison or a sweep."))
        games = whole_number(body.get("games", DEFAULT_GAMES), 1, 10**9,
                             _("The number of games must be a whole number from 1 to {most}.", most=MAX_GAMES))
        if games > MAX_GAMES:
            raise Refused(N_("A run plays from 1 to {most} games per variant."), most=MAX_GAMES)
        players = body.get("players")
        players = None if players in (None, "", 0, "0") else whole_number(
            players, 2, 5, _("The number of players must be a whole number from {low} to {high}.", low=2, high=5))
        rules, problems, _warned = load(text)
        if rules is None:
            raise BadInput(_("Fix the variant's problems first: {problem}", problem=problem_line(problems[0], _)))
        check_players(rules, players, _)
        if kind == "compare":
            against = body.get("against") or parent_of(rules, text)
            if not isinstance(against, str) or against not in shipped_names():
                raise BadInput(_("There is no variant called {name}.", name=excerpt(str(against))[1:-1]))
            check_players(load_rules(against), players, _)
            return Ask("compare", text, against=against, players=players, games=games)
        path, values = body.get("knob"), body.get("values")
        if not isinstance(path, str) or knob(path) not in SWEEPABLE:
            raise BadInput(_("Choose a field to sweep: {names}.", names=", ".join(k.path for k in SWEEPABLE)))
        found = knob(path)
        assert found is not None
        numbers = sweep_values(values, found.low, found.high, _)
        return Ask("sweep", text, players=players, games=games, knob=path, values=numbers)

    def check_players(rules: Rules, players: int | None, _: Gettext) -> None:
        if players is not None and players not in rules.players:
            raise BadInput(_("The variant {variant} is for {counts} players, not {players}.", variant=rules.name,
                             counts=", ".join(map(str, rules.players)), players=players))

    def sweep_values(values: Any, low: int, high: int, _: Gettext) -> tuple[int, ...]:
        message = _("Give {fewest} to {most} different whole numbers from {low} to {high}, separated by commas.",
                    fewest=2, most=MAX_SWEEP_VALUES, low=low, high=high)
        if not isinstance(values, str) or len(values) > 200:
            raise BadInput(message)
        parts = [p.strip() for p in values.split(",") if p.strip()]
        numbers = []
        for part in parts:
            sign = -1 if part.startswith("-") else 1
            digits = part.removeprefix("-")
            if not digits.isdigit() or len(digits) > 3:
                raise BadInput(message)
            numbers.append(sign * int(digits))
        if not 2 <= len(numbers) <= MAX_SWEEP_VALUES or len(set(numbers)) != len(numbers) or not all(low <= n <= high for n in numbers):
            raise BadInput(message)
        return tuple(numbers)

    def job_json(job: Job, _: Gettext) -> dict[str, Any]:
        done, total = job.progress
        ask = job.ask
        answer: dict[str, Any] = {
            "id": job.id, "state": job.state, "done": done, "total": total, "timed_out": job.timed_out,
            "ask": {"kind": ask.kind, "text": ask.text, "against": ask.against, "players": ask.players or 0, "games": ask.games,
                    "knob": ask.knob, "values": ", ".join(map(str, ask.values))},
            "error": _(job.error, **job.error_fields) if job.error else "",
        }
        result = job.result()
        if result is not None:
            answer["done"], answer["interrupted"] = done, result["interrupted"]
            answer["findings"] = result["findings"]
            answer["charts"] = [{"url": f"/lab/jobs/{job.id}/{c['file']}", "title": _(CHART_TITLES[stem]) if (stem := c.get("stem")) in CHART_TITLES
                                 else c["title"], "caption": c["caption"]} for c in result["charts"]]
            answer["files"] = [{"url": f"/lab/jobs/{job.id}/{name}", "label": _(DOWNLOADS[name])}
                               for name in result["files"] if name in DOWNLOADS]
        return answer

    def no_job(_: Gettext) -> JSONResponse:
        return error(404, _("There is no lab run at this address; finished runs are kept for an hour."))

    @router.get("/lab/api/jobs/{job_id}")
    async def api_job(request: Request, job_id: str):
        _ = i18n.gettext_for(language(request))
        job = await off_loop(lambda: jobs.get(job_id))
        return JSONResponse(job_json(job, _)) if job else no_job(_)

    @router.post("/lab/api/jobs/{job_id}/cancel")
    async def api_cancel(request: Request, job_id: str):
        _ = i18n.gettext_for(language(request))
        job = await off_loop(lambda: jobs.cancel(job_id))
        return JSONResponse(job_json(job, _)) if job else no_job(_)

    @router.get("/lab/jobs/{job_id}/{name}")
    async def job_file(request: Request, job_id: str, name: str):
        _ = i18n.gettext_for(language(request))
        job = await off_loop(lambda: jobs.get(job_id))
        path = job.file(name) if job else None
        if path is None:
            return error(404, _("There is no such file in this lab run."))
        inline = name.endswith(".png")
        return FileResponse(path, filename=None if inline else name,
                            content_disposition_type="inline" if inline else "attachment")

    return router
