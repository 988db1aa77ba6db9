"""A cheap playing policy for search rollouts: greedy in spirit, a few list scans per move.

Rollouts play thousands of moves per decision, so this reads the engine state directly
(the sampled state the search owns, never the real one) and avoids the hand analysis
of the greedy bot: the longest legal show, else a scout placed beside an equal or
neighbouring number. `explore` is the share of moves chosen at random, so rollouts do
not all follow one line.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from scoutlab.engine.actions import SHOW_BASE
from scoutlab.engine.cards import SHIFT, flipped

if TYPE_CHECKING:
    from scoutlab.engine.state import GameState


def playout_action(state: GameState, rng: random.Random, explore: float = 0.1) -> int:
    """A quick, reasonable legal action for the seat to act in `state`."""
    legal = state.legal_actions()
    codec = state.rules.codec
    if rng.random() < explore:
        return legal[rng.randrange(len(legal))]
    if legal[0] < SHOW_BASE:
        return legal[0]  # keep the hand as dealt
    width = codec.width
    best_show, best_length = -1, 0
    for code in legal:
        if code >= codec.scout_base:
            break  # codes are listed shows first
        length = (code - SHOW_BASE) % width + 1
        if length > best_length or (length == best_length and rng.random() < 0.5):
            best_show, best_length = code, length
    if best_show >= 0:
        return best_show
    if legal[0] < codec.sns_base and legal[0] >= codec.scout_base:
        return _scout(state, codec, rng)
    return legal[rng.randrange(len(legal))]


def _scout(state: GameState, codec, rng: random.Random) -> int:
    """Insert an end card of the active set beside a card of the same number (best) or a neighbour."""
    tops = [c >> SHIFT for c in state.hands[state.to_act]]
    size = len(tops)
    active = state.active
    best: list[tuple[int, int, int]] = []
    best_score = -1
    for end in ((0,) if len(active) == 1 else (0, 1)):
        taken = active[-1] if end else active[0]
        for flip in (0, 1):
            value = (flipped(taken) if flip else taken) >> SHIFT
            # fit[i]: what sitting next to card i is worth: 2 if equal, 1 if one apart
            fit = [2 if t == value else 1 if t - value in (1, -1) else 0 for t in tops]
            for gap in range(size + 1):
                score = (fit[gap - 1] if gap else 0) + (fit[gap] if gap < size else 0)
                if score > best_score:
                    best, best_score = [(end, flip, gap)], score
                elif score == best_score:
                    best.append((end, flip, gap))
    return codec.scout(*best[rng.randrange(len(best))])
