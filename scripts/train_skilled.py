"""Train the skilled bot's default weights for one player count: `scoutlab tune` on the game they are for.

The default weights (core/scoutlab/bots/skilled_weights.json, one set per player count) are what
the skilled bot plays wherever no tuning fits the variant better: the official game
at 3-5 players, the official two-player game at 2. This fits them the way `scoutlab tune`
fits a house rule's (CMA-ES against the current defaults, then a check on new games;
scoutlab.sim.tune) and writes the result into the weights file under that count, with
how it was trained and what it won. Run again, it starts from and plays against the
weights it wrote last, so each run is one more step of self-play.

    python scripts/train_skilled.py --players 5
    python scripts/train_skilled.py --players 2
    python scripts/train_skilled.py --players 5 --against network --against skilled:weights=official   # a mix
    python scripts/train_skilled.py --players 3 --generations 1 --games 4 --check-games 4 --out /tmp/w.json   # CI

On this shared 2-core machine one count took 2-4 minutes with the defaults (110 s at 4 players,
217 s at 5, 37 s at 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from scoutlab.bots import skilled
from scoutlab.rules import load_rules
from scoutlab.sim.tune import OPPONENT, budget_for, tune


def save(path: Path, players: int, weights: dict[str, float], trained_by: str) -> None:
    """Write `weights` as the count's default weights into the weights file at `path` (the other counts kept)."""
    document = json.loads(path.read_text()) if path.exists() else dict(skilled.WEIGHTS)
    kept = {key: value for key, value in document["counts"].get(str(players), {}).items() if key in skilled.UNTUNED}
    document["counts"][str(players)] = {**weights, **kept}  # what a tuning does not fit stays as it was
    document["trained_by"][str(players)] = trained_by
    path.write_text(json.dumps(document, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, required=True, choices=[2, 3, 4, 5])
    parser.add_argument("--generations", type=int)
    parser.add_argument("--games", type=int, help="games per candidate per generation")
    parser.add_argument("--check-games", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int)
    parser.add_argument("--against", action="append", metavar="BOT",
                        help="play the candidates against this bot (repeatable: in turn; default skilled:weights=official)")
    parser.add_argument("--out", type=Path, default=Path(skilled.__file__).with_name(skilled.WEIGHTS_FILE),
                        help="weights file to write (default: the package's)")
    args = parser.parse_args(argv)
    budget = budget_for(False, args.generations, args.games, args.check_games)
    rules = load_rules(skilled.reference_variant(args.players))
    kept = tune(rules, args.players, budget, seed=args.seed, workers=args.workers,
                report=lambda line: print(line, file=sys.stderr, flush=True), opponents=args.against or (OPPONENT,))
    command = "python scripts/train_skilled.py " + " ".join(argv if argv is not None else sys.argv[1:])
    save(args.out, args.players, kept.weights, f"{command}: {kept.method}; {kept.result}")
    print(f"{rules.name}, {args.players} players: {kept.result}")
    print(f"wrote the {args.players}-player weights to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
