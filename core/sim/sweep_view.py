"""A sweep's charts: each chosen metric against the swept value, with 95% error bars."""

from __future__ import annotations

from scoutlab.sim.charts import WIDTH, Chart, _legend_outside, _png, _pyplot
from scoutlab.sim.definitions import anchor
from scoutlab.sim.results import Report


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
    xs = list(range(len(first["values"])))
    lines: dict[tuple, list] = {}
    for point, e in zip(points, estimates):
        others = tuple((s["path"], _text(point[s["path"]])) for s in rest)
        lines.setdefault(others, []).append((first["values"].index(point[first["path"]]), e))
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
    ax.set_xticks(xs, [_text(v) for v in first["values"]])
    ax.set_xlabel(first["path"])
    ax.set_ylabel(label + (" (%)" if unit == "share" else ""))
    _legend_outside(ax)
    figure.tight_layout()
    caption = (f"{label} at each value of {first['path']}, with 95% intervals; every point played the same game "
               "seeds. Intervals that do not overlap mean the points differ; overlapping ones may still differ: "
               "the table gives each point's difference from the first, paired where the deals allow.")
    stem = "sweep_" + key.replace(".", "_")
    return Chart(stem, f"{label[:1].upper()}{label[1:]} across the sweep", _png(figure), caption, anchor(key) or "")


def _text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
