"""Streaming accumulators: per-game observations are added here and then forgotten.

Every scalar metric is observed once per game as a pair (num, den): a per-game mean
has den = 1, a per-round rate has den = the game's rounds, a per-decision share has
den = the game's decisions. Keeping the sums of num, den, their squares and their
product is enough for the ratio estimate sum(num) / sum(den) and its interval with
the game as the unit (rounds of one game are not independent), in constant memory.
A PairTally adds the cross products that paired differences need.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

Observation = tuple[float, float]  # (num, den) for one game


@dataclass
class Sums:
    """Sums over games of one metric's (num, den)."""

    n: int = 0
    num: float = 0
    den: float = 0
    num2: float = 0
    den2: float = 0
    numden: float = 0

    def add(self, num: float, den: float) -> None:
        self.n += 1
        self.num += num
        self.den += den
        self.num2 += num * num
        self.den2 += den * den
        self.numden += num * den

    def merge(self, other: Sums) -> None:
        self.n += other.n
        self.num += other.num
        self.den += other.den
        self.num2 += other.num2
        self.den2 += other.den2
        self.numden += other.numden

    @property
    def ratio(self) -> float | None:
        """sum(num) / sum(den); None when nothing was observed (e.g. no Scout & Show in the variant)."""
        return self.num / self.den if self.den else None

    def linearised_ss(self) -> float:
        """Sum over games of (num - R den)^2: the spread of the ratio's per-game influence."""
        r = self.ratio or 0.0
        return max(self.num2 - 2 * r * self.numden + r * r * self.den2, 0.0)

    def standard_error(self) -> float:
        """Standard error of the ratio, by linearisation with games as clusters (= s/sqrt(n) when den = 1)."""
        if self.n < 2 or not self.den:
            return math.inf
        mean_den = self.den / self.n
        variance = self.linearised_ss() / (self.n - 1) / (mean_den * mean_den)
        return math.sqrt(variance / self.n)


@dataclass
class CrossSums:
    """Cross products of one metric's per-game (num, den) under variants A and B on the same deals."""

    n: int = 0
    num_num: float = 0
    num_den: float = 0  # num under A times den under B
    den_num: float = 0
    den_den: float = 0

    def add(self, a: Observation, b: Observation) -> None:
        self.n += 1
        self.num_num += a[0] * b[0]
        self.num_den += a[0] * b[1]
        self.den_num += a[1] * b[0]
        self.den_den += a[1] * b[1]

    def merge(self, other: CrossSums) -> None:
        self.n += other.n
        self.num_num += other.num_num
        self.num_den += other.num_den
        self.den_num += other.den_num
        self.den_den += other.den_den


def paired_standard_error(a: Sums, b: Sums, cross: CrossSums) -> float:
    """Standard error of ratio(B) - ratio(A) when game i of A and game i of B share a deal."""
    n = cross.n
    if n < 2 or not a.den or not b.den:
        return math.inf
    ra, rb = a.num / a.den, b.num / b.den  # both observed: the dens were checked above
    mean_a, mean_b = a.den / n, b.den / n
    var_a = a.linearised_ss() / (n - 1) / mean_a**2
    var_b = b.linearised_ss() / (n - 1) / mean_b**2
    # sum of (numA - rA denA)(numB - rB denB), expanded into the stored cross products
    cross_ss = cross.num_num - rb * cross.num_den - ra * cross.den_num + ra * rb * cross.den_den
    covariance = cross_ss / (n - 1) / (mean_a * mean_b)
    return math.sqrt(max(var_a + var_b - 2 * covariance, 0.0) / n)


def unpaired_standard_error(a: Sums, b: Sums) -> float:
    return math.sqrt(a.standard_error() ** 2 + b.standard_error() ** 2)


@dataclass
class Tally:
    """Everything kept about a run of one variant: metric sums, histograms and peaks."""

    games: int = 0
    sums: dict[str, Sums] = field(default_factory=dict)
    histograms: dict[str, Counter] = field(default_factory=dict)
    peaks: dict[str, float] = field(default_factory=dict)

    def add(self, observations: dict[str, Observation], histograms: dict[str, list] | None = None,
            peaks: dict[str, float] | None = None) -> None:
        """Fold one game in."""
        self.games += 1
        self.add_observations(observations)
        for key, values in (histograms or {}).items():
            self.histograms.setdefault(key, Counter()).update(values)
        for key, value in (peaks or {}).items():
            self.peaks[key] = max(self.peaks.get(key, value), value)

    def add_observations(self, observations: dict[str, Observation]) -> None:
        """Fold in metric values only (a skill game adds to its own keys, not to `games`)."""
        for key, (num, den) in observations.items():
            self.sums.setdefault(key, Sums()).add(num, den)

    def merge(self, other: Tally) -> None:
        """Fold another tally in (chunks are merged in game order, so float sums never depend on workers)."""
        self.games += other.games
        for key, sums in other.sums.items():
            self.sums.setdefault(key, Sums()).merge(sums)
        for key, counts in other.histograms.items():
            self.histograms.setdefault(key, Counter()).update(counts)
        for key, value in other.peaks.items():
            self.peaks[key] = max(self.peaks.get(key, value), value)


@dataclass
class PairTally:
    """Cross products, per metric, for two variants played on the same deals."""

    cross: dict[str, CrossSums] = field(default_factory=dict)
    games: int = 0  # games of the pair compared move by move (skill games included)
    alike: int = 0  # of those, the games in which every seat chose the same action at every turn in both variants

    def add(self, a: dict[str, Observation], b: dict[str, Observation]) -> None:
        for key, observed in a.items():
            if key in b:
                self.cross.setdefault(key, CrossSums()).add(observed, b[key])

    def add_play(self, same: bool) -> None:
        self.games += 1
        self.alike += same

    def merge(self, other: PairTally) -> None:
        for key, sums in other.cross.items():
            self.cross.setdefault(key, CrossSums()).merge(sums)
        self.games += other.games
        self.alike += other.alike
