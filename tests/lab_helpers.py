"""Shared by the lab's tests: the lab's router on an app of its own (with a context of its own), behind the web's own
doors (Guard, Doors)."""

from __future__ import annotations

import signal
import time
from importlib import resources
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed")

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.testclient import TestClient

from scoutlab.web.app import guard_refusal
from scoutlab.web.context import WebContext
from scoutlab.web.doors import Doors
from scoutlab.web.failures import HANDLERS
from scoutlab.web.guard import Guard
from scoutlab.web.lab import make_router
from scoutlab.web.lab_jobs import Jobs, play

HOUSE = "schema_version: 1\nextends: official\nname: chips-two\nkind: house\nscoring: {chip_received: 2}\n"


def lab_client(jobs: Jobs, folder: Path) -> TestClient:
    """The lab alone, behind the same middleware the app runs (body caps, same-origin writes, headers, the Host); its
    context keeps its (unused) matches in `folder`."""
    app = FastAPI()
    web = WebContext.open(str(folder / "matches.sqlite3"), engine_threads=1, bot_threads=1)
    web.install(app)
    app.mount("/static", StaticFiles(directory=str(resources.files("scoutlab.web") / "static")), name="static")
    app.include_router(make_router(web, jobs))
    for kind, handler in HANDLERS.items():  # the app's own answers to what a route lets out
        app.add_exception_handler(kind, handler)
    app.add_middleware(Guard, refusal=guard_refusal)
    app.add_middleware(Doors, hosts=frozenset({"testserver", "localhost"}))
    return TestClient(app)


def wait_for(client: TestClient, job_id: str, done=lambda job: job["state"] != "running", seconds: float = 120) -> dict:
    """The job once `done(job)` holds; fails (not a timing assertion: a generous bound on a wait) after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        job = client.get(f"/lab/api/jobs/{job_id}").json()
        if done(job):
            return job
        if time.monotonic() > deadline:
            pytest.fail(f"the job did not get there in {seconds} s: {job['state']} {job['done']}/{job['total']}")
        time.sleep(0.2)


def deaf_play(ask_fields: dict, folder: str, counter) -> None:
    """lab_jobs.play in a process that never takes SIGINT (blocked, it stays pending): a run that cannot stop at the
    time limit, as one stuck in a step that never returns to the simulator's check."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # a handler set later changes no mask: still never taken
    play(ask_fields, folder, counter)
