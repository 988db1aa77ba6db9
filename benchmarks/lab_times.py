"""How long the variant lab takes: a live check of a house rule, and runs from start to finished, through its own API.

The lab's router on an app of its own (tests/lab_helpers.py builds the same), in this process: a check is timed
as the page sends it (median and slowest of --checks); each run as the page sees it, from the POST that starts it
to the first answer that says finished (the job's process starting, importing and playing; polled every 0.1 s).

    python benchmarks/lab_times.py
    python benchmarks/lab_times.py --games 100 --sweep-games 100 --checks 30
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from fastapi import FastAPI
from fastapi.testclient import TestClient

from scoutlab.web.context import WebContext
from scoutlab.web.lab import make_router
from scoutlab.web.lab_jobs import Jobs

HOUSE = "schema_version: 1\nextends: official\nname: chips-two\nkind: house\nscoring: {chip_received: 2}\n"


def run(client: TestClient, body: dict) -> tuple[float, dict]:
    began = time.perf_counter()
    job_id = client.post("/lab/api/jobs", json=body).json()["id"]
    while True:
        job = client.get(f"/lab/api/jobs/{job_id}").json()
        if job["state"] != "running":
            return time.perf_counter() - began, job
        time.sleep(0.1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checks", type=int, default=30)
    parser.add_argument("--games", type=int, default=100, help="games per variant of the comparison (the page's default)")
    parser.add_argument("--sweep-games", type=int, default=100, help="games per point of the sweep (3 points)")
    args = parser.parse_args(argv)
    jobs = Jobs()
    app = FastAPI()
    web = WebContext.open(str(Path(tempfile.mkdtemp(prefix="scoutlab-lab-times-")) / "matches.sqlite3"))  # the pages' context
    web.install(app)
    app.include_router(make_router(web, jobs))
    client = TestClient(app)
    try:
        client.post("/lab/api/check", json={"text": HOUSE})  # the first check loads the official rules: not timed
        times = []
        for _ in range(args.checks):
            began = time.perf_counter()
            assert client.post("/lab/api/check", json={"text": HOUSE}).json()["valid"]
            times.append(time.perf_counter() - began)
        print(f"check: median {statistics.median(times) * 1000:.1f} ms, slowest {max(times) * 1000:.1f} ms over {args.checks}")
        seconds, job = run(client, {"kind": "compare", "text": HOUSE, "games": args.games})
        print(f"compare with official, {args.games} games each: {job['state']}, {job['done']} games played "
              f"(skill games included) in {seconds:.1f} s")
        seconds, job = run(client, {"kind": "sweep", "text": HOUSE, "games": args.sweep_games,
                                    "knob": "scoring.chip_received", "values": "0, 1, 2"})
        print(f"sweep of scoring.chip_received over 0, 1, 2, {args.sweep_games} games each: {job['state']}, "
              f"{job['done']} games played in {seconds:.1f} s")
    finally:
        jobs.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
