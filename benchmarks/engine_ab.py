"""Engine speed of two builds side by side: random-legal games per CPU-second, runs interleaved A B A B, medians.

A is another build of scoutlab put first on PYTHONPATH (a directory holding a `scoutlab`
package: an exported older commit with its compiled modules, say); B is the installed
one. Each run is a fresh child process that times only its games (CPU time), so both
see the same drift of a shared machine, and the ratio B/A is what to quote.
Run: python benchmarks/engine_ab.py --base /tmp/base [--games 100] [--repeat 5] [--plugin noop] [--draw randrange]

Each decision is uniform over the legal actions, drawn as `legal[int(random() * len(legal))]`:
one C call. `--draw randrange` draws with `random.randrange` instead, as the engine issue's
figures were measured: a Python function of about 4,300 instructions a decision (callgrind,
official 4 players), more than a third of what the compiled engine spends on the decision,
and the same in both builds, so it narrows the ratio without saying anything about either engine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CASES = [("two-player", 2), ("two-player-28", 2), ("official", 3), ("official", 4), ("official", 5)]
CHILD = """
import json, random, sys, time
from scoutlab.engine import native
from scoutlab.rules import Rules, load_rules
from scoutlab.spec.variant import load_spec_text
variant, players, games, plugin, draw = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
rules = Rules(load_spec_text(f"extends: {variant}\\nname: {variant}+{plugin}\\nplugins: [{plugin}]\\n")) if plugin else load_rules(variant)
decisions, start = 0, time.process_time()
for seed in range(games):
    state, rng = rules.new_game(players, seed), random.Random(seed)
    randrange, uniform, legal_actions, apply = rng.randrange, rng.random, state.legal_actions, state.apply
    if draw == "randrange":
        while not state.is_over:
            legal = legal_actions()
            apply(legal[randrange(len(legal))])
            decisions += 1
    else:
        while not state.is_over:
            legal = legal_actions()
            apply(legal[int(uniform() * len(legal))])
            decisions += 1
print(json.dumps([decisions, time.process_time() - start, native.BUILD]))
"""


def run(path: str | None, variant: str, players: int, games: int, plugin: str, draw: str) -> tuple[int, float, str]:
    env = dict(os.environ)
    if path:
        env["PYTHONPATH"] = path + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, "-c", CHILD, variant, str(players), str(games), plugin, draw],
                         capture_output=True, text=True, env=env, check=True)
    return tuple(json.loads(out.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="directory holding the other build's scoutlab package (A)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--plugin", default="", help="a plugin to add to each variant (noop: the hook cost)")
    parser.add_argument("--draw", choices=["random", "randrange"], default="random",
                        help="how the random player draws its move (randrange: as the engine issue measured)")
    args = parser.parse_args()
    print(f"{'variant':<16}{'players':>8}{'A decisions/s':>15}{'B decisions/s':>15}{'A games/s':>11}{'B games/s':>11}{'B/A':>7}")
    for variant, players in CASES:
        rates: dict[str, list[float]] = {"A": [], "B": []}
        ratios, decisions = [], 0
        for _ in range(args.repeat):
            pair = {}
            for label, path in (("A", args.base), ("B", None)):
                decisions, seconds, _build = run(path, variant, players, args.games, args.plugin, args.draw)
                pair[label] = decisions / seconds
                rates[label].append(pair[label])
            ratios.append(pair["B"] / pair["A"])
        a, b = statistics.median(rates["A"]), statistics.median(rates["B"])
        per_game = decisions / args.games
        print(f"{variant:<16}{players:>8}{a:>15,.0f}{b:>15,.0f}{a / per_game:>11,.0f}{b / per_game:>11,.0f}"
              f"{statistics.median(ratios):>7.2f}")


if __name__ == "__main__":
    main()
