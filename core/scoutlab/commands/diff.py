"""Compare the rules of two variants: every JSON path whose merged value differs, with a plain-English line for each known knob."""

from __future__ import annotations

import argparse

help = "show the rule differences between two variants"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", metavar="A", help="a shipped variant name or a spec file")
    parser.add_argument("b", metavar="B", help="a shipped variant name or a spec file")
    parser.add_argument("--json", action="store_true", help="print the differences as JSON")


def run(args: argparse.Namespace) -> int:
    # imported when the command runs, not when the parser is built: `scoutlab --help` stays fast
    from scoutlab.spec.diff import diff_specs, to_json
    from scoutlab.spec.variant import load_spec

    a, b = load_spec(args.a), load_spec(args.b)
    differences = diff_specs(a, b)
    if args.json:
        print(to_json(a.name, b.name, differences))
    elif not differences:
        print(f"{a.name} and {b.name} have the same rules")
    else:
        count = len(differences)
        print(f"{a.name} -> {b.name}: {count} rule difference{'s' * (count != 1)}")
        for difference in differences:
            print(difference)
    return 0  # a difference is an answer, not an error
