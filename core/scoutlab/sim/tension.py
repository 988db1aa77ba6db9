"""Lead changes, drama, security and decisiveness of one game, from its lead history.

The lead history is each seat's running score (what the seat would score if the
round ended now, added to its total) before the first move of play and after every
move. The measures follow Browne (2008) as Ludii and CardStock define them;
docs/metrics.md gives each definition with its source and where we differ.
All functions are pure and take the history and the winners, so tests can build
histories by hand.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

History = Sequence[Sequence[float]]  # history[t][seat]


def sole_leader(scores: Sequence[float]) -> int | None:
    """The seat strictly ahead of every other, or None when the top is shared."""
    best = max(scores)
    leaders = [seat for seat, score in enumerate(scores) if score == best]
    return leaders[0] if len(leaders) == 1 else None


def lead_changes(history: History) -> int:
    """How often a different seat goes strictly ahead of the last seat that led alone.

    A tie at the top is not a change; the lead changes hands when someone else leads alone.
    """
    changes = 0
    last = None
    for scores in history:
        leader = sole_leader(scores)
        if leader is None:
            continue
        if last is not None and leader != last:
            changes += 1
        last = leader
    return changes


def rank_estimate(scores: Sequence[float], seat: int) -> float:
    """The seat's rank scaled to [0, 1]: 1 ahead of all, 0 behind all, ties count half."""
    others = len(scores) - 1
    below = sum(1 for s, score in enumerate(scores) if s != seat and score < scores[seat])
    level = sum(1 for s, score in enumerate(scores) if s != seat and score == scores[seat])
    return (below + level / 2) / others


def drama_threshold(players: int) -> float:
    """CardStock's threshold: halfway between the top rank (1) and the second ((n-2)/(n-1))."""
    return (1 + (players - 2) / (players - 1)) / 2


def trailing_severities(history: History, winners: Sequence[int]) -> list[float]:
    """For every point where an eventual winner ranks below the threshold: sqrt(threshold - rank)."""
    threshold = drama_threshold(len(history[0]))
    severities = []
    for scores in history:
        for winner in winners:
            estimate = rank_estimate(scores, winner)
            if estimate < threshold:
                severities.append(math.sqrt(threshold - estimate))
    return severities


def drama(history: History, winners: Sequence[int]) -> float:
    """CardStock's Drama: mean severity of the eventual winner's trailing points (0 if it never trailed)."""
    severities = trailing_severities(history, winners)
    return sum(severities) / len(severities) if severities else 0.0


def security(history: History, winners: Sequence[int]) -> float:
    """CardStock's Security: 1 - the share of points at which the eventual winner was trailing."""
    trailing = len(trailing_severities(history, winners)) / len(winners)
    return 1 - trailing / len(history)


def winner_deficit(history: History, winners: Sequence[int]) -> float:
    """Ludii's Drama (average): mean over points of how far the winners are behind the best score."""
    total = 0.0
    for scores in history:
        best = max(scores)
        total += sum(best - scores[w] for w in winners) / len(winners)
    return total / len(history)


def decisiveness(history: History, winners: Sequence[int]) -> float:
    """Ludii's Decisiveness: the share of the game played before a winner passes every loser's peak.

    The threshold is the highest running score any eventual loser ever reached; the
    result is the index of the first point where a winner is above it, over the
    number of moves (1.0 when that never happens). Lower means decided earlier.
    """
    losers = [seat for seat in range(len(history[0])) if seat not in winners]
    moves = max(len(history) - 1, 1)
    if not losers:
        return 1.0  # everyone tied: the game was never decided
    threshold = max(scores[seat] for scores in history for seat in losers)
    for point, scores in enumerate(history):
        if any(scores[w] > threshold for w in winners):
            return point / moves
    return 1.0
