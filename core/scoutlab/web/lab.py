"""The variant lab: write a house rule, read its rules and differences, run a comparison or a sweep, play it.

`make_router(web)` gives the lab's routes, included by the web app (app.py `routers(web)`; the app's Guard and Doors
then cap bodies, check the Host and add the security headers to them as to every page):

    GET  /lab                           the page (lab.html, static/lab.js, static/lab.css)
    POST /lab/api/check                 {text, set?: {path, value}, start?: variant} -> the text checked
    POST /lab/api/jobs                  {kind, text, against, players, games, knob, values} -> {id, url}
    GET  /lab/api/jobs/{id}             the job: state, progress, findings, charts, files
    POST /lab/api/jobs/{id}/cancel      stops it
    GET  /lab/jobs/{id}/{file}          a chart, the report or the per-game data

Each route is a function of this module; it reads the page, the language and the refusals from the app's
context (`web_context(request)`, context.py) and the lab's own runs and threads from `lab_of(request)`, the
context's `lab`, set by make_router. The requests are read and the answers worded in lab_requests.py.
Checking runs in two threads of the lab's own; runs play in processes (lab_jobs.py), never on the event loop.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response

from scoutlab.text import i18n
from scoutlab.text.i18n import Gettext
from scoutlab.text.variant_text import shipped_listing
from scoutlab.web.context import WebContext, error, gettext_of, language, web_context
from scoutlab.web.failures import refused
from scoutlab.web.inputs import BadInput, with_hint
from scoutlab.web.lab_jobs import MAX_GAMES, MAX_JOB_GAMES, MAX_RUNNING, MAX_SECONDS, MAX_SWEEP_VALUES, Busy, Job, Jobs, Refused
from scoutlab.web.lab_requests import DEFAULT_GAMES, Unfit, ask_of, body_of, checked, job_json, text_of, written
from scoutlab.web.lab_spec import (
    BUILTIN_END_CONDITIONS,
    KNOBS,
    ROUNDS_HIGH,
    KnobRefused,
    TooDeep,
    condition_label,
    offered_plugins,
    plugin_label,
)

#: The caps the page states, as lab_jobs.py enforces them.
CAPS = {"games": MAX_GAMES, "run": MAX_JOB_GAMES, "minutes": MAX_SECONDS // 60, "running": MAX_RUNNING, "values": MAX_SWEEP_VALUES}


@dataclass
class Lab:
    """The lab's state in one app: its runs (a temporary folder each) and two threads that check texts."""

    jobs: Jobs
    checks: ThreadPoolExecutor


def make_router(web: WebContext, jobs: Jobs | None = None) -> APIRouter:
    """The lab's routes for the app whose context is `web`: that context's `lab` becomes a Lab with `jobs` (new ones
    unless given) and checking threads of its own."""
    web.lab = Lab(jobs or Jobs(), ThreadPoolExecutor(2, thread_name_prefix="scoutlab-lab"))
    router = APIRouter(on_shutdown=[web.lab.jobs.close])  # the app's shutdown stops the runs and removes their files
    router.add_api_route("/lab", lab_page, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/lab/api/check", api_check, methods=["POST"])
    router.add_api_route("/lab/api/jobs", api_start, methods=["POST"])
    router.add_api_route("/lab/api/jobs/{job_id}", api_job, methods=["GET"])
    router.add_api_route("/lab/api/jobs/{job_id}/cancel", api_cancel, methods=["POST"])
    router.add_api_route("/lab/jobs/{job_id}/{name}", job_file, methods=["GET"])
    return router


def lab_of(request: Request) -> Lab:
    """The lab of the app serving `request` (set by make_router)."""
    lab = web_context(request).lab
    if lab is None:
        raise RuntimeError("the lab's routes are mounted without make_router(web): the context has no lab")
    return lab


async def off_loop(request: Request, work: Callable[[], Any]) -> Any:
    """Run `work` in one of the lab's own threads, so checks and runs never wait for the table's moves, nor hold them up."""
    return await web_context(request).off_loop(work, lab_of(request).checks)


def lab_strings(_: Gettext) -> dict[str, str]:
    """{key: translated text} for static/lab.js: the script holds no words of its own."""
    return {
        "checking": _("Checking…"),
        "valid": _("The variant is valid."),
        "problems": _("Problems:"),
        "warning": _("Warning:"),
        "no_differences": _("The same rules as its parent."),
        "running": _("Games played: {done} of {total}."),
        "fitting": _("Fitting the bots to the variant first. Games played: {done} of {total}."),
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


def lab_page(request: Request) -> HTMLResponse:
    lang = language(request)
    _ = i18n.gettext_for(lang)
    variants = [{"name": entry.name, "title": entry.title} for entry in shipped_listing(lang)]
    knobs = [{"path": k.path, "kind": k.kind, "label": _(k.label), "low": k.low, "high": k.high} for k in KNOBS]
    return web_context(request).page(
        request, "lab.html", lab_strings=lab_strings(_), variants=variants, knobs=knobs,
        sweepable=[k for k in knobs if k["kind"] == "int"], conditions=condition_options(_), plugins=plugin_options(_),
        rounds_high=ROUNDS_HIGH, caps=CAPS, default_games=DEFAULT_GAMES,
    )


def condition_options(_: Gettext) -> list[dict[str, Any]]:
    """The form's end conditions: each by its translated description, its name kept as the YAML's key."""
    return [{"name": name, "label": condition_label(name, _) or name, "translated": condition_label(name, _) is not None}
            for name in BUILTIN_END_CONDITIONS]


def plugin_options(_: Gettext) -> list[dict[str, Any]]:
    """The form's plugins: each by its label (a shipped one's translated words, another's English summary) and name."""
    return [{"name": name, "label": label, "translated": translated}
            for name in offered_plugins() for label, translated in [plugin_label(name, _)]]


async def api_check(request: Request) -> Response:
    _ = gettext_of(request)
    try:
        body = await body_of(request)
        text = text_of(body, _)
    except BadInput as exc:
        return error(400, with_hint(exc, _("Send a JSON object: text, and set or start if you like.")))
    return await off_loop(request, partial(check_answer, text, body.get("start"), body.get("set"), _))


def check_answer(text: str, start: Any, change: Any, _: Gettext) -> Response:
    """The check's answer (in a worker thread): the text as `start` and `change` leave it, checked; the text itself
    only when the lab wrote it (the page has the one it sent)."""
    try:
        answer = checked(written(text, start, change, _), _)
    except Unfit as exc:
        return error(exc.status, str(exc))
    except KnobRefused as exc:
        return error(422, _(exc.message, **exc.fields))
    except TooDeep:
        return error(422, _("The variant spec is nested too deeply to read."))
    if start is None and change is None:
        del answer["text"]
    return JSONResponse(answer)


async def api_start(request: Request) -> Response:
    _ = gettext_of(request)
    try:
        body = await body_of(request)
        text = text_of(body, _)
    except BadInput as exc:
        return error(400, with_hint(exc, _("Send a JSON object: kind, text, against, players, games, knob, values.")))
    return await off_loop(request, partial(start_answer, lab_of(request).jobs, body, text, _))


def start_answer(jobs: Jobs, body: dict[str, Any], text: str, _: Gettext) -> Response:
    """The run `body` asks for, started (in a worker thread): its id and the page's address for it, or the refusal."""
    try:
        job = jobs.start(ask_of(body, text, _))
    except BadInput as exc:
        return error(422, str(exc))
    except Refused as exc:
        return error(503 if isinstance(exc, Busy) else 422, _(exc.message, **exc.fields))
    except TooDeep:
        return error(422, _("The variant spec is nested too deeply to read."))
    return JSONResponse({"id": job.id, "url": f"/lab?job={job.id}"})


async def api_job(request: Request, job_id: str) -> Response:
    job = await off_loop(request, partial(lab_of(request).jobs.get, job_id))
    return job_answer(job, gettext_of(request))


async def api_cancel(request: Request, job_id: str) -> Response:
    job = await off_loop(request, partial(lab_of(request).jobs.cancel, job_id))
    return job_answer(job, gettext_of(request))


def job_answer(job: Job | None, _: Gettext) -> JSONResponse:
    if job is None:
        return error(404, _("There is no lab run at this address; finished runs are kept for an hour."))
    return JSONResponse(job_json(job, _))


async def job_file(request: Request, job_id: str, name: str) -> Response:
    job = await off_loop(request, partial(lab_of(request).jobs.get, job_id))
    path = job.file(name) if job else None
    if path is None:
        _ = gettext_of(request)
        return refused(request, 404, _("There is no such file in this lab run."))  # a page, where a browser asked
    inline = name.endswith(".png")  # charts show in the page; the report and the data are downloads
    return FileResponse(path, filename=None if inline else name, content_disposition_type="inline" if inline else "attachment")
