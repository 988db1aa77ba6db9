"""A bot's speed in two builds side by side: decisions and search rollouts per CPU-second, runs interleaved A B A B, medians.

A is another build of scoutlab put first on PYTHONPATH (a directory holding a `scoutlab`
package: an older commit's wheel unpacked, say); B is the installed one. Each run is a
fresh child process that plays whole games with the bot in every seat and times only
the bot's `act` calls (CPU time), so both builds see the same drift of a shared machine;
the ratios B/A are what to quote. Both builds play the same games where the bot's moves
are the same, which the output checks by the decisions each made.

    python benchmarks/bot_ab.py --base /tmp/base --bot mcts:iterations=100 --games 2 --repeat 5
    python benchmarks/bot_ab.py --base /tmp/base --bot skilled --format two-player:2 --games 20
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CHILD = """
import json, sys, time
from scoutlab.match import make_bots
from scoutlab.rules import load_rules
bot, variant, players, games = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rules = load_rules(variant)
decisions = rollouts = 0
thinking = 0.0
for game in range(games):
    bots = make_bots([bot], rules, players, game)
    state = rules.new_game(players, game)
    while not state.is_over:
        seat = state.to_act
        view = state.view(seat)
        started = time.process_time()
        code = bots[seat].act(view)
        thinking += time.process_time() - started
        decisions += 1
        state.apply(code)
    rollouts += sum(getattr(b, "iterations_done", 0) for b in bots)
print(json.dumps([decisions, rollouts, thinking]))
"""


def run(path: str | None, bot: str, variant: str, players: int, games: int) -> tuple[int, int, float]:
    env = dict(os.environ)
    if path:
        env["PYTHONPATH"] = path + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, "-c", CHILD, bot, variant, str(players), str(games)],
                         capture_output=True, text=True, env=env,
                         cwd=os.sep)  # not the checkout, whose compiled library would shadow the base build's
    if out.returncode:
        last = (out.stderr.strip().splitlines() or ["no message"])[-1]
        sys.exit(f"bot_ab.py: the {'base' if path else 'installed'} build failed playing {bot} in {variant}: {last}")
    decisions, rollouts, seconds = json.loads(out.stdout)
    return decisions, rollouts, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="directory holding the other build's scoutlab package (A)")
    parser.add_argument("--bot", default="mcts:iterations=100", help="the bot, with options (default mcts:iterations=100)")
    parser.add_argument("--format", default="official:4", metavar="VARIANT:N", help="variant and players (default official:4)")
    parser.add_argument("--games", type=int, default=2, help="games per run (default 2)")
    parser.add_argument("--repeat", type=int, default=5, help="A B pairs (default 5)")
    args = parser.parse_args()
    variant, _, players = args.format.rpartition(":")
    rates: dict[str, list[float]] = {"A": [], "B": []}
    searched: dict[str, list[float]] = {"A": [], "B": []}
    ratios, search_ratios, made = [], [], set()
    for _ in range(args.repeat):
        pair = {}
        for label, path in (("A", args.base), ("B", None)):
            decisions, rollouts, seconds = run(path, args.bot, variant, int(players), args.games)
            made.add(decisions)
            pair[label] = (decisions / seconds, rollouts / seconds)
            rates[label].append(pair[label][0])
            searched[label].append(pair[label][1])
        ratios.append(pair["B"][0] / pair["A"][0])
        if pair["A"][1]:
            search_ratios.append(pair["B"][1] / pair["A"][1])
    print(f"{args.bot} in {variant} ({players} players), {args.games} games a run, {args.repeat} interleaved pairs, per CPU-second")
    print(f"  decisions/s: A {statistics.median(rates['A']):,.0f}  B {statistics.median(rates['B']):,.0f}"
          f"  B/A {statistics.median(ratios):.2f} (range {min(ratios):.2f}-{max(ratios):.2f})")
    if search_ratios:
        print(f"  rollouts/s:  A {statistics.median(searched['A']):,.0f}  B {statistics.median(searched['B']):,.0f}"
              f"  B/A {statistics.median(search_ratios):.2f} (range {min(search_ratios):.2f}-{max(search_ratios):.2f})")
    print("  both builds made the same decisions" if len(made) == 1 else f"  the builds played differently: {sorted(made)} decisions")


if __name__ == "__main__":
    main()
