"""The report as a rich table in the terminal."""

from __future__ import annotations

import sys
from typing import TextIO

from scoutlab.sim.layout import columns, notes, rows
from scoutlab.sim.results import Report


def print_report(report: Report, file: TextIO | None = None) -> None:
    """Print what was run, the table of metrics (and differences) and the notes under it."""
    from rich.console import Console
    from rich.table import Table

    file = file or sys.stdout
    # Piped output has no width to measure: use one wide enough that rows do not wrap.
    console = Console(file=file, width=None if file.isatty() else 160, highlight=False)
    console.print(report.describe(), markup=False, soft_wrap=True)
    if report.interrupted:
        console.print(f"Interrupted: the numbers below cover the first {report.games_done} games.",
                      style="bold yellow", markup=False)
    table = Table(show_lines=False, header_style="bold")
    heads = columns(report)
    for i, head in enumerate(heads):
        table.add_column(head, justify="left" if i == 0 else "right", overflow="fold")
    for row in rows(report):
        if row.group:
            table.add_row(f"[bold]{row.cells[0]}[/bold]", *[""] * (len(heads) - 1))
        else:
            table.add_row(*(_plain(c) for c in row.cells), style="bold" if row.significant else None)
    console.print(table)
    for line in notes(report):
        console.print(line, markup=False)


def _plain(text: str):
    from rich.text import Text

    return Text(text)  # values like "[1.2, 3.4]" must not be read as rich markup
