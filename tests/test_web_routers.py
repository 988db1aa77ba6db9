"""Each router of the web app mounted alone on a bare FastAPI app with a context of the test's own.

The whole app (create_app: the routers, the Guard and Doors, the failure handlers) is what the other
test_web_*.py files exercise; here each router must work by itself, reading everything it shares
from the WebContext it is given, and only its own paths answer.
"""

from __future__ import annotations

import dataclasses

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed")
pytest.importorskip("httpx2", reason="the web extra is not installed")

from fastapi import APIRouter, FastAPI, Request
from fastapi.testclient import TestClient
from lab_helpers import HOUSE
from starlette.routing import BaseRoute

from scoutlab.web import lab
from scoutlab.web.app import create_app, routers
from scoutlab.web.context import WebContext
from scoutlab.web.failures import HANDLERS
from scoutlab.web.lab_jobs import Jobs
from scoutlab.web.live import Streams
from scoutlab.web.routes import api, static, table
from scoutlab.web.store import MatchDamaged, StorageFull

NEW = {"variant": "official", "players": 3, "bots": ["random", "random"]}


@pytest.fixture
def web(tmp_path):
    context = WebContext.open(str(tmp_path / "matches.sqlite3"), bot_delay_ms=1234, engine_threads=1, bot_threads=1)
    yield context
    for pool in (context.engine_pool, context.bot_pool, context.compile_pool):
        pool.shutdown(wait=False)
    context.matches.store.close()


def alone(router: APIRouter, web: WebContext) -> TestClient:
    """A bare app (no Guard, no Doors, no failure handlers) serving only `router`, with `web` as its context."""
    app = FastAPI()
    web.install(app)
    app.include_router(router)
    return TestClient(app)


def paths(router: APIRouter) -> set[str]:
    routes: list[BaseRoute] = router.routes
    return {getattr(route, "path", "") for route in routes}


def test_the_api_router_alone_plays_a_match(web):
    client = alone(api.router, web)
    answer = client.post("/api/new", json=NEW)
    assert answer.status_code == 200, answer.text
    token = answer.json()["token"]
    assert web.matches.get(token) is not None  # the match lives in the context the test gave
    state = client.get(f"/api/m/{token}").json()
    assert state["hand"] and state["ply"] == 0
    match = web.matches.get(token)
    while not state["your_turn"]:
        state = client.post(f"/api/m/{token}/advance").json()
    move = match.state.format(match.state.legal_actions()[0])
    assert client.get(f"/api/m/{token}/explain", params={"action": move}).json() == {"legal": True, "reason": ""}
    assert client.post(f"/api/m/{token}/act", json={"action": "fold"}).status_code == 400
    played = client.post(f"/api/m/{token}/act", json={"action": move})
    assert played.status_code == 200 and played.json()["ply"] == state["ply"] + 1
    assert client.get("/api/m/nope").status_code == 404


def test_the_api_router_reads_the_streams_of_its_context(web):
    client = alone(api.router, web)
    token = client.post("/api/new", json=NEW).json()["token"]
    full = alone(api.router, dataclasses.replace(web, streams=Streams(limit=0)))
    answer = full.get(f"/api/m/{token}/events")
    assert answer.status_code == 503 and "Too many open tables" in answer.json()["error"]


def test_the_table_router_alone_starts_shows_and_replays_a_match(web):
    client = alone(table.router, web)
    start = client.get("/?lang=el")
    assert start.status_code == 200 and 'action="/new"' in start.text and 'lang="el"' in start.text
    made = client.post("/new", data={"variant": "official", "players": "3", "level": "easy"}, follow_redirects=False)
    assert made.status_code == 303, made.text
    url = made.headers["location"]
    token = url.rsplit("/", 1)[1]
    page = client.get(url)
    assert page.status_code == 200 and f'data-token="{token}"' in page.text
    assert 'data-delay="1234"' in page.text  # the pace the context was given
    assert client.get(f"{url}/rules").status_code == 200
    again = client.post(f"{url}/rematch", follow_redirects=False)
    assert again.status_code == 303 and again.headers["location"] != url
    assert web.matches.get(again.headers["location"].rsplit("/", 1)[1]) is not None
    assert client.get("/m/nope").status_code == 404
    refused = client.post("/new?lang=en", data={"variant": "official", "players": "9"})
    assert refused.status_code == 422 and "from 2 to 5" in refused.text


def test_the_static_router_alone_serves_files_and_rules_pages(web):
    client = alone(static.router, web)
    script = client.get("/static/table.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert client.get("/static/nope.js").status_code == 404
    rules = client.get("/rules/official?lang=bg")
    assert rules.status_code == 200 and 'lang="bg"' in rules.text and client.cookies["lang"] == "bg"  # the choice is kept
    missing = client.get("/rules/nope?lang=en")
    assert missing.status_code == 404 and "There is no variant called nope." in missing.text


def test_the_lab_router_alone_checks_and_runs_in_its_contexts_lab_and_closes_it_on_shutdown(web, tmp_path):
    jobs = Jobs(tmp_path / "lab")
    app = FastAPI()
    web.install(app)
    app.include_router(lab.make_router(web, jobs))
    assert web.lab is not None and web.lab.jobs is jobs
    with TestClient(app) as client:  # leaving the block shuts the app down, which must close the lab's runs
        page = client.get("/lab?lang=el")
        assert page.status_code == 200 and 'lang="el"' in page.text and client.cookies["lang"] == "el"  # the context's page()
        answer = client.post("/lab/api/check", json={"text": "", "start": "official"}).json()
        assert answer["valid"] and answer["parent"] == "official" and "extends: official" in answer["text"]
        started = client.post("/lab/api/jobs", json={"kind": "compare", "text": HOUSE, "games": 1})
        assert started.status_code == 200, started.text
        job_id = started.json()["id"]
        assert jobs.get(job_id) is not None  # the run is in the lab the context was given
        assert client.post(f"/lab/api/jobs/{job_id}/cancel").json()["id"] == job_id
        assert client.get("/lab/api/jobs/nope").status_code == 404
        for path in ("/", "/m/x", "/api/m/x", "/rules/official", "/static/lab.js"):
            assert client.get(path).status_code == 404, path
    assert not (tmp_path / "lab").exists()  # closed: its runs stopped and their files removed


@pytest.mark.parametrize(("router", "foreign"), [
    (api.router, ["/", "/m/x", "/rules/official", "/static/table.js"]),
    (table.router, ["/api/m/x", "/rules/official", "/static/table.js"]),
    (static.router, ["/", "/m/x", "/api/m/x"]),
])
def test_only_a_routers_own_paths_answer(web, router, foreign):
    client = alone(router, web)
    for path in foreign:
        assert client.get(path).status_code == 404, path


def test_two_apps_keep_their_matches_apart(web, tmp_path):
    other = WebContext.open(str(tmp_path / "other.sqlite3"), bot_delay_ms=0, engine_threads=1, bot_threads=1)
    token = alone(api.router, web).post("/api/new", json=NEW).json()["token"]
    assert alone(api.router, web).get(f"/api/m/{token}").status_code == 200
    assert alone(api.router, other).get(f"/api/m/{token}").status_code == 404  # the same router, another context
    other.matches.store.close()


def test_the_routers_paths_do_not_overlap(web):
    """So the order of routers() decides nothing: each path belongs to one router."""
    seen: dict[str, int] = {}
    for index, router in enumerate(routers(web)):
        for path in paths(router):
            assert path not in seen, f"{path} is in routers {seen[path]} and {index}"
            seen[path] = index
    assert {"/api/new", "/new", "/m/{token}", "/static", "/rules/{variant}", "/lab", "/lab/api/check"} <= set(seen)


def test_the_app_serves_every_router(tmp_path):
    client = TestClient(create_app(str(tmp_path / "m.sqlite3"), bot_delay_ms=0))
    token = client.post("/api/new", json=NEW).json()["token"]
    for path in ("/", f"/m/{token}", f"/api/m/{token}", "/rules/official", "/static/style.css"):
        answer = client.get(path)
        assert answer.status_code == 200 and "default-src 'self'" in answer.headers["content-security-policy"], path


@pytest.mark.parametrize(("kind", "status", "words"), [
    (MatchDamaged("the moves do not replay"), 503, "This match cannot be restored: the server"),
    (StorageFull("disk"), 503, "its disk is full or unavailable"),
])
def test_the_failure_handlers_answer_a_page_to_a_browser_and_json_to_the_rest(web, kind, status, words):
    app = FastAPI()
    web.install(app)
    for exception, handler in HANDLERS.items():
        app.add_exception_handler(exception, handler)

    def fail(request: Request):
        raise kind

    app.add_route("/api/fail", fail)
    app.add_route("/fail", fail)
    client = TestClient(app, raise_server_exceptions=False)
    as_json = client.get("/api/fail")
    assert as_json.status_code == status and words in as_json.json()["error"]
    as_page = client.get("/fail", headers={"accept": "text/html"})  # a browser's navigation
    assert as_page.status_code == status and words in as_page.text and as_page.headers["content-type"].startswith("text/html")
    as_script = client.get("/fail")  # curl, a script: the sentence as JSON
    assert as_script.status_code == status and words in as_script.json()["error"]
