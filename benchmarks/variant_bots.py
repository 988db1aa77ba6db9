"""Does reading the variant pay? The skilled bot as it plays a variant against the official game's weights.

For each variant and player count: the skilled bot as compare and the browser play it (its
weights tuned for the variant where `scoutlab tune` fitted them, else the default weights
read in the variant's points) in one seat, rotating, against `skilled:weights=official` in
the others, on game seeds no tuning played (run seed 777 unless --seed). Its win share
(ties split) with the 95% Wilson interval, beside the even share, and how its weights fit.
With --start, the tuning's start (the default weights read in the variant's points) plays
the same games too, and the bot's gain over it is read game by game, as `scoutlab tune`'s
check reads it: does a tuning's gain hold on new deals? With --bot, another bot takes the seat,
e.g. the skilled bot with a card's worth split otherwise between points and tempo.

    python benchmarks/variant_bots.py --games 2000 official:4 house-no-exemption:4 two-player-28:2
    SCOUTLAB_CACHE_DIR=/tmp/tunecache python benchmarks/variant_bots.py capture-two.yaml:4
    python benchmarks/variant_bots.py --start --seed 555 house-runs-first:3
    python benchmarks/variant_bots.py --bot skilled:card=0.6665,tempo=-0.3628 hand-triple.yaml:4
"""

from __future__ import annotations

import argparse
import json
import sys

from scoutlab.bots import skilled
from scoutlab.rules import load_rules
from scoutlab.sim.backends import available_cores, make_backend
from scoutlab.sim.stats import wilson
from scoutlab.sim.tune import bot_name, paired_gain, run_outcomes, start_weights


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("formats", nargs="+", metavar="VARIANT:N")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=777)
    parser.add_argument("--workers", type=int, default=available_cores())
    parser.add_argument("--start", action="store_true", help="also play the tuning's start; its gain game by game")
    parser.add_argument("--bot", default="skilled", help="the bot in the rotating seat (default: skilled, as compare "
                        "plays it)")
    args = parser.parse_args(argv)
    backend = make_backend("pool", args.workers)
    extra = (" start | gain over the start |", "---|---|") if args.start else ("", "")
    print(f"| variant | players | weights | skilled against official weights | 95% interval | even share |{extra[0]}")
    print(f"|---|---|---|---|---|---|{extra[1]}")
    try:
        for text in args.formats:
            name, _, count = text.rpartition(":")
            rules, players = load_rules(name), int(count)
            doc = json.dumps(rules.spec.doc)
            bots = [args.bot, bot_name(start_weights(rules, players))] if args.start else [args.bot]
            played, *start = run_outcomes(backend, doc, players, bots, args.seed, args.games)
            wins = sum(played)
            low, high = wilson(wins, args.games)
            weights = skilled.tuning(rules, players) if args.bot == "skilled" else f"`{args.bot}`"
            row = (f"| {rules.name} | {players} | {weights} | {100 * wins / args.games:.1f}% "
                   f"of {args.games:,} | [{100 * low:.1f}, {100 * high:.1f}] | {100 / players:.0f}% |")
            if start:
                gain, error = paired_gain(played, start[0])
                row += f" {100 * sum(start[0]) / args.games:.1f}% | {100 * gain:+.1f} points (standard error {100 * error:.1f}) |"
            print(row, flush=True)
    finally:
        backend.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
