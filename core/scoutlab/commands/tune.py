"""Fit the skilled bot's weights to a variant by self-play, and keep them for compare and the browser.

The search is CMA-ES over the skilled bot's weights that can change a move in the variant:
every candidate plays the same games in one seat (rotating) against bots with the official
game's weights, and the search moves towards the ones that win most; at the end the
search's result and the starting weights play new games and the better is kept, with its
win share and 95% interval. What is kept is found again by the variant's rules, not its
name (any rule change needs a new tuning): `scoutlab compare` and the browser's bots then
play it. With the defaults a player count took 3-5 minutes of a shared 2-core machine in
4-player games (measured: 198-272 s), about 4 in 5-player games and under 1 in two-player
games (37-57 s); --quick is a rough tuning in about a fifth of that. Examples:

    scoutlab tune house-no-exemption --players 4
    scoutlab tune my-house-rule.yaml --players all --quick
"""

from __future__ import annotations

import argparse
import sys

from scoutlab.base.limits import excerpt, on_one_line

help = "fit the skilled bot's weights to a variant by self-play (kept for compare and the browser)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", help="a shipped variant name or a spec file")
    parser.add_argument("--players", default=None, metavar="N|all",
                        help="player count to tune for (default: the variant's smallest; 'all': each count in turn)")
    parser.add_argument("--quick", action="store_true", help="a rough tuning: fewer generations and games")
    parser.add_argument("--generations", type=int, help="generations of the search (default 12; --quick 6)")
    parser.add_argument("--games", type=int, help="games per candidate per generation (default 400; --quick 150)")
    parser.add_argument("--check-games", type=int, help="new games for the final check (default 2000; --quick 600)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the search and its games (default 0)")
    parser.add_argument("--workers", type=int, help="worker processes (default: every core)")


def run(args: argparse.Namespace) -> int:
    # imported when the command runs, not when the parser is built: `scoutlab --help` stays fast
    from scoutlab.bots import tuned
    from scoutlab.rules import load_rules
    from scoutlab.sim.cli import require_extras
    from scoutlab.sim.tune import budget_for, tune

    require_extras(["cma", "numpy"])
    if args.workers is not None and not 1 <= args.workers <= 1_000:  # 0 would quietly mean every core
        raise ValueError(f"--workers must be from 1 to 1,000, got {args.workers}")
    if not 0 <= args.seed <= MAX_SEED:  # the search's own random stream takes seeds below 2**32, after the banner
        raise ValueError(f"--seed must be from 0 to {MAX_SEED:,}, got {excerpt(args.seed)}")
    rules = load_rules(args.variant)
    counts = player_counts(args.players, rules.players)
    budget = budget_for(args.quick, args.generations, args.games, args.check_games)
    tuned.check_cache((tuned.play_digest(rules), players) for players in counts)  # before the search's minutes
    for players in counts:
        print(f"tuning {rules.name} for {players} players: {budget.describe()}", file=sys.stderr)
        kept = tune(rules, players, budget, seed=args.seed, workers=args.workers,
                    report=lambda line: print(f"  {line}", file=sys.stderr, flush=True))
        path = tuned.save(kept)
        print(f"{rules.name}, {players} players: {kept.result}")
        print(f"  kept in {on_one_line(str(path))}")
    return 0


MAX_SEED = 1_000_000_000


def player_counts(option: str | None, allowed: tuple[int, ...]) -> list[int]:
    """--players: a count the variant allows, 'all', or none (its smallest)."""
    if option is None:
        return [min(allowed)]
    if option.strip().lower() == "all":
        return list(allowed)
    text = option.strip()
    if not text.isdigit() or len(text) > 3 or int(text) not in allowed:
        shown = text[:20] + ("..." if len(text) > 20 else "")
        raise ValueError(f"--players {shown!r}: this variant is for {', '.join(map(str, allowed))} players (or 'all')")
    return [int(text)]
