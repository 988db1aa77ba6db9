"""The report as one self-contained HTML page: the table, the notes and every chart inline (base64 PNG)."""

from __future__ import annotations

import base64
from html import escape
from pathlib import Path

from scoutlab.base import files
from scoutlab.sim.charts import Chart
from scoutlab.sim.definitions import DEFINITIONS, anchor
from scoutlab.sim.layout import columns, long_form, notes, rows
from scoutlab.sim.results import Report

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 75em; padding: 0 1em; color: #222; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { padding: 0.25em 0.7em; border-bottom: 1px solid #ddd; }
td { text-align: right; white-space: nowrap; }
td:first-child, th:first-child { text-align: left; }
tr.group td { font-weight: bold; background: #f3f3f3; text-align: left; }
tr.metric td { font-style: italic; background: #fafafa; }
tr.significant td { font-weight: bold; }
.scroll { overflow-x: auto; }
figure { display: block; margin: 1.5em 0; }
figure img { width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.95em; color: #444; }
ul.findings li { margin: 0.3em 0; }
dl.definitions dt { font-weight: bold; margin-top: 0.6em; }
a { color: #1a5fb4; }
.warning { color: #a60; font-weight: bold; }
"""


def html_report(report: Report, charts: list[Chart]) -> str:
    """The whole page as a string, with `charts` (from charts.render_charts) inline."""
    title = "scoutlab " + report.command + ": " + " vs ".join(v.label for v in report.variants)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p>{escape(report.describe())}</p>",
    ]
    parts += [f"<p>{escape(line)}</p>" for line in report.header()]
    if report.interrupted:
        parts.append(f'<p class="warning">Interrupted: the numbers cover the first {report.games_done} games.</p>')
    if report.findings:
        parts.append("<h2>Findings</h2>")
        parts.append('<ul class="findings">' + "".join(f"<li>{escape(line)}</li>" for line in report.findings) + "</ul>")
    resolution = report.resolution()
    if resolution:
        parts.append(f"<p>{escape(resolution)}</p>")
    parts.append("<h2>The chosen metrics per point</h2>" if report.sweep else "<h2>Every metric</h2>")
    parts.append('<div class="scroll">' + _table(report) + "</div>")
    parts += [f"<p>{escape(line)}</p>" for line in notes(report)]
    parts.append("<h2>Charts</h2>")
    for chart in charts:
        data = base64.b64encode(chart.png).decode("ascii")
        link = _definition_link(chart.anchor, "definition") if chart.anchor else ""
        parts.append(f'<figure id="chart-{escape(chart.stem)}"><img alt="{escape(chart.title)}" '
                     f'src="data:image/png;base64,{data}">'
                     f"<figcaption><b>{escape(chart.title)}.</b> {escape(chart.caption)} {link}</figcaption></figure>")
    parts.append(_definitions())
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(report: Report, charts: list[Chart], path: str | Path) -> Path:
    path = Path(path)
    files.write_whole(path, html_report(report, charts))
    return path


def _definition_link(target: str, text: str) -> str:
    return f'<a href="#def-{escape(target)}">{escape(text)}</a>'


def _table(report: Report) -> str:
    heads = "".join(f"<th>{escape(h)}</th>" for h in columns(report))
    body = []
    width = len(columns(report))
    for row in rows(report):
        if row.group:
            body.append(f'<tr class="group"><td colspan="{width}">{escape(row.cells[0])}</td></tr>')
            continue
        classes = " ".join(c for c, on in (("significant", row.significant), ("metric", row.metric)) if on)
        css = f' class="{classes}"' if classes else ""
        target = anchor(row.key) if row.key and (row.metric or not long_form(report)) else None
        first = _definition_link(target, row.cells[0]) if target else escape(row.cells[0])
        body.append(f"<tr{css}><td>{first}</td>" + "".join(f"<td>{escape(c)}</td>" for c in row.cells[1:]) + "</tr>")
    return f"<table><thead><tr>{heads}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _definitions() -> str:
    items = []
    for target, (heading, line) in DEFINITIONS.items():
        items.append(f'<dt id="def-{escape(target)}">{escape(heading)}</dt>'
                     f"<dd>{escape(line)} Full definition and source: docs/metrics.md, "
                     f"section &ldquo;{escape(heading)}&rdquo;.</dd>")
    return "<h2>Definitions</h2>" + '<dl class="definitions">' + "".join(items) + "</dl>"
