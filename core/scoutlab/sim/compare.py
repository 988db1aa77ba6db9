"""Comparing variants metric by metric: paired on shared deals where possible, Holm-corrected.

Two variants share deals when they have the same player count and deal the same
cards the same way: then game i of both is dealt from the same seed, and the
difference is measured game by game (common random numbers), which cancels most of
the luck of the deal. Otherwise the two samples are independent and the
difference's variance is the sum of the two.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scoutlab.rules import Rules
from scoutlab.sim.metrics import Estimate, Metric
from scoutlab.sim.stats import holm, normal_interval, two_sided_p
from scoutlab.sim.tally import CrossSums, PairTally, Sums, Tally, paired_standard_error, unpaired_standard_error

ALPHA = 0.05


def deal_difference(a: Rules, players_a: int, b: Rules, players_b: int) -> str | None:
    """Why games of A and B cannot share deals, or None when the same seed deals the same hands."""
    if players_a != players_b:
        return f"player counts differ ({players_a} vs {players_b})"
    n = players_a
    deck_a, deck_b = a.deck_for(n), b.deck_for(n)
    if deck_a != deck_b:
        return f"decks differ ({len(deck_a)} vs {len(deck_b)} cards)"
    if a.hand_size[n] != b.hand_size[n]:
        return f"deal sizes differ ({a.hand_size[n]} vs {b.hand_size[n]} cards)"
    if (a.shuffle_once, a.random_orientation) != (b.shuffle_once, b.random_orientation):
        return "the decks are shuffled differently"
    return None


@dataclass(frozen=True)
class Difference:
    """One metric of B minus the same metric of A, with its interval and test."""

    key: str
    label: str
    group: str
    unit: str
    a: Estimate
    b: Estimate
    value: float
    low: float
    high: float
    p: float
    p_holm: float = 1.0
    significant: bool = False


def comparable(metric: Metric, same_players: bool) -> bool:
    """Metrics with a per-game value in both variants; seat metrics only when the seats match."""
    if metric.interval == "bootstrap":
        return False  # a spread has no per-game value to pair; shown side by side instead
    if metric.key.startswith(("win.", "score.")):
        return same_players
    if metric.key == "luck":
        return same_players  # 1 - w has a fair share that moves with n: skill depth is the comparable one
    return True


def differences(metrics: list[Metric], a: Tally, b: Tally, est_a: dict[str, Estimate],
                est_b: dict[str, Estimate], pair: PairTally | None, players: tuple[int, int]) -> list[Difference]:
    """B - A for every metric both variants measured (p-values not yet corrected)."""
    rows = []
    for metric in metrics:
        if not comparable(metric, players[0] == players[1]) or metric.key not in est_b:
            continue
        sums_a, sums_b = a.sums.get(metric.key), b.sums.get(metric.key)
        if sums_a is None or sums_b is None or sums_a.ratio is None or sums_b.ratio is None:
            continue
        value = sums_b.ratio - sums_a.ratio
        cross = pair.cross.get(metric.key) if pair else None
        if metric.interval == "wilson":  # a game's win share: keep a run of all wins from claiming certainty
            outcomes = (_win_and_loss(metric, players[0]), _win_and_loss(metric, players[1]))
            sums_a, sums_b, cross = _with_pseudo_games(sums_a, sums_b, cross, outcomes)
        se = paired_standard_error(sums_a, sums_b, cross) if cross else unpaired_standard_error(sums_a, sums_b)
        low, high = normal_interval(value, se)
        rows.append(Difference(metric.key, metric.label, metric.group, metric.unit, est_a[metric.key],
                               est_b[metric.key], value, low, high, two_sided_p(value, se)))
    return rows


def _win_and_loss(metric: Metric, players: int) -> tuple[float, float]:
    """A won and a lost game's per-game value: shifted by -1/n over the fair share, rescaled for skill depth."""
    if not metric.shift:
        return 1.0, 0.0
    fair = 1 / players
    scale = 1 / (1 - fair) if metric.scale != 1.0 else 1.0
    return (1 - fair) * scale, -fair * scale


def _with_pseudo_games(a: Sums, b: Sums, cross: CrossSums | None, outcomes):
    """Copies with one pseudo-win and one pseudo-loss per variant, for the standard error only.

    Unpaired, this is the Agresti-Caffo adjustment; paired, every combination of win and
    loss is added once (as Agresti and Min add to each cell of the paired table).
    """
    (win_a, loss_a), (win_b, loss_b) = outcomes
    a, b = replace(a), replace(b)
    if cross is None:
        for value_a, value_b in ((win_a, win_b), (loss_a, loss_b)):
            a.add(value_a, 1)
            b.add(value_b, 1)
        return a, b, None
    cross = replace(cross)
    for value_a in (win_a, loss_a):
        for value_b in (win_b, loss_b):
            a.add(value_a, 1)
            b.add(value_b, 1)
            cross.add((value_a, 1), (value_b, 1))
    return a, b, cross


def correct(rows: list[Difference], alpha: float = ALPHA) -> list[Difference]:
    """Holm-Bonferroni over all the rows given (every test of one compare run is one family)."""
    adjusted = holm([row.p for row in rows])
    return [
        Difference(**{**row.__dict__, "p_holm": p, "significant": p < alpha})
        for row, p in zip(rows, adjusted)
    ]
