"""Train the skilled bot's weights by self-play: a coordinate search, deterministic from a seed.

Each step changes one weight up or down by its step size and plays the changed bot in one
seat against copies of the current best in the others (seats rotating, the same game
seeds for every trial, so trials differ only by the weights). A change is kept when its
win share beats the even share by `--margin`; a sweep that keeps none halves the steps.
The best weights are written into the package's weights file, under the family of the
player count trained (`scoutlab.bots.skilled.family`).

    python scripts/train_skilled.py --variant official --players 4 --games 3000 --sweeps 3
    python scripts/train_skilled.py --variant two-player --players 2 --games 3000 --sweeps 3
    python scripts/train_skilled.py --games 8 --sweeps 1 --only capture --out /tmp/w.json   # seconds: CI's check

On this 2-core machine one trial of 3,000 four-player games takes about 30-60 s, a sweep
of the eight weights 8-16 minutes, so a full run of three sweeps per family is 1-2 hours.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
from pathlib import Path

from scoutlab.bots import skilled
from scoutlab.match import make_bots, play_game
from scoutlab.rules import load_rules

TUNED = ["structure", "set_bonus", "capture", "scout", "scout_show", "empty", "shown", "urgency"]
STEPS = {"structure": 0.05}  # the other weights move by 0.5 a step
BATCH = 25  # games per task handed to a worker


def bot_name(weights: dict[str, float]) -> str:
    return "skilled:" + ",".join(f"{key}={value}" for key, value in weights.items())


def play_batch(task: tuple[str, int, str, str, int, int]) -> float:
    """Win share of `bot` in games first..first+count-1, one seat each, against copies of `other`."""
    variant, players, bot, other, first, count = task
    rules = load_rules(variant)
    share = 0.0
    for game in range(first, first + count):
        seat = game % players
        names = [other] * players
        names[seat] = bot
        winners = play_game(rules, players, make_bots(names, rules, players, game), game).winners()
        share += 1 / len(winners) if seat in winners else 0.0
    return share


def trial(pool, args, weights: dict[str, float], best: dict[str, float], seed: int) -> float:
    """The share of games `weights` wins in one seat against `best` in the others."""
    tasks = [(args.variant, args.players, bot_name(weights), bot_name(best), seed + first, min(BATCH, args.games - first))
             for first in range(0, args.games, BATCH)]
    return sum(pool.map(play_batch, tasks)) / args.games


def train(args) -> dict[str, float]:
    fam = skilled.family(args.players)
    best = {key: float(skilled.WEIGHTS["families"][fam][key]) for key in TUNED}
    steps = {key: STEPS.get(key, 0.5) for key in args.only or TUNED}
    even = 1 / args.players
    with multiprocessing.Pool(args.processes) as pool:
        for sweep in range(args.sweeps):
            seed = args.seed + sweep * 100_000  # new games each sweep, the same within one
            kept = False
            for key, step in steps.items():
                for sign in (1, -1):
                    trying = dict(best, **{key: round(best[key] + sign * step, 4)})
                    share = trial(pool, args, trying, best, seed)
                    print(f"sweep {sweep + 1}: {key}={trying[key]} wins {share:.3f} (even {even:.3f})", flush=True)
                    if share > even + args.margin:
                        best, kept = trying, True
                        break
            if not kept:
                steps = {key: step / 2 for key, step in steps.items()}
            print(f"after sweep {sweep + 1}: {json.dumps(best)}", flush=True)
    return best


def save(path: Path, players: int, weights: dict[str, float], command: str) -> None:
    """Write `weights` as the family's weights into the weights file at `path` (the others kept)."""
    document = json.loads(path.read_text()) if path.exists() else {"format": 1, "families": {}}
    fam = skilled.family(players)
    document["families"][fam] = {**skilled.WEIGHTS["families"][fam], **document["families"].get(fam, {}), **weights}
    document.setdefault("trained_by", {})[fam] = command
    path.write_text(json.dumps(document, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="official")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3000, help="games per trial (default 3000)")
    parser.add_argument("--sweeps", type=int, default=3)
    parser.add_argument("--margin", type=float, default=0.012, help="win share above even that keeps a change")
    parser.add_argument("--only", nargs="+", choices=TUNED, help="tune only these weights")
    parser.add_argument("--seed", type=int, default=500_000, help="first game seed")
    parser.add_argument("--processes", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--out", type=Path, default=Path(skilled.__file__).with_name(skilled.WEIGHTS_FILE),
                        help="weights file to write (default: the package's)")
    args = parser.parse_args(argv)
    if args.players not in load_rules(args.variant).players:
        parser.error(f"{args.variant} is not played by {args.players} players")
    if args.games < 1 or args.sweeps < 1:
        parser.error("--games and --sweeps must be at least 1")
    best = train(args)
    command = "python scripts/train_skilled.py " + " ".join(argv if argv is not None else sys.argv[1:])
    save(args.out, args.players, best, command)
    print(f"wrote the {skilled.family(args.players)} weights to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
