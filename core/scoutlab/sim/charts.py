"""PNG charts of a report (matplotlib, Agg backend): one figure per question, every variant in it.

`render_charts(report)` draws them once as PNG bytes; `--plots` saves them to a folder
and `--report` embeds the same bytes in the HTML page.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from scoutlab.sim.definitions import CHART_ANCHORS
from scoutlab.sim.metrics import REASON_WORDS
from scoutlab.sim.observe import TIMING_BINS
from scoutlab.sim.results import Report
from scoutlab.sim.stats import wilson


@dataclass(frozen=True)
class Chart:
    stem: str  # file name without .png
    title: str
    png: bytes
    caption: str = ""  # what to read in it, for the report
    anchor: str = ""  # its definition's heading in docs/metrics.md


WIDTH = 10  # inches at 100 dpi: the report shows charts at full width
CLIP = 0.99  # round lengths are drawn up to this quantile; the tail beyond is said in the caption


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only: never open a window, work without a display
    import matplotlib.pyplot as plt

    return plt


def render_charts(report: Report) -> list[Chart]:
    """Every chart of the report, drawn as PNG; a chart with nothing to tell (one category) is left out."""
    drawings = [
        ("scores", "Final score distribution per seat", _scores),
        ("win_rates", "Seat win rates with 95% intervals", _win_rates),
        ("round_lengths", "Round length in turns", _round_lengths),
        ("end_reasons", "How rounds end, with 95% intervals", _end_reasons),
        ("scout_timing", "When scouts happen in a round, with 95% intervals", _scout_timing),
    ]
    charts = []
    for stem, title, draw in drawings:
        drawn = draw(report)
        if drawn is None:
            continue
        figure, caption = drawn
        charts.append(Chart(stem, title, _png(figure), caption, CHART_ANCHORS.get(stem, "")))
    return charts


def save_charts(charts: list[Chart], folder: str | Path) -> list[Path]:
    """Write every chart as FOLDER/STEM.png (the folder is created); returns the paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for chart in charts:
        path = folder / f"{chart.stem}.png"
        path.write_bytes(chart.png)
        paths.append(path)
    return paths


def _png(figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    _pyplot().close(figure)
    return buffer.getvalue()


def _grid(count: int, title: str):
    plt = _pyplot()
    columns = min(count, 3)
    rows = -(-count // columns)
    figure, axes = plt.subplots(rows, columns, figsize=(WIDTH, 3.4 * rows), squeeze=False)
    figure.suptitle(title)
    flat = [ax for row in axes for ax in row]
    for ax in flat[count:]:
        ax.set_visible(False)
    return figure, flat[:count]


def _binned(counts: dict[int, int], bins: int = 30, span: tuple[int, int] | None = None) -> tuple[list[float], list[float]]:
    """Shares per bin of equal width over the whole range, empty bins included (so lines do not skip).

    `span` (low, high) fixes the range, so histograms drawn together share one set of bins.
    """
    if not counts:
        return [], []
    low, high = span or (min(counts), max(counts))
    width = max(1, -(-(high - low + 1) // bins))
    total = sum(counts.values())
    shares = [0.0] * ((high - low) // width + 1)
    for value, count in counts.items():
        shares[(value - low) // width] += count / total
    return [low + (i + 0.5) * width - 0.5 for i in range(len(shares))], shares


def _span(histograms) -> tuple[int, int] | None:
    """The range of values over several histograms, for bins they all share."""
    values = [value for counts in histograms for value in counts]
    return (min(values), max(values)) if values else None


def quantile(counts: dict[int, int], q: float) -> int | None:
    """The smallest value with at least a share q of the histogram at or below it (q = 0.5: the median)."""
    total = sum(counts.values())
    if not total:
        return None
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if seen >= q * total:
            return value
    return max(counts)


def _legend_outside(ax) -> None:
    """The legend to the right of the plot, never over the data."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)


def _scores(report: Report):
    figure, axes = _grid(len(report.variants), "Final score distribution per seat")
    for ax, v in zip(axes, report.variants):
        seats = [v.histograms.get(f"score.{seat}", {}) for seat in range(v.players)]
        span = _span(seats)  # one set of bins for every seat: a seat's hump is not widened by coarser bins
        for seat, counts in enumerate(seats):
            xs, ys = _binned(counts, span=span)
            ax.step(xs, ys, where="mid", label=f"P{seat + 1}")
        ax.set_title(v.label, fontsize="medium")
        ax.set_xlabel("final score")
        ax.set_ylabel("share of games")
    _legend_outside(axes[-1])
    figure.tight_layout()
    return figure, ("One line per seat: how often each final total occurs, in bins of one width shared by the seats. Lines on top of each other mean "
                    "the seats score alike; a line shifted right is a seat that scores more; a wider hump is a "
                    "more spread-out game.")


def _win_rates(report: Report):
    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(WIDTH, 3.8))
    x = 0
    ticks, names = [], []
    for v in report.variants:
        for seat in range(v.players):
            e = v.estimate(f"win.{seat}")
            if e is None or e.value is None:
                continue
            ax.bar(x, e.value, color=f"C{seat}")
            ax.errorbar(x, e.value, yerr=[[e.value - e.low], [e.high - e.value]], color="black", capsize=4)
            ticks.append(x)
            names.append(f"{v.label}\nP{seat + 1}" if seat == 0 else f"P{seat + 1}")
            x += 1
        ax.hlines(1 / v.players, x - v.players - 0.4, x - 0.6, colors="grey", linestyles="dashed")
        x += 1
    ax.set_xticks(ticks, names, fontsize="small")
    ax.set_ylabel("win rate")
    figure.tight_layout()
    return figure, ("Each bar is a seat's share of wins, with its 95% Wilson interval; the dashed line is the fair "
                    "share 1/n. A seat whose interval lies clear of the dashed line wins more (or less) than its share.")


def _round_lengths(report: Report):
    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(WIDTH, 3.8))
    clip = max((quantile(v.histograms.get("round_turns", {}), CLIP) or 0) for v in report.variants)
    beyond = []
    for i, v in enumerate(report.variants):
        counts = v.histograms.get("round_turns", {})
        total = sum(counts.values())
        if not total:
            continue
        shown = {t: c for t, c in counts.items() if t <= clip}
        xs, ys = _binned(shown, bins=40)
        kept = sum(shown.values()) / total  # shares stay shares of all rounds, the clipped tail included
        median = quantile(counts, 0.5)
        ax.step(xs, [y * kept for y in ys], where="mid", color=f"C{i}", label=f"{v.label} (median {median})")
        ax.axvline(median, color=f"C{i}", linestyle="--", linewidth=1)
        beyond.append(1 - kept)
    ax.set_xlabel("turns in the round")
    ax.set_ylabel("share of rounds per bin")
    _legend_outside(ax)
    figure.tight_layout()
    tail = max(beyond, default=0.0)
    return figure, (f"How many turns a round lasts (bins of equal width); dashed lines mark each variant's median, "
                    f"also given in the legend. The x-axis stops at the "
                    f"99th percentile ({clip} turns): {tail * 100:.2f}% of the rounds of the longest-running variant run longer and are not drawn. "
                    "A curve further right means longer rounds; a flatter one, less predictable lengths.")


def _end_reasons(report: Report):
    reasons: list[str] = []
    for v in report.variants:
        reasons += [e.key for e in v.estimates if e.key.startswith("end.") and e.key not in reasons]
    happened = [key for key in reasons
                if any((e := v.estimate(key)) is not None and e.value for v in report.variants)]
    if len(happened) < 2:
        return None  # every round ends the same way: a chart would show one full bar and nothing else
    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(WIDTH, 3.8))
    width = 0.8 / len(report.variants)
    for i, v in enumerate(report.variants):
        for j, key in enumerate(happened):
            e = v.estimate(key)
            if e is None or e.value is None:
                continue
            x = j - 0.4 + width * (i + 0.5)
            ax.bar(x, e.value, width, color=f"C{i}", label=v.label if j == 0 else None)
            ax.errorbar(x, e.value, yerr=[[e.value - e.low], [e.high - e.value]], color="black", capsize=3)
    ax.set_xticks(range(len(happened)), [REASON_WORDS.get(k[4:], k[4:]) for k in happened], fontsize="small")
    ax.set_ylabel("share of rounds")
    ax.set_ylim(0, 1)
    _legend_outside(ax)
    figure.tight_layout()
    return figure, ("For each way a round can end, the share of rounds that ended so, per variant, with 95% intervals "
                    "(games as the unit). Compare the bars within a group: a taller bar means that ending is more common.")


def _scout_timing(report: Report):
    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(WIDTH, 3.8))
    middles = [(b + 0.5) / TIMING_BINS for b in range(TIMING_BINS)]
    drawn = False
    for i, v in enumerate(report.variants):
        for key, name, style in (("scout_timing", "scout", "-"), ("sns_timing", "Scout & Show", ":")):
            counts = v.histograms.get(key, {})
            total = sum(counts.values())
            if not total:
                continue
            shares = [counts.get(b, 0) / total for b in range(TIMING_BINS)]
            bounds = [wilson(counts.get(b, 0), total) for b in range(TIMING_BINS)]
            ax.errorbar(middles, shares, yerr=[[s - lo for s, (lo, _) in zip(shares, bounds)],
                                               [hi - s for s, (_, hi) in zip(shares, bounds)]],
                        fmt=style, color=f"C{i}", marker="o", capsize=3, label=f"{v.label}: {name}")
            drawn = True
    if not drawn:
        plt.close(figure)
        return None  # nobody scouted: nothing to draw
    ax.set_xlabel("share of the round gone")
    ax.set_ylabel("share of those actions")
    _legend_outside(ax)
    figure.tight_layout()
    return figure, ("When in a round scouts (solid) and Scout & Shows (dotted) happen, in tenths of the round, with 95% "
                    "Wilson intervals that treat each action as independent (actions of one game are related, so the "
                    "true intervals are somewhat wider). A curve rising to the right means players scout late.")
