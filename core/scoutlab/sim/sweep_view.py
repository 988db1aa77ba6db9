"""A sweep's charts: each chosen metric against the swept value, with 95% error bars, and the fitted trend.

Over one numeric setting the x axis is the value itself and the chart draws the trend's fit (the
straight line, or the quadratic where the curvature test chose it) with its pointwise 95% band.
"""

from __future__ import annotations

from scoutlab.sim.charts import WIDTH, Chart, _legend_outside, _png, _pyplot
from scoutlab.sim.definitions import anchor
from scoutlab.sim.results import Report
from scoutlab.sim.trend import Trend, fitted

CURVE_STEPS = 60  # points along a fitted curve


def sweep_charts(report: Report) -> list[Chart]:
    """One line chart per chosen metric: x the first setting's values, one line per combination of the others."""
    info = report.sweep or {}
    settings, points = info.get("settings", []), info.get("points", [])
    charts = []
    for key in info.get("metrics", []):
        drawn = _metric_chart(report, key, settings, points)
        if drawn is not None:
            charts.append(drawn)
    return charts


def _metric_chart(report: Report, key: str, settings: list[dict], points: list[dict]) -> Chart | None:
    estimates = [v.estimate(key) for v in report.variants]
    if not any(e is not None and e.value is not None for e in estimates):
        return None
    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(WIDTH, 3.6))
    first, rest = settings[0], settings[1:]
    trend = _trend(report, key)
    position = float if trend else first["values"].index  # over a numeric trend, x is the value itself
    xs = [position(v) for v in first["values"]]
    lines: dict[tuple, list] = {}
    for point, e in zip(points, estimates):
        others = tuple((s["path"], _text(point[s["path"]])) for s in rest)
        lines.setdefault(others, []).append((position(point[first["path"]]), e))
    label = next(e.label for e in estimates if e is not None)
    unit = next(e.unit for e in estimates if e is not None)
    scale = 100 if unit == "share" else 1
    for i, (others, members) in enumerate(lines.items()):
        members = [(x, e) for x, e in members if e is not None and e.value is not None]
        if not members:
            continue
        ys = [e.value * scale for _, e in members]
        low = [(e.value - e.low) * scale for _, e in members]
        high = [(e.high - e.value) * scale for _, e in members]
        name = ", ".join(f"{path.rsplit('.', 1)[-1]}={value}" for path, value in others) or None
        ax.errorbar([x for x, _ in members], ys, yerr=[low, high], marker="o", capsize=4, color=f"C{i}", label=name)
    fit = ""
    if trend is not None:
        fit = _draw_fit(ax, trend, scale)
    ax.set_xticks(xs, [_text(v) for v in first["values"]])
    ax.set_xlabel(first["path"])
    ax.set_ylabel(label + (" (%)" if unit == "share" else ""))
    _legend_outside(ax)
    figure.tight_layout()
    caption = (f"{label} at each value of {first['path']}, with 95% intervals; every point played the same game "
               "seeds. Intervals that do not overlap mean the points differ; overlapping ones may still differ: "
               "the table gives each point's difference from the first, paired where the deals allow." + fit)
    stem = "sweep_" + key.replace(".", "_")
    return Chart(stem, f"{label[:1].upper()}{label[1:]} across the sweep", _png(figure), caption, anchor(key) or "")


def _trend(report: Report, key: str) -> Trend | None:
    """The sweep's trend of this metric, when it has one (one numeric setting, three points or more)."""
    for data in (report.sweep or {}).get("trends", []):
        if data["key"] == key:
            fields = {k: v for k, v in data.items() if k in Trend.__dataclass_fields__}
            return Trend(**fields)
    return None


def _draw_fit(ax, trend: Trend, scale: float) -> str:
    """The trend's fitted line or curve and its 95% band; returns the caption's sentence about it."""
    low, high = min(trend.xs), max(trend.xs)
    grid = [low + (high - low) * i / CURVE_STEPS for i in range(CURVE_STEPS + 1)]
    values = [fitted(trend, x) for x in grid]
    ax.plot(grid, [v * scale for v, _, _ in values], color="grey", linewidth=1.5,
            label="quadratic fit" if trend.curved else "straight-line fit")
    ax.fill_between(grid, [lo * scale for _, lo, _ in values], [hi * scale for _, _, hi in values], color="grey",
                    alpha=0.2, linewidth=0, label="its 95% band")
    if trend.curved:
        return (" The grey curve is a weighted quadratic fit with its 95% band, drawn because its curvature is "
                "significant (Holm, 5%): a straight line does not fit these points.")
    return (" The grey line is the weighted straight-line fit with its 95% band"
            + ("; its slope is significant (Holm, 5%)." if trend.significant else "; its slope is not significant."))


def _text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
