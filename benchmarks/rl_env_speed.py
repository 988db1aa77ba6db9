"""scoutlab.rl speed: environment steps per second under uniformly random masked play.

Every step builds the acting agent's observation and action mask, as a learner would ask
for them. Run: python benchmarks/rl_env_speed.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from scoutlab.rl import env

CASES = [("official", 3), ("official", 4), ("official", 5), ("two-player", 2), ("two-player-28", 2)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per case (default 20)")
    args = parser.parse_args()
    print(f"{'variant':<16}{'players':>8}{'steps/s':>10}{'games/s':>10}{'steps/game':>12}")
    for variant, players in CASES:
        game, rng, steps = env(variant, players), random.Random(0), 0
        start = time.perf_counter()
        for seed in range(args.games):
            game.reset(seed=seed)
            for _agent in game.agent_iter():
                obs, _, terminated, truncated, _ = game.last()
                live = not (terminated or truncated)
                game.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()) if live else None)
                steps += live
        seconds = time.perf_counter() - start
        print(f"{variant:<16}{players:>8}{steps / seconds:>10.0f}{args.games / seconds:>10.1f}{steps / args.games:>12.0f}")


if __name__ == "__main__":
    main()
