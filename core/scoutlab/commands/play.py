"""Play a match in the terminal against bots: your hand, the table and the moves in the action notation."""

from __future__ import annotations

import argparse
import os
import random
import sys

help = "play a match in the terminal against bots"
MAX_DELAY = 60.0  # a pause longer than this is a mistake, not a pace: `inf` would crash the sleep


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default="official", help="a shipped variant name or a spec file (default: official)")
    parser.add_argument("--players", type=int, help="number of players, you included (default: the variant's smallest)")
    parser.add_argument("--level", help="the opponents' level: easy, medium, hard or expert (default: expert, the strongest"
                        " that answers within a second); see docs/bots.md \"Levels\"")
    parser.add_argument("--bots", help="comma-separated opponents, one for all or one per other seat (wins over --level)")
    parser.add_argument("--seat", type=int, default=1, help="your seat, 1 to N; P1 starts the first round (default: 1)")
    parser.add_argument("--seed", type=int, help="random seed; the same seed deals the same cards (default: a new one)")
    parser.add_argument("--lang", help="language of the messages: en, ar, fa, el, bg (default: from $LC_ALL, $LC_MESSAGES or $LANG, else English)")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                        help="emphasise the top numbers with ANSI codes (default: auto, when output is a terminal)")
    parser.add_argument("--delay", type=float, default=0.0,
                        help=f"seconds to pause after each bot move, 0 to {MAX_DELAY:g} (default: 0)")


def run(args: argparse.Namespace) -> int:
    # imported when the command runs, not when the parser is built: `scoutlab --help` stays fast
    from scoutlab.bots import Bot, make_bot, split_bots
    from scoutlab.bots.levels import DEFAULT_LEVEL, level_bot
    from scoutlab.match import bot_seed, close_bots
    from scoutlab.play.terminal import TerminalGame
    from scoutlab.rules import load_rules
    from scoutlab.text.i18n import chosen

    if not 0 <= args.delay <= MAX_DELAY:  # also refuses nan, which no comparison holds for
        raise ValueError(f"--delay {args.delay:g}: a pause runs from 0 to {MAX_DELAY:g} seconds")
    chosen(args.lang)
    rules = load_rules(args.variant)
    players = args.players if args.players is not None else rules.players[0]  # 0 is refused below, not the default
    if players not in rules.players:
        raise ValueError(f"variant {rules.name!r} is for {', '.join(map(str, rules.players))} players, not {players}")
    if not 1 <= args.seat <= players:
        raise ValueError(f"--seat {args.seat}: seats run from 1 to {players}")
    seat = args.seat - 1
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    names = split_bots(args.bots) if args.bots else [level_bot(DEFAULT_LEVEL if args.level is None else args.level)]
    if len(names) == 1:
        names = names * (players - 1)
    if len(names) != players - 1:
        raise ValueError(f"{players} players need {players - 1} opponents (or one bot for all), got {len(names)} in --bots")
    others = [s for s in range(players) if s != seat]
    bots: list[Bot | None] = [None] * players  # None: the person's own seat
    labels: list[str | None] = [None] * players  # each bot as given, options included: "P2 (mcts:seconds=0.8)"
    for s, name in zip(others, names):
        bots[s], labels[s] = make_bot(name, rules, bot_seed(seed, s)), name
    lang = args.lang or _locale_language()
    _check_terminal(sys.stdout, lang)
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty() and not os.environ.get("NO_COLOR"))
    game = TerminalGame(rules, rules.new_game(players, seed), seat, bots, ask=input, out=sys.stdout, labels=labels,
                        color=color, lang=lang, delay=args.delay,
                        pause=sys.stdin.isatty())  # a piped script of moves has nobody to press Enter
    try:
        return game.run()
    finally:
        close_bots([bot for bot in bots if bot is not None])  # nothing a bot started outlives the match


def _check_terminal(out, lang: str | None) -> None:
    """Refuse before the deal a terminal that cannot show the game's words; the codec would stop it at the first line."""
    # imported when the command runs, as in run()
    from scoutlab.base.limits import terminal_cannot_show
    from scoutlab.text.i18n import gettext_for, is_rtl, left_to_right, normalize

    encoding = getattr(out, "encoding", None) or "utf-8"
    sample = gettext_for(lang)("Round {number} of {rounds}", number=1, rounds=5) + " · "  # the language's letters, and the dot
    if is_rtl(normalize(lang)):
        sample += left_to_right("P1")  # the isolates that keep numbers in order inside right-to-left lines
    try:
        sample.encode(encoding)
    except UnicodeEncodeError:
        raise ValueError(terminal_cannot_show(encoding, f"the game in {normalize(lang)!r}")) from None
    except LookupError:  # an encoding Python does not know: the first line will say so, as it would anyway
        pass


def _locale_language() -> str | None:
    """The language the environment asks for, in the POSIX order of precedence."""
    return next((os.environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if os.environ.get(name)), None)
