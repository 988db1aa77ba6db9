"""How fast each bot decides, as ratios measured side by side, and the search bot's rollouts per second.

Each bot plays every seat of a game; the bots take turns game by game (A B C A B C ...)
for `--repeat` rounds, every `act` call timed in CPU seconds, so a machine that drifts
slows them all alike. Printed per format: each bot's median decisions per CPU-second
and the median of its per-round ratios to the first bot named.

    python benchmarks/bot_speed.py                              # greedy, heuristic, skilled, mcts
    python benchmarks/bot_speed.py --bots skilled mcts:iterations=400 --repeat 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

FORMATS = [("official", 4), ("two-player", 2), ("two-player-28", 2)]


def measure(bot: str, variant: str, players: int, game: int) -> tuple[float, float, int]:
    """(decisions per CPU-second, search iterations per CPU-second or 0, decisions) of one game of `bot` in every seat."""
    from scoutlab.match import make_bots
    from scoutlab.rules import load_rules

    rules = load_rules(variant)
    decisions, thinking = 0, 0.0
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
    iterations = sum(getattr(b, "iterations_done", 0) for b in bots)
    return decisions / thinking, iterations / thinking, decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", nargs="+", default=["greedy", "heuristic", "skilled", "mcts"],
                        help="bot names, with options after a colon; the first is the reference of the ratios")
    parser.add_argument("--repeat", type=int, default=3, help="rounds: one game per bot each (default 3)")
    parser.add_argument("--format", action="append", metavar="VARIANT:N", dest="formats",
                        help="measure this variant at N players (repeatable; default official:4, two-player:2, two-player-28:2)")
    args = parser.parse_args(argv)
    formats = [(f.rpartition(":")[0], int(f.rpartition(":")[2])) for f in args.formats] if args.formats else FORMATS
    reference = args.bots[0]
    print(f"| bot | variant | players | decisions | decisions/s (median) | x {reference} (median ratio) | search iterations/s |")
    print("|---|---|---|---|---|---|---|")
    for variant, players in formats:
        rates: dict[str, list[float]] = {bot: [] for bot in args.bots}
        searched: dict[str, list[float]] = {bot: [] for bot in args.bots}
        counts = dict.fromkeys(args.bots, 0)
        for game in range(args.repeat):
            for bot in args.bots:  # interleaved: every bot once per round, on the same deal
                rate, its, decisions = measure(bot, variant, players, game)
                rates[bot].append(rate)
                searched[bot].append(its)
                counts[bot] += decisions
        for bot in args.bots:
            ratio = statistics.median(r / ref for r, ref in zip(rates[bot], rates[reference]))
            its = statistics.median(searched[bot])
            print(f"| {bot} | {variant} | {players} | {counts[bot]} | {statistics.median(rates[bot]):,.0f} | "
                  f"{ratio:.3g} | {f'{its:,.0f}' if its else '-'} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
