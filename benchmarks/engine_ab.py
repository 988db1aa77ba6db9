"""Engine speed of two builds side by side: random-legal games per CPU-second, runs interleaved A B A B, medians.

A is another build of scoutlab put first on PYTHONPATH (a directory holding a `scoutlab`
package: an exported older commit with its compiled modules, say); B is the installed
one. Each run is a fresh child process that times only its games (CPU time), so both
see the same drift of a shared machine, and the ratio B/A is what to quote.
Run: python benchmarks/engine_ab.py --base /tmp/base [--games 100] [--repeat 5] [--plugin noop] [--draw randrange]
[--case house-wrap:4 ...] (default: the official variants and the two-player games)
`--instructions` counts instructions per decision instead (valgrind's callgrind, a run of
the games less a run of none, once per build, since counts repeat exactly where timings
swing by tens of percent on a shared machine); their ratio is what a quiet core would
show only roughly, as an instruction is not a fixed time.

Each decision is uniform over the legal actions, drawn as `legal[int(random() * len(legal))]`.
`--draw randrange` draws with `random.randrange` instead, as the engine issue's figures were
measured: a Python function, about 1,500 instructions a draw more (callgrind, a function
drawing from 40 actions: 3,100 against 1,600), the same in both builds, which narrows the
ratio without saying anything about either engine. The games run inside a function, as in
engine_speed.py: at module level every name would be looked up in a dict.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

CASES = [("two-player", 2), ("two-player-28", 2), ("official", 3), ("official", 4), ("official", 5)]
CHILD = """
import json, random, sys, time
from scoutlab.engine import native
from scoutlab.rules import Rules, load_rules
from scoutlab.spec.variant import load_spec_text

def play(rules, players, games, draw):
    # A function, as in engine_speed.py: module-level code would look up every name in a dict.
    decisions = 0
    for seed in range(games):
        state, rng = rules.new_game(players, seed), random.Random(seed)
        randrange, uniform, legal_actions, apply = rng.randrange, rng.random, state.legal_actions, state.apply
        if draw == "randrange":  # two loops, not a draw function: a call per decision would be timed too
            while not state.is_over:
                legal = legal_actions()
                apply(legal[randrange(len(legal))])
                decisions += 1
        else:
            while not state.is_over:
                legal = legal_actions()
                apply(legal[int(uniform() * len(legal))])
                decisions += 1
    return decisions

variant, players, games, plugin, draw = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
rules = Rules(load_spec_text(f"extends: {variant}\\nname: {variant}+{plugin}\\nplugins: [{plugin}]\\n")) if plugin else load_rules(variant)
start = time.process_time()
decisions = play(rules, players, games, draw)
print(json.dumps([decisions, time.process_time() - start, native.BUILD]))
"""


def run(path: str | None, variant: str, players: int, games: int, plugin: str, draw: str) -> tuple[int, float, str]:
    """(decisions, CPU seconds, build) of one child run."""
    out = subprocess.run([sys.executable, "-c", CHILD, variant, str(players), str(games), plugin, draw],
                         capture_output=True, text=True, env=child_env(path), check=True,
                         cwd=os.sep)  # not the checkout, whose compiled library would shadow the base build's
    return tuple(json.loads(out.stdout))


def child_env(path: str | None) -> dict[str, str]:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    if path:
        env["PYTHONPATH"] = path + os.pathsep + env.get("PYTHONPATH", "")
    return env


def counted(path: str | None, variant: str, players: int, games: int, plugin: str, draw: str) -> tuple[int, int]:
    """(instructions, decisions) of one child run under callgrind."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, "-c", CHILD, variant, str(players), str(games), plugin, draw]
    out = subprocess.run(command, capture_output=True, text=True, env=child_env(path), cwd=os.sep)
    collected = re.search(r"Collected : ([\d,]+)", out.stderr)
    if out.returncode or not collected:
        sys.exit(f"callgrind run failed:\n{out.stderr[-2000:]}")
    return int(collected[1].replace(",", "")), json.loads(out.stdout)[0]


def instructions_per_decision(path: str | None, variant: str, players: int, args: argparse.Namespace) -> float:
    start_up, _ = counted(path, variant, players, 0, args.plugin, args.draw)  # imports and rules, subtracted
    total, decisions = counted(path, variant, players, args.games, args.plugin, args.draw)
    return (total - start_up) / decisions


def parse_case(text: str, parser: argparse.ArgumentParser) -> tuple[str, int]:
    """`house-wrap:4` as ("house-wrap", 4); a malformed case stops with a one-line usage error."""
    variant, _, players = text.partition(":")
    if not variant or not players.isdigit():
        parser.error(f"--case {text!r}: expected VARIANT:PLAYERS, e.g. house-wrap:4")
    return variant, int(players)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="directory holding the other build's scoutlab package (A)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--plugin", default="", help="a plugin to add to each variant (noop: the hook cost)")
    parser.add_argument("--draw", choices=["random", "randrange"], default="random",
                        help="how the random player draws its move (randrange: as the engine issue measured)")
    parser.add_argument("--instructions", action="store_true", help="count instructions per decision (valgrind)")
    parser.add_argument("--case", action="append", metavar="VARIANT:PLAYERS",
                        help="a shipped variant and player count to play (repeatable; default: five official cases)")
    args = parser.parse_args()
    cases = [parse_case(text, parser) for text in args.case] if args.case else CASES
    if args.instructions:
        if not shutil.which("valgrind"):
            sys.exit("--instructions needs valgrind (apt-get install valgrind)")
        print(f"{'variant':<16}{'players':>8}{'A instr/decision':>18}{'B instr/decision':>18}{'A/B':>7}")
        for variant, players in cases:
            a, b = (instructions_per_decision(path, variant, players, args) for path in (args.base, None))
            print(f"{variant:<16}{players:>8}{a:>18,.0f}{b:>18,.0f}{a / b:>7.2f}", flush=True)
        return
    print(f"{'variant':<16}{'players':>8}{'A decisions/s':>15}{'B decisions/s':>15}{'A games/s':>11}{'B games/s':>11}{'B/A':>7}")
    for variant, players in cases:
        rates: dict[str, list[float]] = {"A": [], "B": []}
        builds: dict[str, str] = {}
        ratios, decisions = [], 0
        for _ in range(args.repeat):
            pair = {}
            for label, path in (("A", args.base), ("B", None)):
                decisions, seconds, builds[label] = run(path, variant, players, args.games, args.plugin, args.draw)
                pair[label] = decisions / seconds
                rates[label].append(pair[label])
            ratios.append(pair["B"] / pair["A"])
        a, b = statistics.median(rates["A"]), statistics.median(rates["B"])
        per_game = decisions / args.games
        print(f"{variant:<16}{players:>8}{a:>15,.0f}{b:>15,.0f}{a / per_game:>11,.0f}{b / per_game:>11,.0f}"
              f"{statistics.median(ratios):>7.2f}", flush=True)
    print(f"A: {builds['A']}; B: {builds['B']}")


if __name__ == "__main__":
    main()
