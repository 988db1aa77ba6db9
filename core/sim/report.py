"""The report as one self-contained HTML page: the table, the notes and every chart inline (base64 PNG)."""

from __future__ import annotations

import base64
from html import escape
from pathlib import Path

from scoutlab.sim.charts import Chart
from scoutlab.sim.layout import columns, notes, rows
from scoutlab.sim.results import Report

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 75em; color: #222; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { padding: 0.25em 0.7em; border-bottom: 1px solid #ddd; }
td { text-align: right; white-space: nowrap; }
td:first-child, th:first-child { text-align: left; }
tr.group td { font-weight: bold; background: #f3f3f3; text-align: left; }
tr.significant td { font-weight: bold; }
figure { display: inline-block; margin: 1em 1em 1em 0; }
figcaption { font-size: 0.9em; color: #555; }
.warning { color: #a60; font-weight: bold; }
"""


def html_report(report: Report, charts: list[Chart]) -> str:
    """The whole page as a string, with `charts` (from charts.render_charts) inline."""
    title = "scoutlab " + report.command + ": " + " vs ".join(v.label for v in report.variants)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p>{escape(report.describe())}</p>",
    ]
    if report.interrupted:
        parts.append(f'<p class="warning">Interrupted: the numbers cover the first {report.games_done} games.</p>')
    parts.append(_table(report))
    parts += [f"<p>{escape(line)}</p>" for line in notes(report)]
    parts.append("<h2>Charts</h2>")
    for chart in charts:
        data = base64.b64encode(chart.png).decode("ascii")
        parts.append(f'<figure><img alt="{escape(chart.title)}" src="data:image/png;base64,{data}">'
                     f"<figcaption>{escape(chart.title)}</figcaption></figure>")
    parts.append("<p>Metric definitions: docs/metrics.md in the scoutlab repository.</p>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(report: Report, charts: list[Chart], path: str | Path) -> Path:
    path = Path(path)
    path.write_text(html_report(report, charts), encoding="utf-8")
    return path


def _table(report: Report) -> str:
    heads = "".join(f"<th>{escape(h)}</th>" for h in columns(report))
    body = []
    width = len(columns(report))
    for row in rows(report):
        if row.group:
            body.append(f'<tr class="group"><td colspan="{width}">{escape(row.cells[0])}</td></tr>')
            continue
        css = ' class="significant"' if row.significant else ""
        body.append(f"<tr{css}>" + "".join(f"<td>{escape(c)}</td>" for c in row.cells) + "</tr>")
    return f"<table><thead><tr>{heads}</tr></thead><tbody>{''.join(body)}</tbody></table>"
