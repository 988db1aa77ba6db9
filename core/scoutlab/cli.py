"""The `scoutlab` command: one subcommand per module in scoutlab.commands.

Each command module has `help` (one line), `add_arguments(parser)` and `run(args) -> int`.
Errors a user can cause are printed as one clear message, never as a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
import warnings
from importlib import import_module

from scoutlab import __version__
from scoutlab.base.errors import SpecWarning, user_errors
from scoutlab.base.limits import printable, shown_safely, terminal_cannot_show

COMMANDS = [
    "variants",
    "validate",
    "game",
    "replay",
    "play",
    "engine",
    "legal",
    "serve",
    "rules",
    "diff",
    "plugins",
    "simulate",
    "compare",
    "sweep",
    "tune",
]


class _Parser(argparse.ArgumentParser):
    """argparse, except that a mistaken argument is quoted in part (`--seed` with 5,000 digits is not echoed), and
    under a command with many options the usage is one line that points at --help instead of a screenful."""

    def error(self, message: str):
        if len(message) > 300:
            message = f"{message[:200]}... ({len(message):,} characters)"
        message = shown_safely(message)  # an argument with an escape in it is named, not obeyed by the terminal
        usage = self.format_usage()
        if usage.count("\n") > 3:
            usage = f"usage: {self.prog} [options] ... ({self.prog} --help lists them)\n"
        self.exit(2, f"{usage}{self.prog}: error: {message}\n")


class _Help(argparse.HelpFormatter):
    """argparse's help, except that a description keeps its paragraphs and its indented lines (the examples)
    as written, where argparse would run them all into one paragraph."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        paragraphs = textwrap.dedent(text).strip().split("\n\n")
        return "\n\n".join(
            "\n".join(indent + line for line in paragraph.split("\n")) if paragraph.startswith("    ")
            else textwrap.fill(" ".join(paragraph.split()), width, initial_indent=indent, subsequent_indent=indent)
            for paragraph in paragraphs
        )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="scoutlab",
        description="SCOUT with its rules as data: variants, games, simulations and play.",
    )
    parser.add_argument("--version", action="version", version=f"scoutlab {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        module = import_module(f"scoutlab.commands.{name.replace('-', '_')}")
        command = sub.add_parser(name, help=module.help, description=module.__doc__, formatter_class=_Help)
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A spec's warning in one line (`scoutlab: warning: FILE:LINE: $.path: ...`); others as Python shows them."""
    if issubclass(category, SpecWarning):
        print(f"scoutlab: warning: {message}", file=file or sys.stderr)
    else:
        _python_show_warning(message, category, filename, lineno, file, line)


_python_show_warning = warnings.showwarning


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    warnings.showwarning = _show_warning
    try:
        return args.run(args)
    except BrokenPipeError:  # the reader went away (e.g. `| head`): nothing left to say
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print("scoutlab: interrupted", file=sys.stderr)
        return 130
    except user_errors() as exc:
        print(f"scoutlab {args.command}: {printable(_said(exc))}", file=sys.stderr)
        return 1
    except RecursionError:  # the parsers bound nesting; this is the last guard, not the plan
        print(f"scoutlab {args.command}: the input nests too deeply to read", file=sys.stderr)
        return 1


def _said(exc: BaseException) -> str:
    """What went wrong, in words: the system's reason without Python's `[Errno 2]`, after the path it is about."""
    if isinstance(exc, UnicodeEncodeError):  # every file is written as UTF-8: this is the terminal's own encoding
        return terminal_cannot_show(exc.encoding, "the output")
    if isinstance(exc, OSError) and exc.strerror and str(exc).startswith("[Errno"):
        return exc.strerror if exc.filename is None else f"{os.fsdecode(exc.filename)}: {exc.strerror}"
    return str(exc)


if __name__ == "__main__":
    sys.exit(main())
