"""The levels a person picks an opponent by: each is one bot spec string, the same in the terminal and the browser.

`LEVELS` is the only place that says which bot plays at which level; change a level's
spec here and both `scoutlab play --level` and the browser's new-match form follow.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoutlab.bots import known_bots
from scoutlab.text.i18n import N_


@dataclass(frozen=True)
class Level:
    """A level's identifier, the bot spec it plays with, its word and how the bot plays (both catalog message ids).

    A player reads the word; the description and the spec only in the start page's details, for the curious.
    """

    name: str
    bot: str
    word: str
    description: str


#: Weakest first. Every level's bot answers within a second (docs/bots.md "Levels" measures each).
LEVELS: tuple[Level, ...] = (
    Level("easy", "greedy", N_("Easy"), N_("plays its strongest show, else the scout that best lengthens a set or run")),
    Level("medium", "heuristic", N_("Medium"), N_("plans one move ahead with a model of the round's end")),
    Level("hard", "skilled", N_("Hard"), N_("scores every move by the hand it leaves, with weights tuned in self-play")),
    Level("expert", "mcts:seconds=0.8", N_("Expert"),
          N_("plays each of its best moves out to the round's end on up to 300 sampled deals, stopping at 0.8 seconds")),
)
#: The strongest level that answers within a second.
DEFAULT_LEVEL = "expert"


class UnknownLevel(ValueError):
    """A level name that is not one of LEVELS."""


def level_names() -> list[str]:
    return [level.name for level in LEVELS]


def installed(level: Level) -> bool:
    """Whether the level's bot can be built here (a plugin bot may be missing)."""
    return level.bot.partition(":")[0] in known_bots()


def find_level(name: str) -> Level:
    """The level called `name`; UnknownLevel naming the levels otherwise."""
    for level in LEVELS:
        if level.name == name.strip().lower():
            return level
    raise UnknownLevel(f"unknown level {name!r}; the levels are {', '.join(level_names())}")


def level_bot(name: str = DEFAULT_LEVEL) -> str:
    """The bot spec of level `name`, or of the next weaker installed level if its bot is missing (then stronger ones)."""
    index = LEVELS.index(find_level(name))
    # weaker first: a missing bot should not turn a chosen level into a harder one
    for level in (*LEVELS[index::-1], *LEVELS[index + 1:]):
        if installed(level):
            return level.bot
    return "random"


def available_levels() -> list[Level]:
    """The levels whose bots are installed, weakest first."""
    return [level for level in LEVELS if installed(level)]
