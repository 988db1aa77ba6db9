"""Engine speed: random-legal play on one core, each decision uniform over the full legal-action list.

Prints decisions per second and full games per second for 2 to 5 players, with the
built-in rules alone and with the do-nothing `noop` plugin registered (the cost of hook
dispatch). Run: python benchmarks/engine_speed.py [--games N] [--repeat R]
It says which build of the hot loop ran; SCOUTLAB_PURE=1 measures the pure-Python source.
"""

from __future__ import annotations

import argparse
import random
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per case (default 300)")
    parser.add_argument("--repeat", type=int, default=3, help="best of R runs (default 3)")
    parser.add_argument("--no-plugin", action="store_true", help="skip the do-nothing plugin runs")
    args = parser.parse_args()
    print(f"hot loop (scoutlab.legal): {native.BUILD}")
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
