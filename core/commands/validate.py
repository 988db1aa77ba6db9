"""Check variant spec files and print every problem as FILE:LINE: $.path: message."""

from __future__ import annotations

import argparse
import sys

help = "check variant spec files; exit 1 and list every problem"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="variant spec files (YAML) or shipped names")


def run(args: argparse.Namespace) -> int:
    # imported when the command runs, not when the parser is built: `scoutlab --help` stays fast
    from scoutlab.rules import Rules
    from scoutlab.spec.variant import SpecError, load_spec

    problems = []
    for name in args.files:
        try:
            Rules(load_spec(name))  # compiling also checks end conditions and plugins
        except SpecError as exc:
            problems.extend(exc.problems)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(f"{len(args.files)} file{'s' if len(args.files) != 1 else ''} valid")
    return 0
