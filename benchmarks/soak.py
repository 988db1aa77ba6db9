"""Soak test of the shipped bots: do they ever play a round to the turn cap?

docs/rules.md §4: the cap must never trigger in ordinary play by sensible bots, and one capped
round outweighs a whole normal game. This plays many games of every shipped variant and
player count for each lineup of bots and counts the rounds that ended by the turn cap,
with a 95% Wilson interval on the rate. It is a benchmark, not a timed test: the default
(10,000 games a row) takes hours; pass --games for a quicker look.

    python benchmarks/soak.py                                 # every row, 10,000 games each
    python benchmarks/soak.py --games 200 --workers 2         # a quicker look
    python benchmarks/soak.py --variants official --players 4 --lineups heuristic
    python benchmarks/soak.py --lineup "mine=mybot,heuristic"  # add a lineup of your own
    python benchmarks/soak.py --out soak.json --resume        # keep each row as it plays; rerun to go on where it stopped
    python benchmarks/soak.py --table soak.json other.json    # the rows of earlier runs, and their total

A lineup is a list of bots seated in turn (seat i plays bot (i + game) mod len), so in a
row every bot sits in every seat. Each capped round is printed with the command that
replays its game. Exit status 1 if any round hit the cap.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

LINEUPS = {
    "skilled": ["skilled"],
    "heuristic": ["heuristic"],
    "greedy": ["greedy"],
    "heuristic+greedy": ["heuristic", "greedy"],
    "skilled+heuristic+greedy": ["skilled", "heuristic", "greedy"],
    # the search bot at a small budget among the others: a soak checks loops, not strength
    "mcts+heuristic": ["mcts:iterations=20", "heuristic"],
    "mcts+greedy": ["mcts:iterations=20", "greedy"],
    "mcts+skilled": ["mcts:iterations=20", "skilled"],
}


def seating(lineup: list[str], players: int, game: int) -> list[str]:
    """The bot of each seat in this game: the lineup in turn, shifted by one seat per game."""
    return [lineup[(seat + game) % len(lineup)] for seat in range(players)]


_RULES: dict = {}  # a worker's rules objects, by variant


def play_block(task: tuple[str, int, list[str], int, int]) -> dict:
    """Play games [first, first + count) of one row; returns the counts and the capped games."""
    from scoutlab.engine.state import TURN_CAP
    from scoutlab.match import make_bots, play_game
    from scoutlab.rules import load_rules

    variant, players, lineup, first, count = task
    if variant not in _RULES:  # one per process: what the bots and the plugins' shows learn is kept across blocks
        _RULES[variant] = load_rules(variant)
    rules = _RULES[variant]
    rounds = capped = longest = decisions = 0
    capped_games: list[tuple[int, list[str]]] = []
    started = time.process_time()
    for game in range(first, first + count):
        names = seating(lineup, players, game)
        state = play_game(rules, players, make_bots(names, rules, players, game), game)
        rounds += len(state.round_ends)
        caps = sum(end.reason == TURN_CAP for end in state.round_ends)
        if caps:
            capped += caps
            capped_games.append((game, names))
        longest = max([longest] + [end.turns for end in state.round_ends])
        decisions += len(state.history)
    return {"games": count, "rounds": rounds, "capped": capped, "longest": longest, "decisions": decisions,
            "cpu": time.process_time() - started, "capped_games": capped_games}


def add_block(total: dict, part: dict) -> dict:
    """Two parts of one row, added up."""
    total = dict(total)
    for key in ("games", "rounds", "capped", "decisions", "cpu"):
        total[key] += part[key]
    total["longest"] = max(total["longest"], part["longest"])
    total["capped_games"] = total["capped_games"] + part["capped_games"]
    return total


def soak_row(variant: str, players: int, lineup: list[str], games: int, pool: ProcessPoolExecutor | None,
             block: int, start: dict | None = None, keep=lambda row: None) -> dict:
    """Games [played, games) of one row, in blocks (over the pool's workers if there is one), added to `start`.

    `keep` is called with the row so far after each block, in game order, so a stopped run loses one block."""
    total = start or {"games": 0, "rounds": 0, "capped": 0, "longest": 0, "decisions": 0, "cpu": 0.0,
                      "capped_games": []}
    tasks = [(variant, players, lineup, first, min(block, games - first))
             for first in range(total["games"], games, block)]
    for part in (pool.map(play_block, tasks) if pool else map(play_block, tasks)):
        total = add_block(total, part)
        keep(total)
    return total


def replay_command(variant: str, players: int, names: list[str], game: int) -> str:
    return f"scoutlab game --variant {variant} --players {players} --bots '{','.join(names)}' --seed {game}"


def parse_lineups(chosen: list[str] | None, extra: list[str]) -> dict[str, list[str]]:
    lineups = {name: LINEUPS[name] for name in (chosen or LINEUPS)}
    for text in extra:
        name, eq, bots = text.partition("=")
        if not eq or not name or not bots:
            raise SystemExit(f"--lineup {text!r}: write NAME=BOT,BOT,... (e.g. mine=mybot,heuristic)")
        from scoutlab.bots import split_bots

        lineups[name] = split_bots(bots)
    return lineups


def row_line(row: dict, wide: int) -> str:
    """One row of the printed table."""
    from scoutlab.sim.stats import wilson

    low, high = wilson(row["capped"], row["rounds"])
    rate = f"{row['capped'] / row['rounds']:.3%} [{low:.3%}, {high:.3%}]"
    return (f"{row['variant']:<20}{row['players']:>8}  {row['lineup']:<{wide}}{row['games']:>8,}{row['rounds']:>9,}"
            f"{row['capped']:>8}  {rate:<24}{row['longest']:>8}{row['decisions'] / max(row['cpu'], 1e-9):>11,.0f}")


def header(wide: int) -> str:
    return (f"{'variant':<20}{'players':>8}  {'lineup':<{wide}}{'games':>8}{'rounds':>9}{'capped':>8}  "
            f"{'rate [95% interval]':<24}{'longest':>8}{'dec/CPU-s':>11}")


def summary(rows: list[dict]) -> str:
    """The total over the rows, and every capped round with the command that replays its game."""
    from scoutlab.sim.stats import wilson

    capped, rounds = sum(r["capped"] for r in rows), sum(r["rounds"] for r in rows)
    low, high = wilson(capped, rounds)
    lines = [f"\n{capped} of {rounds:,} rounds ended by the turn cap. With 95% confidence the rate in "
             f"these rows is at most {high:.3%}" + (f" and at least {low:.3%}." if capped else ".")]
    lines += [f"  capped: {replay_command(r['variant'], r['players'], names, game)}"
              for r in rows for game, names in r["capped_games"]]
    return "\n".join(lines)


def load_rows(paths: list[str]) -> list[dict]:
    rows: list[dict] = []
    for path in paths:
        with open(path) as f:
            rows += json.load(f)
    return rows


def main(argv: list[str] | None = None) -> int:
    from scoutlab.rules import load_rules
    from scoutlab.spec.variant import shipped_variants

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per variant, player count and lineup")
    parser.add_argument("--variants", nargs="+", help="shipped variants to play (default: all)")
    parser.add_argument("--players", type=int, nargs="+", help="player counts (default: all each variant allows)")
    parser.add_argument("--lineups", nargs="+", choices=sorted(LINEUPS), help="built-in lineups (default: all)")
    parser.add_argument("--lineup", action="append", default=[], metavar="NAME=BOTS", help="an extra lineup")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1: the machine may be shared)")
    parser.add_argument("--block", type=int, default=50, help="games per task handed to a worker")
    parser.add_argument("--out", help="JSON file each finished row is kept in")
    parser.add_argument("--resume", action="store_true", help="continue from the games --out already holds for each row")
    parser.add_argument("--table", metavar="JSON", nargs="+", help="print the rows of results files and exit")
    args = parser.parse_args(argv)
    if args.table:
        rows = load_rows(args.table)
        wide = max([len(r["lineup"]) for r in rows] + [6]) + 2
        print("\n".join([header(wide)] + [row_line(r, wide) for r in rows]))
        print(summary(rows))
        return 1 if any(r["capped"] for r in rows) else 0
    if args.games < 1 or args.workers < 1 or args.block < 1:
        parser.error("--games, --workers and --block must be at least 1")
    shipped = [name for name, _ in shipped_variants()]
    unknown = sorted(set(args.variants or []) - set(shipped))
    if unknown:
        parser.error(f"not shipped: {', '.join(unknown)} (shipped: {', '.join(shipped)})")
    lineups = parse_lineups(args.lineups, args.lineup)
    kept = load_rows([args.out]) if args.out and os.path.exists(args.out) else []
    cells = [
        (variant, n) for variant in (args.variants or shipped) for n in load_rules(variant).players
        if not args.players or n in args.players
    ]
    print(f"{args.games:,} games per row; turn-cap rounds with a 95% Wilson interval on their rate")
    wide = max(map(len, lineups)) + 2
    print(header(wide))
    done: list[dict] = []
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        for variant, players in cells:
            for label, lineup in lineups.items():
                key = (variant, players, lineup)
                earlier = next((r for r in kept if (r["variant"], r["players"], r["bots"]) == key), None)
                # games are seeded by their number, so a partial row is continued where it stopped
                start = earlier if args.resume else None

                def keep(row: dict, key=key, label=label, lineup=lineup) -> None:
                    nonlocal kept
                    row.update(variant=key[0], players=key[1], lineup=label, bots=lineup)
                    if args.out:  # saved after every block: a run of hours may be stopped and resumed
                        kept = [r for r in kept if (r["variant"], r["players"], r["bots"]) != key] + [row]
                        with open(args.out + ".tmp", "w") as f:
                            json.dump(kept, f, indent=1)
                        os.replace(args.out + ".tmp", args.out)

                # kept after every block; a row --out already holds in full is neither replayed nor rewritten
                row = soak_row(variant, players, lineup, args.games, pool, args.block, start, keep)
                print(row_line(row, wide), flush=True)
                done.append(row)
    finally:
        if pool:
            pool.shutdown()
    print(summary(done))
    return 1 if any(r["capped"] for r in done) else 0


if __name__ == "__main__":
    sys.exit(main())
