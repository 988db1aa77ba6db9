"""How long each opponent level takes per decision: median and max, CPU and wall time, official 4 players.

The level's bot plays every seat; each `act` call is timed until `--decisions` are taken:

    python benchmarks/level_speed.py                          # every level, 300 decisions each
    python benchmarks/level_speed.py --levels expert --decisions 100
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time


def measure(bot: str, decisions: int, variant: str = "official", players: int = 4) -> dict:
    """CPU and wall seconds of each of the first `decisions` decisions (play and flip), games seeded 0, 1, ..."""
    from scoutlab.match import close_bots, make_bots
    from scoutlab.rules import load_rules

    rules = load_rules(variant)
    cpu: list[float] = []
    wall: list[float] = []
    game = 0
    while len(cpu) < decisions:
        bots = make_bots([bot], rules, players, game)
        state = rules.new_game(players, game)
        while not state.is_over and len(cpu) < decisions:
            seat = state.to_act
            view = state.view(seat)
            started, began = time.process_time(), time.perf_counter()  # CPU time too: the machine may be shared
            code = bots[seat].act(view)
            cpu.append(time.process_time() - started)
            wall.append(time.perf_counter() - began)
            state.apply(code)
        close_bots(bots)
        game += 1
    return {"games": game, "cpu": cpu, "wall": wall}


def main(argv: list[str] | None = None) -> int:
    from scoutlab.bots.levels import LEVELS, find_level

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="+", default=[level.name for level in LEVELS], help="levels to time (default: all)")
    parser.add_argument("--decisions", type=int, default=300, help="decisions timed per level (default: 300)")
    args = parser.parse_args(argv)
    print("| level | bot | decisions (games) | CPU median | CPU max | wall median | wall max |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name in args.levels:
        level = find_level(name)
        m = measure(level.bot, args.decisions)
        ms = lambda xs, f: f"{1000 * f(xs):.1f} ms"  # noqa: E731
        print(f"| {level.name} | `{level.bot}` | {len(m['cpu'])} ({m['games']}) | {ms(m['cpu'], statistics.median)} | "
              f"{ms(m['cpu'], max)} | {ms(m['wall'], statistics.median)} | {ms(m['wall'], max)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
