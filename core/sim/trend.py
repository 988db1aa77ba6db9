"""A sweep's trend: how much a metric moves per unit of the swept value, with a 95% interval.

For a sweep over one numeric setting with three or more points, each chosen metric
gets the weighted least-squares slope of its point estimates on the setting's values
(Holm-corrected over the sweep's metrics),
each point weighted by 1 / SE² (SE read back from its 95% interval). The slope's
variance is 1 / Σ wᵢ (xᵢ − x̄)² (the textbook WLS result with known variances). It
treats the points as independent: points that share deals are positively correlated,
which makes the true interval narrower, so this one is conservative for them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from scoutlab.sim.compare import ALPHA
from scoutlab.sim.stats import holm, normal_interval, two_sided_p, z_value

MIN_POINTS = 3


@dataclass(frozen=True)
class Trend:
    """The change of one metric per unit of the swept value."""

    key: str
    label: str
    unit: str
    slope: float
    low: float
    high: float
    p: float
    points: int
    p_holm: float = 1.0  # Holm-adjusted over the sweep's trends
    significant: bool = False


def weighted_slope(xs: Sequence[float], ys: Sequence[float], ses: Sequence[float]) -> tuple[float, float]:
    """(slope, its standard error) of y on x, weights 1 / SE²; raises ValueError when it cannot be fitted."""
    if len(xs) < 2 or any(not (se > 0 and math.isfinite(se)) for se in ses):
        raise ValueError("a slope needs two points or more, each with a finite, positive standard error")
    weights = [1 / (se * se) for se in ses]
    total = sum(weights)
    mean_x = sum(w * x for w, x in zip(weights, xs)) / total
    mean_y = sum(w * y for w, y in zip(weights, ys)) / total
    sxx = sum(w * (x - mean_x) ** 2 for w, x in zip(weights, xs))
    if sxx <= 0:
        raise ValueError("the swept values are all the same")
    sxy = sum(w * (x - mean_x) * (y - mean_y) for w, x, y in zip(weights, xs, ys))
    return sxy / sxx, math.sqrt(1 / sxx)


def trends(report) -> list[Trend]:
    """The trend of every chosen metric, for a sweep over one numeric setting with enough points."""
    info = report.sweep or {}
    settings = info.get("settings", [])
    if len(settings) != 1:
        return []
    path = settings[0]["path"]
    xs_all = [point[path] for point in info.get("points", [])]
    if len(xs_all) < MIN_POINTS or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in xs_all):
        return []
    z = z_value()
    out = []
    for key in info.get("metrics", []):
        estimates = [v.estimate(key) for v in report.variants]
        if any(e is None or e.value is None or e.low is None or e.high is None for e in estimates):
            continue
        ses = [(e.high - e.low) / (2 * z) for e in estimates]
        try:
            slope, se = weighted_slope(xs_all, [e.value for e in estimates], ses)
        except ValueError:
            continue  # a point with no spread (a share of exactly 0 or 1) or no interval: no fair weight
        low, high = normal_interval(slope, se)
        first = estimates[0]
        out.append(Trend(key, first.label, first.unit, slope, low, high, two_sided_p(slope, se), len(xs_all)))
    adjusted = holm([t.p for t in out])  # one family: the trends of this sweep
    return [replace(t, p_holm=p, significant=p < ALPHA) for t, p in zip(out, adjusted)]


def sentence(trend: Trend, path: str) -> str:
    """The trend in words, with its interval."""
    numbers = (f"{_signed(trend.slope, trend.unit)} per step "
               f"[{_signed(trend.low, trend.unit)}, {_signed(trend.high, trend.unit)}]")
    if trend.significant:
        direction = "rises" if trend.slope > 0 else "falls"
        return (f"Each +1 in {path}: {trend.label} {direction}, {numbers} "
                f"(weighted least squares over {trend.points} points; Holm p {_p(trend.p_holm)}).")
    return (f"Each +1 in {path}: no linear trend in {trend.label} that this sample can show, "
            f"{numbers} (weighted least squares over {trend.points} points).")


def _signed(value: float, unit: str) -> str:
    if unit == "share":
        return f"{value * 100:+.1f} pp"
    return f"{value:+.3f}" if unit == "fraction" else f"{value:+.2f}"


def _p(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"{p:.3f}"
