"""Sweep one variant's knobs over a grid of values: the chosen metrics at every point, with 95% intervals.

Each --set PATH=V1,V2,... names a key of the variant spec, as `scoutlab diff` prints
it (e.g. scout_and_show.chips_per_round or deal.hand_size.2), and the values to try;
several --set options make a grid of every combination. Every point plays the same
game seeds; points that deal the same cards share deals and their differences from the
first point are paired game by game. Examples:

    scoutlab sweep official --players 4 --set scout_and_show.chips_per_round=0,1,2,3
    scoutlab sweep two-player --set deal.hand_size.2=8,9,10,11 --report sweep.html
    scoutlab sweep official --set rounds.count=2,3,4,5 --target turns_per_round=30
"""

from __future__ import annotations

import argparse

help = "play a grid of values of a variant's knobs and chart the chosen metrics at each point"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # imported when the command runs, not when the parser is built: `scoutlab --help` stays fast
    from scoutlab.sim.cli import add_run_arguments

    parser.add_argument("variant", help="a shipped variant name or a spec file")
    parser.add_argument("--set", dest="sets", action="append", default=[], metavar="PATH=V1,V2,...",
                        help="a spec path and the values to try (repeat for a grid)")
    parser.add_argument("--metrics", help="comma-separated metric keys to show (default: a few per-round figures, "
                                          "the round ends and the edges; e.g. turns_per_round,end.rule_ii,skill_depth)")
    parser.add_argument("--target", dest="targets", action="append", default=[], metavar="METRIC=VALUE",
                        help="say which point comes closest to this value (repeatable; e.g. turns_per_round=30, "
                             "end.hand_emptied=50%%); the edges aim at 0 whenever they are shown")
    add_run_arguments(parser, games=1000)


def run(args: argparse.Namespace) -> int:
    # imported when the command runs, not when the parser is built: `scoutlab --help` stays fast
    from scoutlab.sim.cli import run_command

    return run_command("sweep", [(args.variant, args.players)], args)
