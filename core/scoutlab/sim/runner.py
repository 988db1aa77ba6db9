"""Running a plan of games in chunks on a backend, and folding the chunks together in game order.

Game i of a run with seed S is dealt from `game_seed(S, i)`, whichever worker plays
it; chunks are fixed ranges of game indices that depend only on the number of games;
their tallies are merged in chunk order. So the numbers for a seed are identical for
any number of workers and on any backend. Memory stays constant: a chunk keeps only
its tallies, never the games; only when the plan asks for per-game data (`Plan.per_game`)
does it also return one compact `GameRecord` per game played, which the caller streams
out in game order (gamedata.py) and forgets.
"""

from __future__ import annotations

import json
import math
import signal
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field

from scoutlab.base.errors import SpecWarning
from scoutlab.bots import tuned
from scoutlab.rules import Rules
from scoutlab.sim.observe import end_reasons, histograms, observe, peaks, skill
from scoutlab.sim.tally import PairTally, Tally
from scoutlab.sim.trace import GameSummary, Lineup, play_traced
from scoutlab.spec.variant import load_spec_text

MASK64 = (1 << 64) - 1


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` in a run seeded `seed` (splitmix64 of both; 48 bits, easy to type)."""
    x = (seed * 0x9E3779B97F4A7C15 + index + 1) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return (x ^ (x >> 31)) >> 16


def chunk_size(games: int) -> int:
    """Games per task: a function of the run's size only, never of the workers (see module doc)."""
    return max(10, min(250, math.ceil(games / 100)))


@dataclass(frozen=True)
class Entrant:
    """One variant in a run, as workers receive it."""

    label: str  # as the user named it: a shipped name or a spec file
    name: str  # the variant's own name
    doc: str  # the merged, validated spec as JSON: workers rebuild the rules without reading files
    players: int
    bots: tuple[str, ...]  # one per seat
    tuned: str = ""  # the skilled bot's weights tuned for this variant and count, as JSON, or "" (see _setup)


@dataclass(frozen=True)
class Plan:
    """What to play: every entrant on the same game seeds, plus skill games (one strong bot among weaker ones)."""

    entrants: tuple[Entrant, ...]
    games: int
    seed: int
    strong: str | None = None  # the bot whose edge over `weak` is measured
    advantage_games: int = 0  # skill games per entrant
    pairs: tuple[tuple[int, int], ...] = ()  # entrants (a, b) that share deals: differences are paired
    weak: str = "greedy"  # the strong bot's opponents in skill games
    per_game: bool = False  # chunks also return a GameRecord per game (--games-csv, Report.games())


@dataclass(frozen=True)
class GameRecord:
    """One game as the per-game tables need it: a few numbers per seat and per round, nothing else."""

    entrant: int  # index into Plan.entrants
    index: int  # the game's index in the run: game `index` is dealt from game_seed(plan.seed, index)
    strong_seat: int | None  # None: a game of the lineup; else a skill game, the strong bot in this seat
    totals: tuple[int, ...]
    rounds: tuple[RoundRecord, ...]


@dataclass(frozen=True)
class RoundRecord:
    reason: str  # the end condition that ended it, "turn_cap" or "no_legal_action"
    turns: int
    starter: int
    scores: tuple[int, ...]
    captured: int  # cards captured in the round, all seats together
    scouts: int
    scout_and_shows: int


def game_record(k: int, index: int, strong_seat: int | None, summary: GameSummary) -> GameRecord:
    rounds = tuple(RoundRecord(r.reason, r.turns, r.starter, r.scores, r.captured, len(r.scout_turns), len(r.sns_turns))
                   for r in summary.rounds)
    return GameRecord(k, index, strong_seat, summary.totals, rounds)


def check_players(rules: Rules, players: int) -> None:
    """ValueError naming the counts the variant allows, unless it allows `players`."""
    if players not in rules.players:
        allowed = ", ".join(map(str, rules.players))
        raise ValueError(f"variant {rules.name!r} is for {allowed} players, not {players}")


def entrant(label: str, rules: Rules, players: int, bots: list[str]) -> Entrant:
    """An entrant from compiled rules; checks the player count and the bots now, in the parent."""
    check_players(rules, players)
    lineup = Lineup(bots, rules, players)
    fitted = tuned.find(rules, players, remembered=False)  # what is on disk now, not what an earlier run kept
    return Entrant(label, rules.name, json.dumps(rules.spec.doc), players, tuple(lineup.names),
                   json.dumps(asdict(fitted)) if fitted else "")


@dataclass
class ChunkResult:
    tallies: list[Tally]
    pairs: list[PairTally]
    games: int  # games played, all entrants and skill games included
    records: list[GameRecord] = field(default_factory=list)  # only when the plan asks: per game, in game order


@dataclass
class _Setup:
    """What a worker builds once per entrant and reuses for every game."""

    rules: Rules
    reasons: tuple[str, ...]
    lineup: Lineup
    strong_lineups: list[Lineup] = field(default_factory=list)  # index: the strong bot's seat


_setups: dict[tuple, _Setup] = {}  # per worker process


def _setup(e: Entrant, strong: str | None, weak: str) -> _Setup:
    key = (e.doc, e.players, e.bots, strong, weak)
    if key not in _setups:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SpecWarning)  # the parent said it when it loaded the spec
            rules = Rules(load_spec_text(e.doc, filename=e.label))
        strong_lineups = []
        if strong:
            for seat in range(e.players):
                names = [weak] * e.players
                names[seat] = strong
                strong_lineups.append(Lineup(names, rules, e.players))
        _setups[key] = _Setup(rules, end_reasons(rules), Lineup(e.bots, rules, e.players), strong_lineups)
    setup = _setups[key]
    # The weights the parent found, or none, whatever this process's cache holds (a Ray node has none); set for
    # every chunk, since one process may play chunks of several runs.
    fitted = tuned.parse(json.loads(e.tuned)) if e.tuned else None
    if fitted is not None:
        tuned.remember(fitted)
    else:
        tuned.forget(tuned.play_digest(setup.rules), e.players)
    return setup


def play_chunk(plan: Plan, start: int, stop: int) -> ChunkResult:
    """Play games start..stop-1 of the plan under every entrant; return only their tallies."""
    setups = [_setup(e, plan.strong, plan.weak) for e in plan.entrants]
    result = ChunkResult([Tally() for _ in setups], [PairTally() for _ in plan.pairs], 0)
    for index in range(start, stop):
        seed = game_seed(plan.seed, index)
        seen = []
        moves: list[tuple[int, ...]] = []  # per entrant: the hash of its game's moves, then of its skill game's
        for k, (e, setup, tally) in enumerate(zip(plan.entrants, setups, result.tallies)):
            summary = play_traced(setup.rules, e.players, setup.lineup.bots(seed), seed)
            if plan.per_game:
                result.records.append(game_record(k, index, None, summary))
            observations = observe(summary, setup.reasons)
            tally.add(observations, histograms(summary), peaks(summary))
            seen.append(observations)
            moves.append((summary.moves,))
        if index < plan.advantage_games:
            for k, (e, setup, tally, observations) in enumerate(zip(plan.entrants, setups, result.tallies, seen)):
                strong_seat = index % e.players  # the strong bot visits every seat in turn
                bots = setup.strong_lineups[strong_seat].bots(seed)
                summary = play_traced(setup.rules, e.players, bots, seed)
                if plan.per_game:
                    result.records.append(game_record(k, index, strong_seat, summary))
                edge = skill(summary, strong_seat)
                tally.add_observations(edge)
                observations.update(edge)
                moves[k] += (summary.moves,)
        for pair, (a, b) in zip(result.pairs, plan.pairs):
            pair.add(seen[a], seen[b])
            pair.add_play(moves[a] == moves[b])
        result.games += len(setups) * (2 if index < plan.advantage_games else 1)
    return result


def chunks(plan: Plan) -> Iterator[tuple[Plan, int, int]]:
    """The plan's tasks: (plan, first game, end) over fixed ranges of game indices."""
    size = chunk_size(plan.games)
    for start in range(0, plan.games, size):
        yield plan, start, min(start + size, plan.games)


def total_games(plan: Plan) -> int:
    return len(plan.entrants) * (plan.games + min(plan.advantage_games, plan.games))


@dataclass
class Outcome:
    """The tallies of a run, and how much of it finished."""

    plan: Plan
    tallies: list[Tally]
    pairs: list[PairTally]
    games_done: int  # game indices finished under every entrant (a prefix: 0 .. games_done-1)
    interrupted: bool
    seconds: float
    backend: str
    workers: int


def run_plan(plan: Plan, backend, progress: Callable[[int], None] | None = None,
             records: Callable[[list[GameRecord]], None] | None = None) -> Outcome:
    """Play the plan on `backend`; Ctrl-C stops after the chunks already merged and says so.

    With `plan.per_game`, `records` receives each chunk's game records as the chunk is merged: in game order.
    """
    tallies = [Tally() for _ in plan.entrants]
    pairs = [PairTally() for _ in plan.pairs]
    done = played = 0
    began = time.perf_counter()
    with graceful_interrupt() as stop:
        try:
            for chunk in backend.map_ordered(play_chunk, chunks(plan), stop.is_set):
                for tally, part in zip(tallies, chunk.tallies):
                    tally.merge(part)
                for pair, part in zip(pairs, chunk.pairs):
                    pair.merge(part)
                if records and chunk.records:
                    records(chunk.records)
                done = tallies[0].games
                played += chunk.games
                if progress:
                    progress(played)
                if stop.is_set():
                    break
        finally:
            backend.close(abort=stop.is_set() or done < plan.games)
    return Outcome(plan, tallies, pairs, done, done < plan.games, time.perf_counter() - began,
                   backend.name, backend.workers)


@contextmanager
def graceful_interrupt() -> Iterator[threading.Event]:
    """The first Ctrl-C sets the event (the run stops after merging what finished); a second one aborts."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop  # signal handlers live in the main thread only
        return

    def handler(signum, frame):
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)

