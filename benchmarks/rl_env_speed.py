"""scoutlab.rl speed: PettingZoo environment steps and batched self-play steps per CPU-second, random masked play.

Every environment step builds the acting agent's observation and action mask, as a
learner would ask for them (`last()`, then `step`). The batched games (`scoutlab.rl.Games`)
refresh every game's observation and mask row after each step. The engine alone (random
legal actions, no observation) is timed alongside, interleaved, so the ratios hold on a
shared machine. Run: python benchmarks/rl_env_speed.py [--games N] [--batch B] [--repeat R]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from scoutlab.rl import Games, env
from scoutlab.rules import load_rules

CASES = [("official", 4), ("official", 3), ("official", 5), ("two-player", 2), ("two-player-28", 2)]


def env_steps(variant: str, players: int, games: int) -> tuple[int, float]:
    game, rng, steps = env(variant, players), random.Random(0), 0
    start = time.process_time()
    for seed in range(games):
        game.reset(seed=seed)
        for _agent in game.agent_iter():
            obs, _, terminated, truncated, _ = game.last()
            live = not (terminated or truncated)
            game.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()) if live else None)
            steps += live
    return steps, time.process_time() - start


def batch_steps(variant: str, players: int, batch: int, steps: int) -> tuple[int, float]:
    games, rng = Games(variant, players, count=batch, seed=0), np.random.default_rng(0)
    start = time.process_time()
    for _ in range(steps):
        # A random masked choice per row: the arg-max of random numbers where the mask allows.
        games.step(np.argmax(games.masks * rng.random(games.masks.shape, dtype=np.float32), axis=1))
    return steps * batch, time.process_time() - start


def engine_steps(variant: str, players: int, games: int) -> tuple[int, float]:
    rules, decisions = load_rules(variant), 0
    start = time.process_time()
    for seed in range(games):
        state, rng = rules.new_game(players, seed), random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="environment games per case (default 20)")
    parser.add_argument("--batch", type=int, default=64, help="games stepped at once (default 64)")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved runs, median taken (default 3)")
    args = parser.parse_args()
    print(f"{'variant':<16}{'players':>8}{'env steps/s':>13}{'batched steps/s':>17}{'engine decisions/s':>20}"
          f"{'env/engine':>12}{'batch/env':>11}")
    for variant, players in CASES:
        rates: dict[str, list[float]] = {"env": [], "batch": [], "engine": []}
        for _ in range(args.repeat):  # A B C A B C: each side sees the same drift
            runs = (
                ("env", env_steps, (variant, players, args.games)),
                ("batch", batch_steps, (variant, players, args.batch, 200)),
                ("engine", engine_steps, (variant, players, args.games)),
            )
            for label, run, run_args in runs:
                count, seconds = run(*run_args)
                rates[label].append(count / seconds)
        e, b, g = (float(np.median(rates[k])) for k in ("env", "batch", "engine"))
        print(f"{variant:<16}{players:>8}{e:>13,.0f}{b:>17,.0f}{g:>20,.0f}{e / g:>12.2f}{b / e:>11.2f}")


if __name__ == "__main__":
    main()
