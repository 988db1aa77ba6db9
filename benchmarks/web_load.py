"""Load test of `scoutlab serve` on loopback: many matches played to the end at once by scripted clients.

    python benchmarks/web_load.py                       # 50 concurrent matches of official, 3 players, random bots
    python benchmarks/web_load.py --matches 500         # the issue's target: every match done, p99 under 1 s
    python benchmarks/web_load.py --matches 20 --variant two-player --players 2 --bots greedy
    python benchmarks/web_load.py --matches 500 --paced   # as browsers play: a live stream each, 0.7 s pace, think time

With `--paced` each client plays as the table page does: it opens the match's server-sent
event stream and keeps it open, waits the pace (`--pace-ms`, the page's normal 700 ms)
before asking for each bot move and a think time (`--think-ms`, 0.5-1.5 times it) before
its own moves; the matches start spread over `--ramp` seconds, as players arrive. Every
run stops by itself: at `--deadline` seconds, any match not finished is an error.
`--server-path DIR` runs the server from another checkout (its `core/scoutlab`, for
a baseline measured beside this one) and `--json FILE` appends the figures as one JSON line.

The server runs as its own process (uvicorn on 127.0.0.1, a fresh SQLite file); each client
is an asyncio task that starts a match (a secret deal, as a browser gets), makes the browser
seat's moves (chosen from the legal moves the server sends) and asks for the bots' moves,
with no pauses: a closed loop, so every match always has one request in flight.
The clients speak HTTP/1.1 over one keep-alive connection each with a few lines of asyncio
(`--client httpx` for httpx): httpx costs about 2.5 ms of CPU a request, four times the
server's cost, and on two cores the load generator would otherwise be what is measured.
Afterwards the server is restarted on the same database and every match must still be
there, finished, with the same totals: no error and no lost match, or the script exits 1.
Prints the median and 99th percentile latency of a request (the browser's move or one
bot move, as the client sees it), the throughput, CPU per request, and the server's
resident memory (VmRSS) when started, after the load and at its peak (VmHWM).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import httpx2 as httpx  # httpx2: the maintained line of httpx, which starlette's test client wants too


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env(path: str | None) -> dict[str, str] | None:
    """The environment of a server run from the checkout at `path`, ahead of the installed one (None: the installed
    one): its package as a tree of links with the package data (variants/, schemas/) in place, as the build lays it out."""
    if not path:
        return None
    root = os.path.abspath(path)
    package = os.path.join(root, "core", "scoutlab")
    before_move = not os.path.isdir(package)  # a checkout from before core/scoutlab/: core/ was imported as scoutlab
    if before_move:
        package = os.path.join(root, "core")
    tree = os.path.join(tempfile.mkdtemp(prefix="scoutlab-server-"), "scoutlab")
    os.mkdir(tree)
    for entry in os.listdir(package):
        os.symlink(os.path.join(package, entry), os.path.join(tree, entry))
    for name in ("variants", "schemas") + (("plugins",) if before_move else ()):
        os.symlink(os.path.join(root, name), os.path.join(tree, name))
    paths = [os.path.dirname(tree)] + ([] if before_move else [os.path.join(root, "plugins")])
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def start_server(db: str, port: int, env: dict[str, str] | None = None) -> subprocess.Popen:
    # The server's own messages go to a file beside the database (a pipe nobody reads would fill and stall it).
    log = open(db + ".server.log", "ab")  # noqa: SIM115 (the server holds it for its whole life)
    server = subprocess.Popen(
        [sys.executable, "-m", "scoutlab.cli", "serve", "--db", db, "--port", str(port), "--bot-delay", "0"],
        stdout=subprocess.DEVNULL, stderr=log, env=env,
    )
    log.close()
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
            return server
        except httpx.HTTPError:
            if server.poll() is not None:
                sys.exit(f"the server stopped: {server_log(db)}")
            time.sleep(0.2)
    server.kill()
    sys.exit("the server did not start within 30 s")


def memory_mb(pid: int) -> tuple[float, float]:
    """(resident, peak resident) memory of a process in MB, from /proc (0, 0 where there is no /proc)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            fields = dict(line.split(":", 1) for line in status if ":" in line)
        return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024
    except (OSError, KeyError, ValueError):
        return 0.0, 0.0


class RawClient:
    """A minimal HTTP/1.1 client: one keep-alive connection, JSON bodies, Content-Length framing (what uvicorn sends)."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: object = None) -> tuple[int, object]:
        payload = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n").encode()
        for attempt in (1, 2):  # a connection the server closed while idle is opened again once
            try:
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
                self.writer.write(head + payload)
                status = int((await self.reader.readline()).split()[1])
                length, close = 0, False
                while (line := await self.reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.partition(b":")
                    name = name.strip().lower()
                    if name == b"content-length":
                        length = int(value)
                    elif name == b"connection" and value.strip().lower() == b"close":
                        close = True
                data = await self.reader.readexactly(length)
                if close:
                    await self.aclose()
                return status, json.loads(data) if data[:1] in (b"{", b"[") else data.decode()
            except (ConnectionError, asyncio.IncompleteReadError, IndexError):
                await self.aclose()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def aclose(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


class HttpxClient:
    """The same interface over a shared httpx.AsyncClient."""

    def __init__(self, client: httpx.AsyncClient):
        self.client = client

    async def request(self, method: str, path: str, body: object = None) -> tuple[int, object]:
        answer = await self.client.request(method, path, json=body)
        try:
            return answer.status_code, answer.json()
        except ValueError:
            return answer.status_code, answer.text

    async def aclose(self) -> None:
        pass


def server_log(db: str, lines: int = 30) -> str:
    with open(db + ".server.log", encoding="utf-8", errors="replace") as log:
        return "".join(log.readlines()[-lines:])


def choose(state: dict, rng: random.Random) -> str:
    """A legal move for the browser's seat from what the server sent it."""
    legal = state["legal"]
    if legal["flip"]:
        return rng.choice(["keep", "flip"])
    if legal["shows"] and (not legal["scout_ends"] or rng.random() < 0.7):
        start, length = rng.choice(legal["shows"])
        return f"show {start + 1}" if length == 1 else f"show {start + 1}-{start + length}"
    end = rng.choice(legal["scout_ends"])
    return f"scout {'right' if end else 'left'} {rng.randint(0, len(state['hand']))}"


def cpu_ns(pid: int) -> int:
    """CPU time of every thread of a process so far, in nanoseconds (/proc schedstat; 0 where there is none)."""
    total = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as stat:
                total += int(stat.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total


async def follow(host: str, port: int, token: str, log_size: int, seen: list[int]) -> None:
    """The page's live stream: read server-sent events until cancelled, counting the states that come."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(f"GET /api/m/{token}/events?log_from={log_size} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        while line := await reader.readline():
            if line.startswith(b"data: "):
                seen[0] += 1
    finally:
        writer.close()


async def play_match(client, index: int, args, latencies: list[float], errors: list[str],
                     seen: list[int] | None = None) -> tuple[str, list[int]] | None:
    rng = random.Random(index)
    paced = getattr(args, "paced", False)
    stream = None
    if paced:
        await asyncio.sleep(rng.random() * args.ramp)  # players arrive over the ramp
    try:
        status, body = await client.request("POST", "/api/new", {
            "variant": args.variant, "players": args.players, "bots": [args.bots] * (args.players - 1),
        })
        if status != 200:
            errors.append(f"match {index}: new -> {status} {str(body)[:200]}")
            return None
        token, state = body["token"], body["state"]
        if paced and args.stream and isinstance(client, RawClient):
            stream = asyncio.ensure_future(follow(client.host, client.port, token, state["log_size"], seen or [0]))
        while not state["over"]:
            if paced:  # the page's pace before a bot move, a player's thought before their own
                await asyncio.sleep(args.pace_ms / 1000 if not state["your_turn"] else args.think_ms / 1000 * (0.5 + rng.random()))
            began = time.perf_counter()
            since = f"?log_from={state['log_size']}"  # as the page does: only the new log lines come back
            if state["your_turn"]:
                status, body = await client.request("POST", f"/api/m/{token}/act{since}", {"action": choose(state, rng)})
            else:
                status, body = await client.request("POST", f"/api/m/{token}/advance{since}")
            latencies.append(time.perf_counter() - began)
            if getattr(args, "timeline", None) is not None:
                args.timeline.append((began, latencies[-1]))
            if status != 200:
                errors.append(f"match {index}: {status} {str(body)[:200]}")
                return None
            state = body
    except (httpx.HTTPError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
        errors.append(f"match {index}: {type(exc).__name__} {exc}")
        return None
    finally:
        if stream is not None:
            stream.cancel()
        await client.aclose()
    return token, [seat["total"] for seat in state["seats"]]


async def run_all(base: str, args, seen: list[int] | None = None) -> tuple[list, list[float], list[str], float]:
    latencies: list[float] = []
    errors: list[str] = []
    host, port = base.rsplit("//", 1)[1].split(":")
    began = time.perf_counter()
    if args.client == "raw":
        clients = [RawClient(host, int(port)) for _ in range(args.matches)]
        games = asyncio.gather(*(play_match(c, i, args, latencies, errors, seen) for i, c in enumerate(clients)))
        try:  # bounded in time: what has not finished by the deadline is an error
            results = await asyncio.wait_for(games, getattr(args, "deadline", None))
        except asyncio.TimeoutError:
            errors.append(f"the matches did not finish within {args.deadline} s")
            results = [None] * args.matches
    else:
        # Idle connections are dropped before the server's keep-alive timeout (15 s), never raced with it.
        limits = httpx.Limits(max_connections=args.matches, max_keepalive_connections=args.matches, keepalive_expiry=5)
        async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as shared:
            results = await asyncio.gather(*(play_match(HttpxClient(shared), i, args, latencies, errors) for i in range(args.matches)))
    wall = time.perf_counter() - began
    return results, latencies, errors, wall


def run_loop(coroutine):
    """Run on uvloop when it is installed (as uvicorn does), so the clients cost less CPU."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    return uvloop.run(coroutine)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--variant", default="official")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--bots", default="random", help="the opponents' bot (default: random, so the server's own cost dominates)")
    parser.add_argument("--client", choices=["raw", "httpx"], default="raw", help="the load generator's HTTP client (default: raw)")
    parser.add_argument("--paced", action="store_true", help="play as browsers do: a live stream each, a pace, think time")
    parser.add_argument("--pace-ms", type=float, default=700, help="paced: wait before each bot move (default 700, the page's normal)")
    parser.add_argument("--think-ms", type=float, default=1500, help="paced: a player's mean thought before a move (default 1500)")
    parser.add_argument("--ramp", type=float, default=10, help="paced: the matches start spread over this many seconds (default 10)")
    parser.add_argument("--no-stream", dest="stream", action="store_false", help="paced: without the live stream")
    parser.add_argument("--deadline", type=float, default=900, help="stop after this many seconds (default 900)")
    parser.add_argument("--server-path", help="run the server from this checkout's package (a baseline), not the installed one")
    parser.add_argument("--json", help="append the figures to this file as one JSON line")
    parser.add_argument("--timeline", action="store_true", help="also print the p99 of each 10 s of the run")
    args = parser.parse_args()
    args.timeline = [] if args.timeline else None
    if not args.paced:
        args.ramp = 0.0
    env = server_env(args.server_path)

    seen = [0]
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "matches.sqlite3")
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = start_server(db, port, env)
        memory_before, _peak = memory_mb(server.pid)
        client_cpu = time.process_time()
        load_before = os.getloadavg()[0]
        try:
            results, latencies, errors, wall = run_loop(run_all(base, args, seen))
        finally:
            client_cpu = time.process_time() - client_cpu
            memory_after, memory_peak = memory_mb(server.pid)
            load_after = os.getloadavg()[0]
            server.terminate()
            server.wait(timeout=10)
        server_cpu = sum(getattr(resource.getrusage(resource.RUSAGE_CHILDREN), f) for f in ("ru_utime", "ru_stime"))
        # Restart on the same file: every match must come back, finished, with the same totals; the first
        # access of each is timed (wall, one at a time) and costed (the server's CPU time over them all).
        server = start_server(db, port, env)
        firsts: list[float] = []
        try:
            with httpx.Client(base_url=base, timeout=60) as http:
                restart_cpu = cpu_ns(server.pid)
                for result in results:
                    if result is None:
                        continue
                    token, totals = result
                    began = time.perf_counter()
                    state = http.get(f"/api/m/{token}").json()
                    firsts.append(time.perf_counter() - began)
                    if not state.get("over") or [s["total"] for s in state["seats"]] != totals:
                        errors.append(f"match {token} changed or was lost across the restart")
                restart_cpu = cpu_ns(server.pid) - restart_cpu
        finally:
            server.terminate()
            server.wait(timeout=10)
        last_words = server_log(db)

    finished = sum(r is not None for r in results)
    mode = (f"paced (pace {args.pace_ms:g} ms, think {args.think_ms:g} ms, ramp {args.ramp:g} s, "
            f"{'a live stream each' if args.stream else 'no live streams'})" if args.paced else "unpaced")
    print(f"{args.matches} concurrent matches of {args.variant} ({args.players} players, bots {args.bots}), {mode}: "
          f"{finished} finished, {len(errors)} errors, {len(latencies)} move requests in {wall:.1f} s "
          f"({len(latencies) / wall:.0f} requests/s)" + (f", {seen[0]} live states received" if args.paced and args.stream else ""))
    figures: dict = {"matches": args.matches, "paced": args.paced, "finished": finished, "errors": len(errors),
                     "requests": len(latencies), "wall_s": round(wall, 2), "server_path": args.server_path or "installed",
                     "load_before": load_before, "load_after": load_after}
    if latencies:
        p50, p95, p99 = (percentile(latencies, q) * 1000 for q in (0.5, 0.95, 0.99))
        print(f"move latency: median {statistics.median(latencies) * 1000:.1f} ms, p95 {p95:.1f} ms, "
              f"p99 {p99:.1f} ms, max {max(latencies) * 1000:.1f} ms")
        figures.update(p50_ms=round(p50, 1), p95_ms=round(p95, 1), p99_ms=round(p99, 1), max_ms=round(max(latencies) * 1000, 1))
    per_request = server_cpu / max(1, len(latencies))
    print(f"CPU: server {server_cpu:.1f} s ({per_request * 1000:.2f} ms a request, startup and live streams included), "
          f"clients {client_cpu:.1f} s ({args.client}); load average {load_before:.1f} before, {load_after:.1f} after, on {os.cpu_count()} cores")
    print(f"server memory (VmRSS): {memory_before:.0f} MB started, {memory_after:.0f} MB after the load, peak {memory_peak:.0f} MB")
    if firsts:
        print(f"after a restart, first access of each of {len(firsts)} matches: {restart_cpu / 1e6 / len(firsts):.2f} ms of server CPU "
              f"a match, wall median {statistics.median(firsts) * 1000:.1f} ms, max {max(firsts) * 1000:.1f} ms, "
              f"all {sum(firsts):.1f} s")
        figures.update(restart_cpu_ms_per_match=round(restart_cpu / 1e6 / len(firsts), 3), restart_wall_s=round(sum(firsts), 2))
    figures.update(server_cpu_s=round(server_cpu, 2), cpu_ms_per_request=round(per_request * 1000, 3), client_cpu_s=round(client_cpu, 2))
    if args.json:
        with open(args.json, "a") as out:
            out.write(json.dumps(figures) + "\n")
    if args.timeline:
        start = min(t for t, _ in args.timeline)
        windows: dict[int, list[float]] = {}
        for began, latency in args.timeline:
            windows.setdefault(int((began - start) // 10), []).append(latency)
        print("p99 by 10 s of the run (ms): " + ", ".join(
            f"{w * 10}s {percentile(v, 0.99) * 1000:.0f} ({len(v)})" for w, v in sorted(windows.items())))
    for line in errors[:10]:
        print("error:", line)
    if errors:
        print("the server's last words:\n" + last_words)
    return 0 if finished == args.matches and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
