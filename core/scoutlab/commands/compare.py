"""Compare variants on the same seeds: each metric's difference with a 95% interval, Holm-corrected.

Each later variant is compared with the first (with --players all: each variant's counts
with each other, and the variants within each count they share). Where two variants
deal the same cards to the same number of players, they play the same deals and the
differences are paired game by game; otherwise the output
says they are unpaired and why. The output begins with the lineup, each variant's player
count and why, and the findings in words. With no options, `scoutlab compare official
two-player` runs 3,000 games of each with the skilled bot in every seat, plus 1,000 skill
games (one skilled bot among greedy ones): about 17 to 30 CPU-seconds on a shared 2-core
machine whose speed drifts between days (timed whole with /usr/bin/time -v, workers
included; README.md "Simulating and comparing variants" gives the runs). For search
against skilled play: --strong mcts --weak skilled.
"""

from __future__ import annotations

import argparse

help = "compare variants metric by metric on the same deals, with corrected significance"
MAX_COMPARED = 12


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # imported when the command runs, not when the parser is built: `scoutlab --help` stays fast
    from scoutlab.sim.cli import add_run_arguments

    parser.add_argument("variants", nargs="+", metavar="VARIANT",
                        help="two or more shipped variant names or spec files; NAME:N sets the player count")
    add_run_arguments(parser, games=3000)
    parser.add_argument("--tune", action="store_true",
                        help="first fit the skilled bot's weights to each variant and count that has none "
                             "(scoutlab tune's default budget: minutes each; kept for later runs)")


def run(args: argparse.Namespace) -> int:
    # imported when the command runs, not when the parser is built: `scoutlab --help` stays fast
    from scoutlab.sim.cli import parse_spec, run_command

    if len(args.variants) < 2:
        raise ValueError("compare needs at least two variants, e.g. scoutlab compare official two-player")
    if len(args.variants) > MAX_COMPARED:  # every pair is read: the findings and the table grow as the square
        raise ValueError(f"compare reads at most {MAX_COMPARED} variants at once, got {len(args.variants):,}")
    specs = [parse_spec(v, args.players) for v in args.variants]
    twice = next((v for i, v in enumerate(args.variants) if specs[i] in specs[:i]), None)
    if twice is not None:
        raise ValueError(f"{twice} is named twice: a variant compared with itself says nothing")
    return run_command("compare", specs, args)
