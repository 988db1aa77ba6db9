"""Bots: players that see one seat's View and choose an action code.

A bot is named on the command line as `NAME` or `NAME:key=value,key=value`
(e.g. `mcts:iterations=400`). Built-in bots are listed in BUILTIN_BOTS; plugins add
more through the `scoutlab_bots` hook.
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from scoutlab.base.errors import BotError
from scoutlab.base.limits import excerpt
from scoutlab.bots.guarded import PluginFactory
from scoutlab.host.manager import PluginBots, plugin_bots

if TYPE_CHECKING:
    from scoutlab.engine.state import View
    from scoutlab.rules import Rules


class Bot(Protocol):
    """Chooses one of `view.legal` for the seat it plays; it never sees more than `view`."""

    name: str

    def act(self, view: View) -> int: ...


BotFactory = Callable[["Rules", random.Random, dict[str, Any]], Bot]


class RandomBot:
    """Uniform over the legal actions: the baseline every other bot must beat."""

    name = "random"

    def __init__(self, rules: Rules, rng: random.Random, options: dict[str, Any]):
        if options:  # "arg" is parse_bot's name for a part that is not key=value: say what was written
            given = ", ".join(excerpt(value) if key == "arg" else f"{key}={excerpt(value)}" for key, value in options.items())
            raise BotError(f"bot 'random' takes no options, got {given}")
        self.rng = rng

    def act(self, view: View) -> int:
        return view.legal[self.rng.randrange(len(view.legal))]


BUILTIN_BOTS: dict[str, str] = {
    # name -> "module:attribute", imported on first use so `scoutlab` starts fast
    "random": "scoutlab.bots:RandomBot",
    "external": "scoutlab.bots.external:ExternalBot",
    "greedy": "scoutlab.bots.greedy:GreedyBot",
    "heuristic": "scoutlab.bots.heuristic:HeuristicBot",
    "mcts": "scoutlab.bots.mcts:MctsBot",
    "network": "scoutlab.bots.network:NetworkBot",
    "skilled": "scoutlab.bots.skilled:SkilledBot",
}


def known_bots() -> dict[str, str | BotFactory]:
    """Every bot by name: the built-in ones and those that plugins offer."""
    return _known(plugin_bots())


def _known(offered: PluginBots) -> dict[str, str | BotFactory]:
    bots: dict[str, str | BotFactory] = dict(BUILTIN_BOTS)
    # guard checked each is callable; PluginFactory holds its bots to the contract (bots/guarded.py)
    bots.update({name: PluginFactory(name, factory) for name, factory in offered.factories.items()})  # type: ignore[arg-type]
    return bots


def parse_bot(text: str) -> tuple[str, dict[str, Any]]:
    """`mcts:iterations=400,c=1.4` -> ("mcts", {"iterations": 400, "c": 1.4}).

    A leading part that is not key=value is the bot's argument, option "arg":
    `external:node bot.js,timeout=5` -> ("external", {"arg": "node bot.js", "timeout": 5}).
    """
    name, _, rest = text.strip().partition(":")
    options: dict[str, Any] = {}
    for i, part in enumerate(filter(None, (p.strip() for p in rest.split(",")))):
        key, eq, value = part.partition("=")
        if i == 0 and not _is_option(part):
            options["arg"] = part
            continue
        if not eq or not key.strip():
            raise BotError(f"bot {excerpt(text)}: options are key=value pairs separated by commas")
        if key.strip() in options:  # `tempo=1,tempo=2` would play one of them without a word
            raise BotError(f"bot {excerpt(text)}: option {excerpt(key.strip())} is given twice")
        options[key.strip()] = _option_value(value.strip())
    return name, options


def _unknown_bot(name: str, known: list[str], failures: dict[str, str]) -> str:
    """Why `name` is no bot, in one line: the closest known name, every known one, and each plugin whose bots failed
    to load (the bot may be one of theirs)."""
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    failed = "".join(f"; plugin {plugin!r} offers no bots: {why}" for plugin, why in failures.items())
    return f"unknown bot {excerpt(name)}{hint} (known: {', '.join(sorted(known))}){failed}"


def _is_option(part: str) -> bool:
    key, eq, _ = part.partition("=")
    return bool(eq) and key.strip().isidentifier()


def split_bots(text: str) -> list[str]:
    """Split a comma-separated list of bots, one per seat, keeping each bot's key=value options with it.

    `mcts:iterations=400,c=1.4,random` -> ["mcts:iterations=400,c=1.4", "random"].
    """
    bots: list[str] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        if bots and ":" in bots[-1] and _is_option(part):
            bots[-1] += "," + part
        else:
            bots.append(part)
    return bots


def _option_value(text: str) -> Any:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def make_bot(text: str, rules: Rules, seed: int) -> Bot:
    """Build a bot from its command-line name, with its own random stream."""
    factory, options = bot_factory(text)
    return factory(rules, random.Random(seed), options)


def bot_factory(text: str) -> tuple[BotFactory, dict[str, Any]]:
    """The factory a bot's command-line name stands for, and its options; BotError if unknown.

    Simulations resolve each name once with this and then call the factory for every game.
    """
    name, options = parse_bot(text)
    offered = plugin_bots()
    bots = _known(offered)
    if name not in bots:
        raise BotError(_unknown_bot(name, list(bots), offered.failures))
    factory = bots[name]
    if isinstance(factory, str):
        from importlib import import_module

        module, _, attribute = factory.partition(":")
        factory = getattr(import_module(module), attribute)
    return factory, options
