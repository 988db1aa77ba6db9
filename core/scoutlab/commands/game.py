"""Play one game between bots and print its log and final scores."""

from __future__ import annotations

import argparse

help = "play one game between bots and print the log and scores"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default="official", help="a shipped variant name or a spec file (default: official)")
    parser.add_argument("--players", type=int, help="number of players (default: the variant's smallest)")
    parser.add_argument("--bots", default="random", help="comma-separated bots, one per seat or one for all (default: random)")
    parser.add_argument("--seed", type=int, default=0, help="random seed; the same seed replays the same game")
    parser.add_argument("--record", metavar="FILE", help="save the game record (JSON) to FILE")
    parser.add_argument("--quiet", action="store_true", help="print only the final scores")


def run(args: argparse.Namespace) -> int:
    # imported when the command runs, not when the parser is built: `scoutlab --help` stays fast
    from scoutlab.base import files
    from scoutlab.bots import split_bots
    from scoutlab.match import close_bots, make_bots, play_game
    from scoutlab.records.game import game_record, save_record
    from scoutlab.rules import load_rules
    from scoutlab.text.log import game_log

    if args.record is not None and args.record in ("", "-"):  # the game's log has standard output
        raise ValueError(f"--record {args.record!r}: give the name of a file to write the record to")
    rules = load_rules(args.variant)
    if args.record is not None:  # before the game, not after it
        files.check_output("--record", args.record, reads=rules.spec.chain)
    players = args.players if args.players is not None else rules.players[0]  # 0 is refused below, not the default
    if players not in rules.players:
        raise ValueError(f"variant {rules.name!r} is for {', '.join(map(str, rules.players))} players, not {players}")
    bot_names = split_bots(args.bots)
    bots = make_bots(bot_names, rules, players, args.seed)
    try:
        state = play_game(rules, players, bots, args.seed)
    finally:
        close_bots(bots)  # nothing a bot started outlives the game
    lines = game_log(state, [b.name for b in bots])
    print("\n".join(lines[-(players + 2):] if args.quiet else lines))
    if args.record is not None:
        save_record(game_record(state, [b.name for b in bots]), args.record)
        print(f"record saved to {args.record}")
    return 0
