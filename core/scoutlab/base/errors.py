"""Every error the package raises for bad input or a misbehaving plugin or bot, in one place.

They sit at the bottom of the package so that any layer may raise or catch them without
importing the layer that usually raises them. `user_errors()` is what the command line and
the engine protocol report in one line instead of a traceback.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from scoutlab.base.limits import on_one_line


class IllegalAction(ValueError):
    """An action the rules do not allow here; the message names the rule."""


class NotationError(ValueError):
    """Text that is not an action in the notation."""


class NumberOutOfRange(ValueError):
    """A card written as top/bottom with a number the notation has no card for (0, or past 31): where the variant
    is known, the deck's numbers are the ones to name."""


class PluginError(Exception):
    """A plugin that cannot be found, loaded or configured."""


# What a plugin's code may raise that is its own failure: sys.exit() in a hook ended a whole run without a
# word; KeyboardInterrupt is the person at the keyboard, and still stops the run.
PLUGIN_FAILURES: tuple[type[BaseException], ...] = (Exception, SystemExit)


class HookError(PluginError):
    """A plugin's hook raised or returned a value of the wrong kind."""

    def __init__(self, plugin: str, hook: str, asked: str | None, problem: str):
        super().__init__(plugin, hook, asked, problem)
        self.plugin = plugin
        self.hook = hook
        self.asked = asked  # the arguments that matter, e.g. "values=(1, 2, 3)"; None: not a hook call
        self.problem = problem  # "raised ZeroDivisionError: ..." or "returned 'x'; expected ..."
        self.where: str | None = None  # the position, filled in by the engine

    def locate(self, where: str) -> HookError:
        """Say where in a game this happened; the outermost caller knows best, so it wins."""
        self.where = where
        return self

    def __str__(self) -> str:
        asked = "" if self.asked is None else f"({self.asked})"
        at = f" at {self.where}" if self.where else ""
        return f"plugin {self.plugin!r} {self.problem} in {self.hook}{asked}{at}"


class Problem(NamedTuple):
    """One thing wrong with a spec, where it is, and why; `str()` gives `FILE:LINE: $.path: message`."""

    file: str
    line: int | None
    path: str
    message: str

    def __str__(self) -> str:
        file = on_one_line(self.file)  # a line break in a file's name must not split the problem's line
        where = file if self.line is None else f"{file}:{self.line}"
        return f"{where}: {self.path}: {self.message}"


MAX_PROBLEMS_SHOWN = 20  # a file with thousands of problems shows this many, then how many more


def problem_lines(problems: Sequence[object]) -> list[str]:
    """Problems as the lines a person reads: the first MAX_PROBLEMS_SHOWN, then a count of the rest."""
    lines = [str(problem) for problem in problems[:MAX_PROBLEMS_SHOWN]]
    if len(problems) > MAX_PROBLEMS_SHOWN:
        lines.append(f"... and {len(problems) - MAX_PROBLEMS_SHOWN:,} more problems")
    return lines


class SpecError(Exception):
    """A spec could not be loaded; `problems` lists every reason found, not just the first (the message, the first
    MAX_PROBLEMS_SHOWN of them)."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: list[Problem] = list(problems)
        super().__init__("\n".join(problem_lines(self.problems)))


class SpecWarning(UserWarning):
    """A spec that loads but likely does not do what its author meant (e.g. a plugin listed without its end
    condition); the text is a `Problem`'s `FILE:LINE: $.path: message`. The command line prints it in one line."""


class BotError(ValueError):
    """A bot name or option that cannot be used."""


def user_errors() -> tuple[type[BaseException], ...]:
    """Exceptions that mean bad input, not a bug: reported in one line."""
    return (SpecError, PluginError, BotError, IllegalAction, NotationError, OSError, ValueError)
