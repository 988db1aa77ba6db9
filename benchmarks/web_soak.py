"""Soak test of `scoutlab serve`: the web load of web_load.py, wave after wave, for N minutes; reports memory growth.

    python benchmarks/web_soak.py                   # 10 minutes of waves of 100 concurrent matches
    python benchmarks/web_soak.py --minutes 2 --matches 50

One server process on a fresh SQLite file. Each wave plays `--matches` new matches to the
end at once (secret deals, random bots, no pauses: see web_load.py), then the server's
resident memory (VmRSS) is read from /proc. Live matches stay in memory up to the server's
bounds (2,000 matches, or 512 MB of estimated match and rules memory), so memory should
rise while those fill and then stay flat: the script prints every wave, the growth over
the whole run and over its last third (where a leak would show as a steady slope), and
exits 1 on any error or lost match.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from web_load import free_port, memory_mb, percentile, run_all, run_loop, server_log, start_server


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--matches", type=int, default=100, help="concurrent matches per wave (default 100)")
    parser.add_argument("--variant", default="official")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--bots", default="random")
    args = parser.parse_args()
    args.client = "raw"

    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "matches.sqlite3")
        port = free_port()
        server = start_server(db, port)
        started, _peak = memory_mb(server.pid)
        print(f"server started: {started:.0f} MB; waves of {args.matches} matches for {args.minutes:g} minutes")
        print(f"{'minute':>6} {'wave':>5} {'matches':>8} {'requests':>9} {'p50 ms':>7} {'p99 ms':>7} {'RSS MB':>7}")
        samples: list[tuple[float, float]] = []
        errors: list[str] = []
        total_matches = total_requests = 0
        began = time.perf_counter()
        wave = 0
        try:
            while time.perf_counter() - began < args.minutes * 60:
                wave += 1
                results, latencies, wave_errors, _wall = run_loop(run_all(f"http://127.0.0.1:{port}", args))
                errors += wave_errors
                total_matches += sum(r is not None for r in results)
                total_requests += len(latencies)
                rss, _peak = memory_mb(server.pid)
                minute = (time.perf_counter() - began) / 60
                samples.append((minute, rss))
                p50 = statistics.median(latencies) * 1000 if latencies else 0
                p99 = percentile(latencies, 0.99) * 1000 if latencies else 0
                print(f"{minute:6.1f} {wave:5d} {total_matches:8d} {total_requests:9d} {p50:7.1f} {p99:7.1f} {rss:7.0f}", flush=True)
                if wave_errors:
                    break
        finally:
            _rss, peak = memory_mb(server.pid)
            server.terminate()
            server.wait(timeout=10)
        last_words = server_log(db) if errors else ""

    first, last = samples[0], samples[-1]
    half = [s for s in samples if s[0] >= last[0] * 2 / 3]
    slope = (half[-1][1] - half[0][1]) / max(1e-9, half[-1][0] - half[0][0]) if len(half) > 1 else 0.0
    print(f"{total_matches} matches, {total_requests} requests, {len(errors)} errors in {last[0]:.1f} minutes")
    print(f"memory: {started:.0f} MB at start, {first[1]:.0f} MB after wave 1, {last[1]:.0f} MB at the end "
          f"(peak {peak:.0f} MB); growth after wave 1: {last[1] - first[1]:+.0f} MB; "
          f"last third: {slope:+.1f} MB a minute")
    for line in errors[:10]:
        print("error:", line)
    if errors:
        print("the server's last words:\n" + last_words)
    return 0 if not errors else 1


if __name__ == "__main__":
    sys.exit(main())
