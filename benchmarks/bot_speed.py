"""How fast each bot decides, and how many search iterations per second the mcts bot runs.

Plays a few games of each bot against itself and times every `act` call:

    python benchmarks/bot_speed.py                 # official 4 players and two-player, 2 games each
    python benchmarks/bot_speed.py --games 5 --bots mcts:iterations=400,c=0.7 greedy
"""

from __future__ import annotations

import argparse
import sys
import time

FORMATS = [("official", 4), ("two-player", 2), ("two-player-28", 2)]


def measure(bot: str, variant: str, players: int, games: int) -> dict:
    """Decisions per second for `bot` playing every seat; mcts also reports iterations per second."""
    from scoutlab.match import make_bots
    from scoutlab.rules import load_rules

    rules = load_rules(variant)
    decisions, thinking, iterations = 0, 0.0, 0
    for game in range(games):
        bots = make_bots([bot], rules, players, game)
        state = rules.new_game(players, game)
        while not state.is_over:
            seat = state.to_act
            view = state.view(seat)
            started = time.process_time()  # CPU time: the machine may be shared
            code = bots[seat].act(view)
            thinking += time.process_time() - started
            decisions += 1
            state.apply(code)
        iterations += sum(getattr(b, "iterations_done", 0) for b in bots)
    return {"decisions": decisions, "per_second": decisions / thinking,
            "iterations_per_second": iterations / thinking if iterations else None}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", nargs="+", default=["random", "greedy", "heuristic", "mcts"],
                        help="bot names, with options after a colon (default: all four)")
    parser.add_argument("--games", type=int, default=2, help="games per bot and format")
    args = parser.parse_args(argv)
    print("| bot | variant | players | decisions | decisions/s | mcts iterations/s |")
    print("|---|---|---|---|---|---|")
    for bot in args.bots:
        for variant, players in FORMATS:
            m = measure(bot, variant, players, args.games)
            its = f"{m['iterations_per_second']:.0f}" if m["iterations_per_second"] else "-"
            print(f"| {bot} | {variant} | {players} | {m['decisions']} | {m['per_second']:.1f} | {its} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
