"""The `scoutlab` command: one subcommand per module in scoutlab.commands.

Each command module has `help` (one line), `add_arguments(parser)` and `run(args) -> int`.
Errors a user can cause are printed as one clear message, never as a traceback.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import os
import re
import sys
import textwrap
import warnings
from importlib import import_module
from typing import NoReturn

from scoutlab import __version__
from scoutlab.base.errors import SpecWarning, user_errors
from scoutlab.base.limits import EXCERPT_CHARS, cut, excerpt, on_one_line, printable, terminal_cannot_show

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


COMMAND = "COMMAND"  # how argparse names the command in its messages (the subparsers' metavar)
# argparse's own messages (Python 3.10 to 3.14), each matched whole; a message in another form is shown as it is
_ARGUMENT = re.compile(r"argument (?P<name>[^:]+): (?P<why>.*)", re.DOTALL)
_REQUIRED = re.compile(r"the following arguments are required: (?P<names>.*)", re.DOTALL)
_AMBIGUOUS = re.compile(r"ambiguous option: (?P<option>\S+) could match (?P<matches>.*)", re.DOTALL)
_QUOTED = r"(?P<value>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")"  # a str's repr(), as argparse quotes a value
_CHOICE = re.compile(rf"invalid choice: {_QUOTED}.*", re.DOTALL)
_TYPE = re.compile(rf"invalid (?P<type>\w+) value: {_QUOTED}", re.DOTALL)
_EXPLICIT = re.compile(rf"ignored explicit argument {_QUOTED}", re.DOTALL)
_NEGATIVE_NUMBER = re.compile(r"-\d+$|-\d*\.\d+$")  # argparse takes these for values, not options
_VALUES_WANTED = {"expected one argument": "needs a value", "expected at least one argument": "needs at least one value",
                  "expected at most one argument": "takes at most one value"}
_TYPE_WORDS = {"int": "a whole number", "float": "a number"}
MAX_SAID = 300  # characters of a message of argparse's that no form here knows, as it is shown


class _Parser(argparse.ArgumentParser):
    """argparse, except that a mistake is one line naming the command it belongs to and why, never a usage screen:
    `scoutlab compare: unrecognized option --nosuch (scoutlab compare --help lists the options)`. An argument is
    quoted in part (`--seed` with 5,000 digits is not echoed) and a line break or escape in it is shown, not obeyed."""

    def parse_known_args(self, args=None, namespace=None):
        # argparse hands a command's leftovers up to `scoutlab`, which reported them as its own: refuse them here
        namespace, extras = super().parse_known_args(args, namespace)
        if extras:
            self.refuse(self._leftovers(extras))
        return namespace, extras

    def error(self, message: str) -> NoReturn:
        self.refuse(self._reworded(message))

    def refuse(self, said: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {on_one_line(said)}\n")

    def _leftovers(self, extras: list[str]) -> str:
        """What the command was given and does not take; its options first (a word after one is likely its value)."""
        options = [arg for arg in extras if arg.startswith("-") and len(arg) > 1 and not _NEGATIVE_NUMBER.match(arg)]
        if not options:
            return f"unexpected {_listed(extras, 'argument')} ({self.prog} --help lists the arguments)"
        options = [option.partition("=")[0] for option in options]  # the option is unknown, not what it was given
        close = difflib.get_close_matches(options[0], self._option_names(), n=1)
        hint = f"; did you mean {close[0]}?" if len(options) == 1 and close else ""
        return f"unrecognized {_listed(options, 'option', quoted=False)}{hint} ({self.prog} --help lists the options)"

    def _reworded(self, message: str) -> str:
        """argparse's message in the project's words; as argparse said it, cut short, when it is in no form known here
        (a newer Python's, or translated), still on one line and with the way to the help."""
        required, ambiguous, argument = (form.fullmatch(message) for form in (_REQUIRED, _AMBIGUOUS, _ARGUMENT))
        if required:
            return f"missing {_together(required['names'].split(', '))} ({self.prog} --help lists the arguments)"
        if ambiguous:
            return f"{ambiguous['option']} could be {_together(ambiguous['matches'].split(', '), 'or')}: write more of it"
        if argument:
            return self._about_argument(argument["name"], argument["why"])
        return f"{_cut(message)} ({self.prog} --help lists the options)"

    def _about_argument(self, name: str, why: str) -> str:
        """What is wrong with what option or argument `name` was given; a type's own reason as it gives it."""
        choice, typed, explicit = (form.fullmatch(why) for form in (_CHOICE, _TYPE, _EXPLICIT))
        if why in _VALUES_WANTED:
            return f"{name} {_VALUES_WANTED[why]}"
        if choice:
            return self._not_a_choice(name, _unquoted(choice["value"]))
        if typed:
            kind = _TYPE_WORDS.get(typed["type"], f"a valid {typed['type']}")
            return f"{name} {excerpt(_unquoted(typed['value']))} is not {kind}"
        if explicit:
            return f"{name} takes no value, got {excerpt(_unquoted(explicit['value']))}"
        return f"{name}: {_cut(why)}"

    def _not_a_choice(self, name: str, value: str) -> str:
        choices = [str(choice) for action in self._actions if _name(action) == name for choice in action.choices or ()]
        close = difflib.get_close_matches(value, choices, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        if name == COMMAND:
            return f"unknown command {excerpt(value)}{hint} ({self.prog} --help lists the commands)"
        return f"{name} {excerpt(value)}: the choices are {', '.join(choices)}{hint}"

    def _option_names(self) -> list[str]:
        return [option for action in self._actions for option in action.option_strings]


def _name(action: argparse.Action) -> str:
    """The name argparse gives `action` in a message: its options joined by '/', else its metavar or dest."""
    return "/".join(action.option_strings) or str(action.metavar or action.dest)


def _unquoted(quoted: str) -> str:
    """The value argparse quoted with repr(), as it was typed."""
    return str(ast.literal_eval(quoted))


def _cut(message: str) -> str:
    """A message of argparse's or of a type's own, cut short when it runs long (it may hold a whole argument)."""
    return message if len(message) <= MAX_SAID else cut(message, 200)


def _listed(words: list[str], noun: str, quoted: bool = True) -> str:
    """`option --a`, `arguments 'x', 'y'`: at most three named, then how many more."""
    shown = [excerpt(word) if quoted or len(word) > EXCERPT_CHARS or not word.isprintable() else word for word in words[:3]]
    more = f" and {len(words) - 3:,} more" if len(words) > 3 else ""
    return f"{noun}{'s' * (len(words) > 1)} {', '.join(shown)}{more}"


def _together(names: list[str], word: str = "and") -> str:
    """`A`, `A and B`, `A, B and C`."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {word} {names[-1]}"


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


def build_parser() -> _Parser:
    parser = _Parser(
        prog="scoutlab",
        description="SCOUT with its rules as data: variants, games, simulations and play.",
    )
    parser.add_argument("--version", action="version", version=f"scoutlab {__version__}")
    # not required to argparse, which would say so before naming an unknown option: `main` asks for it after
    sub = parser.add_subparsers(dest="command", metavar=COMMAND)
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
    try:
        parser = build_parser()  # imports every command: Ctrl-C may come while it does
        args = parser.parse_args(argv)
    except KeyboardInterrupt:
        print("scoutlab: interrupted", file=sys.stderr)
        return 130
    if args.command is None:
        parser.refuse(f"give a command ({parser.prog} --help lists the commands)")
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
