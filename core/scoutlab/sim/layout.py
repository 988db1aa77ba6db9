"""The report as rows of text cells: one layout shared by the terminal table and the HTML page.

Columns: the metric, each variant's value with its 95% interval, then for each
comparison the difference with its interval and the Holm-adjusted p-value.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoutlab.sim.results import Report

MISSING = "-"


LONG_FORM_FROM = 3  # variants: from this many on, one block per metric instead of one column per variant


@dataclass(frozen=True)
class Row:
    cells: tuple[str, ...]
    group: bool = False  # a section heading: cells[0] is its title
    significant: bool = False  # some difference in the row survives Holm at 5%
    key: str = ""  # the metric, for a link to its definition
    metric: bool = False  # in the long form, a metric's heading row


def format_value(value: float | None, unit: str) -> str:
    if value is None:
        return MISSING
    if unit == "share":
        return f"{_percent(value)}%"
    if unit == "fraction":
        return f"{value:.3f}"
    return f"{value:.2f}" if abs(value) < 100 else f"{value:.1f}"


def format_interval(low: float | None, high: float | None, unit: str) -> str:
    if low is None or high is None:
        return ""
    if unit == "share":
        return f"[{_percent(low)}, {_percent(high)}]"
    return f"[{format_value(low, unit)}, {format_value(high, unit)}]"


def _percent(share: float) -> str:
    """One decimal, or two below 1% so that a rare event does not print as 0.0."""
    return f"{share * 100:.2f}" if 0 < abs(share) < 0.01 else f"{share * 100:.1f}"


def long_form(report: Report) -> bool:
    """Whether the table is printed one block per metric (three or more variants)."""
    return len(report.variants) >= LONG_FORM_FROM


def columns(report: Report) -> list[str]:
    if long_form(report):
        return ["metric / variant", "value [95% interval]", "difference [95% interval]", "p (Holm)"]
    heads = ["metric"] + [v.label for v in report.variants]
    for c in report.comparisons:
        a, b = (c.a, c.b) if _short(c.a) == _short(c.b) else (_short(c.a), _short(c.b))
        heads += [f"{b} - {a}", "p (Holm)"]
    return heads


def _order(report: Report) -> list[tuple[str, tuple[str, str, str]]]:
    """key -> (group, label, unit) for every metric of any variant, grouped, first variant's order first."""
    order: dict[str, tuple[str, str, str]] = {}
    for v in report.variants:
        for e in v.estimates:
            order.setdefault(e.key, (e.group, e.label, e.unit))
    chosen = (report.sweep or {}).get("metrics")
    if chosen:  # a sweep shows the metrics asked for, in the order asked
        return [(key, order[key]) for key in chosen if key in order]
    return sorted(order.items(), key=lambda kv: _group_rank(kv[1][0]))


def rows(report: Report) -> list[Row]:
    """Every metric of every variant in catalogue order, grouped, with the differences beside them."""
    if long_form(report):
        return long_rows(report)
    by_variant = [{e.key: e for e in v.estimates} for v in report.variants]
    by_comparison = [{d.key: d for d in c.rows} for c in report.comparisons]
    out: list[Row] = []
    group = None
    for key, (key_group, label, unit) in _order(report):
        if key_group != group and not report.sweep:  # a sweep's few metrics need no headings
            group = key_group
            out.append(Row((group,), group=True))
            if group == "Outcome" and not report.sweep:
                out.append(_fairness_row(report))
        cells = [label]
        for estimates in by_variant:
            e = estimates.get(key)
            cells.append(MISSING if e is None or e.value is None
                         else f"{format_value(e.value, unit)} {format_interval(e.low, e.high, unit)}".strip())
        significant = False
        for differences in by_comparison:
            d = differences.get(key)
            if d is None:
                cells += ["", ""]
                continue
            mark = " *" if d.significant else ""
            significant |= d.significant
            cells += [f"{_signed(d.value, unit)} {format_interval(d.low, d.high, unit)}",
                      f"{_p(d.p_holm)}{mark}"]
        out.append(Row(tuple(cells), significant=significant, key=key))
    return out


def long_rows(report: Report) -> list[Row]:
    """One block per metric: a heading row, then one row per variant with its value and its difference.

    When a variant is compared with more than one other, or with one that is not the last reference above
    it (--players all: official 5p against 3p and 4p), each of its differences gets a row of its own under
    it, named "- A" after the variant it is measured against.
    """
    by_variant = {v.label: {e.key: e for e in v.estimates} for v in report.variants}
    versus: dict[str, list[tuple[str, dict]]] = {}
    for c in report.comparisons:
        versus.setdefault(c.b, []).append((c.a, {d.key: d for d in c.rows}))
    references = {c.a for c in report.comparisons}
    inline = _inline(report, versus, references)
    out: list[Row] = []
    group = None
    for key, (key_group, label, unit) in _order(report):
        if key_group != group and not report.sweep:  # a sweep's few metrics need no headings
            group = key_group
            out.append(Row((group,), group=True))
        block = []
        for v in report.variants:
            e = by_variant[v.label].get(key)
            value = (MISSING if e is None or e.value is None
                     else f"{format_value(e.value, unit)} {format_interval(e.low, e.high, unit)}".strip())
            against = [(a, rows[key]) for a, rows in versus.get(v.label, []) if key in rows]
            if inline and against:
                (_, d), = against
                block.append(Row((f"  {v.label}", value, *_difference_cells(d, unit)), significant=d.significant,
                                 key=key))
                continue
            block.append(Row((f"  {v.label}", value, "reference" if v.label in references else "", ""), key=key))
            if not inline:
                block += [Row((f"    - {a}", "", *_difference_cells(d, unit)), significant=d.significant, key=key)
                          for a, d in against]
        out.append(Row((label, "", "", ""), significant=any(r.significant for r in block), key=key, metric=True))
        out += block
    return out


def _inline(report: Report, versus: dict[str, list], references: set[str]) -> bool:
    """Whether every difference can sit on its variant's row: one each, against the last reference above it."""
    above = None
    for v in report.variants:
        mine = versus.get(v.label, [])
        if len(mine) > 1 or (mine and mine[0][0] != above):
            return False
        if v.label in references:
            above = v.label
    return True


def _difference_cells(d, unit: str) -> tuple[str, str]:
    return (f"{_signed(d.value, unit)} {format_interval(d.low, d.high, unit)}",
            _p(d.p_holm) + (" *" if d.significant else ""))


def notes(report: Report) -> list[str]:
    """The lines under the table: how the comparisons were made and what the star means."""
    lines = []
    for c in report.comparisons:
        how = ("paired: both played on the same deals (same game seeds)" if c.paired
               else f"unpaired: {c.why_unpaired}, so the deals cannot be shared")
        lines.append(f"{c.b} vs {c.a}: {how}.")
    tests = sum(len(c.rows) for c in report.comparisons)
    if tests:
        lines.append(f"* significant at 5% after Holm-Bonferroni over all {tests} differences; "
                     "intervals are 95% and not adjusted.")
    if long_form(report):
        if any(row.cells[0].startswith("    - ") for row in long_rows(report)[:200]):
            lines.append("Each difference is its variant minus the one named on its row ('- official (3p)').")
        else:
            lines.append("Each difference is against the reference row above it in its block.")
        for v in report.variants:
            f = v.fairness
            lines.append(f"{v.label}: seat fairness, chi-square vs 1/n: chi2 {f['chi2']:.2f} (df {f['df']}), p {_p(f['p'])}.")
    for v in report.variants:
        lines.append(f"{v.label}: widest decision seen: {v.widest} legal actions.")
    lines.append("Definitions and sources of every metric: docs/metrics.md (one heading per metric).")
    if any(v.games < 30 for v in report.variants):
        lines.append("Fewer than 30 games: the normal-theory intervals are rough.")
    return lines


GROUPS = ["Outcome", "Scores", "Length", "Round ends", "Actions", "Decisions", "Tension", "Skill and luck"]


def _group_rank(group: str) -> int:
    return GROUPS.index(group) if group in GROUPS else len(GROUPS)


def _fairness_row(report: Report) -> Row:
    cells = ["seat fairness: chi-square vs 1/n"]
    for v in report.variants:
        f = v.fairness
        cells.append(f"chi2 {f['chi2']:.2f} (df {f['df']}), p {_p(f['p'])}")
    cells += [""] * (2 * len(report.comparisons))
    return Row(tuple(cells))


def _signed(value: float, unit: str) -> str:
    """A difference with its sign; a difference of two shares is in percentage points."""
    if unit == "share":
        return f"{_percent(value) if value < 0 else '+' + _percent(value)} pp"
    text = format_value(value, unit)
    return text if text.startswith("-") else "+" + text


def _p(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def _short(label: str) -> str:
    return label.split(" (")[0]
