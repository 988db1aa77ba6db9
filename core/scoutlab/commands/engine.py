"""Speak the JSON-lines engine protocol on stdin/stdout, for programs in any language (docs/engine-protocol.md)."""

from __future__ import annotations

import argparse
import sys

help = "speak the JSON-lines engine protocol on stdin/stdout (see docs/engine-protocol.md)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def run(args: argparse.Namespace) -> int:
    # imported when the command runs, not when the parser is built: `scoutlab --help` stays fast
    from scoutlab.protocol import serve

    return serve(sys.stdin, sys.stdout)
