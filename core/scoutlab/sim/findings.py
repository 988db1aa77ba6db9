"""The report's numbers in plain words: what differed (with intervals), what did not, and the caveats.

Every sentence is made from the report's estimates and Holm-corrected differences,
never from fixed text about the game: a run whose numbers change says something else.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from scoutlab.sim.compare import Difference
from scoutlab.sim.layout import format_interval, format_value
from scoutlab.sim.stats import holm, two_sided_p, z_value
from scoutlab.sim.trend import Trend, sentence as trend_sentence

if TYPE_CHECKING:
    from scoutlab.sim.results import Comparison, Report

MOST_DIFFERENCES = 8  # sentences about differences in the whole run, largest effects first; the table holds the rest
MOST_SAME = 3  # "no significant difference" lines; further comparisons are left to the table
SMALL_SAMPLE = 500  # games per variant below which the caveats say the sample is small

# How a length reads in words: (what, verb, more, less, unit).
LENGTHS = {
    "turns": ("games", "are", "longer", "shorter", "turns"),
    "turns_per_round": ("rounds", "are", "longer", "shorter", "turns"),
    "rounds": ("games", "have", "more rounds", "fewer rounds", "rounds"),
}
# Differences of these read as points or shares moved, not as a percentage of a value near zero.
NO_PERCENT = ("first_player", "starter_edge", "skill_depth", "luck", "deficit", "decisiveness", "drama", "security")
# Differences are ranked by their size in per-game standard deviations; ties (e.g. rounds per game, which has no
# spread) are broken by this order of headline metrics, then by strength of evidence.
PRIORITY = ("turns", "turns_per_round", "rounds", "score_round", "end.hand_emptied", "end.rule_ii",
            "scouts", "sns", "skill_depth", "first_player", "starter_edge", "margin_round", "lead_changes_round")
# Effects of skill or seat: where the bots played two variants move for move alike, a difference in these comes
# from the scoring alone, so the findings say that once instead of reading them as effects of skill or seat.
SKILL_OR_SEAT = ("skill_depth", "luck", "first_player", "starter_edge")
# The value a sweep's optimum aims at, for metrics whose fair value is known: an edge of 0 is no edge.
FAIR_TARGETS = {"first_player": 0.0, "starter_edge": 0.0}


def findings(report: Report, trends: Sequence[Trend] = ()) -> list[str]:
    """Sentences, most important first: differences (or a sweep's trends), the seats, what did not differ, caveats."""
    sweep = report.sweep or {}
    chosen = set(sweep.get("metrics") or ())
    lines: list[str] = []
    for c in report.comparisons:
        if c.alike:
            lines.append(alike(c, report))
    if trends:  # a numeric sweep: the trends say what the points' differences from the first would, in fewer lines
        lines += trend_lines(trends, sweep["settings"][0]["path"])
        significant = sum(d.significant for c in report.comparisons for d in c.rows)
        lines.append(f"Each point's difference from the first is in the table ({significant} of "
                     f"{sum(len(c.rows) for c in report.comparisons)} significant after Holm).")
    else:
        lines += differences(report, chosen)
    if report.sweep:
        lines += optima(report)
    elif report.comparisons:
        lines += seats(report)
    if not trends:
        lines += _no_differences(report, chosen)
    if not report.comparisons:
        lines += _single(report)
    lines += caveats(report)
    return lines


def _compared(c: Comparison, chosen: set[str]) -> list[Difference]:
    """The rows of a comparison the findings read: the metrics chosen, and no skill or seat effect of alike play."""
    return [d for d in c.rows if (not chosen or d.key in chosen) and not (c.alike and _skill_or_seat(d.key))]


def _no_differences(report: Report, chosen: set[str]) -> list[str]:
    lines = []
    for c in report.comparisons:
        same = _ranked([d for d in _compared(c, chosen) if not d.significant])
        named = [d.label for d in same if chosen or d.key in PRIORITY]
        others = len(same) - len(named)
        if named or others:
            more = f" and {others} more metric{'s' * (others != 1)} (see the table)" if others else ""
            lines.append(f"No significant difference between {c.b} and {c.a} (Holm, 5%) in: "
                         f"{', '.join(named) if named else 'the headline metrics'}{more}.")
    if len(lines) > MOST_SAME:
        left = len(lines) - MOST_SAME
        lines = lines[:MOST_SAME] + [f"No significant difference lines for {left} more comparison"
                                     f"{'s' * (left != 1)} are left to the table."]
    return lines


def differences(report: Report, chosen: set[str] = frozenset()) -> list[str]:  # type: ignore[assignment]
    """The largest significant differences of the whole run in words, at most MOST_DIFFERENCES, largest first.

    Each comparison's round ends make one sentence together (a way of ending that only one of the two
    variants has included), ranked by its largest change.
    """
    ranked: list[tuple[tuple, str]] = []
    for c in report.comparisons:
        rows = [d for d in _compared(c, chosen) if d.significant]
        ranked += [(_rank(d), sentence(c, d)) for d in rows if not d.key.startswith("end.")]
        ends = round_ends(c, report, [d for d in rows if d.key.startswith("end.")], chosen)
        if ends is not None:
            ranked.append(ends)
    ranked.sort(key=lambda item: item[0])
    out = [text for _, text in ranked[:MOST_DIFFERENCES]]
    if len(ranked) > MOST_DIFFERENCES:
        more = len(ranked) - MOST_DIFFERENCES
        out.append(f"{more} more significant difference{'s are' if more != 1 else ' is'} in the table.")
    return out


def effect(d: Difference) -> float:
    """|B - A| in per-game standard deviations (Cohen's d): SD = SE * sqrt(games), pooled over both variants.

    0 when neither variant's value varies from game to game (rounds per game of fixed-length variants): a
    difference the rules fix is no finding about play, so it comes last (and the caveats name it).
    """
    pooled = _pooled_sd((d.a, d.b))
    return abs(d.value) / pooled if pooled else 0.0


def _pooled_sd(estimates) -> float | None:
    z = z_value()
    total = 0.0
    for e in estimates:
        if e.low is None or e.high is None or not (math.isfinite(e.low) and math.isfinite(e.high)):
            return None
        total += ((e.high - e.low) / (2 * z)) ** 2 * max(e.n, 1)
    return math.sqrt(total / len(estimates))


def _rank(d: Difference, size: float | None = None) -> tuple:
    return (-(effect(d) if size is None else size), PRIORITY.index(d.key) if d.key in PRIORITY else len(PRIORITY),
            d.p_holm)


def round_ends(c: Comparison, report: Report, rows: list[Difference], chosen: set[str]) -> tuple[tuple, str] | None:
    """How the rounds of B end differently from A's: the significant changes and the ways only one has, in one sentence."""
    by_label = {v.label: v for v in report.variants}
    a, b = by_label.get(c.a), by_label.get(c.b)
    parts, sizes = [], []
    for d in rows:
        parts.append(f"{_reason(d.label)} {_value(d.b.value, d.unit)} against {_value(d.a.value, d.unit)} "
                     f"({_signed(d.value, d.unit)} [{_signed(d.low, d.unit)}, {_signed(d.high, d.unit)}])")
        sizes.append(effect(d))
    if a is not None and b is not None:
        for has, lacks in ((b, a), (a, b)):
            keys = {e.key for e in lacks.estimates if e.key.startswith("end.")}
            for e in has.estimates:
                if (not e.key.startswith("end.") or e.key in keys or not e.value or (chosen and e.key not in chosen)
                        or e.key.endswith((".turn_cap", ".no_legal_action"))):
                    continue  # a turn cap or a dead end is each run's, not a rule of one variant
                parts.append(f"{_reason(e.label)} {_value(e.value, e.unit)} {_interval(e)} in {has.label}, "
                             f"a way of ending {lacks.label} does not have")
                spread = _pooled_sd((e,))  # against a share that is 0 by the rules
                sizes.append(e.value / spread * math.sqrt(2) if spread else 0.0)
    if not parts:
        return None
    return ((-max(sizes), PRIORITY.index("end.hand_emptied"), 0.0),
            f"Rounds end differently in {c.b} than in {c.a} (share of rounds): {'; '.join(parts)}.")


def _reason(label: str) -> str:
    return label.removeprefix("round ends: ")


def seats(report: Report) -> list[str]:
    """Each variant whose seats do not win equally or whose first player wins more (or less) than a fair share.

    Two tests per variant, the chi-square of seat fairness and the score test of P1's win rate against 1/n
    (the test the Wilson interval inverts), Holm-adjusted together over every variant of the run.
    """
    tests: list[tuple] = []
    for v in report.variants:
        first = v.estimate("first_player")
        win = v.estimate("win.0")
        if first is None or first.value is None or win is None or win.value is None or not v.games:
            continue
        fair = 1 / v.players
        tests.append((v, v.fairness["p"], two_sided_p(win.value - fair, math.sqrt(fair * (1 - fair) / v.games))))
    adjusted = holm([p for _, chi, edge in tests for p in (chi, edge)])
    out = []
    for i, (v, chi, edge) in enumerate(tests):
        chi_holm, edge_holm = adjusted[2 * i], adjusted[2 * i + 1]
        if chi_holm >= 0.05 and edge_holm >= 0.05:
            continue
        e = v.estimate("first_player")
        advantage = f"{_signed(e.value, 'share')} [{_signed(e.low, 'share')}, {_signed(e.high, 'share')}]"
        family = f"Holm over the {len(adjusted)} seat tests of this run"
        f = v.fairness
        if chi_holm < 0.05:
            rates = {s: v.estimate(f"win.{s}") for s in range(v.players)}
            most = max(rates, key=lambda s: rates[s].value or 0)
            least = min(rates, key=lambda s: rates[s].value or 0)
            out.append(f"{v.label}: seats do not win equally (chi-square {f['chi2']:.2f}, df {f['df']}, p {_p(chi)}; "
                       f"{family}: {_p(chi_holm)}): P{most + 1} wins {_value(rates[most].value, 'share')} "
                       f"{_interval(rates[most])}, P{least + 1} {_value(rates[least].value, 'share')} "
                       f"{_interval(rates[least])}, against a fair {100 / v.players:.1f}%; the first-player "
                       f"advantage is {advantage}.")
        else:
            direction = "more" if e.value > 0 else "less"
            out.append(f"{v.label}: the first player wins {direction} than a fair share: first-player advantage "
                       f"{advantage} (score test p {_p(edge)}; {family}: {_p(edge_holm)}); the chi-square over all "
                       f"seats is {f['chi2']:.2f}, df {f['df']}, p {_p(chi)}.")
    return out


def trend_lines(trends: Sequence[Trend], path: str) -> list[str]:
    """A sweep's trends in words: curved and significant ones first, largest movement first; the rest in one line."""
    shown = sorted((t for t in trends if t.curved or t.significant), key=lambda t: (-t.effect, t.p_holm))
    out = [trend_sentence(t, path) for t in shown[:MOST_DIFFERENCES]]
    if len(shown) > MOST_DIFFERENCES:
        more = len(shown) - MOST_DIFFERENCES
        out.append(f"{more} more trend{'s' * (more != 1)} (sweep.trends in the JSON, and the charts).")
    flat = [t for t in trends if not (t.curved or t.significant)]
    if flat:
        out.append(f"Each +1 in {path}: no trend that this sample can show in "
                   + "; ".join(f"{t.label} ({_trend_numbers(t)})" for t in flat)
                   + f" (weighted least squares over {flat[0].points} points).")
    return out


def _trend_numbers(t: Trend) -> str:
    def signed(x: float) -> str:
        return f"{x * 100:+.1f} pp" if t.unit == "share" else f"{x:+.3f}" if t.unit == "fraction" else f"{x:+.2f}"
    return f"{signed(t.slope)} per step [{signed(t.low)}, {signed(t.high)}]"


def optima(report: Report) -> list[str]:
    """For each target of a sweep, the point whose estimate comes closest, and which points' intervals include it."""
    sweep = report.sweep or {}
    targets = dict(sweep.get("targets") or {})
    for key, fair in FAIR_TARGETS.items():
        if key in (sweep.get("metrics") or ()):
            targets.setdefault(key, fair)
    out = []
    for key, target in targets.items():
        found = [(v, e) for v in report.variants if (e := v.estimate(key)) is not None and e.value is not None]
        if len(found) < 2:
            continue
        v, e = min(found, key=lambda ve: abs(ve[1].value - target))
        shown = _target(target, e.unit)
        value = (f"{_signed(e.value, 'share')} [{_signed(e.low, 'share')}, {_signed(e.high, 'share')}]"
                 if e.unit == "share" and target == 0 else f"{_value(e.value, e.unit)} {_interval(e)}")
        inside = [w.label for w, f in found if w is not v and f.low is not None and f.high is not None
                  and f.low <= target <= f.high]
        if e.low is not None and e.high is not None and e.low <= target <= e.high:
            rest = (f"; the intervals of {', '.join(inside)} include {shown} too, so the sample cannot single one out"
                    if inside else "; no other point's interval includes it")
        else:
            rest = f"; no point's interval includes {shown}" if not inside else f"; the intervals of {', '.join(inside)} include {shown}"
        out.append(f"{_cap(e.label)} is closest to {shown} at {v.label}: {value}{rest}.")
    return out


def _target(value: float, unit: str) -> str:
    if value == 0:
        return "0"
    return _value(value, unit)


def alike(c: Comparison, report: Report) -> str:
    """The one line for two variants the bots played move for move the same."""
    return (f"The bots played {c.b} and {c.a} identically (the same action at every turn of all "
            f"{_games(report.games_done)}{' and their skill games' if report.strong and report.advantage_games else ''}): "
            "differences come from scoring alone, so no skill or seat effect is read into them.")


def _skill_or_seat(key: str) -> bool:
    return key in SKILL_OR_SEAT or key.startswith(("win.", "score."))


def _ranked(rows: list[Difference]) -> list[Difference]:
    """Headline metrics first (for the lists of what did not differ), then by strength of evidence."""
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
                   "official game, read in the variant's points, not weights fitted to it: they may miss a better "
                   "strategy, and where the rule moves the points far they can play it worse than the official "
                   "weights do. `scoutlab tune VARIANT --players N` fits them (minutes); "
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
