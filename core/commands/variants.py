"""List the shipped variants with a one-line description each."""

from __future__ import annotations

import argparse

help = "list the shipped variants"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def run(args: argparse.Namespace) -> int:
    # imported when the command runs, not when the parser is built: `scoutlab --help` stays fast
    from scoutlab.spec.variant import shipped_variants

    variants = shipped_variants()
    width = max(len(name) for name, _ in variants)
    for name, description in variants:
        print(f"{name:<{width}}  {description}")
    return 0
