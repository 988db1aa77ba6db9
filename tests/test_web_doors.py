"""The server's doors: security headers on every answer, no inline script a CSP would have to allow,
same-origin writes, bodies capped before they are read, compiled rules shared by digest, live
matches bounded by memory, and the engine kept off the event loop."""

from __future__ import annotations

import asyncio
import re
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import httpx2 as httpx  # the maintained line of httpx, as the web extra installs it
import pytest
from web_helpers import client_for, new_match, server_match

from scoutlab.web import guard, matches as matches_module
from scoutlab.web.matches import Matches, rules_for
from scoutlab.web.rulescache import RulesCache, digest_of, rules_weight
from scoutlab.web.store import MatchStore

HOUSE = "extends: official\nname: house-doors\nscoring: {exempt_last_show_owner: false}\n"


@pytest.fixture
def client(tmp_path):
    return client_for(tmp_path / "matches.sqlite3")


def every_kind_of_answer(client) -> list[httpx.Response]:
    token, _ = new_match(client)
    return [
        client.get("/"), client.get(f"/m/{token}"), client.get("/rules/official"), client.get(f"/m/{token}/rules"),
        client.get("/static/table.js"), client.get(f"/api/m/{token}"), client.get("/api/m/nope"), client.get("/m/nope"),
        client.post(f"/api/m/{token}/act", json={"action": "dance"}),
        client.post("/api/new", content=b"x" * (guard.NEW_MATCH_BODY_LIMIT + 1)),
        client.post("/api/new", json={"variant": "official"}, headers={"origin": "https://evil.example"}),
    ]


def test_every_answer_carries_the_security_headers(client):
    for answer in every_kind_of_answer(client):
        headers = answer.headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"], answer.url
        assert "script-src 'self'" in headers["content-security-policy"] and "unsafe-inline" not in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-frame-options"] == "DENY"


def test_no_page_needs_inline_script_or_style(client):
    """Under the CSP an inline script, event handler or style attribute would silently not run: none may be there."""
    token, _ = new_match(client, seed=3)
    for path in ("/", f"/m/{token}", "/rules/official", f"/m/{token}/rules", "/m/nope"):
        html = client.get(path).text
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag or 'type="application/json"' in tag, f"{path}: inline script {tag}"
        assert not re.search(r"\son[a-z]+\s*=", html), f"{path}: an inline event handler"
        assert not re.search(r"\sstyle\s*=", html), f"{path}: an inline style attribute"
        assert "javascript:" not in html
        for src in re.findall(r'<script[^>]*src="([^"]+)"', html):
            assert src.startswith("/static/") and client.get(src).status_code == 200


def test_writes_from_the_same_origin_or_no_browser_are_accepted(client):
    token, _ = new_match(client, seed=1)
    same = client.post(f"/api/m/{token}/act", json={"action": "keep"}, headers={"origin": "http://testserver"})
    assert same.status_code == 200
    fetch = client.post("/api/new", json={"variant": "official"}, headers={"sec-fetch-site": "same-origin", "origin": "http://testserver"})
    assert fetch.status_code == 200
    other = client.post(f"/api/m/{token}/advance", headers={"origin": "http://testserver.evil.example"})
    assert other.status_code == 403 and other.json()["error"] == "Requests from other sites are refused."
    assert client.get(f"/api/m/{token}", headers={"origin": "https://evil.example"}).status_code == 200  # reads are not writes


def test_a_streamed_body_is_cut_off_at_the_cap_in_the_players_language(client):
    token, _ = new_match(client)
    sent = []

    def chunks():  # no Content-Length: the cap must hold while the body arrives
        for _ in range(1000):
            sent.append(1)
            yield b"x" * 1024

    answer = client.post(f"/api/m/{token}/act?lang=bg", content=chunks())
    assert answer.status_code == 413 and answer.json()["error"] == "Заявката е твърде голяма: най-много 128 KB."
    declared = client.post("/api/new", content=b"{}", headers={"content-length": str(10**12)})
    assert declared.status_code == 413


def test_compiled_rules_are_shared_by_digest(client):
    first, _ = new_match(client, "official")
    second, _ = new_match(client, "official")
    assert server_match(client, first).rules is server_match(client, second).rules
    house = [client.post("/api/new", json={"spec": HOUSE, "players": 3}).json()["token"] for _ in range(2)]
    rules = [server_match(client, token).rules for token in house]
    assert rules[0] is rules[1] and matches_module._RULES._rules[digest_of(rules[0].spec.doc)] is rules[0]


def test_the_rules_cache_holds_a_budget_of_bytes():
    from scoutlab.spec import load_spec

    doc = load_spec("official").doc
    cache = RulesCache(budget=3 * rules_weight(rules_for(doc)))
    docs = [{**doc, "name": f"copy-{i}"} for i in range(6)]
    for copy in docs:
        cache.get(copy)
    assert len(cache) == 3 and cache.weight <= cache.budget
    assert cache.get(docs[-1]) is cache.get(docs[-1])  # the newest are still there
    held = cache.get(docs[0])  # compiled again: the cache had dropped it and nothing held it
    for copy in docs[1:]:
        cache.get(copy)
    assert cache.get(docs[0]) is held  # dropped again, but a live match (here: `held`) still shares it


def test_live_matches_are_bounded_by_memory_and_come_back_from_the_file(tmp_path):
    store = MatchStore(tmp_path / "m.sqlite3")
    from scoutlab.spec import load_spec

    official = rules_for(load_spec("official").doc)
    budget = rules_weight(official) + 5 * matches_module.MATCH_BASE_BYTES
    live = Matches(store, budget=budget)
    made = [live.new(official.spec.doc, 3, ["random", "random"]) for _ in range(12)]
    assert len(live) <= 5 and live.weight <= budget
    oldest = made[0]
    again = live.get(oldest.token)  # replayed from the database
    assert again is not oldest and again.state.hands == oldest.state.hands


def test_a_big_variant_pushes_out_older_matches(tmp_path):
    store = MatchStore(tmp_path / "m.sqlite3")
    from scoutlab.spec import load_spec

    doc = load_spec("official").doc
    big = {**doc, "name": "big-deck", "deck": {**doc["deck"], "highest": 16}}
    budget = rules_weight(rules_for(doc)) + rules_weight(rules_for(big)) + 6 * matches_module.MATCH_BASE_BYTES
    live = Matches(store, budget=budget)
    for _ in range(10):
        live.new(doc, 3, ["random", "random"])
    assert len(live) == 10
    live.new(big, 3, ["random", "random"])
    assert len(live) == 6 and live.weight <= budget  # its 2 MB of action tables took the room of five small matches


def test_a_slow_move_holds_up_no_other_request(tmp_path, monkeypatch):
    """A bot that takes 1 s (as a search bot may) runs in a worker thread: another match is served meanwhile."""
    client = client_for(tmp_path / "m.sqlite3")
    slow, _ = new_match(client, "official", 3, seed=1)
    other, _ = new_match(client, "official", 3, seed=2)
    client.post(f"/api/m/{slow}/act", json={"action": "keep"})
    bot = server_match(client, slow).bots[1]
    thinking = bot.act

    def slow_act(view):
        time.sleep(1.0)
        return thinking(view)

    monkeypatch.setattr(bot, "act", slow_act)

    async def race():
        transport = httpx.ASGITransport(app=client.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            finished = {}

            async def timed(name, request):
                await request
                finished[name] = time.perf_counter()

            began = time.perf_counter()
            await asyncio.gather(
                timed("slow", http.post(f"/api/m/{slow}/advance")),
                timed("read", _after(0.1, http.get(f"/api/m/{other}"))),
            )
            return finished["read"] - began, finished["slow"] - began

    # In a thread of its own: Playwright's sync API (the browser tests) may hold this thread's event loop.
    with ThreadPoolExecutor(1) as runner:
        read, slow_took = runner.submit(lambda: asyncio.run(race())).result()
    assert slow_took >= 1.0 and read < 0.8, (read, slow_took)


def test_a_slow_compile_holds_up_no_move(tmp_path, monkeypatch):
    """Five pasted specs that take 0.5 s each to compile (as a huge deck may) delay no move of another match:
    compiling is off the event loop, and in threads of its own, so it cannot fill the engine's four."""
    from scoutlab.web import rulescache

    client = client_for(tmp_path / "m.sqlite3")
    other, _ = new_match(client, "official", 3, seed=2)
    compile_rules = rulescache.Rules

    def slow_rules(spec):
        time.sleep(0.5)
        return compile_rules(spec)

    monkeypatch.setattr(rulescache, "Rules", slow_rules)
    specs = [f"extends: official\nname: slow-to-compile-{i}\n" for i in range(5)]

    async def race():
        transport = httpx.ASGITransport(app=client.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            began = time.perf_counter()
            answers = await asyncio.gather(
                *(http.post("/api/new", json={"spec": spec}) for spec in specs),
                _after(0.1, http.post(f"/api/m/{other}/act", json={"action": "keep"})),
            )
            return answers, time.perf_counter() - began

    with ThreadPoolExecutor(1) as runner:
        answers, took = runner.submit(lambda: asyncio.run(race())).result()
    *new, move = answers
    assert all(answer.status_code == 200 for answer in new) and move.status_code == 200
    assert took >= 1.5  # five compiles in two threads
    assert move.elapsed.total_seconds() < 0.4, move.elapsed


async def _after(delay, request):
    await asyncio.sleep(delay)
    return await request


def test_the_legal_moves_read_by_arithmetic_agree_with_decoding_each_code():
    """present.legal_moves reads the codes' layout directly (for speed): it must say what decoding says."""
    import random

    from scoutlab.rules import load_rules
    from scoutlab.spec import shipped_variants
    from scoutlab.web.present import legal_moves

    for name, _description in shipped_variants():
        rules = load_rules(name)
        holder = type("M", (), {"rules": rules})
        for players in rules.players:
            state, rng = rules.new_game(players, players), random.Random(players)
            while not state.is_over:
                view = state.view(state.to_act)
                codec, shows, ends, sns, flip = rules.codec, [], set(), False, False
                for code in view.legal:
                    kind, action = codec.kind(code), codec.decode(code)
                    if kind == "show":
                        shows.append([action.start, action.length])
                    elif kind == "scout":
                        ends.add(action.end)
                    elif kind == "scout_and_show":
                        sns = True
                        ends.add(action.scout.end)
                    else:
                        flip = True
                assert legal_moves(holder, view) == {"flip": flip, "shows": shows, "scout_ends": sorted(ends), "scout_show": sns}
                state.apply(rng.choice(state.legal_actions()))


# --------------------------------------------------------------------------- the doors of a real server (issue 29)


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def live_server(tmp_path):
    """uvicorn on 127.0.0.1, run as `scoutlab serve` runs it, but with a header timeout of 1 s."""
    import threading

    import uvicorn

    from scoutlab.commands.serve import listening_socket
    from scoutlab.web.app import create_app
    from scoutlab.web.doors import allowed_hosts, bounded_h11

    port = _free_port()
    sock = listening_socket("127.0.0.1", port)
    app = create_app(str(tmp_path / "m.sqlite3"), bot_delay_ms=0, hosts=allowed_hosts("127.0.0.1"))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_keep_alive=15, http=bounded_h11(1.0)))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield port
    server.should_exit = True
    thread.join(timeout=10)


def _raw(port: int, request: bytes, timeout: float = 10) -> bytes:
    """Send `request` whole, then read the answer to the end, as a client that sends before it reads."""
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        conn.sendall(request)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
        return answer


def test_a_20_mb_body_sent_whole_gets_its_413_not_a_reset(live_server):
    body = b"x" * (20 * 1024 * 1024)
    head = f"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1:{live_server}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    answer = _raw(live_server, head.encode() + body)  # a reset raises ConnectionResetError here
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    assert b"The request is too large: at most 160 KB." in answer


def test_a_connection_that_sends_half_a_header_is_closed(live_server):
    import socket

    with socket.create_connection(("127.0.0.1", live_server), timeout=10) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # and then nothing, for ever
        started = time.monotonic()
        assert conn.recv(1024) == b""  # closed by the server (a timeout would raise)
        assert time.monotonic() - started < 5


@pytest.mark.parametrize("sent", [b'{"a', b""])
def test_a_body_that_stalls_gets_its_408_and_the_connection_closed(live_server, monkeypatch, sent):
    import socket

    from scoutlab.web import guard

    monkeypatch.setattr(guard, "BODY_SECONDS", 1.0)  # 20 s as served
    head = f"POST /api/m/x/act HTTP/1.1\r\nHost: 127.0.0.1:{live_server}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    with socket.create_connection(("127.0.0.1", live_server), timeout=10) as conn:
        conn.sendall(head.encode() + sent)  # and then nothing, for ever (it was held open past 90 s)
        answer = b""
        while chunk := conn.recv(65536):  # read to the close: a timeout here would raise
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
    assert b"must arrive within 1 seconds" in answer


@pytest.mark.parametrize("path", ["/api/new", "/api/m/x/act", "/lab/api/check", "/lab/api/jobs"])
def test_a_client_that_hangs_up_mid_body_leaves_no_traceback_in_the_log(live_server, caplog, path):
    import socket

    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{live_server}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    with socket.create_connection(("127.0.0.1", live_server), timeout=10) as conn:
        conn.sendall(head.encode() + b'{"a":')  # and then hangs up
    time.sleep(0.5)  # the server reads on, meets the hang-up and answers no one
    _raw(live_server, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{live_server}\r\nConnection: close\r\n\r\n".encode())
    assert "Exception in ASGI application" not in caplog.text and "Traceback" not in caplog.text


def test_a_request_without_a_body_never_meets_the_body_deadline(live_server, monkeypatch):
    from scoutlab.web import guard

    monkeypatch.setattr(guard, "BODY_SECONDS", 0.0)  # a request with no body never waits on one
    answer = _raw(live_server, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{live_server}\r\nConnection: close\r\n\r\n".encode())
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:200]


def test_a_head_of_the_event_stream_ends_and_the_connection_serves_the_next_request(live_server):
    import http.client
    import json

    conn = http.client.HTTPConnection("127.0.0.1", live_server, timeout=10)
    conn.request("POST", "/api/new", json.dumps({"variant": "official", "players": 3}), {"content-type": "application/json"})
    token = json.loads(conn.getresponse().read())["token"]
    conn.request("HEAD", f"/api/m/{token}/events")
    head = conn.getresponse()
    assert head.status == 200 and head.read() == b"" and head.getheader("content-type").startswith("text/event-stream")
    conn.request("GET", f"/api/m/{token}")  # on the same connection: it waited for ever behind the stream
    assert conn.getresponse().status == 200
    conn.close()


def test_the_live_server_answers_its_own_names_and_refuses_others(live_server):
    assert _raw(live_server, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{live_server}\r\nConnection: close\r\n\r\n".encode()).startswith(b"HTTP/1.1 200 ")
    assert _raw(live_server, b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").startswith(b"HTTP/1.1 200 ")
    rebound = _raw(live_server, b"GET /api/m/x HTTP/1.1\r\nHost: attacker.example:8000\r\nConnection: close\r\n\r\n")
    assert rebound.startswith(b"HTTP/1.1 421 ") and b"--allowed-host" in rebound


@pytest.mark.parametrize("host", ["127.0.0.1:{port}@evil.example", "localhost:", "localhost:{port}x", "[::1]evil.example",
                                  "[::1]:{port}:1", "localhost:1234567"])
def test_the_live_server_refuses_a_host_header_no_browser_sends(live_server, host):
    # Each was read as the allowed name at its start, and answered.
    head = f"GET /api/m/x HTTP/1.1\r\nHost: {host.format(port=live_server)}\r\nConnection: close\r\n\r\n"
    answer = _raw(live_server, head.encode())
    assert answer.startswith(b"HTTP/1.1 421 ") and b"--allowed-host" in answer, answer[:200]


def test_host_names_are_checked_against_the_allowed_ones(tmp_path):
    from fastapi.testclient import TestClient

    from scoutlab.web.app import create_app
    from scoutlab.web.doors import allowed_hosts, host_name

    assert allowed_hosts("0.0.0.0", ["Box.lan"]) == {"localhost", "127.0.0.1", "::1", "box.lan"}
    assert allowed_hosts("::1") == allowed_hosts("127.0.0.1") and "10.0.0.5" in allowed_hosts("10.0.0.5")
    assert [host_name(h) for h in ("LOCALHOST:80", "[::1]:8000", "example.com")] == ["localhost", "::1", "example.com"]
    assert [host_name(h) for h in ("10.0.0.5:65535", "[0:0::1]", "my_box.lan")] == ["10.0.0.5", "::1", "my_box.lan"]
    assert {host_name(h) for h in ("localhost:80@evil.example", "127.1", "[::1]x", "a..b", "localhost:", "")} == {None}
    app = create_app(str(tmp_path / "m.sqlite3"), bot_delay_ms=0, hosts=allowed_hosts("127.0.0.1", ["box.lan"]))
    assert TestClient(app).get("/").status_code == 421  # TestClient's Host is "testserver"
    assert TestClient(app, base_url="http://box.lan:8000").get("/").status_code == 200
    refused = TestClient(app, base_url="http://evil.example").post("/api/new", json={"variant": "official"})
    assert refused.status_code == 421 and "\n" not in refused.json()["error"]


def test_head_answers_as_get_without_a_body(client):
    token, _ = new_match(client)
    for path in ("/", f"/m/{token}", "/rules/official", f"/api/m/{token}", "/static/table.js"):
        get, head = client.get(path), client.head(path)
        assert head.status_code == get.status_code == 200, path
        assert head.content == b"" and head.headers["content-type"] == get.headers["content-type"]


def test_what_shows_a_hand_is_never_cached(client):
    token, _ = new_match(client)
    for answer in (client.get("/"), client.get(f"/m/{token}"), client.get(f"/api/m/{token}"), client.get(f"/m/{token}/rules"),
                   client.post(f"/api/m/{token}/act", json={"action": "keep"}), client.post("/api/new", json={"variant": "official"})):
        assert answer.headers["cache-control"] == "no-store", answer.url
    assert client.get("/static/table.js").headers.get("cache-control") != "no-store"


@pytest.mark.parametrize("port", ["99999", "0", "-1"])
def test_serve_refuses_a_port_that_is_not_one(capsys, port):
    from scoutlab.cli import main

    assert main(["serve", "--port", port]) == 1
    err = capsys.readouterr().err
    assert err == f"scoutlab serve: --port must be a whole number from 1 to 65535, not {port}\n"


def test_serve_says_in_one_line_that_a_port_is_taken(capsys):
    import socket

    from scoutlab.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 1
    err = capsys.readouterr().err
    assert err == f"scoutlab serve: cannot listen on 127.0.0.1 port {port}: Address already in use\n"


def test_serve_runs_with_a_short_gil_switch_interval(tmp_path, monkeypatch):
    # A thread back from SQLite waits for the GIL while holding the store's lock: the server shortens that wait.
    import sys

    import uvicorn

    from scoutlab.cli import main
    from scoutlab.commands.serve import SWITCH_INTERVAL

    seen = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: seen.append(sys.getswitchinterval()))
    before = sys.getswitchinterval()
    try:
        import socket

        with socket.socket() as free:
            free.bind(("127.0.0.1", 0))
            port = free.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", str(tmp_path / "m.sqlite3")]) == 0
    finally:
        sys.setswitchinterval(before)
    assert seen == [SWITCH_INTERVAL] and before > SWITCH_INTERVAL


@pytest.mark.parametrize("lang", ["ar", "fa", "el", "bg"])
def test_the_host_refusal_is_said_in_the_request_language_as_a_page_to_a_browser(tmp_path, lang):
    import html

    from fastapi.testclient import TestClient

    from scoutlab.text.i18n import gettext_for, is_rtl
    from scoutlab.web.app import create_app
    from scoutlab.web.doors import allowed_hosts

    app = create_app(str(tmp_path / "m.sqlite3"), bot_delay_ms=0, hosts=allowed_hosts("127.0.0.1"))
    rebound = TestClient(app, base_url="http://evil.example")
    english = "This server answers only to the host names it was given"
    # a script's request in the language it asks for, by header or by cookie: JSON, the host names kept
    for said in (rebound.get("/api/m/x", headers={"accept-language": f"{lang},en;q=0.5"}),
                 rebound.get("/api/m/x", cookies={"lang": lang})):
        error = said.json()["error"]
        assert said.status_code == 421 and english not in error and "localhost" in error and "--allowed-host" in error
        assert error.split("(")[0] == gettext_for(lang)("This server answers only to the host names it was given "
                                                        "({names}); start it with --allowed-host NAME to add one.",
                                                        names="x").split("(")[0]
    # a browser's navigation: a page it shows as text (JSON would show its letters as \u escapes)
    page = rebound.get("/", headers={"accept": "text/html,*/*", "accept-language": lang})
    assert page.status_code == 421 and page.headers["content-type"].startswith("text/html")
    assert f'lang="{lang}" dir="{"rtl" if is_rtl(lang) else "ltr"}"' in page.text
    assert english not in page.text and html.unescape(page.text).count(rebound.get("/", headers={"accept-language": lang}).json()["error"]) == 1


def test_serve_s_banner_escapes_what_it_repeats(tmp_path, capsys, monkeypatch):
    uvicorn = pytest.importorskip("uvicorn")
    from scoutlab.cli import main

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)  # the banner, not the serving
    with socket.socket() as probe:  # a port free now, for serve to bind
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    assert main(["serve", "--port", port, "--db", str(tmp_path / "m.sqlite3"), "--allowed-host", "\x1b]0;pwn\x07example.org"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\\x1b]0;pwn\\x07example.org" in out


@pytest.mark.parametrize("ranged", ["bytes=abc", "bytes=99999999-", "bytes=0-10"])
def test_a_static_file_is_always_sent_whole(tmp_path, ranged):
    client = client_for(tmp_path / "m.sqlite3")
    whole = client.get("/static/table.js")
    # a malformed Range got Starlette's English 400 in text, an unsatisfiable one an empty 416
    answer = client.get("/static/table.js", headers={"Range": ranged, "Accept-Language": "bg"})
    assert answer.status_code == 200 and answer.content == whole.content and "accept-ranges" not in answer.headers
