"""Print a readable summary of a variant's rules, made from the compiled spec: what a table reads before playing."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace

help = "print a readable summary of a variant's rules"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", metavar="NAME-or-FILE", help="a shipped variant name or a spec file")
    parser.add_argument("--json", action="store_true", help="print the summary as data (message ids and parameters)")
    parser.add_argument("--lang", help="language of the summary: en, ar, fa, el, bg (default: English)")


def run(args: argparse.Namespace) -> int:
    # imported when the command runs, not when the parser is built: `scoutlab --help` stays fast
    from scoutlab.rules import load_rules
    from scoutlab.text.i18n import chosen, gettext_for
    from scoutlab.text.summary import messages_for, render_text, summarize
    from scoutlab.text.variant_text import description, title

    rules = load_rules(args.variant)
    summary = summarize(rules)
    if args.json:
        print(json.dumps(summary.to_dict(), indent=2))
        return 0
    _ = gettext_for(chosen(args.lang))
    if args.lang:
        # only with --lang: the web package's page logic (plain Python, no server) translates end conditions
        from scoutlab.web.rulespage import localized_summary

        summary = replace(localized_summary(summary, _), variant=title(rules.spec.doc, args.lang),
                          description=description(rules.spec.doc, args.lang))
    print(render_text(summary, messages_for(_)), end="")
    return 0
