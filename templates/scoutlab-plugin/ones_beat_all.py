"""House rule: a set of three or more 1s beats any show that is not such a set.

Between two such sets the usual order decides (more 1s beat fewer), and every other
comparison is left to the official rules, so the rule only adds a trump.
Config: `at_least` (default 3), how many 1s make the trump.
"""

from __future__ import annotations

from typing import Any

from scoutlab import ShowInfo, hookimpl

summary = "a set of three or more 1s beats any other show"


class OnesBeatAll:
    def __init__(self, at_least: int = 3):
        self.at_least = at_least

    def trump(self, show: ShowInfo) -> bool:
        """Whether this show is a set of enough 1s."""
        return show.kind == "set" and show.values[0] == 1 and len(show.values) >= self.at_least

    @hookimpl
    def scoutlab_show_beats(self, show: ShowInfo, active: ShowInfo) -> bool | None:
        mine, theirs = self.trump(show), self.trump(active)
        if mine == theirs:
            return None  # both trumps or neither: the usual order (the official rules) decides
        return mine


def make_plugin(config: dict[str, Any]) -> OnesBeatAll:
    """The plugin for a spec's `config:` ({} when the spec gives none); a bad config is refused."""
    unknown = sorted(set(config) - {"at_least"})
    if unknown:
        raise ValueError(f"unknown config keys {unknown}; the only one is at_least")
    at_least = config.get("at_least", 3)
    if type(at_least) is not int or at_least < 2:
        raise ValueError(f"at_least must be a whole number of 2 or more, not {at_least!r}")
    return OnesBeatAll(at_least)
