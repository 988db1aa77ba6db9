"""Interval estimates and tests for the simulator, in plain Python (numpy only for the bootstrap).

Every interval is a 95% interval unless a `level` says otherwise. Large-sample normal
theory is used for means and ratios (runs are hundreds of games or more); shares get
the Wilson score interval, which stays sensible near 0 and 1. docs/metrics.md says
which metric uses which.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from statistics import NormalDist

LEVEL = 0.95


def z_value(level: float = LEVEL) -> float:
    """The two-sided normal quantile: 1.96 for a 95% interval."""
    return NormalDist().inv_cdf(0.5 + level / 2)


def wilson(successes: float, trials: int, level: float = LEVEL) -> tuple[float, float]:
    """Wilson score interval for a proportion; `successes` may be fractional (ties count 1/k)."""
    if trials <= 0:
        return (0.0, 1.0)
    z = z_value(level)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 or 1 the bound is exactly 0 or 1; rounding would otherwise leave a speck like 7e-18.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


def normal_interval(estimate: float, standard_error: float, level: float = LEVEL) -> tuple[float, float]:
    half = z_value(level) * standard_error
    return (estimate - half, estimate + half)


def two_sided_p(estimate: float, standard_error: float) -> float:
    """P-value of a normal test that the true value is 0."""
    if standard_error <= 0:
        return 1.0 if estimate == 0 else 0.0
    return 2 * (1 - NormalDist().cdf(abs(estimate) / standard_error))


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with integer `df` degrees of freedom (closed forms)."""
    if df < 1:
        raise ValueError(f"chi-square needs at least 1 degree of freedom, got {df}")
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        # Even df: the Poisson tail sum e^(-x/2) * sum_{i < df/2} (x/2)^i / i!
        term = total = math.exp(-half)
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return min(1.0, total)
    # Odd df: the df=1 tail 2(1 - Phi(sqrt x)) plus terms in the normal density.
    root = math.sqrt(x)
    total = math.erfc(root / math.sqrt(2))
    term = math.sqrt(2 / math.pi) * math.exp(-half) * root
    for i in range(1, (df - 1) // 2 + 1):
        total += term
        term *= x / (2 * i + 1)
    return min(1.0, total)


def chi_square_uniform(observed: Sequence[float]) -> tuple[float, int, float]:
    """Goodness of fit of `observed` counts against equal shares: (statistic, df, p-value)."""
    total = sum(observed)
    k = len(observed)
    if k < 2 or total <= 0:
        return (0.0, max(k - 1, 0), 1.0)
    expected = total / k
    statistic = sum((o - expected) ** 2 for o in observed) / expected
    return (statistic, k - 1, chi2_sf(statistic, k - 1))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the input order (reject where adjusted < alpha)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))  # step-down keeps them monotone
        adjusted[i] = running
    return adjusted


def bootstrap_histogram(
    values: Sequence[float],
    counts: Sequence[int],
    statistic: Callable,
    seed: int,
    replicates: int = 2000,
    level: float = LEVEL,
) -> tuple[float, float]:
    """Percentile bootstrap interval of `statistic` for a sample given as a histogram.

    The histogram is the whole sample (order does not matter for an i.i.d. sample), so
    resampling n draws from it is the ordinary bootstrap. `statistic(values, counts)`
    takes numpy arrays: `counts` is one row per replicate (shape replicates x k) and it
    returns one number per replicate.
    """
    import numpy as np

    values_arr = np.asarray(values, dtype=float)
    counts_arr = np.asarray(counts, dtype=float)
    n = int(counts_arr.sum())
    if n == 0:
        return (math.nan, math.nan)
    rng = np.random.default_rng(seed)
    resampled = rng.multinomial(n, counts_arr / n, size=replicates)
    stats = np.asarray(statistic(values_arr, resampled), dtype=float)
    tail = (1 - level) / 2
    low, high = np.quantile(stats, [tail, 1 - tail])
    return (float(low), float(high))


def histogram_sd(values, counts):
    """Sample standard deviation of each histogram row (numpy); the bootstrap statistic for spread."""
    import numpy as np

    n = counts.sum(axis=-1)
    mean = (counts * values).sum(axis=-1) / n
    square = (counts * values * values).sum(axis=-1) / n
    variance = np.maximum(square - mean * mean, 0) * n / np.maximum(n - 1, 1)
    return np.sqrt(variance)
