"""The strength ladder: each bot against the one below it, random < greedy < heuristic < skilled < mcts.

In games of n players one bot of the pairing plays against n - 1 of the lower bot, its seat
rotating with the game number; in 2-player games it plays the lower bot head to head,
alternating seats. A game's result for the bot is its share of the win (a k-way tie
counts 1/k). Results are appended to a JSON file after every batch of games, so a run
that is stopped keeps what it played, and the table can be printed again from the file.

    nice python benchmarks/ladder.py --games 2000 --processes 2 --out ladder.json
    nice python benchmarks/ladder.py --only mcts --games 2000 --budget 1800 --out ladder.json
    nice python benchmarks/ladder.py --only mcts --players 4 --resume --out ladder.json   # play on
    python benchmarks/ladder.py --table ladder.json more.json
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import sys
import time

LADDER = ["random", "greedy", "heuristic", "skilled", "mcts"]
FORMATS = [("official", 3), ("official", 4), ("official", 5), ("two-player", 2)]
BATCH = 10  # games per task handed to a worker


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval for a win rate (fractional wins from ties are allowed)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def play_batch(task: tuple[str, int, str, str, int, int]) -> tuple[float, int, int]:
    """Play games first..first+count-1 of one pairing; returns (win share, games, capped rounds)."""
    from scoutlab.match import make_bots, play_game
    from scoutlab.rules import load_rules

    variant, players, bot, lower, first, count = task
    rules = load_rules(variant)
    share, capped = 0.0, 0
    for game in range(first, first + count):
        seat = game % players
        names = [lower] * players
        names[seat] = bot
        state = play_game(rules, players, make_bots(names, rules, players, game), game)
        winners = state.winners()
        share += 1 / len(winners) if seat in winners else 0.0
        capped += sum(end.reason == "turn_cap" for end in state.round_ends)
    return share, count, capped


def run_pairing(pool, processes: int, variant: str, players: int, bot: str, lower: str, games: int,
                budget: float | None, seed: int, save=lambda row: None, earlier: dict | None = None) -> dict:
    """Play up to `games` games (no new ones once `budget` seconds are spent); `save` gets the row after each batch.

    With `earlier` (a saved row of the same pairing) the games go on from where it stopped.
    """
    started = time.time()
    share, played, capped = 0.0, 0, 0
    if earlier:
        share, played, capped = earlier["wins"], earlier["games"], earlier["capped_rounds"]
        started -= earlier["seconds"]
    tasks = [(variant, players, bot, lower, seed + first, min(BATCH, games - first))
             for first in range(played, games, BATCH)]
    pending = []
    queue = iter(tasks)

    def submit():
        task = next(queue, None)
        if task is not None and (budget is None or time.time() - started < budget):
            pending.append(pool.apply_async(play_batch, (task,)))

    for _ in range(2 * processes):
        submit()
    row = result_row(bot, lower, variant, players, 0.0, 0, 0, started)
    while pending:
        s, n, c = pending.pop(0).get()
        share, played, capped = share + s, played + n, capped + c
        submit()
        row = result_row(bot, lower, variant, players, share, played, capped, started)
        save(row)
        print(f"  {bot} vs {lower} {variant} {players}p: {played}/{games} games, "
              f"{share / played:.3f}, {time.time() - started:.0f}s", file=sys.stderr, flush=True)
    return row


def result_row(bot: str, lower: str, variant: str, players: int, share: float, played: int, capped: int,
               started: float) -> dict:
    low, high = wilson(share, played)
    return {
        "bot": bot, "lower": lower, "variant": variant, "players": players, "games": played,
        "wins": share, "rate": share / played if played else 0.0, "low": low, "high": high,
        "even": 1 / players, "capped_rounds": capped, "seconds": round(time.time() - started, 1),
    }


def table(rows: list[dict]) -> str:
    """The ladder as a Markdown table."""
    lines = [
        "| bot | against | variant | players | games | win rate | 95% Wilson interval | even share |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        field = f"{r['players'] - 1} x " if r["players"] > 2 else ""  # one bot against n - 1 of the other
        lines.append(
            f"| {r['bot']} | {field}{r['lower']} | {r['variant']} | {r['players']} | "
            f"{r['games']} | {r['rate']:.1%} | {r['low']:.1%} - {r['high']:.1%} | {r['even']:.0%} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per pairing and format (default 2000)")
    parser.add_argument("--only", choices=LADDER[1:], action="append", help="only the pairing(s) with this bot on top")
    parser.add_argument("--pair", nargs=2, metavar=("BOT", "LOWER"), action="append",
                        help="play this pairing instead of the ladder's (repeatable), e.g. --pair skilled mcts")
    parser.add_argument("--players", type=int, help="only the games of this size")
    parser.add_argument("--format", action="append", metavar="VARIANT:N", dest="formats",
                        help="play this variant at N players instead of official:3, :4, :5 and two-player:2 (repeatable)")
    parser.add_argument("--resume", action="store_true", help="go on from the games already in --out")
    parser.add_argument("--mcts", default="mcts", help="the search bot with its options (default: mcts)")
    parser.add_argument("--budget", type=float, help="seconds per pairing and format; stop starting games after it")
    parser.add_argument("--processes", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument("--out", help="JSON file the results are appended to")
    parser.add_argument("--table", metavar="JSON", nargs="+", help="print the table from results files and exit")
    args = parser.parse_args(argv)
    if args.table:
        rows = []
        for path in args.table:
            with open(path) as f:
                rows += json.load(f)
        print(table(rows))
        return 0
    rows: list[dict] = []
    if args.out and os.path.exists(args.out):
        with open(args.out) as f:
            rows = json.load(f)
    names = dict(zip(LADDER, LADDER))
    names["mcts"] = args.mcts
    def save(row: dict) -> None:
        nonlocal rows
        same = (row["bot"], row["lower"], row["variant"], row["players"])
        rows = [r for r in rows if (r["bot"], r["lower"], r["variant"], r["players"]) != same] + [row]
        if args.out:
            with open(args.out, "w") as f:
                f.write(json.dumps(rows, indent=1) + "\n")  # a text file: its last line ends

    formats = [(f.rpartition(":")[0], int(f.rpartition(":")[2])) for f in args.formats] if args.formats else FORMATS
    pairs = [tuple(p) for p in args.pair] if args.pair else list(zip(LADDER[1:], LADDER))
    names.update({name: name for pair in pairs for name in pair if name not in names})
    with multiprocessing.Pool(args.processes) as pool:
        for upper, lower in pairs:
            if args.only and upper not in args.only:
                continue
            for variant, players in formats:
                if args.players and players != args.players:
                    continue
                earlier = next((r for r in rows if (r["bot"], r["lower"], r["variant"], r["players"]) ==
                                (names[upper], names[lower], variant, players)), None) if args.resume else None
                row = run_pairing(pool, args.processes, variant, players, names[upper], names[lower], args.games,
                                  args.budget, args.seed, save, earlier)
                print(table([row]).splitlines()[-1], flush=True)
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
