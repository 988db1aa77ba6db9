"""Simulator throughput: games per second on 1 and 2 workers, and the speed-up.

Each case is a whole `scoutlab simulate` run (summaries, tallies and merging included;
strategy-advantage games off), timed end to end with the pool started. Random bots
always; heuristic (one heuristic among randoms) when that bot is installed. It also
prints games per CPU-second (this process and its workers): on a shared machine the
wall-clock speed-up only means something when the cores are free, the CPU rate always.
Run: nice python benchmarks/simulate_throughput.py [--games N] [--heuristic-games M]
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from scoutlab.bots import BotError, make_bot
from scoutlab.rules import load_rules
from scoutlab.sim import simulate


def cases(games: int, heuristic_games: int) -> list[tuple[str, int, list[str], int]]:
    out = [("official", 3, ["random"], games), ("two-player", 2, ["random"], games)]
    try:
        make_bot("heuristic", load_rules("official"), 0)
    except (BotError, ImportError):
        print("(no heuristic bot installed: random bots only)")
        return out
    out += [("official", 3, ["heuristic", "random", "random"], heuristic_games),
            ("two-player", 2, ["heuristic", "random"], heuristic_games)]
    return out


def cpu_seconds() -> float:
    """User + system time of this process and of its finished workers."""
    me, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + workers.ru_utime + workers.ru_stime


def rate(variant: str, players: int, bots: list[str], games: int, workers: int) -> tuple[float, float]:
    """(games per wall-clock second, games per CPU-second)."""
    began, cpu = time.perf_counter(), cpu_seconds()
    simulate(variant, players=players, games=games, bots=bots, workers=workers, strong=None, seed=1)
    return games / (time.perf_counter() - began), games / (cpu_seconds() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per random-bot case (default 1000)")
    parser.add_argument("--heuristic-games", type=int, default=60, help="games per heuristic case (default 60)")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'variant':<12}{'players':>8}  {'bots':<26}{'games':>7}{'1 worker':>12}{'2 workers':>12}"
          f"{'speed-up':>10}{'per CPU-s, 1 / 2 workers':>28}")
    for variant, players, bots, games in cases(args.games, args.heuristic_games):
        one, cpu_one = rate(variant, players, bots, games, 1)
        two, cpu_two = rate(variant, players, bots, games, 2)
        print(f"{variant:<12}{players:>8}  {','.join(bots):<26}{games:>7}{one:>10.1f}/s{two:>10.1f}/s"
              f"{two / one:>9.2f}x{cpu_one:>16.1f}/s{cpu_two:>10.1f}/s")


if __name__ == "__main__":
    main()
