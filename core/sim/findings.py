"""The report's numbers in plain words: what differed (with intervals), what did not, and the caveats.

Every sentence is made from the report's estimates and Holm-corrected differences,
never from fixed text about the game: a run whose numbers change says something else.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from scoutlab.sim.compare import Difference
from scoutlab.sim.layout import format_interval, format_value

if TYPE_CHECKING:
    from scoutlab.sim.results import Comparison, Report

MOST_PER_COMPARISON = 10  # sentences about differences per comparison; the table holds the rest
SMALL_SAMPLE = 500  # games per variant below which the caveats say the sample is small

# How a length reads in words: (what, verb, more, less, unit).
LENGTHS = {
    "turns": ("games", "are", "longer", "shorter", "turns"),
    "turns_per_round": ("rounds", "are", "longer", "shorter", "turns"),
    "rounds": ("games", "have", "more rounds", "fewer rounds", "rounds"),
}
# Differences of these read as points or shares moved, not as a percentage of a value near zero.
NO_PERCENT = ("first_player", "starter_edge", "skill_depth", "luck", "deficit", "decisiveness", "drama", "security")
# Headline metrics first, then the rest by strength of evidence.
PRIORITY = ("turns", "turns_per_round", "rounds", "score_round", "end.hand_emptied", "end.rule_ii",
            "scouts", "sns", "skill_depth", "first_player", "starter_edge", "margin_round", "lead_changes_round")
# Effects of skill or seat: where the bots played two variants move for move alike, a difference in these comes
# from the scoring alone, so the findings say that once instead of reading them as effects of skill or seat.
SKILL_OR_SEAT = ("skill_depth", "luck", "first_player", "starter_edge")


def findings(report: Report) -> list[str]:
    """Sentences, most important first: differences, then what did not differ, then caveats."""
    chosen = set((report.sweep or {}).get("metrics") or ())
    lines: list[str] = []
    for c in report.comparisons:
        rows = [d for d in c.rows if (not chosen or d.key in chosen) and not (c.alike and _skill_or_seat(d.key))]
        if c.alike:
            lines.append(alike(c, report))
        lines += _differences(c, rows)
    for c in report.comparisons:
        rows = [d for d in c.rows if (not chosen or d.key in chosen) and not (c.alike and _skill_or_seat(d.key))]
        same = _ranked([d for d in rows if not d.significant])
        named = [d.label for d in same if chosen or d.key in PRIORITY]
        others = len(same) - len(named)
        if named or others:
            more = f" and {others} more metric{'s' * (others != 1)} (see the table)" if others else ""
            lines.append(f"No significant difference between {c.b} and {c.a} (Holm, 5%) in: "
                         f"{', '.join(named) if named else 'the headline metrics'}{more}.")
    if not report.comparisons:
        lines += _single(report)
    lines += caveats(report)
    return lines


def alike(c: Comparison, report: Report) -> str:
    """The one line for two variants the bots played move for move the same."""
    return (f"The bots played {c.b} and {c.a} identically (the same action at every turn of all "
            f"{_games(report.games_done)}{' and their skill games' if report.strong and report.advantage_games else ''}): "
            "differences come from scoring alone, so no skill or seat effect is read into them.")


def _skill_or_seat(key: str) -> bool:
    return key in SKILL_OR_SEAT or key.startswith(("win.", "score."))


def _differences(c: Comparison, rows: list[Difference]) -> list[str]:
    significant = _ranked([d for d in rows if d.significant])
    out = [sentence(c, d) for d in significant[:MOST_PER_COMPARISON]]
    if len(significant) > MOST_PER_COMPARISON:
        more = len(significant) - MOST_PER_COMPARISON
        out.append(f"{more} more significant difference{'s' * (more != 1)} between {c.b} and {c.a} are in the table.")
    return out


def _ranked(rows: list[Difference]) -> list[Difference]:
    def rank(d: Difference):
        first = PRIORITY.index(d.key) if d.key in PRIORITY else len(PRIORITY)
        return first, d.p_holm
    return sorted(rows, key=rank)


def sentence(c: Comparison, d: Difference) -> str:
    """One significant difference in words, with both values and the difference's interval."""
    a, b = d.a.value or 0.0, d.b.value or 0.0  # a difference exists only where both were measured
    interval = f"[{_signed(d.low, d.unit)}, {_signed(d.high, d.unit)}]"
    difference = f"difference {_signed(d.value, d.unit)} {interval}"
    if d.key in LENGTHS and a > 0:
        what, verb, more, less, unit = LENGTHS[d.key]
        word = more if d.value > 0 else less
        return (f"{c.b} {what} {verb} {abs(d.value / a) * 100:.0f}% {word} than {c.a} {what}: "
                f"{_value(b, d.unit)} against {_value(a, d.unit)} {unit} ({difference}).")
    direction = "higher" if d.value > 0 else "lower"
    if d.unit == "share" or d.key in NO_PERCENT or a <= 0 or b <= 0:  # a percentage of a negative reads wrong
        return (f"{_cap(d.label)} is {direction} in {c.b} than in {c.a}: {_value(b, d.unit)} against "
                f"{_value(a, d.unit)} ({difference}).")
    return (f"{_cap(d.label)} is {abs(d.value / a) * 100:.0f}% {direction} in {c.b} than in {c.a}: "
            f"{_value(b, d.unit)} against {_value(a, d.unit)} ({difference}).")


def _single(report: Report) -> list[str]:
    """For one variant (or variants not compared): seat fairness, the edges, skill and luck."""
    out = []
    for v in report.variants:
        p = v.fairness["p"]
        if p < 0.05:
            best = max(range(v.players), key=lambda s: v.estimate(f"win.{s}").value or 0)
            e = v.estimate(f"win.{best}")
            out.append(f"{v.label}: seats do not win equally (chi-square p {_p(p)}): P{best + 1} wins "
                       f"{_value(e.value, 'share')} {_interval(e)} against a fair {100 / v.players:.1f}%.")
        else:
            out.append(f"{v.label}: no seat wins more than its fair share that this sample can show "
                       f"(chi-square p {_p(p)}).")
        for key, what in (("first_player", "the first player's edge over a fair share"),
                          ("starter_edge", "the round starter's score edge")):
            e = v.estimate(key)
            if e is None or e.value is None:
                continue
            if not (math.isfinite(e.low) and math.isfinite(e.high)):
                out.append(f"{v.label}: {what} is {_value(e.value, e.unit)}; too few games for an interval.")
                continue
            verdict = ("clear of zero" if e.low > 0 or e.high < 0 else "not distinguishable from zero")
            shown = (f"{_signed(e.value, e.unit)} [{_signed(e.low, e.unit)}, {_signed(e.high, e.unit)}]"
                     if e.unit == "share" else f"{_value(e.value, e.unit)} {_interval(e)}")  # shares above 1/n: points
            out.append(f"{v.label}: {what} is {shown}, {verdict}.")
        depth, luck = v.estimate("skill_depth"), v.estimate("luck")
        if depth is not None and depth.value is not None and luck is not None:
            out.append(f"{v.label}: skill depth {_value(depth.value, depth.unit)} {_interval(depth)} "
                       f"(0: the stronger bot wins only its fair share, 1: it always wins); the weaker side "
                       f"still wins {_value(luck.value, luck.unit)} {_interval(luck)} of those games.")
    return out


def caveats(report: Report) -> list[str]:
    """What the numbers cannot say: unpaired comparisons, small samples, the lineup, the skill pairing."""
    out = []
    unpaired: dict[str, list[str]] = {}  # reference -> "B (why)" for each comparison that could not share deals
    for c in report.comparisons:
        if not c.paired:
            unpaired.setdefault(c.a, []).append(f"{c.b} ({c.why_unpaired})")
    for a, others in unpaired.items():
        out.append(f"Caveat: unpaired with {a}: {', '.join(others)}: their games were dealt differently, so each "
                   "difference carries the luck of two sets of deals.")
    by_label = {v.label: v for v in report.variants}

    def rounds(label: str) -> float:
        e = by_label[label].estimate("rounds")
        return round(e.value or 0, 3) if e is not None else 0.0

    if any(by_label[c.a].players != by_label[c.b].players or rounds(c.a) != rounds(c.b) for c in report.comparisons):
        out.append("Caveat: the variants differ in player count or rounds per game: per-game figures "
                   "(score, turns, lead changes) mix that in; the per-round rows compare like with like.")
    small = [v for v in report.variants if v.games < SMALL_SAMPLE]
    if small:
        out.append(f"Caveat: small sample ({_games(min(v.games for v in small))}): only large differences "
                   "can show; read the half-widths before reading a 'no difference'.")
    untuned = [v for v in report.variants if v.tuning == "untuned"]
    if untuned:
        out.append(f"Caveat: the skilled bots of {', '.join(v.label for v in untuned)} play weights tuned for the "
                   "official game, read in the variant's points, not weights fitted to it: a strategy fitted to "
                   "it may play otherwise. `scoutlab tune VARIANT --players N` fits them (minutes); "
                   "compare --tune fits them first.")
    lineups = {v.lineup for v in report.variants}
    lineup = lineups.pop() if len(lineups) == 1 else "the lineups above"
    note = (" Random bots pick any legal action, so round ends, scout use and the edges describe random play,"
            " not skilled play; --bots sets another lineup." if all(set(v.bots) == {"random"} for v in report.variants)
            else "")
    out.append(f"Caveat: every figure is from bots ({lineup}), not people.{note}")
    if report.strong and report.advantage_games:
        games = min(report.advantage_games, report.games_done)
        out.append(f"Caveat: skill depth and luck are for {report.strong} against {report.weak} only "
                   f"({_games(games)} per variant); another pairing can rank the variants differently.")
        if report.strong == report.weak:
            out.append(f"Caveat: the stronger and the weaker bot are both {report.strong}: skill depth can only "
                       "differ from 0 by chance here; give --strong and --weak two different bots.")
    return out


def _games(count: int) -> str:
    return f"{count} game{'s' * (count != 1)}"


def _value(value: float | None, unit: str) -> str:
    return format_value(value, unit)


def _signed(value: float, unit: str) -> str:
    if unit == "share":  # a difference of shares is in percentage points
        return f"{value * 100:+.1f} pp"
    text = _value(value, unit)
    return text if text.startswith("-") else "+" + text


def _interval(e) -> str:
    return format_interval(e.low, e.high, e.unit)


def _p(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def _cap(text: str) -> str:
    """Capitalise a sentence's first word, but never a setting or a variant's name (`chips_per_round=2`)."""
    if "=" in text or "(" in text.split(" ", 1)[0]:
        return text
    return text[:1].upper() + text[1:]
