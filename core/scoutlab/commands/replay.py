"""Replay a game record from its seed: print the game log and check every deal, action and score against the record."""

from __future__ import annotations

import argparse
import sys

help = "replay a game record; exit 1 with the first divergence if it does not match"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="RECORD", help="a game record (JSON), e.g. from `scoutlab game --record FILE`")
    parser.add_argument("--quiet", action="store_true", help="print only whether the record matches")


def run(args: argparse.Namespace) -> int:
    # imported when the command runs, not when the parser is built: `scoutlab --help` stays fast
    from scoutlab.records.game import load_record, replay_record
    from scoutlab.text.log import game_log

    record = load_record(args.record)
    result = replay_record(record, args.record)
    if not result.ok:
        print(f"scoutlab replay: {args.record} does not match its replay: {result.divergence}", file=sys.stderr)
        return 1
    if not args.quiet:
        print("\n".join(game_log(result.state, record["bots"])))
    state = result.state
    print(
        f"{args.record}: replay matches the record ({state.rules.name}, {state.players} players, seed {state.seed}, "
        f"{len(state.history)} actions in {len(state.round_ends)} rounds)"
    )
    return 0
