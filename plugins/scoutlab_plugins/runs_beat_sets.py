"""House rule: with equal counts a run beats a set (the official order has the set win).

Every other comparison (more cards beat fewer, the higher lowest number between two
sets or two runs, equal is not stronger) is left to the next plugin, in the end to
the built-in rules. A single card is a set of one, so singles still compare by number.
"""

from __future__ import annotations

from scoutlab.host.hookspecs import ShowInfo, hookimpl

summary = "with equal counts a run beats a set"


@hookimpl
def scoutlab_show_beats(show: ShowInfo, active: ShowInfo) -> bool | None:
    if len(show.values) != len(active.values) or {show.kind, active.kind} != {"run", "set"}:
        return None
    return show.kind == "run"
