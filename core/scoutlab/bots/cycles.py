"""Breaking cycles: a bot that meets the same position twice in a round plays something else.

Sensible bots can still loop. With four heuristic bots (official rules, seed 20050) the
table went round a 5-turn cycle until the turn cap: show a single 9, scout it, show a
pair, scout it, scout the set empty, and again, every position coming back exactly,
each bot choosing what it chose before. docs/rules.md §4: the cap must never trigger in
ordinary play by sensible bots.

`Positions` remembers, per round, every position this seat has acted in (what its View
shows of it, less what only grows in a loop: turn, chips received, history) and what it
played there. Back in a position it has played before, the bot takes its best move not
yet played there; when it has played them all, the one played least. So every lap of a
cycle changes some seat's choice, and a deterministic bot can no longer repeat forever.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scoutlab.engine.state import View


def position_key(view: View) -> tuple:
    """What makes two decision points of one seat in a round the same position.

    Everything the seat sees of the table that a loop brings back: its hand, the active set
    and owner, every hand size, captured counts, the chips it can still spend, who acts.
    Not the turn count, the chips received or the history: those only grow.
    """
    return (
        view.hand, view.active, view.active_owner, view.hand_sizes, view.captured,
        view.chips_held, view.scout_show_chips, view.to_act,
    )


class Positions:
    """The positions a seat has played in this round, and what it played in each."""

    def __init__(self) -> None:
        self.round: tuple[int, int] | None = None  # (round, rounds ended): a new game resets too
        self.history = 0
        self.played: dict[tuple, dict[int, int]] = {}  # position -> {action code: times played}

    def _current(self, view: View) -> None:
        marker = (view.round, len(view.round_ends))
        if marker != self.round or len(view.history) < self.history:  # a new round, or a new game
            self.round, self.played = marker, {}
        self.history = len(view.history)

    def tried(self, view: View) -> dict[int, int]:
        """The moves played before in this view's position, with how often (empty: a new position)."""
        self._current(view)
        return self.played.get(position_key(view), {})

    def choose(self, view: View, ranked: Iterable[int]) -> int:
        """The first of `ranked` (best first) not played here before; if all were, the one played least.

        Records the choice. `ranked` must hold legal codes; the rest of `view.legal` follows them.
        """
        self._current(view)
        counts = self.played.setdefault(position_key(view), {})
        order = _then_rest(ranked, view.legal)
        code = next((c for c in order if c not in counts), None)
        if code is None:
            code = min(order, key=lambda c: counts[c])  # the first such, in the bot's order
        counts[code] = counts.get(code, 0) + 1
        return code

    def note(self, view: View, code: int) -> int:
        """Record a move chosen in a position seen for the first time; returns it."""
        self._current(view)
        counts = self.played.setdefault(position_key(view), {})
        counts[code] = counts.get(code, 0) + 1
        return code


def _then_rest(ranked: Iterable[int], legal: Sequence[int]) -> list[int]:
    order = list(dict.fromkeys(ranked))
    known = set(order)
    return order + [c for c in legal if c not in known]
