"""Simulating many games of variants and measuring them: `scoutlab simulate` and `scoutlab compare`.

    from scoutlab.sim import simulate, compare
    report = simulate("official", players=4, games=500, seed=1)
    report = compare([("official", None), ("two-player", None)], games=3000)
    print(report.describe()); report.to_dict()

Data flows one way: the plan (runner.py) is played in chunks (trace.py plays and
summarises a game, observe.py turns it into numbers, tally.py sums them), on a backend
(backends.py); metrics.py and compare.py turn the tallies into estimates and
differences (stats.py), results.py into a Report, which table.py, charts.py and
report.py render.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from scoutlab.bots import BotError, make_bot
from scoutlab.rules import Rules, load_rules
from scoutlab.sim.backends import available_cores, make_backend
from scoutlab.sim.compare import deal_difference
from scoutlab.sim.results import Report, build_report
from scoutlab.sim.runner import Plan, chunk_size, entrant, run_plan, total_games

STRONG_BOTS = ("heuristic", "greedy")  # the first that is installed measures strategy advantage
ADVANTAGE_CAP = 250  # strong bots are slow: by default at most this many strategy-advantage games

Progress = Callable[[int, int], None]  # (games played, games in the run)


def default_strong(rules: Rules) -> str | None:
    """The strongest installed bot of STRONG_BOTS, or None."""
    for name in STRONG_BOTS:
        try:
            make_bot(name, rules, 0)
        except (BotError, ImportError):
            continue
        return name
    return None


def run(
    command: str,
    specs: Sequence[tuple[str, int | None]],
    games: int,
    bots: Sequence[str] = ("random",),
    seed: int = 0,
    workers: int | None = None,
    backend: str = "pool",
    address: str | None = None,
    strong: str | None = "auto",
    advantage_games: int | None = None,
    progress: Progress | None = None,
) -> Report:
    """Play `games` games of every (variant, players) in `specs` on the same seeds and report.

    `players` None means the variant's smallest count. `strong` is the bot whose edge over
    random is measured ("auto": heuristic, else greedy; None: skip) in `advantage_games`
    games per variant (default: half of `games`, at most ADVANTAGE_CAP).
    """
    if games < 1:
        raise ValueError(f"--games must be at least 1, got {games}")
    if workers is not None and workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    if advantage_games is not None and advantage_games < 0:
        raise ValueError(f"--advantage-games must be 0 or more, got {advantage_games}")
    rules = [load_rules(spec) for spec, _ in specs]
    entrants = tuple(entrant(spec, r, players or r.players[0], list(bots))
                     for (spec, players), r in zip(specs, rules))
    if strong == "auto":
        strong = default_strong(rules[0])
    if strong:
        for _e, r in zip(entrants, rules):
            make_bot(strong, r, 0)  # a bad --strong fails now, not in a worker
    if advantage_games is None:
        advantage_games = min(games // 2, ADVANTAGE_CAP)
    advantage = min(advantage_games, games) if strong else 0
    pairs = tuple((0, k) for k in range(1, len(entrants))
                  if deal_difference(rules[0], entrants[0].players, rules[k], entrants[k].players) is None)
    plan = Plan(entrants, games, seed, strong if advantage else None, advantage, pairs)
    tasks = math.ceil(games / chunk_size(games))
    chosen = make_backend(backend, workers or available_cores(), address, tasks)
    total = total_games(plan)
    if progress:
        progress(0, total)
    outcome = run_plan(plan, chosen, (lambda done: progress(done, total)) if progress else None)
    return build_report(command, outcome, rules)


def simulate(variant: str, players: int | None = None, games: int = 1000, **options) -> Report:
    """Many games of one variant: every metric with its 95% interval."""
    return run("simulate", [(variant, players)], games, **options)


def compare(specs: Sequence[tuple[str, int | None]], games: int = 3000, **options) -> Report:
    """Many games of each variant on the same seeds; each later variant against the first."""
    if len(specs) < 2:
        raise ValueError("compare needs at least two variants")
    return run("compare", specs, games, **options)


__all__ = ["Report", "compare", "default_strong", "run", "simulate"]
