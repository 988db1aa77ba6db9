"""A sweep's trend: how a metric moves with the swept value, with 95% intervals; straight or curved.

For a sweep over one numeric setting with three or more points, each chosen metric
gets the weighted least-squares slope of its point estimates on the setting's values
(Holm-corrected over the sweep's metrics), each point weighted by 1 / SE² (SE read
back from its 95% interval). The slope's variance is 1 / Σ wᵢ (xᵢ − x̄)² (the textbook
WLS result with known variances). It treats the points as independent: points that
share deals are positively correlated, which makes the true interval narrower, so
this one is conservative for them.

Curvature: the same points are also fitted by a weighted quadratic, and its squared
term is tested (a normal test with known variances, Holm over the sweep's metrics).
Where it is significant the straight line is not used: the trend is the quadratic,
and its words come from two straight pieces joined at the point where they fit best
(each piece a WLS slope with its interval), e.g. "rises slowly up to x=1, then
steeply". The chosen curve and its covariance are kept for the charts' 95% band.
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
    """How one metric moves with the swept value: its straight-line slope, its curvature, the curve chosen."""

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
    curvature: float = 0.0  # the quadratic fit's squared term, per step²
    curvature_low: float = 0.0
    curvature_high: float = 0.0
    curvature_p: float = 1.0
    curvature_p_holm: float = 1.0  # Holm-adjusted over the sweep's curvature tests
    curved: bool = False  # the curvature is significant: the quadratic is the trend, not the line
    center: float = 0.0  # the fits are in x - center (the weighted mean of the values)
    coefficients: tuple[float, ...] = ()  # the chosen fit's, lowest power first, in x - center
    covariance: tuple[tuple[float, ...], ...] = ()  # their covariance (known variances: (X'WX)^-1)
    xs: tuple[float, ...] = ()  # the swept values, ascending, and each point's estimate and SE
    ys: tuple[float, ...] = ()
    ses: tuple[float, ...] = ()
    effect: float = 0.0  # how far the fitted curve moves over the sweep, in per-game standard deviations

    @property
    def model(self) -> str:
        return "quadratic" if self.curved else "linear"


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


def weighted_polynomial(xs: Sequence[float], ys: Sequence[float], ses: Sequence[float], degree: int,
                        center: float = 0.0) -> tuple[list[float], list[list[float]]]:
    """WLS fit of y on powers of (x - center) up to `degree`, weights 1 / SE²: (coefficients, covariance).

    With known variances the covariance of the coefficients is (X'WX)^-1 (Draper & Smith 1998, ch. 9).
    """
    if len(xs) <= degree or any(not (se > 0 and math.isfinite(se)) for se in ses):
        raise ValueError("a fit of this degree needs more points, each with a finite, positive standard error")
    size = degree + 1
    normal = [[0.0] * size for _ in range(size)]
    right = [0.0] * size
    for x, y, se in zip(xs, ys, ses):
        w = 1 / (se * se)
        powers = [(x - center) ** k for k in range(size)]
        for i in range(size):
            right[i] += w * powers[i] * y
            for j in range(size):
                normal[i][j] += w * powers[i] * powers[j]
    covariance = _inverse(normal)
    coefficients = [sum(covariance[i][j] * right[j] for j in range(size)) for i in range(size)]
    return coefficients, covariance


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan inverse of a small symmetric positive-definite matrix; ValueError when singular."""
    size = len(matrix)
    rows = [list(row) + [1.0 if i == j else 0.0 for j in range(size)] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-12 * max(1.0, max(abs(v) for v in rows[pivot][:size])):
            raise ValueError("the swept values do not determine this fit")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        rows[col] = [v / head for v in rows[col]]
        for r in range(size):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [v - factor * p for v, p in zip(rows[r], rows[col])]
    return [row[size:] for row in rows]


def fitted(trend: Trend, x: float) -> tuple[float, float, float]:
    """The chosen fit at x with its pointwise 95% interval: (value, low, high)."""
    powers = [(x - trend.center) ** k for k in range(len(trend.coefficients))]
    value = sum(c * p for c, p in zip(trend.coefficients, powers))
    variance = sum(powers[i] * trend.covariance[i][j] * powers[j]
                   for i in range(len(powers)) for j in range(len(powers)))
    low, high = normal_interval(value, math.sqrt(max(variance, 0.0)))
    return value, low, high


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
    order = sorted(range(len(xs_all)), key=lambda i: xs_all[i])
    xs = tuple(float(xs_all[i]) for i in order)
    out = []
    for key in info.get("metrics", []):
        estimates = [report.variants[i].estimate(key) for i in order]
        if any(e is None or e.value is None or e.low is None or e.high is None for e in estimates):
            continue
        ys = tuple(e.value for e in estimates)
        ses = tuple((e.high - e.low) / (2 * z) for e in estimates)
        try:
            slope, se = weighted_slope(xs, ys, ses)
            center = sum(x / s**2 for x, s in zip(xs, ses)) / sum(1 / s**2 for s in ses)
            line = weighted_polynomial(xs, ys, ses, 1, center)
            curve = weighted_polynomial(xs, ys, ses, 2, center)
        except ValueError:
            continue  # a point with no spread (a share of exactly 0 or 1) or no interval: no fair weight
        low, high = normal_interval(slope, se)
        bend, bend_se = curve[0][2], math.sqrt(curve[1][2][2])
        bend_low, bend_high = normal_interval(bend, bend_se)
        spread = math.sqrt(sum(s * s * e.n for s, e in zip(ses, estimates)) / len(xs))  # per-game SD, pooled
        out.append((Trend(key, estimates[0].label, estimates[0].unit, slope, low, high, two_sided_p(slope, se),
                          len(xs_all), curvature=bend, curvature_low=bend_low, curvature_high=bend_high,
                          curvature_p=two_sided_p(bend, bend_se), center=center, xs=xs, ys=ys, ses=ses),
                    line, curve, spread))
    slopes = holm([t.p for t, *_ in out])  # one family: the slopes of this sweep
    bends = holm([t.curvature_p for t, *_ in out])  # another: its curvature tests
    done = []
    for (t, line, curve, spread), p, q in zip(out, slopes, bends):
        curved = q < ALPHA
        coefficients, covariance = curve if curved else line
        t = replace(t, p_holm=p, significant=p < ALPHA, curvature_p_holm=q, curved=curved,
                    coefficients=tuple(coefficients), covariance=tuple(map(tuple, covariance)))
        values = [fitted(t, x)[0] for x in xs]
        done.append(replace(t, effect=(max(values) - min(values)) / spread if spread > 0 else math.inf))
    return done


def pieces(trend: Trend) -> tuple[int, list[tuple[float, float, float]]]:
    """Two straight pieces joined at the inner point where they fit best: (that point's index, [(slope, low, high)] * 2).

    Each piece is a WLS line through its points (the joint counts in both); the joint minimises the
    weighted squared residuals of the two lines together (the first such point on a tie).
    """
    best: tuple[float, int, list[tuple[float, float, float]]] | None = None
    for k in range(1, len(trend.xs) - 1):
        residual, slopes = 0.0, []
        for part in (slice(0, k + 1), slice(k, len(trend.xs))):
            xs, ys, ses = trend.xs[part], trend.ys[part], trend.ses[part]
            slope, se = weighted_slope(xs, ys, ses)
            (intercept, _), _ = weighted_polynomial(xs, ys, ses, 1)
            residual += sum(((y - intercept - slope * x) / s) ** 2 for x, y, s in zip(xs, ys, ses))
            slopes.append((slope, *normal_interval(slope, se)))
        if best is None or residual < best[0] - 1e-12:
            best = (residual, k, slopes)
    assert best is not None  # a trend has three points or more
    return best[1], best[2]


def sentence(trend: Trend, path: str) -> str:
    """The trend in words, with its interval: a straight line, or two pieces where the curvature is significant."""
    if trend.curved:
        return _curve_sentence(trend, path)
    numbers = (f"{_signed(trend.slope, trend.unit)} per step "
               f"[{_signed(trend.low, trend.unit)}, {_signed(trend.high, trend.unit)}]")
    if trend.significant:
        direction = "rises" if trend.slope > 0 else "falls"
        return (f"Each +1 in {path}: {trend.label} {direction}, {numbers} "
                f"(weighted least squares over {trend.points} points; Holm p {_p(trend.p_holm)}).")
    return (f"Each +1 in {path}: no linear trend in {trend.label} that this sample can show, "
            f"{numbers} (weighted least squares over {trend.points} points).")


def _curve_sentence(trend: Trend, path: str) -> str:
    joint, ((s1, l1, h1), (s2, l2, h2)) = pieces(trend)
    verbs = [_verb(s, low, high) for s, low, high in ((s1, l1, h1), (s2, l2, h2))]
    if verbs[0] == verbs[1] and verbs[0] != "stays level":
        slow, steep = ("slowly", "steeply") if abs(s1) < abs(s2) else ("steeply", "slowly")
        first, then = f"{verbs[0]} {slow}", steep
    else:
        first, then = verbs
    name = path.rsplit(".", 1)[-1]
    at = ", ".join(f"{_value(y, trend.unit)} at {_number(x)}" for x, y in
                   ((trend.xs[0], trend.ys[0]), (trend.xs[joint], trend.ys[joint]), (trend.xs[-1], trend.ys[-1])))
    return (f"{_cap(trend.label)} is not a straight line in {path}: it {first} up to {name}={_number(trend.xs[joint])} "
            f"({_signed(s1, trend.unit)} per step [{_signed(l1, trend.unit)}, {_signed(h1, trend.unit)}]), "
            f"then {then} ({_signed(s2, trend.unit)} per step [{_signed(l2, trend.unit)}, {_signed(h2, trend.unit)}]); "
            f"{at} (curvature {_signed(trend.curvature, trend.unit)} per step² "
            f"[{_signed(trend.curvature_low, trend.unit)}, {_signed(trend.curvature_high, trend.unit)}], "
            f"Holm p {_p(trend.curvature_p_holm)}; a straight line would say {_signed(trend.slope, trend.unit)} per step).")


def _verb(slope: float, low: float, high: float) -> str:
    if low > 0:
        return "rises"
    if high < 0:
        return "falls"
    return "stays level"


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _value(value: float, unit: str) -> str:
    if unit == "share":
        return f"{value * 100:.1f}%"
    return f"{value:.3f}" if unit == "fraction" else f"{value:.2f}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _signed(value: float, unit: str) -> str:
    if unit == "share":
        return f"{value * 100:+.1f} pp"
    return f"{value:+.3f}" if unit == "fraction" else f"{value:+.2f}"


def _p(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"{p:.3f}"
