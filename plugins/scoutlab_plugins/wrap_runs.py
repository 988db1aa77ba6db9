"""House rule: runs may wrap around from the highest number to the lowest, e.g. 9-10-1 or 2-1-10.

Config (a spec's `plugins` entry): `lowest` and `highest`, the numbers a run wraps
between; defaults 1 and 10, the official deck. With three players the official deck
has no 10s, so no run wraps unless the spec says `highest: 9`.

What counts as a run: each number is one more than the one before (or each one less),
where one more than `highest` is `lowest`. A run never changes direction and never
repeats a number, so it has at most `highest - lowest + 1` cards. Every prefix of a
wrapping run is itself a run (wrapping or not), as the engine's show search requires.

Its strength: a wrapping run reads as if the numbers went on past the highest, so
9-10-1 counts as 9-10-11 and its lowest number is 9, the number it starts from going
up (2-1-10 is the same run read downwards: lowest number 10). It therefore beats
8-9-10, and 10-1-2 (lowest number 10) is the strongest run of three. Counts and kinds
compare as usual: more cards beat fewer, a set beats a run of equal count.

The plugin answers only comparisons that involve a wrapping run and defers every other
to the next plugin (in the end the built-in rules), so it combines with `runs-beat-sets`
when that one is listed after it (pluggy asks plugins registered later first).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from scoutlab.engine.shows import builtin_kind
from scoutlab.host.hookspecs import ShowInfo, hookimpl


class WrapRuns:
    """Runs wrap around from `highest` to `lowest`; a wrapping run ranks by the number it starts from going up."""

    def __init__(self, lowest: int = 1, highest: int = 10):
        self.lowest = lowest
        self.highest = highest
        self.summary = (
            f"runs may wrap around from {highest} to {lowest} (e.g. {highest - 1}-{highest}-{lowest}); "
            f"a wrapping run ranks by the number it starts from going up "
            f"({highest - 1}-{highest}-{lowest} counts as {highest - 1}-{highest}-{highest + 1})"
        )

    def _up(self, value: int) -> int:
        return self.lowest if value == self.highest else value + 1

    def run_start(self, values: tuple[int, ...]) -> int | None:
        """The number a run of these top numbers starts from going up (its lowest number), or None if no run.

        Wrapping is allowed; a non-wrapping run's start is its smallest number, as in the official rules.
        """
        if not 2 <= len(values) <= self.highest - self.lowest + 1:
            return None
        if not all(self.lowest <= v <= self.highest for v in values):
            return None
        if all(self._up(a) == b for a, b in pairwise(values)):
            return values[0]
        if all(self._up(b) == a for a, b in pairwise(values)):
            return values[-1]
        return None

    def wraps(self, values: tuple[int, ...]) -> bool:
        """Whether these numbers are a run only because this house rule lets runs wrap."""
        return self.run_start(values) is not None and builtin_kind(values) != "run"

    def rank(self, show: ShowInfo) -> tuple[int, int, int] | None:
        """(count, set over run, lowest number): the official order, with wrapping runs read from their start."""
        values = show.values
        if show.kind == "set":
            return (len(values), 1, values[0])
        start = self.run_start(values) if show.kind == "run" else None
        return None if start is None else (len(values), 0, start)

    @hookimpl
    def scoutlab_classify_show(self, values: tuple[int, ...]) -> str | None:
        # Sets and ordinary runs are the built-in rules' business: answer only for the new shows.
        return "run" if self.wraps(values) else None

    @hookimpl
    def scoutlab_show_beats(self, show: ShowInfo, active: ShowInfo) -> bool | None:
        if not (self.wraps(show.values) or self.wraps(active.values)):
            return None
        mine, theirs = self.rank(show), self.rank(active)
        if mine is None or theirs is None:
            return None  # a kind some other plugin invented: let it decide
        return mine > theirs


def make_plugin(config: dict[str, Any]) -> WrapRuns:
    """The plugin for a spec's config: `{lowest: 1, highest: 10}` by default; raises ValueError on bad config."""
    unknown = sorted(set(config) - {"lowest", "highest"})
    if unknown:
        raise ValueError(f"unknown key{'s' * (len(unknown) > 1)} {', '.join(unknown)} (wrap-runs takes lowest and highest)")
    lowest, highest = config.get("lowest", 1), config.get("highest", 10)
    for key, value in (("lowest", lowest), ("highest", highest)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{key} must be a whole number of at least 0, got {value!r}")
    if highest - lowest < 2:
        raise ValueError(f"highest ({highest}) must be at least lowest + 2 ({lowest + 2}) for a run to wrap")
    return WrapRuns(lowest, highest)
