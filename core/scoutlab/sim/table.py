"""The report as a rich table in the terminal."""

from __future__ import annotations

import sys
from typing import TextIO

from scoutlab.sim.layout import columns, long_form, notes, rows
from scoutlab.sim.results import Report


def print_report(report: Report, file: TextIO | None = None) -> None:
    """Print what was run, the findings in words, the table of metrics (and differences) and the notes under it."""
    from rich.console import Console
    from rich.table import Table

    file = file or sys.stdout
    # Piped output has no width to measure: use one wide enough that rows do not wrap
    # (the long form of three or more variants is made to fit 100 columns).
    piped_width = 100 if long_form(report) else 160
    console = Console(file=file, width=None if file.isatty() else piped_width, highlight=False)
    console.print(report.describe(), markup=False, soft_wrap=True)
    for line in report.header():
        console.print(line, markup=False, soft_wrap=True)
    if report.interrupted:
        console.print(f"Interrupted: the numbers below cover the first {report.games_done} games.",
                      style="bold yellow", markup=False)
    if report.findings:
        console.print("Findings", style="bold")
        for line in report.findings:
            console.print(f"- {line}", markup=False, soft_wrap=True)
    resolution = report.resolution()
    if resolution:
        console.print(resolution, markup=False, soft_wrap=True)
    table = Table(show_lines=False, header_style="bold")
    heads = columns(report)
    for i, head in enumerate(heads):
        table.add_column(head, justify="left" if i == 0 else "right", overflow="fold")
    for row in rows(report):
        if row.group:
            table.add_row(f"[bold]{row.cells[0]}[/bold]", *[""] * (len(heads) - 1))
        elif row.metric:
            table.add_row(_plain(row.cells[0]), *[""] * (len(heads) - 1), style="bold" if row.significant else "italic")
        else:
            table.add_row(*(_plain(c) for c in row.cells), style="bold" if row.significant else None)
    console.print(table)
    for line in notes(report):
        console.print(line, markup=False)


def _plain(text: str):
    from rich.text import Text

    return Text(text)  # values like "[1.2, 3.4]" must not be read as rich markup
