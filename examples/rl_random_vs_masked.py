"""Two policies on the PettingZoo environment (scoutlab.rl), playing each other for a few games.

- random: uniform over the legal actions, read from the action mask.
- masked greedy: also reads only the observation and the mask, and decodes the action
  layout of docs/rl.md: keep the hand, show as many cards as it can (a Scout & Show
  scout when that leads to a longer show than a plain show), else scout at random.

Seats alternate between the policies from game to game. Prints one line per game and,
per policy, the shared wins and the mean final score.

    python examples/rl_random_vs_masked.py [--variant official] [--players 4] [--games 6] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict

import numpy as np

from scoutlab.rl import Encoding, env


def random_policy(obs: dict, encoding: Encoding, rng: random.Random) -> int:
    return rng.choice(np.flatnonzero(obs["action_mask"]).tolist())


def show_length(action: int, encoding: Encoding) -> int:
    """Cards shown by a show action (actions 2 .. 2 + N*N - 1 are start * N + length - 1), else 0."""
    if 2 <= action < 2 + encoding.width * encoding.width:
        return (action - 2) % encoding.width + 1
    return 0


def masked_greedy_policy(obs: dict, encoding: Encoding, rng: random.Random) -> int:
    legal = np.flatnonzero(obs["action_mask"]).tolist()
    if 0 in legal:
        return 0  # keep the hand as dealt
    shows = [a for a in legal if show_length(a, encoding)]
    if shows:
        return max(shows, key=lambda a: (show_length(a, encoding), -a))
    scout_and_shows = [a for a in legal if encoding.sns_scouts <= a < encoding.none]
    return rng.choice(scout_and_shows or legal)


POLICIES = {"random": random_policy, "masked greedy": masked_greedy_policy}


def play(variant: str, players: int, games: int, seed: int) -> dict[str, list[float]]:
    """Play the games; return per policy its (shared) wins and final scores."""
    results: dict[str, list[float]] = defaultdict(list)
    wins: dict[str, float] = defaultdict(float)
    game = env(variant, players)
    encoding = game.unwrapped.encoding
    rng = random.Random(seed)
    names = list(POLICIES)
    for number in range(games):
        seats = [names[(seat + number) % 2] for seat in range(players)]
        game.reset(seed=seed + number)
        for agent in game.agent_iter():
            obs, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            policy = POLICIES[seats[int(agent.split("_")[1])]]
            game.step(policy(obs, encoding, rng))
        state = game.unwrapped.game
        winners = state.winners()
        for seat, name in enumerate(seats):
            results[name].append(state.totals[seat])
            if seat in winners:
                wins[name] += 1 / len(winners)
        line = "  ".join(f"P{s + 1} {name} {state.totals[s]:+d}" for s, name in enumerate(seats))
        print(f"game {number + 1}: {line}  winners {', '.join(f'P{w + 1}' for w in winners)}")
    return {name: [wins[name], float(np.mean(results[name]))] for name in names}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="official")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    summary = play(args.variant, args.players, args.games, args.seed)
    for name, (won, mean) in summary.items():
        print(f"{name:>13}: {won:g} wins of {args.games}, mean final score {mean:+.1f}")


if __name__ == "__main__":
    main()
