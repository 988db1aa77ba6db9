"""Simulator throughput: games per second on 1 and 2 workers, and the speed-up.

Each case is a whole `scoutlab simulate` run (summaries, tallies and merging included;
strategy-advantage games off), timed end to end with the pool started. Random bots
always; heuristic (one heuristic among randoms) when that bot is installed.
Run: nice python benchmarks/simulate_throughput.py [--games N] [--heuristic-games M]
"""

from __future__ import annotations

import argparse
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


def rate(variant: str, players: int, bots: list[str], games: int, workers: int) -> float:
    began = time.perf_counter()
    simulate(variant, players=players, games=games, bots=bots, workers=workers, strong=None, seed=1)
    return games / (time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per random-bot case (default 1000)")
    parser.add_argument("--heuristic-games", type=int, default=60, help="games per heuristic case (default 60)")
    args = parser.parse_args()
    print(f"{'variant':<12}{'players':>8}  {'bots':<26}{'games':>7}{'1 worker':>12}{'2 workers':>12}{'speed-up':>10}")
    for variant, players, bots, games in cases(args.games, args.heuristic_games):
        one = rate(variant, players, bots, games, 1)
        two = rate(variant, players, bots, games, 2)
        print(f"{variant:<12}{players:>8}  {','.join(bots):<26}{games:>7}{one:>10.1f}/s{two:>10.1f}/s{two / one:>9.2f}x")


if __name__ == "__main__":
    main()
