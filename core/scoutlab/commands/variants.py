"""List the shipped variants with a one-line description each: the official rules first, house rules after."""

from __future__ import annotations

import argparse

help = "list the shipped variants"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", help="language of the titles and descriptions: en, ar, fa, el, bg (default: English)")


def run(args: argparse.Namespace) -> int:
    # imported when the command runs, not when the parser is built: `scoutlab --help` stays fast
    from scoutlab.text.i18n import chosen, gettext_for
    from scoutlab.text.variant_text import shipped_listing

    _ = gettext_for(chosen(args.lang))
    headings = {"official": _("The publisher's rules"), "informal": _("Informal variants"), "house": _("House rules")}
    variants = shipped_listing(args.lang)
    width = max(len(entry.name) for entry in variants)
    kind = None
    for entry in variants:
        if entry.kind != kind:
            print(("" if kind is None else "\n") + headings[entry.kind])
            kind = entry.kind
        print(f"  {entry.name:<{width}}  {entry.description}")
    return 0
