"""Simulating many games of variants and measuring them: `scoutlab simulate`, `compare` and `sweep`.

    from scoutlab.sim import simulate, compare
    report = simulate("official", players=4, games=500, seed=1)
    report = compare([("official", None), ("two-player", None)], games=3000, per_game=True)
    print(report.describe()); print("\n".join(report.findings)); report.to_dict()
    report.games(); report.rounds()  # pandas DataFrames, one row per game (round) and seat: docs/data.md

Data flows one way: the plan (runner.py) is played in chunks (trace.py plays and
summarises a game, observe.py turns it into numbers, tally.py sums them), on a backend
(backends.py); metrics.py and compare.py turn the tallies into estimates and
differences (stats.py), results.py into a Report, findings.py into sentences, which
table.py, charts.py and report.py render; gamedata.py streams per-game rows when asked. sweep.py builds the points of a grid of
settings and runs them here; sweep_view.py draws its charts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scoutlab.base.limits import excerpt
from scoutlab.bots import BotError, make_bot
from scoutlab.rules import Rules, load_rules
from scoutlab.sim.backends import available_cores, make_backend
from scoutlab.sim.compare import deal_difference
from scoutlab.sim.findings import findings
from scoutlab.sim.gamedata import GameData, MemorySink
from scoutlab.sim.results import Report, build_report, label
from scoutlab.sim.runner import Plan, chunk_size, entrant, run_plan, total_games

LINEUP = "skilled"  # every seat's bot by default: fast and strong, so the figures describe skilled play
STRONG_BOTS = ("skilled", "heuristic", "greedy")  # the first that is installed is the strong side of the skill games
WEAK_BOT = "greedy"  # the strong bot's opponents in skill games
ADVANTAGE_CAP = 1000  # by default at most this many skill games per variant (slower strong bots: fewer, by hand)

Progress = Callable[[int, int], None]  # (games played, games in the run)


@dataclass(frozen=True)
class Entry:
    """One variant at one player count, as a run plays it, and why that count."""

    label: str  # as the user named it: a shipped name or a spec file
    rules: Rules
    players: int
    why: str  # why this player count, in words
    source: int = 0  # which of the specs asked for it (with --players all, one spec gives several entries)


def default_strong(rules: Rules) -> str | None:
    """The strongest installed bot of STRONG_BOTS, or None."""
    for name in STRONG_BOTS:
        try:
            make_bot(name, rules, 0)
        except (BotError, ImportError):
            continue
        return name
    return None


def entries_for(specs: Sequence[tuple[str, int | None]], every_count: bool = False) -> list[Entry]:
    """Load each spec and choose its player count (smallest by default; every count with `every_count`).

    With every count, entries are grouped by player count, so variants that share a count sit together.
    """
    out = []
    for source, (spec, players) in enumerate(specs):
        rules = load_rules(spec)
        allowed = ", ".join(map(str, rules.players))
        if every_count:
            out += [Entry(spec, rules, n, f"--players all: every count it allows ({allowed})", source)
                    for n in rules.players]
        elif players is not None:
            out.append(Entry(spec, rules, players, f"as asked (it allows {allowed})"))
        else:
            why = (f"its smallest count (it allows {allowed}; NAME:N chooses another)" if len(rules.players) > 1
                   else "the only count it allows")
            out.append(Entry(spec, rules, rules.players[0], why))
    if every_count:
        order = {id(e): i for i, e in enumerate(out)}
        out.sort(key=lambda e: (e.players, order[id(e)]))
    return out


def comparisons_for(entries: Sequence[Entry], grouped: bool) -> tuple[tuple[int, int], ...]:
    """Which entries are compared, as (a, b) for B - A: each later one with the first, or, grouped (--players all),
    each variant's counts with each other (3p with 4p and 5p, 4p with 5p) and the variants within each count
    (each with the first variant that has the count), ordered by B so a variant's comparisons sit together.
    """
    if not grouped:
        return tuple((0, k) for k in range(1, len(entries)))
    firsts: dict[int, int] = {}
    own: dict[int, list[int]] = {}
    pairs = []
    for k, e in enumerate(entries):
        if e.players in firsts:
            pairs.append((firsts[e.players], k))
        else:
            firsts[e.players] = k
        pairs += [(j, k) for j in own.get(e.source, [])]
        own.setdefault(e.source, []).append(k)
    return tuple(sorted(pairs, key=lambda ab: (ab[1], ab[0])))


def run(
    command: str,
    specs: Sequence[tuple[str, int | None]],
    games: int,
    every_count: bool = False,
    **options,
) -> Report:
    """Play `games` games of every (variant, players) in `specs` on the same seeds and report.

    `players` None means the variant's smallest count; `every_count` plays every count each
    variant allows, compares each variant's counts with each other and the variants within
    each count. Options as for `run_entries`.
    """
    check_counts(games, options.get("workers"), options.get("advantage_games"))
    entries = entries_for(specs, every_count)
    return run_entries(command, entries, games, comparisons_for(entries, every_count), **options)


MAX_GAMES = 1_000_000_000  # per variant: about a day of a 100-core cluster; a longer run is a typing slip
MAX_WORKERS = 10_000  # processes, or a cluster's tasks at once


def check_counts(games: int, workers: int | None, advantage_games: int | None) -> None:
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"--games must be from 1 to {MAX_GAMES:,}, got {excerpt(games)}")
    if workers is not None and workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    if workers is not None and workers > MAX_WORKERS:
        raise ValueError(f"--workers must be at most {MAX_WORKERS:,}, got {excerpt(workers)}")
    if advantage_games is not None and advantage_games > MAX_GAMES:
        raise ValueError(f"--advantage-games must be at most {MAX_GAMES:,}, got {excerpt(advantage_games)}")
    if advantage_games is not None and advantage_games < 0:
        raise ValueError(f"--advantage-games must be 0 or more, got {advantage_games}")


def run_entries(
    command: str,
    entries: Sequence[Entry],
    games: int,
    compared: Sequence[tuple[int, int]] = (),
    bots: Sequence[str] = (LINEUP,),
    seed: int = 0,
    workers: int | None = None,
    backend: str = "pool",
    address: str | None = None,
    strong: str | None = "auto",
    weak: str = WEAK_BOT,
    advantage_games: int | None = None,
    progress: Progress | None = None,
    sweep: dict | None = None,
    per_game: bool = False,
    data: GameData | None = None,
) -> Report:
    """Play the entries on the same seeds and report; `compared` lists the (a, b) entries compared as B - A.

    `strong` is the bot whose edge over `weak` is measured ("auto": the first installed of
    STRONG_BOTS; None: skip) in `advantage_games` skill games per variant (default: half of `games`, at
    most ADVANTAGE_CAP). `per_game` keeps a row per game and seat and per round and seat for
    `Report.games()` and `Report.rounds()`; `data` streams the same rows to files as they come (the
    command line's --games-csv and the like). Without either, only tallies are kept: constant memory.
    """
    check_counts(games, workers, advantage_games)
    rules = [e.rules for e in entries]
    entrants = tuple(entrant(e.label, e.rules, e.players, list(bots)) for e in entries)
    if strong == "auto":
        strong = default_strong(rules[0])
    if strong:
        for r in rules:
            make_bot(strong, r, 0)  # a bad --strong or --weak fails now, not in a worker
            make_bot(weak, r, 0)
    if advantage_games is None:
        advantage_games = min(games // 2, ADVANTAGE_CAP)
    advantage = min(advantage_games, games) if strong else 0
    pairs = tuple((a, b) for a, b in compared
                  if deal_difference(rules[a], entrants[a].players, rules[b], entrants[b].players) is None)
    data = data or GameData()
    kept = (MemorySink(), MemorySink()) if per_game else None
    if kept:
        data.games.append(kept[0])
        data.rounds.append(kept[1])
    plan = Plan(entrants, games, seed, strong if advantage else None, advantage, pairs, weak, data.wanted)
    tasks = math.ceil(games / chunk_size(games))
    total = total_games(plan)
    try:
        data.start(plan, [sweep["labels"][i] if sweep else label(e.rules.name, e.players) for i, e in enumerate(entries)])
        chosen = make_backend(backend, workers or available_cores(), address, tasks)
        if progress:
            progress(0, total)
        outcome = run_plan(plan, chosen, (lambda done: progress(done, total)) if progress else None,
                           data.add if data.wanted else None)
    finally:
        data.close()
    report = build_report(command, outcome, rules, tuple(compared), [e.why for e in entries], sweep)
    if kept:
        report.kept = {"games": kept[0].rows, "rounds": kept[1].rows}
    report.findings = findings(report)
    return report


def simulate(variant: str, players: int | None = None, games: int = 1000, **options) -> Report:
    """Many games of one variant: every metric with its 95% interval; `per_game=True` keeps each game's rows."""
    return run("simulate", [(variant, players)], games, **options)


def compare(specs: Sequence[tuple[str, int | None]], games: int = 3000, **options) -> Report:
    """Many games of each variant on the same seeds; each later variant against the first.

    `specs` are (shipped name or spec file, player count or None for the smallest). Options as for
    `run_entries`, e.g. `workers=1`, `seed=7`, `bots=["greedy"]`, `strong=None` (no skill games),
    `per_game=True` (then `report.games()` and `report.rounds()` are pandas DataFrames: docs/data.md).
    """
    if len(specs) < 2:
        raise ValueError("compare needs at least two variants")
    return run("compare", specs, games, **options)


__all__ = ["Entry", "Report", "compare", "default_strong", "run", "run_entries", "simulate"]
