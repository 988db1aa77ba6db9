"""The metric catalogue, and turning a variant's tally into estimates with 95% intervals.

docs/metrics.md defines each metric and says which interval it gets:
  wilson      Wilson score interval on games (win rates; shifted by -1/n for advantages, rescaled for skill depth)
  mean        normal interval of a mean or a ratio, games as the unit (linearised)
  share       like mean, clipped to [0, 1]; at exactly 0 or 1, Wilson on games instead
  bootstrap   percentile bootstrap from the histogram (score spread)
"""

from __future__ import annotations

from dataclasses import dataclass

from scoutlab.sim.stats import bootstrap_histogram, chi_square_uniform, histogram_sd, normal_interval, wilson
from scoutlab.sim.tally import Tally

REASON_WORDS = {
    "hand_emptied": "(i) a hand emptied",
    "rule_ii": "(ii) a show stood",
    "everyone_scouted": "everyone else scouted",
    "opponent_stuck": "next player stuck",
    "turn_cap": "turn cap hit",
    "no_legal_action": "no legal action",
}


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    group: str
    unit: str  # "share" (shown as %), "points", "count", "turn", "fraction"
    interval: str  # "wilson", "mean", "share" or "bootstrap" (see module doc)
    source: str = ""  # the tally key it is computed from, when not `key`
    shift: float = 0.0  # added to value and interval (e.g. -1/n for an advantage over a fair share)
    scale: float = 1.0  # then multiplied (skill depth: 1/(1 - 1/n), so that winning always is 1)


@dataclass(frozen=True)
class Estimate:
    """One metric of one variant: value and 95% interval (None when there was nothing to measure)."""

    key: str
    label: str
    group: str
    unit: str
    value: float | None
    low: float | None
    high: float | None
    n: int  # games behind the estimate
    method: str


def catalogue(players: int, reasons: tuple[str, ...], skill: tuple[str, str] | None = None) -> list[Metric]:
    """Every metric of a variant with this many players and these round-end reasons, in display order.

    `skill` is (strong bot, weaker bot) when skill games were played.
    """
    seats = range(players)
    fair = -1 / players
    out = [Metric(f"win.{s}", f"P{s + 1} win rate", "Outcome", "share", "wilson") for s in seats]
    out += [
        Metric("first_player", "first-player advantage (P1 win rate - 1/n)", "Outcome", "share", "wilson",
               source="win.0", shift=fair),
        Metric("starter_edge", "round starter's score edge over the others", "Outcome", "points", "mean"),
        Metric("score", "score per player", "Scores", "points", "mean"),
        Metric("score_round", "score per player per round", "Scores", "points", "mean"),
    ]
    out += [Metric(f"score.{s}", f"P{s + 1} score", "Scores", "points", "mean") for s in seats]
    out += [Metric(f"spread.{s}", f"P{s + 1} score spread (SD)", "Scores", "points", "bootstrap",
                   source=f"score.{s}") for s in seats]
    out += [
        Metric("margin", "winner's margin over the runner-up", "Scores", "points", "mean"),
        Metric("margin_round", "winner's margin per round", "Scores", "points", "mean"),
        Metric("rounds", "rounds per game", "Length", "count", "mean"),
        Metric("turns", "turns per game", "Length", "count", "mean"),
        Metric("turns_per_round", "turns per round", "Length", "count", "mean"),
    ]
    out += [Metric(f"end.{r}", f"round ends: {REASON_WORDS.get(r, r)}", "Round ends", "share", "share")
            for r in reasons]
    out += [
        Metric("scouts", "scouts per round", "Actions", "count", "mean"),
        Metric("sns", "Scout & Show per round", "Actions", "count", "mean"),
        Metric("scout_turn", "turn of a scout (mean)", "Actions", "turn", "mean"),
        Metric("scout_timing", "scout timing (share of the round gone)", "Actions", "fraction", "mean"),
        Metric("sns_turn", "turn of a Scout & Show (mean)", "Actions", "turn", "mean"),
        Metric("sns_timing", "Scout & Show timing (share of the round gone)", "Actions", "fraction", "mean"),
        Metric("captured", "cards captured per round", "Actions", "count", "mean"),
        Metric("branching", "branching factor (legal actions per decision)", "Decisions", "count", "mean"),
        Metric("branching_max", "widest decision of a game (mean)", "Decisions", "count", "mean"),
        Metric("forced", "forced decisions (one legal action)", "Decisions", "share", "share"),
        Metric("lead_changes", "lead changes per game", "Tension", "count", "mean"),
        Metric("lead_changes_round", "lead changes per round", "Tension", "count", "mean"),
        Metric("lead_change_rate", "lead changes per move (Ludii)", "Tension", "fraction", "mean"),
        Metric("drama", "drama (CardStock)", "Tension", "fraction", "mean"),
        Metric("security", "security (CardStock)", "Tension", "fraction", "mean"),
        Metric("deficit", "winner's mean deficit (Ludii drama), points", "Tension", "points", "mean"),
        Metric("decisiveness", "decisiveness (Ludii): share of the game before it is decided",
               "Tension", "fraction", "mean"),
    ]
    if skill:
        strong, weak = skill
        out += [
            Metric("skill_depth", f"skill depth: {strong} among {weak}", "Skill and luck",
                   "fraction", "wilson", source="skill_win", shift=fair, scale=1 / (1 + fair)),
            Metric("luck", f"luck: {weak} still wins against {strong}", "Skill and luck", "share", "wilson"),
        ]
    return out


def estimate(metric: Metric, tally: Tally, seed: int = 0) -> Estimate:
    """The metric's value and 95% interval from the tally."""
    if metric.interval == "bootstrap":
        return _spread(metric, tally, seed)
    sums = tally.sums.get(metric.source or metric.key)
    if sums is None or sums.ratio is None:
        return Estimate(metric.key, metric.label, metric.group, metric.unit, None, None, None,
                        sums.n if sums else 0, metric.interval)
    value = sums.ratio
    if metric.interval == "wilson":
        low, high = wilson(sums.num, sums.n)
    elif metric.interval == "share" and value in (0.0, 1.0):
        low, high = wilson(value * sums.n, sums.n)  # no spread to measure: Wilson on games, conservatively
    else:
        low, high = normal_interval(value, sums.standard_error())
        if metric.interval == "share":
            low, high = max(low, 0.0), min(high, 1.0)
    shift, scale = metric.shift, metric.scale
    return Estimate(metric.key, metric.label, metric.group, metric.unit,
                    (value + shift) * scale, (low + shift) * scale, (high + shift) * scale, sums.n, metric.interval)


def _spread(metric: Metric, tally: Tally, seed: int) -> Estimate:
    histogram: dict[float, int] = tally.histograms.get(metric.source, {})
    n = sum(histogram.values())
    if n < 2:
        return Estimate(metric.key, metric.label, metric.group, metric.unit, None, None, None, n, "bootstrap")
    values, counts = zip(*sorted(histogram.items()))
    import numpy as np

    value = float(histogram_sd(np.asarray(values, float), np.asarray(counts, float)))
    low, high = bootstrap_histogram(values, counts, histogram_sd, seed=seed)
    return Estimate(metric.key, metric.label, metric.group, metric.unit, value, low, high, n, "bootstrap")


def estimates(tally: Tally, players: int, reasons: tuple[str, ...], skill: tuple[str, str] | None = None,
              seed: int = 0) -> list[Estimate]:
    """Every metric of one variant's tally, in display order."""
    return [estimate(m, tally, seed=(seed & 0xFFFFFFFF) * 101 + i)
            for i, m in enumerate(catalogue(players, reasons, skill))]


def fairness(tally: Tally, players: int) -> dict[str, float]:
    """Chi-square test that every seat wins 1/n of the games (ties split 1/k)."""
    wins = [tally.sums[f"win.{s}"].num if f"win.{s}" in tally.sums else 0.0 for s in range(players)]
    statistic, df, p = chi_square_uniform(wins)
    return {"chi2": statistic, "df": df, "p": p}
