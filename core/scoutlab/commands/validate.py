"""Check variant spec files and print every problem as FILE:LINE: $.path: message.

A spec that is valid but likely does not do what it means gets a warning line (`warning: FILE:LINE: ...`),
e.g. a plugin listed without its end condition in end_conditions; warnings do not change the exit code.
"""

from __future__ import annotations

import argparse
import sys
import warnings

help = "check variant spec files; exit 1 and list every problem"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="variant spec files (YAML) or shipped names")


def run(args: argparse.Namespace) -> int:
    # imported when the command runs, not when the parser is built: `scoutlab --help` stays fast
    from scoutlab.base.errors import SpecWarning, problem_lines
    from scoutlab.base.limits import printable
    from scoutlab.rules import Rules
    from scoutlab.spec.variant import SpecError, load_spec

    problems, warned = [], []
    for name in args.files:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", SpecWarning)  # said below, with the problems, once per file
                warned += Rules(load_spec(name)).warnings  # compiling also checks end conditions and plugins
        except SpecError as exc:
            problems.extend(exc.problems)
    for line in problem_lines(problems):  # a file named with an escape in it is named, not obeyed
        print(printable(line), file=sys.stderr)
    for warning in warned:
        print(printable(f"warning: {warning}"), file=sys.stderr)
    if problems:
        return 1
    count = f" ({len(warned)} warning{'s' * (len(warned) != 1)})" if warned else ""
    print(f"{len(args.files)} file{'s' if len(args.files) != 1 else ''} valid{count}")
    return 0
