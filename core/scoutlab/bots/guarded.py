"""A plugin's bot, held to the Bot contract: whatever it raises or answers, the game hears one BotError naming it.

The built-in bots are tested move by move; a bot from an installed plugin is code we have never
seen. Its factory and its `act` may raise, or answer a string, None or a code that is not legal:
each is said in one line that names the bot and the seat, never a traceback and never an engine
error about a code nobody can place. (A bot that never answers is not caught here: it runs in
this process. A bot that must be bounded in time runs as `external:`, which has a timeout.)
"""

from __future__ import annotations

import operator
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scoutlab.base.errors import PLUGIN_FAILURES, BotError
from scoutlab.base.limits import excerpt

if TYPE_CHECKING:
    from scoutlab.base.values import View
    from scoutlab.bots import Bot, BotFactory
    from scoutlab.rules import Rules


@dataclass(frozen=True)
class PluginFactory:
    """A plugin's bot factory, building guarded bots (a class, not a closure: simulation workers receive it pickled)."""

    name: str
    factory: BotFactory

    def __call__(self, rules: Rules, rng: random.Random, options: dict[str, Any]) -> GuardedBot:
        try:
            bot = self.factory(rules, rng, options)
        except BotError:
            raise
        except PLUGIN_FAILURES as exc:  # the plugin's own error, said as one line that names it
            raise BotError(f"bot {self.name!r} could not be made: {_said(exc)}") from None
        return GuardedBot(self.name, bot)


class GuardedBot:
    """The plugin's bot, answering only legal codes or raising BotError."""

    def __init__(self, label: str, bot: Bot):
        self.label = label
        self.bot = bot
        self.name = str(getattr(bot, "name", label))

    def act(self, view: View) -> int:
        where = f"bot {self.label!r} (P{view.seat + 1})"
        try:
            code = self.bot.act(view)
        except BotError:
            raise
        except PLUGIN_FAILURES as exc:
            raise BotError(f"{where} failed: {_said(exc)}") from None
        answer = _whole(code)  # numpy's int64 from an argmax is a code too; True (1) is not
        if answer is None or answer not in view.legal:  # a str, None, a float, a bool or a code of no legal move
            raise BotError(f"{where} answered {excerpt(code)}, which is not one of the seat's {len(view.legal)} legal "
                           "action codes")
        return answer

    def __getattr__(self, attribute: str) -> Any:
        """The plugin bot's own attributes, as its author's code and tests read them."""
        if attribute in ("bot", "label"):  # not yet set (unpickling): no endless lookup through self.bot
            raise AttributeError(attribute)
        return getattr(self.bot, attribute)

    def close(self) -> None:
        close = getattr(self.bot, "close", None)
        if close is not None:
            close()


def _whole(value: Any) -> int | None:
    """`value` as a plain int if it is a whole number of any integer type but bool, else None."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def _said(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {excerpt(str(exc), 200)}"  # excerpt: a line break in it stays on one line
