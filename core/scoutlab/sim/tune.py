"""Fitting the skilled bot's weights to one variant by self-play (`scoutlab tune`).

The search is CMA-ES (Hansen's pycma): each generation proposes a handful of weight
vectors, each plays the same games (common seeds, so candidates differ by their weights,
not their deals) in one seat, rotating, against bots with the official game's weights
(`skilled:weights=official`, what an untuned variant would otherwise measure), and the
search moves towards the ones that won most. The weights are searched in units of their
typical size (SCALES), so one step size suits them all, and only along the directions that can
change a move in the variant (`directions`): no weight whose points the variant makes worth
nothing, and a card's or a scout's points and tempo as one, where only their sum counts.

At the end, the search's mean and the starting weights (the default weights, read in the
variant's points) play the same new games against the same opponents (`verdict`). Where the
mean won clearly more, by more than 1.96 standard errors of the difference of the two shares
(`clearly_better`, as if unpaired) or of the gain read game by game (`paired_gain`: both played
each deal, so its error is about a third smaller), the two play as many new games again, and
the mean is kept only if it gains there too, by more than 1.645 standard errors of the gain read
game by game (one-sided: the question is whether it is better); else the start is (tuned.save).
Every tuning at a count is checked on the same deals, so the searches kept on them alone were
those the deals flattered, and the gains did not hold on new ones (docs/bots.md); the second
deals have chosen nothing. The result says both win shares with their 95% Wilson intervals and
each gain with its standard error: a tuning keeps no weights it cannot show are better than
where it started, and says what it found in numbers.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from scoutlab.bots import skilled, tuned
from scoutlab.bots.points import TEMPO, Points, figures
from scoutlab.match import make_bots, play_game
from scoutlab.rules import Rules
from scoutlab.sim import entries_for
from scoutlab.sim.backends import available_cores, make_backend
from scoutlab.sim.runner import game_seed
from scoutlab.sim.stats import wilson
from scoutlab.spec.variant import load_spec_text

#: The weights searched, and the size of a step of one unit in each (their typical magnitude).
SCALES = {
    "structure": 0.1, "set_bonus": 0.25, "capture": 0.5, "card": 0.25, "tempo": 0.25,
    "scout": 0.25, "scout_tempo": 0.25, "shown": 0.25, "empty": 0.25, "urgency": 0.25, "scout_show": 0.25,
    "plan": 0.25, "height": 0.25,
}
#: The bot every candidate plays against: the official game's weights, unscaled.
OPPONENT = "skilled:weights=official"
BATCH = 25  # games per task handed to a worker


@dataclass(frozen=True)
class Budget:
    """How much self-play a tuning spends: generations of `population` candidates, each on `games` games."""

    generations: int = 12
    population: int = 10
    games: int = 400
    check_games: int = 2000  # new games for the final check of the start and the search's mean

    def describe(self) -> str:
        return (f"{self.generations} generations of {self.population} candidates, {self.games} games each, "
                f"then {self.check_games} games to check, and as many new ones again where the search won clearly more")

    @property
    def most_games(self) -> int:
        """The games a tuning plays at most: every candidate's, and both checks of the start and the mean."""
        return self.generations * self.population * self.games + 4 * self.check_games


QUICK = Budget(generations=6, population=8, games=150, check_games=600)
#: The most a tuning may play, candidates and check included: about an hour of both cores in 4-player games.
MAX_GAMES = 2_000_000
#: Generation g plays run seed 1,000 * seed + g, the check 1,000 * seed + 999 and the second check 1,000 * seed + 998:
#: generations stay below them.
MAX_GENERATIONS = 500
CHECK_SEED, SECOND_CHECK_SEED = 999, 998
CLEAR, CLEAR_ONE_SIDED = 1.96, 1.645  # standard errors: a gain either way at 95%; a gain one way at 95%


def budget_for(quick: bool, generations: int | None = None, games: int | None = None,
               check_games: int | None = None) -> Budget:
    """The budget of `scoutlab tune`'s options: the default or --quick, with any figure given replacing its own."""
    base = QUICK if quick else Budget()
    budget = Budget(generations if generations is not None else base.generations, base.population,
                    games if games is not None else base.games,
                    check_games if check_games is not None else base.check_games)
    for name, value in (("--generations", budget.generations), ("--games", budget.games),
                        ("--check-games", budget.check_games)):
        if value < 1:
            raise ValueError(f"{name} must be at least 1, got {value}")
    if budget.generations > MAX_GENERATIONS:
        raise ValueError(f"--generations must be at most {MAX_GENERATIONS}, got {budget.generations}")
    total = budget.most_games
    if total > MAX_GAMES:
        raise ValueError(f"that tuning would play {total:,} games; at most {MAX_GAMES:,} (about an hour of two cores)")
    return budget


@dataclass(frozen=True)
class Share:
    """A bot's share of the wins, with its 95% Wilson interval."""

    share: float
    low: float
    high: float
    games: int

    def words(self, players: int) -> str:
        return (f"{100 * self.share:.1f}% [{100 * self.low:.1f}, {100 * self.high:.1f}] of {self.games:,} games "
                f"(even share {100 / players:.0f}%)")


def bot_name(weights: dict[str, float]) -> str:
    """The skilled bot with these weights, as `make_bot` reads it."""
    return "skilled:" + ",".join(f"{key}={value!r}" for key, value in weights.items())


def play_outcomes(doc: str, players: int, candidate: str, seed: int, first: int, count: int,
                  opponents: tuple[str, ...] = (OPPONENT,)) -> list[float]:
    """Games first..first+count-1 of a run: `candidate` in one seat (rotating) against the others played by one of
    `opponents` (the next after each full turn of the seat, so each meets every seat alike); its share of each
    game's win (1, 0, or 1/k of a k-way tie)."""
    rules = _rules(doc)
    outcomes = []
    for index in range(first, first + count):
        seat = index % players
        names = [opponents[index // players % len(opponents)]] * players
        names[seat] = candidate
        game = game_seed(seed, index)
        winners = play_game(rules, players, make_bots(names, rules, players, game), game).winners()
        outcomes.append(1 / len(winners) if seat in winners else 0.0)
    return outcomes


def play_share(doc: str, players: int, candidate: str, seed: int, first: int, count: int,
               opponents: tuple[str, ...] = (OPPONENT,)) -> float:
    """The candidate's wins (ties split) in the games `play_outcomes` plays."""
    return sum(play_outcomes(doc, players, candidate, seed, first, count, opponents))


def run_outcomes(backend: Any, doc: str, players: int, candidates: Sequence[str], seed: int, games: int,
                 opponents: Sequence[str] = (OPPONENT,)) -> list[list[float]]:
    """Each candidate's share of each of the run's games (`play_outcomes`), all in one batch of tasks for `backend`."""
    tasks = [(doc, players, bot, seed, first, min(BATCH, games - first), tuple(opponents))
             for bot in candidates for first in range(0, games, BATCH)]
    batches = list(backend.map_ordered(play_outcomes, tasks, lambda: False))
    per = math.ceil(games / BATCH)
    return [[won for batch in batches[i * per:(i + 1) * per] for won in batch] for i in range(len(candidates))]


_compiled: dict[str, Rules] = {}  # per worker process: the rules compiled once


def _rules(doc: str) -> Rules:
    if doc not in _compiled:
        _compiled[doc] = Rules(load_spec_text(doc, filename="<tuned variant>"))
    return _compiled[doc]


def start_weights(rules: Rules, players: int) -> dict[str, float]:
    """Where the search starts: the default weights of the player count (in base units, before scaling)."""
    start = {**skilled.DEFAULTS, **skilled.default_weights(players)}
    return {key: float(start[key]) for key in SCALES}


def directions(rules: Rules) -> list[tuple[str, ...]]:
    """The weights the search moves, each alone or with its partner: a step moves every weight of a direction.

    Only what can change a move is searched: a points term the variant makes worth nothing (its figure 0, such as
    a card in hand that costs no points) is left at its start, and a points term worth what the official game's
    is moves with its partner in one direction, half a step each, since there only their sum counts (the halves
    the default weights keep, points.split_evenly). Every other weight is a direction of its own."""
    figure = figures(Points.of(rules))
    moved_with_points = {tempo for key, tempo in TEMPO.items() if figure[key] == 1}
    found: list[tuple[str, ...]] = []
    for key in SCALES:
        if key in moved_with_points or figure.get(key, 1) == 0:
            continue
        found.append((key, TEMPO[key]) if key in TEMPO and figure[key] == 1 else (key,))
    return found


def moved(start: dict[str, float], ways: Sequence[tuple[str, ...]], x: Sequence[float]) -> dict[str, float]:
    """The start's weights moved `x` steps along each direction (a pair's step shared between its two weights)."""
    weights = dict(start)
    for keys, steps in zip(ways, x, strict=True):
        for key in keys:
            weights[key] = round(float(start[key] + steps * SCALES[keys[0]] / len(keys)), 4)
    return weights


def tune(rules: Rules, players: int, budget: Budget = Budget(), seed: int = 0, workers: int | None = None,
         report: Callable[[str], None] = print, opponents: Sequence[str] = (OPPONENT,),
         progress: Callable[[int, int], None] | None = None) -> tuned.Tuned:
    """Fit the weights for `rules` at `players` (see the module doc); returns what was kept, not yet saved.

    `opponents`: the bots the candidates play against, in turn (by default the official game's weights alone).
    `progress(done, total)`: the games played so far, after each generation and after the check."""
    import cma  # the tuning's one dependency beyond the simulator's; imported when a tuning runs

    if players not in rules.players:
        raise ValueError(f"variant {rules.name!r} is for {', '.join(map(str, rules.players))} players, not {players}")
    doc = json.dumps(rules.spec.doc)
    ways = directions(rules)
    start = start_weights(rules, players)
    began = time.perf_counter()
    tasks = budget.population * math.ceil(budget.games / BATCH)  # a generation's: more workers would wait idle
    backend = make_backend("pool", min(workers or available_cores(), tasks))
    try:
        def outcomes(candidates: list[dict[str, float]], games: int, run_seed: int) -> list[list[float]]:
            return run_outcomes(backend, doc, players, [bot_name(c) for c in candidates], run_seed, games, opponents)

        def weights_of(x) -> dict[str, float]:
            return moved(start, ways, x)

        search = cma.CMAEvolutionStrategy([0.0] * len(ways), 1.0, {
            "popsize": budget.population, "seed": seed + 1, "verbose": -9, "maxiter": budget.generations})
        per_generation = budget.population * budget.games
        total = budget.most_games
        for generation in range(budget.generations):
            xs = search.ask()
            found = [sum(games) / budget.games
                     for games in outcomes([weights_of(x) for x in xs], budget.games, seed * 1_000 + generation)]
            search.tell(xs, [-share for share in found])
            best = max(found)
            report(f"generation {generation + 1}/{budget.generations}: best candidate won {100 * best:.1f}% "
                   f"of {budget.games} games ({time.perf_counter() - began:.0f} s)")
            if progress:
                progress((generation + 1) * per_generation, total)
        mean = weights_of(search.mean)
        start_games, mean_games = outcomes([start, mean], budget.check_games, seed * 1_000 + CHECK_SEED)
        if progress:
            progress(total - 2 * budget.check_games, total)

        def second_check() -> list[list[float]]:
            report("the search's mean won clearly more: checking it on as many new games")
            return outcomes([start, mean], budget.check_games, seed * 1_000 + SECOND_CHECK_SEED)

        better, second = verdict(start_games, mean_games, second_check)
        if progress:
            progress(total, total)
    finally:
        backend.close()
    start_share, mean_share = _share(start_games), _share(mean_games)
    gain, error = paired_gain(mean_games, start_games)
    kept, kept_share = (mean, mean_share) if better else (start, start_share)
    against = " or ".join(opponents)
    method = (f"CMA-ES (pycma) over {len(ways)} directions of the weights, {budget.generations} generations of "
              f"{budget.population} candidates, {budget.games} games each, one seat against {players - 1} {against}, "
              f"seats rotating, seed {seed}; {time.perf_counter() - began:.0f} s on {backend.workers} workers")
    result = (f"{'tuned' if kept is mean else 'start kept'}: {kept_share.words(players)} against {against}; "
              f"start {start_share.words(players)}, search's mean {mean_share.words(players)}, "
              f"{100 * gain:+.1f} points on the same games "
              + (f"(standard error {100 * error:.1f})" if math.isfinite(error) else "(one game: no standard error)")
              + second)
    return tuned.Tuned(rules.name, players, tuned.play_digest(rules), kept, method, result)


def verdict(start: Sequence[float], mean: Sequence[float],
            second_check: Callable[[], Sequence[Sequence[float]]]) -> tuple[bool, str]:
    """Whether the search's mean is kept over the start, from each one's share of each check game, and the words of a
    second check ('' if none was played): see the module doc. `second_check()` plays it: [start's, mean's]."""
    gain, error = paired_gain(mean, start)
    if not (clearly_better(_share(mean), _share(start)) or gain > CLEAR * error):  # an infinite error passes nothing
        return False, ""
    start_again, mean_again = second_check()
    gain, error = paired_gain(mean_again, start_again)
    kept = gain > CLEAR_ONE_SIDED * error
    return kept, (f"; so both played {len(mean_again):,} new games: {100 * gain:+.1f} points (standard error "
                  f"{100 * error:.1f}), " + ("a gain again" if kept else "not clearly a gain there"))


def paired_gain(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """How much more of each game's win `a` took than `b`, game i of each on the same deal: the mean and its
    standard error (from the games' differences, so what the deal decides for both cancels)."""
    if len(a) != len(b) or not a:
        raise ValueError(f"paired outcomes need the same games: {len(a)} against {len(b)}")
    differences = [x - y for x, y in zip(a, b)]
    mean = sum(differences) / len(differences)
    if len(differences) < 2:
        return mean, math.inf
    variance = sum((d - mean) ** 2 for d in differences) / (len(differences) - 1)
    return mean, math.sqrt(variance / len(differences))


def clearly_better(a: Share, b: Share, z: float = 1.96) -> bool:
    """Whether share `a` beats share `b` by more than `z` standard errors of their difference, as if unpaired: erring
    towards no, which the check needs (every tuning at a count is checked on the same deals, and those kept are those
    the deals flattered)."""
    error = math.sqrt(a.share * (1 - a.share) / a.games + b.share * (1 - b.share) / b.games)
    return a.share - b.share > z * error


def _share(outcomes: Sequence[float]) -> Share:
    low, high = wilson(sum(outcomes), len(outcomes))
    return Share(sum(outcomes) / len(outcomes), low, high, len(outcomes))


def fitted_words(kept: tuned.Tuned, budget: Budget, how: str = "a tuning") -> str:
    """A tuning made before a run, as the run's findings say it: in words first, then its figures."""
    what = f"Fitted first: {how} of the skilled bots of {kept.variant} at {kept.players} players ({budget.describe()}) "
    if kept.result.startswith("tuned:"):
        what += ("found weights that won clearly more than the default weights read in its points, and again on new "
                 "games; its bots play them.")
    else:
        what += "found no weights clearly better than the default weights read in its points; its bots play those."
    return f"{what} Figures: {kept.result.split(': ', 1)[1]}."


def untuned_keys(specs: Sequence[tuple[str, int | None]], every_count: bool) -> list[tuple[str, int]]:
    """The (digest, players) of each tuning `tune_untuned` would make: where its cache file goes."""
    return [(tuned.play_digest(entry.rules), entry.players) for entry in entries_for(specs, every_count)
            if skilled.tuning(entry.rules, entry.players) == "untuned"]


def tune_untuned(specs: Sequence[tuple[str, int | None]], every_count: bool, budget: Budget = Budget(),
                 workers: int | None = None, report: Callable[[str], None] = print,
                 progress: Callable[[int, int], None] | None = None) -> list[tuned.Tuned]:
    """Tune and keep the weights of each variant and count of a run (as `scoutlab.sim.run` chooses them) that has
    neither tuned weights nor the rules the default weights were tuned on; what was tuned. `progress`: as tune's,
    for each tuning in turn."""
    done = []
    for entry in entries_for(specs, every_count):
        if skilled.tuning(entry.rules, entry.players) != "untuned":
            continue
        report(f"tuning {entry.rules.name} for {entry.players} players: {budget.describe()}")
        kept = tune(entry.rules, entry.players, budget, workers=workers, report=lambda line: report(f"  {line}"),
                    progress=progress)
        tuned.save(kept)
        report(f"  {kept.result}")
        done.append(kept)
    return done
