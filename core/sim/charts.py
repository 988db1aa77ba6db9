"""PNG charts of a report (matplotlib, Agg backend): one figure per question, every variant in it.

`render_charts(report)` draws them once as PNG bytes; `--plots` saves them to a folder
and `--report` embeds the same bytes in the HTML page.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from scoutlab.sim.metrics import REASON_WORDS
from scoutlab.sim.observe import TIMING_BINS
from scoutlab.sim.results import Report


@dataclass(frozen=True)
class Chart:
    stem: str  # file name without .png
    title: str
    png: bytes


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only: never open a window, work without a display
    import matplotlib.pyplot as plt

    return plt


def render_charts(report: Report) -> list[Chart]:
    """Every chart of the report, drawn as PNG."""
    drawings = [
        ("scores", "Final score distribution per seat", _scores),
        ("win_rates", "Seat win rates with 95% intervals", _win_rates),
        ("round_lengths", "Round length (turns per round)", _round_lengths),
        ("end_reasons", "How rounds end", _end_reasons),
        ("scout_timing", "When scouts happen in a round", _scout_timing),
    ]
    return [Chart(stem, title, _png(draw(report))) for stem, title, draw in drawings]


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
    figure, axes = plt.subplots(1, count, figsize=(5 * count, 3.6), squeeze=False)
    figure.suptitle(title)
    return figure, list(axes[0])


def _share(counts: dict[int, int]) -> tuple[list[int], list[float]]:
    total = sum(counts.values()) or 1
    keys = sorted(counts)
    return keys, [counts[k] / total for k in keys]


def _binned(counts: dict[int, int], bins: int = 30) -> tuple[list[float], list[float]]:
    """Shares per bin of equal width over the whole range, empty bins included (so lines do not skip)."""
    if not counts:
        return [], []
    low, high = min(counts), max(counts)
    width = max(1, -(-(high - low + 1) // bins))
    total = sum(counts.values())
    shares = [0.0] * ((high - low) // width + 1)
    for value, count in counts.items():
        shares[(value - low) // width] += count / total
    return [low + (i + 0.5) * width - 0.5 for i in range(len(shares))], shares


def _scores(report: Report):
    figure, axes = _grid(len(report.variants), "Final score distribution per seat")
    for ax, v in zip(axes, report.variants):
        for seat in range(v.players):
            xs, ys = _binned(v.histograms.get(f"score.{seat}", {}))
            ax.step(xs, ys, where="mid", label=f"P{seat + 1}")
        ax.set_title(v.label)
        ax.set_xlabel("final score")
        ax.set_ylabel("share of games")
        ax.legend(fontsize="small")
    figure.tight_layout()
    return figure


def _win_rates(report: Report):
    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(max(5, 2.2 * len(report.variants) + 2), 3.6))
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
    ax.set_ylabel("win rate (dashed: fair 1/n)")
    ax.set_title("Seat win rates with 95% intervals")
    figure.tight_layout()
    return figure


def _round_lengths(report: Report):
    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(6.5, 3.6))
    for v in report.variants:
        xs, ys = _share(v.histograms.get("round_turns", {}))
        ax.step(xs, ys, where="mid", label=v.label)
    ax.set_xlabel("turns in the round")
    ax.set_ylabel("share of rounds")
    ax.set_title("Round length (turns per round)")
    ax.legend(fontsize="small")
    figure.tight_layout()
    return figure


def _end_reasons(report: Report):
    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(6.5, 1.2 + 0.6 * len(report.variants)))
    reasons: list[str] = []
    for v in report.variants:
        reasons += [e.key for e in v.estimates if e.key.startswith("end.") and e.key not in reasons]
    for row, v in enumerate(report.variants):
        left = 0.0
        for i, key in enumerate(reasons):
            e = v.estimate(key)
            share = e.value if e is not None and e.value else 0.0
            label = REASON_WORDS.get(key[4:], key[4:]) if row == 0 else None
            ax.barh(row, share, left=left, color=f"C{i}", label=label)
            left += share
    ax.set_yticks(range(len(report.variants)), [v.label for v in report.variants])
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of rounds")
    ax.set_title("How rounds end")
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
    figure.tight_layout()
    return figure


def _scout_timing(report: Report):
    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(6.5, 3.6))
    middles = [(b + 0.5) / TIMING_BINS for b in range(TIMING_BINS)]
    for i, v in enumerate(report.variants):
        for key, name, style in (("scout_timing", "scout", "-"), ("sns_timing", "Scout & Show", ":")):
            counts = v.histograms.get(key, {})
            total = sum(counts.values())
            if not total:
                continue
            ax.plot(middles, [counts.get(b, 0) / total for b in range(TIMING_BINS)], style, color=f"C{i}",
                    marker="o", label=f"{v.label}: {name}")
    ax.set_xlabel("share of the round gone")
    ax.set_ylabel("share of those actions")
    ax.set_title("When scouts happen in a round")
    if ax.get_legend_handles_labels()[0]:  # no scouts at all: nothing to name
        ax.legend(fontsize="small")
    figure.tight_layout()
    return figure
