"""A finished run as a report: estimates per variant, comparisons, and the run's own description.

`Report.to_dict()` is the `--json` output; `Report.csv_rows()` the `--csv` one. The
terminal table, the charts and the HTML page all read a Report and nothing else.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

from scoutlab.rules import Rules
from scoutlab.sim.compare import Difference, correct, deal_difference, differences
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

    def estimate(self, key: str):
        return next((e for e in self.estimates if e.key == key), None)


@dataclass
class Comparison:
    a: str
    b: str
    paired: bool
    why_unpaired: str | None
    rows: list[Difference] = field(default_factory=list)


@dataclass
class Report:
    command: str
    seed: int
    games: int  # asked for, per variant
    games_done: int
    interrupted: bool
    seconds: float
    backend: str
    workers: int
    strong: str | None
    advantage_games: int
    variants: list[VariantReport]
    comparisons: list[Comparison]

    def describe(self) -> str:
        """What was run, in one line, so every output says how its numbers were made."""
        names = " vs ".join(f"{v.label} [{','.join(dict.fromkeys(v.bots))}]" for v in self.variants)
        done = (f"{self.games_done} of {self.games} games (interrupted)" if self.interrupted
                else f"{self.games} games")
        each = " each" if len(self.variants) > 1 else ""
        strong = (f"; strategy advantage: {self.strong} among random, {min(self.advantage_games, self.games_done)}"
                  f" games{each}" if self.strong and self.advantage_games else "")
        return (f"{self.command} {names}: {done}{each}, seed {self.seed}, "
                f"{self.workers} worker{'s' if self.workers != 1 else ''} ({self.backend}){strong}; "
                f"{self.seconds:.1f} s")

    def to_dict(self) -> dict:
        """Plain JSON-ready data; a value that could not be measured (no interval) is None."""
        out = _finite(asdict(self))
        out["description"] = self.describe()
        return out

    def csv_rows(self) -> list[dict]:
        """One row per estimate and per difference."""
        rows = []
        for v in self.variants:
            for e in v.estimates:
                rows.append({"kind": "estimate", "variant": v.label, "versus": "", "key": e.key,
                             "label": e.label, "value": e.value, "low": e.low, "high": e.high,
                             "n": e.n, "p": "", "p_holm": "", "significant": ""})
        for c in self.comparisons:
            for d in c.rows:
                rows.append({"kind": "paired difference" if c.paired else "unpaired difference",
                             "variant": c.b, "versus": c.a, "key": d.key, "label": d.label,
                             "value": d.value, "low": d.low, "high": d.high, "n": d.b.n,
                             "p": d.p, "p_holm": d.p_holm, "significant": d.significant})
        return rows


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


def build_report(command: str, outcome: Outcome, rules: list[Rules]) -> Report:
    """Estimates for every variant and, with more than one, each later variant against the first."""
    plan = outcome.plan
    variants = []
    for e, r, tally in zip(plan.entrants, rules, outcome.tallies):
        reasons = end_reasons(r)
        variants.append(VariantReport(
            label=label(e.name, e.players), spec=e.label, players=e.players, bots=e.bots,
            games=tally.games, advantage_games=min(plan.advantage_games, tally.games),
            estimates=_shown(estimates(tally, e.players, reasons, plan.strong, plan.seed)),
            fairness=fairness(tally, e.players),
            histograms={k: dict(sorted(c.items())) for k, c in tally.histograms.items()},
            widest=int(tally.peaks.get("branching_max", 0)),
        ))
    comparisons = []
    rows: list[Difference] = []
    first = plan.entrants[0]
    for k in range(1, len(plan.entrants)):
        e = plan.entrants[k]
        pair_index = plan.pairs.index((0, k)) if (0, k) in plan.pairs else None
        why = deal_difference(rules[0], first.players, rules[k], e.players)
        metrics = catalogue(max(first.players, e.players), end_reasons(rules[0]), plan.strong)
        est_a = {x.key: x for x in variants[0].estimates}
        est_b = {x.key: x for x in variants[k].estimates}
        found = differences([m for m in metrics if m.key in est_a], outcome.tallies[0], outcome.tallies[k],
                            est_a, est_b, outcome.pairs[pair_index] if pair_index is not None else None,
                            (first.players, e.players))
        comparisons.append(Comparison(variants[0].label, variants[k].label, pair_index is not None, why, found))
        rows += found
    # One family for Holm: every test this run reports.
    corrected = iter(correct(rows))
    for c in comparisons:
        c.rows = [next(corrected) for _ in c.rows]
    return Report(command, plan.seed, plan.games, outcome.games_done, outcome.interrupted, outcome.seconds,
                  outcome.backend, outcome.workers, plan.strong, plan.advantage_games, variants, comparisons)


def _shown(rows: list) -> list:
    """Drop the dead-end round reason when it never happened: it exists only for specs without one."""
    return [e for e in rows if not (e.key == "end.no_legal_action" and not e.value)]
