"""A finished run as a report: estimates per variant, comparisons, and the run's own description.

`Report.to_dict()` is the `--json` output; `Report.csv_rows()` the `--csv` one;
`Report.games()` and `Report.rounds()` the per-game rows as pandas DataFrames, when the
run kept them (`per_game=True`). The terminal table, the charts and the HTML page all
read a Report and nothing else.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace

from scoutlab.bots import skilled
from scoutlab.rules import Rules
from scoutlab.sim.compare import Difference, correct, deal_difference, differences
from scoutlab.sim.definitions import anchor
from scoutlab.sim.gamedata import frame
from scoutlab.sim.metrics import catalogue, estimates, fairness
from scoutlab.sim.observe import end_reasons
from scoutlab.sim.runner import Outcome


@dataclass
class VariantReport:
    label: str  # "official (3p)"
    spec: str  # as the user named it
    players: int
    bots: tuple[str, ...]
    games: int
    advantage_games: int
    estimates: list
    fairness: dict[str, float]
    histograms: dict[str, dict[int, int]]
    widest: int  # the most legal actions seen at any decision
    why_players: str = ""  # why this player count, in words
    setting: dict | None = None  # a sweep's point: {path: value}
    tuning: str = ""  # the skilled bot's weights here: "tuned", "reference", "untuned", or "" (no skilled bot plays)

    def estimate(self, key: str):
        return next((e for e in self.estimates if e.key == key), None)

    @property
    def lineup(self) -> str:
        """The bots at the table in words: "random in every seat" or "P1 heuristic, P2 random, ..."."""
        return lineup_words(self.bots)


@dataclass
class Comparison:
    a: str
    b: str
    paired: bool
    why_unpaired: str | None
    rows: list[Difference] = field(default_factory=list)
    alike: bool = False  # paired, and the bots chose the same action at every turn of every game in both variants


@dataclass
class Report:
    command: str
    seed: int
    games_asked: int  # asked for, per variant ("games" in the JSON; `games()` is the per-game table)
    games_done: int
    interrupted: bool
    seconds: float
    backend: str
    workers: int
    strong: str | None
    advantage_games: int
    variants: list[VariantReport]
    comparisons: list[Comparison]
    weak: str = "greedy"  # the strong bot's opponents in the skill games
    findings: list[str] = field(default_factory=list)  # the numbers in words: differences, no differences, caveats
    sweep: dict | None = None  # for `sweep`: base, settings, points, labels and the metrics chosen
    kept: dict[str, list[tuple]] | None = field(default=None, repr=False, compare=False)  # per_game=True: the rows

    def games(self):
        """One row per game and seat (variant, game, game_seed, seat, bot, score, won, ...) as a pandas DataFrame.

        Needs the run to keep them (`per_game=True`) and pandas (`pip install 'scoutlab[data]'`); columns: docs/data.md.
        """
        return frame("games", self._kept("games"))

    def rounds(self):
        """One row per round and seat (round, seat, score, started, end_reason, turns, ...) as a pandas DataFrame."""
        return frame("rounds", self._kept("rounds"))

    def _kept(self, table: str) -> list[tuple]:
        if self.kept is None:
            raise ValueError(f"Report.{table}(): this run kept no per-game rows; run it with per_game=True")
        return self.kept[table]

    def describe(self) -> str:
        """What was run, in one line, so every output says how its numbers were made."""
        names = " vs ".join(f"{v.label} [{','.join(dict.fromkeys(v.bots))}]" for v in self.variants)
        asked = self.games_asked
        done = (f"{self.games_done} of {asked} games (interrupted)" if self.interrupted
                else f"{asked} game{'s' * (asked != 1)}")
        each = " each" if len(self.variants) > 1 else ""
        skill = min(self.advantage_games, self.games_done)
        strong = (f"; skill games: {self.strong} among {self.weak}, {skill} game{'s' * (skill != 1)}{each}"
                  if self.strong and self.advantage_games else "")
        return (f"{self.command} {names}: {done}{each}, seed {self.seed}, "
                f"{self.workers} worker{'s' if self.workers != 1 else ''} ({self.backend}){strong}; "
                f"{self.seconds:.1f} s")

    def header(self) -> list[str]:
        """The lines above the numbers: who played, which player count each variant plays and why."""
        lines = []
        lineups = {v.lineup for v in self.variants}
        if len(lineups) == 1:
            lines.append(f"Lineup: {lineups.pop()}.")
        else:
            lines += [f"Lineup of {v.label}: {v.lineup}." for v in self.variants]
        counts = {(v.players, v.why_players) for v in self.variants}
        every = [v for v in self.variants if v.why_players.startswith("--players all")]
        if every and len(every) == len(self.variants):
            plays: dict[str, list[str]] = {}
            for v in every:
                plays.setdefault(v.spec, []).append(str(v.players))
            said = "; ".join(f"{spec} at {', '.join(counts)} players" for spec, counts in plays.items())
            by_label = {v.label: v for v in self.variants}
            own = any(by_label[c.a].spec == by_label[c.b].spec for c in self.comparisons)
            within = any(by_label[c.a].spec != by_label[c.b].spec for c in self.comparisons)
            how = " and ".join(part for part, there in (("each variant's counts compared with each other", own),
                                                         ("the variants compared within each count they share", within))
                               if there) or "nothing to compare"
            lines.append(f"--players all: every count each variant allows: {said}; {how}.")
            alone = [spec for spec in plays if len(plays) > 1 and not any(
                by_label[c.a].spec != by_label[c.b].spec and spec in (by_label[c.a].spec, by_label[c.b].spec)
                for c in self.comparisons)]
            if alone:
                lines.append(f"Not compared with another variant (no player count in common): {', '.join(alone)}; "
                             "compare without --players all compares across counts.")
        elif len(counts) == 1 and len(self.variants) > 1:
            players, why = counts.pop()
            lines.append(f"Every variant plays {players} players: {why}.")
        else:
            lines += [f"{v.label}: {v.players} players, {v.why_players}." for v in self.variants]
        return lines

    def resolution(self) -> str:
        """What the sample can resolve: the 95% half-widths of a few headline estimates."""
        parts = []
        for key in RESOLUTION_KEYS:
            widths = [e for v in self.variants if (e := v.estimate(key)) is not None and e.value is not None]
            if not widths:
                continue
            widest = max(widths, key=lambda e: half_width(e) or 0)
            width = half_width(widest)
            if width is None:
                continue
            if not math.isfinite(width):
                parts.append(f"{widest.label}: too few games for an interval")
                continue
            shown = (f"{width * 100:.1f} pp" if widest.unit == "share"
                     else f"{width:.3f}" if widest.unit == "fraction" else f"{width:.2f}")
            parts.append(f"{widest.label} ±{shown}")
        if not parts:
            return ""
        return "Resolution (widest 95% half-width over the variants): " + "; ".join(parts) + "."

    def to_dict(self) -> dict:
        """Plain JSON-ready data; a value that could not be measured (no interval) is None."""
        fields = _finite(asdict(replace(self, kept=None)))
        del fields["kept"]
        out = {("games" if key == "games_asked" else key): value for key, value in fields.items()}
        out["description"] = self.describe()
        out["header"] = self.header()
        out["resolution"] = self.resolution()
        for v, data in zip(self.variants, out["variants"]):
            data["lineup"] = v.lineup
            for e, row in zip(v.estimates, data["estimates"]):
                row["half_width"] = _finite(half_width(e))
                target = anchor(e.key)
                row["definition"] = f"docs/metrics.md#{target}" if target else None
        return out

    def csv_rows(self) -> list[dict]:
        """One row per estimate and per difference; `lineup` names the bots of the row's variant.

        Typed columns: a number is a float or int, `significant` true or false, and what a row has not
        (an estimate's `versus`, `p`, `p_holm`, `significant`; a value without an interval) is None,
        an empty field in the CSV; never an empty string among numbers.
        """
        lineup = {v.label: v.lineup for v in self.variants}
        rows = []
        for v in self.variants:
            for e in v.estimates:
                rows.append({"kind": "estimate", "variant": v.label, "versus": None, "lineup": v.lineup,
                             "key": e.key, "label": e.label, "value": e.value, "low": e.low, "high": e.high,
                             "half_width": half_width(e), "n": e.n, "p": None, "p_holm": None, "significant": None})
        for c in self.comparisons:
            for d in c.rows:
                rows.append({"kind": "paired difference" if c.paired else "unpaired difference",
                             "variant": c.b, "versus": c.a, "lineup": lineup.get(c.b), "key": d.key,
                             "label": d.label, "value": d.value, "low": d.low, "high": d.high,
                             "half_width": (d.high - d.low) / 2, "n": d.b.n,
                             "p": d.p, "p_holm": d.p_holm, "significant": bool(d.significant)})
        return [{key: _finite(value) for key, value in row.items()} for row in rows]


# The estimates whose half-widths say what a run can resolve.
RESOLUTION_KEYS = ("win.0", "turns_per_round", "score_round", "skill_depth")


def half_width(e) -> float | None:
    """Half the width of an estimate's 95% interval (the largest side when it is not symmetric)."""
    if e.value is None or e.low is None or e.high is None:
        return None
    return max(e.value - e.low, e.high - e.value)


def lineup_words(bots) -> str:
    """"random in every seat", or each seat's bot."""
    if len(set(bots)) == 1:
        return f"{bots[0]} in every seat"
    return ", ".join(f"P{seat + 1} {bot}" for seat, bot in enumerate(bots))


def _finite(value):
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def label(name: str, players: int) -> str:
    return f"{name} ({players}p)"


def build_report(command: str, outcome: Outcome, rules: list[Rules], compared: tuple[tuple[int, int], ...] = (),
                 whys: list[str] | None = None, sweep: dict | None = None) -> Report:
    """Estimates for every variant and the differences B - A of the (a, b) pairs in `compared`."""
    plan = outcome.plan
    skill = (plan.strong, plan.weak) if plan.strong else None
    variants = []
    for i, (e, r, tally) in enumerate(zip(plan.entrants, rules, outcome.tallies)):
        reasons = end_reasons(r)
        variants.append(VariantReport(
            label=(sweep["labels"][i] if sweep else label(e.name, e.players)), spec=e.label, players=e.players, bots=e.bots,
            games=tally.games, advantage_games=min(plan.advantage_games, tally.games),
            estimates=_shown(estimates(tally, e.players, reasons, skill, plan.seed)),
            fairness=fairness(tally, e.players),
            histograms={k: dict(sorted(c.items())) for k, c in tally.histograms.items()},
            widest=int(tally.peaks.get("branching_max", 0)),
            why_players=whys[i] if whys else "",
            setting=(sweep or {}).get("points", [None] * len(plan.entrants))[i],
            tuning=skilled.tuning(r, e.players) if plays_skilled((*e.bots, plan.strong or "", plan.weak)) else "",
        ))
    comparisons = []
    rows: list[Difference] = []
    for a, b in compared:
        ea, eb = plan.entrants[a], plan.entrants[b]
        pair_index = plan.pairs.index((a, b)) if (a, b) in plan.pairs else None
        why = deal_difference(rules[a], ea.players, rules[b], eb.players)
        metrics = catalogue(max(ea.players, eb.players), end_reasons(rules[a]), skill)
        if sweep and sweep.get("metrics"):  # the family of tests is the metrics asked for
            metrics = [m for m in metrics if m.key in sweep["metrics"]]
        est_a = {x.key: x for x in variants[a].estimates}
        est_b = {x.key: x for x in variants[b].estimates}
        found = differences([m for m in metrics if m.key in est_a], outcome.tallies[a], outcome.tallies[b],
                            est_a, est_b, outcome.pairs[pair_index] if pair_index is not None else None,
                            (ea.players, eb.players))
        pair = outcome.pairs[pair_index] if pair_index is not None else None
        alike = pair is not None and pair.games > 0 and pair.alike == pair.games
        comparisons.append(Comparison(variants[a].label, variants[b].label, pair is not None, why, found, alike))
        rows += found
    # One family for Holm: every test this run reports.
    corrected = iter(correct(rows))
    for c in comparisons:
        c.rows = [next(corrected) for _ in c.rows]
    report = Report(command, plan.seed, plan.games, outcome.games_done, outcome.interrupted, outcome.seconds,
                    outcome.backend, outcome.workers, plan.strong, plan.advantage_games, variants, comparisons,
                    weak=plan.weak, sweep=sweep)
    return report


def plays_skilled(bots) -> bool:
    """Whether any of these bots plays the skilled bot's weights for the variant (the search plays them in rollouts)."""
    return any(name.partition(":")[0] in ("skilled", "mcts") and "weights=official" not in name for name in bots)


def _shown(rows: list) -> list:
    """Drop the dead-end round reason when it never happened: it exists only for specs without one."""
    return [e for e in rows if not (e.key == "end.no_legal_action" and not e.value)]
