"""Play many games of one variant between bots and measure it: every metric with a 95% interval.

The output begins with the lineup, the player count and why, and the findings in words
(seat fairness, the first-player and round-starter edges, skill depth and luck). Game i
is dealt from a seed derived from (--seed, i), so the numbers are the same on any number
of workers or on Ray. Ctrl-C stops the run and reports the games that finished. Metrics
are defined in docs/metrics.md; --players all plays every count the variant allows.
"""

from __future__ import annotations

import argparse

help = "play many games of a variant and report its statistics"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # imported when the command runs, not when the parser is built: `scoutlab --help` stays fast
    from scoutlab.sim.cli import add_run_arguments

    parser.add_argument("variant", help="a shipped variant name or a spec file; NAME:N sets the player count")
    add_run_arguments(parser, games=1000)


def run(args: argparse.Namespace) -> int:
    # imported when the command runs, not when the parser is built: `scoutlab --help` stays fast
    from scoutlab.sim.cli import parse_spec, run_command

    return run_command("simulate", [parse_spec(args.variant, args.players)], args)
