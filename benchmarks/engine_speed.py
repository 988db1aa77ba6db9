"""Engine speed: random-legal play on one core, each decision uniform over the full legal-action list.

Prints decisions per second and full games per second for 2 to 5 players, with the
built-in rules alone and with the do-nothing `noop` plugin registered (the cost of hook
dispatch). Run: python benchmarks/engine_speed.py [--games N] [--repeat R]
It says which build of the hot loop ran; SCOUTLAB_PURE=1 measures the pure-Python source.

`--builds` compares the compiled build with the pure-Python source side by side instead:
each run is a child process (the build is chosen at import), the two builds alternate
(compiled, pure, compiled, pure, ...), each child times its own games in CPU seconds, and
the ratio printed is the median of the R paired ratios, so drift of a shared machine falls
on both builds alike. `--hooks` measures the do-nothing plugin's cost the same way: each
variant alone and with `noop`, alternating child processes, CPU seconds, the median of the
paired ratios (the default mode's wall-clock best-of runs scatter by tens of percent here).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

import yaml

from scoutlab.engine import native
from scoutlab.rules import Rules, load_rules
from scoutlab.spec.variant import load_spec_text

CASES = [("two-player", 2), ("two-player-28", 2), ("official", 3), ("official", 4), ("official", 5)]


def with_noop(variant: str) -> Rules:
    """The variant with the do-nothing plugin added: every hook implemented, none answering."""
    return Rules(load_spec_text(yaml.safe_dump({"extends": variant, "name": f"{variant}+noop", "plugins": ["noop"]})))


def play(rules: Rules, players: int, games: int) -> tuple[int, float]:
    """Play `games` random games; return (decisions, seconds)."""
    decisions = 0
    start = time.perf_counter()
    for seed in range(games):
        state = rules.new_game(players, seed)
        rng = random.Random(seed)
        randrange, legal_actions, apply = rng.randrange, state.legal_actions, state.apply
        while not state.is_over:
            legal = legal_actions()
            apply(legal[randrange(len(legal))])
            decisions += 1
    return decisions, time.perf_counter() - start


def child_rate(variant: str, players: int, games: int, env: dict[str, str], plugin: str = "") -> tuple[float, str]:
    """(decisions per CPU-second, build) of one run in a fresh child process."""
    command = [sys.executable, __file__, "--child", variant, str(players), str(games), plugin]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    return result["decisions"] / result["cpu"], result["build"]


def compare_builds(games: int, repeat: int) -> None:
    """Compiled against pure Python, interleaved A B A B in child processes, per CPU-second."""
    base_env = {k: v for k, v in os.environ.items() if k != "SCOUTLAB_PURE"}
    builds = {"compiled": base_env, "pure": {**base_env, "SCOUTLAB_PURE": "1"}}
    print(f"compiled vs pure-Python hot loop, {games} games per run, {repeat} interleaved pairs, per CPU-second")
    print(f"{'variant':<16}{'players':>8}{'compiled dec/s':>16}{'pure dec/s':>12}{'ratio (median)':>16}{'range':>16}")
    for variant, players in CASES:
        rates: dict[str, list[float]] = {name: [] for name in builds}
        for _ in range(repeat):
            for name, env in builds.items():
                rate, build = child_rate(variant, players, games, env)
                expected = "compiled with mypyc" if name == "compiled" else "pure Python (SCOUTLAB_PURE is set)"
                if build != expected:
                    sys.exit(f"the {name} run used {build!r}: install the compiled build first (./setup.sh)")
                rates[name].append(rate)
        ratios = [c / p for c, p in zip(rates["compiled"], rates["pure"])]
        print(
            f"{variant:<16}{players:>8}{statistics.median(rates['compiled']):>16,.0f}{statistics.median(rates['pure']):>12,.0f}"
            f"{statistics.median(ratios):>15.2f}x{min(ratios):>9.2f}-{max(ratios):.2f}x"
        )


def compare_hooks(games: int, repeat: int) -> None:
    """The hook cost in time: each variant alone and with the do-nothing plugin, interleaved in child processes,
    per CPU-second, the median of the paired ratios (wall-clock best-of runs scatter too far on a shared machine)."""
    env = dict(os.environ)
    print(f"hook cost: without and with the noop plugin, {games} games per run, {repeat} interleaved pairs, per CPU-second")
    print(f"{'variant':<16}{'players':>8}{'plain dec/s':>13}{'noop dec/s':>12}{'extra time (median)':>21}{'range':>18}")
    for variant, players in CASES:
        plain, noop = [], []
        for _ in range(repeat):
            plain.append(child_rate(variant, players, games, env)[0])
            noop.append(child_rate(variant, players, games, env, "noop")[0])
        extra = [a / b - 1 for a, b in zip(plain, noop)]  # time per decision with the plugin, over without, less 1
        print(f"{variant:<16}{players:>8}{statistics.median(plain):>13,.0f}{statistics.median(noop):>12,.0f}"
              f"{statistics.median(extra):>20.1%}{min(extra):>9.1%} to {max(extra):.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per case (default 300)")
    parser.add_argument("--repeat", type=int, default=3, help="best of R runs (default 3)")
    parser.add_argument("--no-plugin", action="store_true", help="skip the do-nothing plugin runs")
    parser.add_argument("--builds", action="store_true", help="compiled against pure Python, interleaved, per CPU-second")
    parser.add_argument("--hooks", action="store_true", help="the noop plugin's cost in time, interleaved, per CPU-second")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        variant, players, games, plugin = args.child[0], int(args.child[1]), int(args.child[2]), args.child[3]
        rules = with_noop(variant) if plugin == "noop" else load_rules(variant)
        play(rules, players, 3)  # warm up: caches and the first allocations, as in the main runs
        cpu = time.process_time()
        decisions, _ = play(rules, players, games)
        print(json.dumps({"decisions": decisions, "cpu": time.process_time() - cpu, "build": native.BUILD}))
        return
    if args.builds:
        compare_builds(args.games, args.repeat)
        return
    if args.hooks:
        compare_hooks(args.games, args.repeat)
        return
    print(f"hot loop (scoutlab.engine.legal): {native.BUILD}")
    print(f"{'variant':<16}{'players':>8}{'plugin':>8}{'decisions/s':>14}{'games/s':>10}{'decisions/game':>16}")
    for variant, players in CASES:
        setups = [("-", load_rules(variant))]
        if not args.no_plugin:
            setups.append(("noop", with_noop(variant)))
        # Interleaved, best of R each: the machine's speed drifts, and both sides should see the same drift.
        best: dict[str, tuple[int, float]] = {}
        for _ in range(args.repeat):
            for label, rules in setups:
                decisions, seconds = play(rules, players, args.games)
                if label not in best or seconds < best[label][1]:
                    best[label] = (decisions, seconds)
        base = None
        for label, _ in setups:
            decisions, seconds = best[label]
            rate = decisions / seconds
            extra = "" if base is None else f"   (+{(base / rate - 1) * 100:.1f}% time per decision)"
            base = base or rate
            print(
                f"{variant:<16}{players:>8}{label:>8}{rate:>14,.0f}{args.games / seconds:>10,.1f}"
                f"{decisions / args.games:>16.0f}{extra}"
            )


if __name__ == "__main__":
    main()
