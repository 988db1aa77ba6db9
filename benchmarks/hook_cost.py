"""The cost of hook dispatch in instructions, which do not depend on what else the machine is doing.

Plays the same random games (default: `official`, 4 players) with and without the do-nothing
`noop` plugin under valgrind's callgrind and prints instructions per decision.
Timings on a shared machine swing by tens of percent; instruction counts repeat exactly.
Run: python benchmarks/hook_cost.py [--games 40] [--variant official --players 4]   (needs valgrind)
Fewer games than the default give rougher figures: the games differ in how much each decision costs.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys


def play(variant: str, players: int, games: int, plugin: bool) -> int:
    """Play the games; return the number of decisions."""
    from scoutlab.rules import Rules, load_rules
    from scoutlab.spec.variant import load_spec_text

    text = f"extends: {variant}\nname: {variant}+noop\nplugins: [noop]\n"
    rules = Rules(load_spec_text(text)) if plugin else load_rules(variant)
    decisions = 0
    for seed in range(games):
        state = rules.new_game(players, seed)
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions


def instructions(variant: str, players: int, games: int, plugin: bool) -> tuple[int, int]:
    """(instructions, decisions) of one run under callgrind."""
    # sys.executable, not its realpath: a venv's python is a link to the base interpreter,
    # which run by its own path does not see the venv, where scoutlab is installed.
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        sys.executable, __file__, "--variant", variant, "--players", str(players),
        "--child", str(games), "--plugin" if plugin else "--no-plugin",
    ]
    out = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    collected = re.search(r"Collected : ([\d,]+)", out.stderr)
    decisions = re.search(r"decisions (\d+)", out.stdout)
    if not (collected and decisions):
        sys.exit(f"callgrind run failed:\n{out.stderr[-2000:]}")
    return int(collected[1].replace(",", "")), int(decisions[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--variant", default="official")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--plugin", action=argparse.BooleanOptionalAction, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print("decisions", play(args.variant, args.players, args.child, args.plugin))
        return
    if not shutil.which("valgrind"):
        sys.exit("needs valgrind (apt-get install valgrind)")
    per_decision = {}
    for plugin in (False, True):
        base, _ = instructions(args.variant, args.players, 0, plugin)  # start-up and compiling, subtracted
        total, decisions = instructions(args.variant, args.players, args.games, plugin)
        per_decision[plugin] = (total - base) / decisions
        label = "with noop" if plugin else "builtin  "
        print(
            f"{args.variant}, {args.players} players, {args.games} games, {label}: {decisions} decisions, "
            f"{per_decision[plugin]:,.0f} instructions per decision"
        )
    print(f"hook cost: +{(per_decision[True] / per_decision[False] - 1) * 100:.1f}% instructions per decision")


if __name__ == "__main__":
    main()
