"""Load test of `scoutlab serve` on loopback: many matches played to the end at once by scripted clients.

    python benchmarks/web_load.py                       # 50 concurrent matches of official, 3 players, random bots
    python benchmarks/web_load.py --matches 20 --variant two-player --players 2 --bots greedy

The server runs as its own process (uvicorn on 127.0.0.1, a fresh SQLite file); each client
is an asyncio task with httpx that starts a match, makes the browser seat's moves (chosen
from the legal moves the server sends) and asks for the bots' moves, with no pauses.
Afterwards the server is restarted on the same database and every match must still be
there, finished, with the same totals: no error and no lost match, or the script exits 1.
Prints the median and 99th percentile latency of a move request (the browser's move or one
bot move), and the throughput.
"""

from __future__ import annotations

import argparse
import asyncio
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


def start_server(db: str, port: int) -> subprocess.Popen:
    # The server's own messages go to a file beside the database (a pipe nobody reads would fill and stall it).
    log = open(db + ".server.log", "ab")  # noqa: SIM115 (the server holds it for its whole life)
    server = subprocess.Popen(
        [sys.executable, "-m", "scoutlab.cli", "serve", "--db", db, "--port", str(port), "--bot-delay", "0"],
        stdout=subprocess.DEVNULL, stderr=log,
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


async def play_match(client: httpx.AsyncClient, index: int, args, latencies: list[float], errors: list[str]) -> tuple[str, list[int]] | None:
    rng = random.Random(index)
    answer = await client.post("/api/new", json={
        "variant": args.variant, "players": args.players, "bots": [args.bots] * (args.players - 1), "seed": index,
    })
    if answer.status_code != 200:
        errors.append(f"match {index}: new -> {answer.status_code} {answer.text[:200]}")
        return None
    token, state = answer.json()["token"], answer.json()["state"]
    while not state["over"]:
        began = time.perf_counter()
        since = {"log_from": state["log_size"]}  # as the page does: only the new log lines come back
        try:
            if state["your_turn"]:
                answer = await client.post(f"/api/m/{token}/act", params=since, json={"action": choose(state, rng)})
            else:
                answer = await client.post(f"/api/m/{token}/advance", params=since)
        except httpx.HTTPError as exc:
            errors.append(f"match {index}: {type(exc).__name__} {exc}")
            return None
        latencies.append(time.perf_counter() - began)
        if answer.status_code != 200:
            errors.append(f"match {index}: {answer.status_code} {answer.text[:200]}")
            return None
        state = answer.json()
    return token, [seat["total"] for seat in state["seats"]]


async def run_all(base: str, args) -> tuple[list, list[float], list[str], float]:
    latencies: list[float] = []
    errors: list[str] = []
    # Idle connections are dropped before the server's keep-alive timeout (15 s), never raced with it.
    limits = httpx.Limits(max_connections=args.matches, max_keepalive_connections=args.matches, keepalive_expiry=5)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        began = time.perf_counter()
        results = await asyncio.gather(*(play_match(client, i, args, latencies, errors) for i in range(args.matches)))
        wall = time.perf_counter() - began
    return results, latencies, errors, wall


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--variant", default="official")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--bots", default="random", help="the opponents' bot (default: random, so the server's own cost dominates)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "matches.sqlite3")
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = start_server(db, port)
        client_cpu = time.process_time()
        try:
            results, latencies, errors, wall = asyncio.run(run_all(base, args))
        finally:
            client_cpu = time.process_time() - client_cpu
            server.terminate()
            server.wait(timeout=10)
        server_cpu = sum(getattr(resource.getrusage(resource.RUSAGE_CHILDREN), f) for f in ("ru_utime", "ru_stime"))
        # Restart on the same file: every match must come back, finished, with the same totals.
        server = start_server(db, port)
        try:
            for result in results:
                if result is None:
                    continue
                token, totals = result
                state = httpx.get(f"{base}/api/m/{token}", timeout=30).json()
                if not state.get("over") or [s["total"] for s in state["seats"]] != totals:
                    errors.append(f"match {token} changed or was lost across the restart")
        finally:
            server.terminate()
            server.wait(timeout=10)
        last_words = server_log(db)

    finished = sum(r is not None for r in results)
    print(f"{args.matches} concurrent matches of {args.variant} ({args.players} players, bots {args.bots}): "
          f"{finished} finished, {len(errors)} errors, {len(latencies)} move requests in {wall:.1f} s "
          f"({len(latencies) / wall:.0f} requests/s)")
    if latencies:
        print(f"move latency: median {statistics.median(latencies) * 1000:.1f} ms, "
              f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms")
    print(f"CPU: server {server_cpu:.1f} s ({server_cpu / max(1, len(latencies)) * 1000:.1f} ms a request, "
          f"startup included), clients {client_cpu:.1f} s; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for line in errors[:10]:
        print("error:", line)
    if errors:
        print("the server's last words:\n" + last_words)
    return 0 if finished == args.matches and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
