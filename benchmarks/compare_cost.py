"""The README's main command, `scoutlab compare official two-player`, timed: wall and CPU seconds.

Runs the command's defaults (3,000 games of each variant plus the skill games) and the
same without skill games, interleaved A B A B, and prints each run's wall time, its CPU
time (this process and its finished workers) and the load average, then the medians.
On a shared machine the wall time says little; CPU seconds over the workers is what a
free machine would take (the runs are split into many chunks, so two workers stay busy).
Run: nice python benchmarks/compare_cost.py [--repeats N] [--workers W]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time

from scoutlab.sim import compare

SPECS = [("official", None), ("two-player", None)]


def cpu_seconds() -> float:
    """User + system time of this process and of its finished workers."""
    me, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + workers.ru_utime + workers.ru_stime


def timed(strong: str | None, workers: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of the main command's defaults."""
    began, cpu = time.perf_counter(), cpu_seconds()
    compare(SPECS, games=3000, workers=workers, strong=strong)
    return time.perf_counter() - began, cpu_seconds() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2, help="runs of each case, interleaved (default 2)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args()
    results: dict[str, list[tuple[float, float]]] = {"defaults": [], "no skill games": []}
    for _ in range(args.repeats):
        for name, strong in (("defaults", "auto"), ("no skill games", None)):
            load = os.getloadavg()[0]
            wall, cpu = timed(strong, args.workers)
            results[name].append((wall, cpu))
            print(f"{name:<16} wall {wall:6.1f} s  CPU {cpu:6.1f} s  load average {load:.1f}", flush=True)
    for name, runs in results.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(f"median {name:<16} wall {wall:6.1f} s  CPU {cpu:6.1f} s  "
              f"CPU over {args.workers} workers {cpu / args.workers:6.1f} s")


if __name__ == "__main__":
    main()
