"""Print a readable summary of a variant's rules, made from the compiled spec: what a table reads before playing."""

from __future__ import annotations

import argparse
import json

help = "print a readable summary of a variant's rules"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", metavar="NAME-or-FILE", help="a shipped variant name or a spec file")
    parser.add_argument("--json", action="store_true", help="print the summary as data (message ids and parameters)")


def run(args: argparse.Namespace) -> int:
    # imported when the command runs, not when the parser is built: `scoutlab --help` stays fast
    from scoutlab.rules import load_rules
    from scoutlab.text.summary import render_text, summarize

    summary = summarize(load_rules(args.variant))
    print(json.dumps(summary.to_dict(), indent=2) if args.json else render_text(summary), end="\n" if args.json else "")
    return 0
