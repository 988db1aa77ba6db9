"""Fit the skilled bot's weights for one player count to imitate the network bot's move choices (or the search bot's).

The network bot is the stronger player, but slow; the skilled bot is fast. At 5 players,
weights fitted so the skilled bot picks the move the network rates best beat the weights tuned
by self-play, against 4 network bots and against 4 skilled bots with those weights: the run
that made the shipped 5-player weights and its figures are in skilled_weights.json's
`trained_by` and docs/bots.md ("The 5-player weights, fitted to imitate the network").

It works because the skilled bot's value of a move is linear in its weights: the value is
a sum of terms, each a weight times a number read off the move and the hand it leaves, and
`structure` and `set_bonus` enter as structure * (runs + set_bonus * set shows), linear in the
two coefficients `structure` and `structure * set_bonus`. So the bot's own weigher, run once
per weight with that weight 1 and the rest 0, gives every move's features, and the weights are
a linear scoring rule over them (checked: tests/test_fit_skilled_imitation.py rebuilds the
bot's own values from the features to 1e-9). The fit is then a classification:
  1. positions: games of the skilled bot (shipped weights, 1-3 seats) among network bots,
     then rounds where one seat plays the weights fitted so far against network bots, so the
     positions are those the fitted bot reaches (DAgger);
  2. labels: the move the network bot rates best in each position (with `--teacher mcts`, the move the search
     bot plays there: one search bot a seat, following that seat's views; about 20 CPU-ms a label at 300 rollouts);
  3. a conditional-logit (softmax over a position's moves) Newton fit, then a multiclass
     hinge loss started from it, keeping the weights with the best top-1 agreement;
  4. the weights scaled so `capture` is the current one (the scale of a linear rule is free),
     `tempo` and `scout_tempo` 0 (in the official points they only add to `card` and `scout`).
One process, every random stream seeded by the game: the same command writes the same file.

    python scripts/fit_skilled_imitation.py --out /tmp/fit.json     # the 5-player run: 300 CPU-s, 2 GB
    python scripts/fit_skilled_imitation.py --games 4 --rounds 1 --round-games 3 --out /tmp/f.json   # CI
    python scripts/fit_skilled_imitation.py --teacher mcts --games 600 --rounds 1 --round-games 400 --out /tmp/m.json

Game seeds stay below 500000, where the benchmarks' evaluation games begin.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# One BLAS thread, set before numpy loads: one core of a shared machine, and the same sums in the same order
# (so the same file) wherever it runs.
os.environ["OPENBLAS_NUM_THREADS"] = "1"

import numpy as np

from scoutlab.bots import make_bot, mcts, skilled
from scoutlab.bots.mcts import MctsBot
from scoutlab.bots.points import OFFICIAL, in_points
from scoutlab.bots.skilled import SkilledBot
from scoutlab.match import bot_seed
from scoutlab.rules import Rules, load_rules

# The skilled bot's weights, as skilled_weights.json names them.
WEIGHT_NAMES = ("structure", "set_bonus", "card", "urgency", "capture", "scout", "scout_show", "empty", "shown",
                "plan", "height", "tempo", "scout_tempo")
# What the move value is linear in: one coefficient per feature. `runs` is structure's weight,
# `set_shows` is structure * set_bonus (each set of k cards in the hand left counts k(k-1)/2 shows).
FEATURES = ("capture", "card", "urgency", "scout", "scout_show", "empty", "shown", "plan", "height", "runs",
            "set_shows")
PLAIN = FEATURES[:9]  # the features that are a weight of their own
ALL_SCOUT_SHOWS = 10**6  # weigh the Scout & Shows after every scout, so every pass sees the same moves
EVALUATION_SEEDS = 500_000  # benchmarks play games from here on: never fit on them
SKILLED_SEATS = (1, 1, 2, 3)  # skilled seats in the first games, cycled game by game; network bots in the rest
MIXED_SAMPLE = 0.5  # share of the first games' decisions kept: neighbouring decisions are much alike
ROUND_SAMPLE = 0.25  # share of the network seats' decisions kept in a round (the learner's are all kept)
HELD_OUT = 10  # games whose seed ends in 9 (seed % 10 == 9) are held out for the agreement
TIE = 1e-9  # moves this close to the best count as equal, and the bot plays the lower code
DEFAULTS = {"players": 5, "games": 600, "rounds": 2, "round_games": 800, "seed": 200_000, "teacher": "network",
            "iterations": mcts.DEFAULTS["iterations"]}


# -- features ---------------------------------------------------------------------------------


def unit_weights() -> list[Any]:
    """The weigher's weights for one pass per feature: the feature's coefficient 1, the rest 0."""
    zero = {name: 0.0 for name in WEIGHT_NAMES if name not in ("tempo", "scout_tempo")}
    zero["sns_scouts"] = ALL_SCOUT_SHOWS
    passes = [{**zero, name: 1.0} for name in PLAIN]
    passes.append({**zero, "structure": 1.0})  # runs only
    passes.append({**zero, "structure": 1.0, "set_bonus": 1.0})  # runs + set shows
    return [skilled.weighing.Weights(p) for p in passes]


class Featurer:
    """Reads every move of a decision as the numbers the skilled bot's value is a weighted sum of."""

    def __init__(self, rules: Rules):
        codec = rules.codec
        # the same weigher the bot plays with, so the features are its own reading of the hand
        self.weigher = skilled.weighing.Weigher(codec.width, codec.scout_base, codec.sns_base, codec.sns_stride,
                                                rules, None if rules.builtin_shows else rules.trie)
        self.passes = unit_weights()

    def values(self, weights: Any, view: Any) -> dict[int, float]:
        """code -> value of every move weighed under `weights`."""
        legal = list(view.legal)
        values: list[float] = []
        codes: list[int] = []
        self.weigher.weigh(weights, legal, self.weigher.lists_scout_shows(legal), list(view.hand),
                           list(view.active), list(view.hand_sizes), view.seat, values, codes)
        return dict(zip(codes, values))

    def features(self, view: Any) -> tuple[list[int], np.ndarray]:
        """The moves (codes, ascending, as the bot breaks ties) and their features, one row each."""
        tables = [self.values(weights, view) for weights in self.passes]
        codes = sorted(tables[0])
        if any(table.keys() != tables[0].keys() for table in tables):
            raise RuntimeError("the passes weighed different moves")
        rows = np.array([[table[code] for table in tables] for code in codes])
        rows[:, -1] -= rows[:, -2]  # (runs + set shows) - runs
        return codes, rows


def coefficients(weights: dict[str, float]) -> np.ndarray:
    """A weights dict as its coefficients on FEATURES, in the official points (tempo added to card, scout_tempo
    to scout)."""
    scaled = in_points(weights, OFFICIAL)
    plain = [scaled[name] for name in PLAIN]
    return np.array([*plain, scaled["structure"], scaled["structure"] * scaled["set_bonus"]], dtype=float)


def as_weights(coef: np.ndarray, capture: float) -> dict[str, float]:
    """Coefficients as the skilled bot's weights, scaled so `capture` is `capture` (6 significant digits)."""
    coef = coef * (capture / coef[0])
    weights = dict(zip(PLAIN, coef[:len(PLAIN)].tolist()))
    structure = float(coef[len(PLAIN)])
    weights.update(structure=structure, set_bonus=float(coef[len(PLAIN) + 1]) / structure, tempo=0.0, scout_tempo=0.0)
    return {name: float(f"{weights[name]:.6g}") for name in WEIGHT_NAMES}


# -- teachers ---------------------------------------------------------------------------------


class NetworkTeacher:
    """Labels a decision with the move the network bot rates best. It only ranks (no draws, no memory), so one
    bot serves every seat of every game."""

    def __init__(self, rules: Rules):
        self.bot = make_bot("network", rules, 0)

    def for_game(self, game: int, players: int) -> NetworkTeacher:
        return self

    def observe(self, seat: int, view: Any) -> None:
        pass

    def label(self, seat: int, view: Any) -> int:
        return self.bot.ranked(view)[0][1]


class SearchTeacher:
    """Labels a decision with the search bot's choice (its first choice's rivals searched with `iterations`
    rollouts). A seat's search bot must see every view of its seat, to know where the cards it saw went."""

    def __init__(self, rules: Rules, iterations: int):
        self.rules, self.iterations = rules, iterations

    def for_game(self, game: int, players: int) -> SearchTeacher:
        seeds = (bot_seed(-1 - game, seat) for seat in range(players))  # streams apart from the players'
        self.bots = [MctsBot(self.rules, random.Random(seed), {"iterations": self.iterations}) for seed in seeds]
        return self

    def observe(self, seat: int, view: Any) -> None:
        self.bots[seat].knowledge.observe(view)

    def label(self, seat: int, view: Any) -> int:
        """What the bot's act() plays, without its memory of moves tried (the label must not change the game's
        future labels)."""
        bot = self.bots[seat]
        bot.policy.use_weights(view.players)
        return bot.choose(view, [code for _, code in bot.policy.ranked(view)])


def make_teacher(name: str, rules: Rules, iterations: int) -> NetworkTeacher | SearchTeacher:
    return NetworkTeacher(rules) if name == "network" else SearchTeacher(rules, iterations)


# -- positions --------------------------------------------------------------------------------


@dataclass
class Decisions:
    """Decisions of the skilled bot's move choice: every move's features, stacked, and the label's place."""

    rows: list[np.ndarray] = field(default_factory=list)
    labels: list[int] = field(default_factory=list)
    games: list[int] = field(default_factory=list)
    dropped: int = 0  # labels the features had no row for

    def add(self, game: int, codes: list[int], rows: np.ndarray, label: int) -> None:
        if label not in codes:
            self.dropped += 1
            return
        self.rows.append(rows)
        self.labels.append(codes.index(label))
        self.games.append(game)

    def __len__(self) -> int:
        return len(self.labels)

    def arrays(self, keep: Any = None) -> Arrays:
        """The decisions (those whose game `keep` accepts) as one array problem."""
        chosen = [i for i, game in enumerate(self.games) if keep is None or keep(game)]
        return Arrays.of([self.rows[i] for i in chosen], [self.labels[i] for i in chosen])


@dataclass
class Arrays:
    """Decisions as arrays: X (every move a row), sizes (moves per decision), labels (the label's row in its
    decision)."""

    X: np.ndarray
    sizes: np.ndarray
    labels: np.ndarray

    @classmethod
    def of(cls, rows: list[np.ndarray], labels: list[int]) -> Arrays:
        X = np.vstack(rows) if rows else np.zeros((0, len(FEATURES)))
        return cls(X, np.array([len(r) for r in rows], dtype=int), np.array(labels, dtype=int))

    @property
    def firsts(self) -> np.ndarray:
        return np.concatenate([[0], np.cumsum(self.sizes)[:-1]]).astype(int)

    @property
    def owner(self) -> np.ndarray:
        return np.repeat(np.arange(len(self.sizes)), self.sizes)

    @property
    def label_rows(self) -> np.ndarray:
        return self.firsts + self.labels


def record_game(rules: Rules, players: int, game: int, drivers: list[Any], recorded: Any, teacher: Any,
                featurer: Featurer, decisions: Decisions) -> None:
    """Play one game with `drivers` (one bot a seat), recording the decisions `recorded(seat, rng)` keeps with
    the teacher's move as the label."""
    rng = random.Random(game)  # which decisions are kept: its own stream, so the bots' play is unchanged
    labeller = teacher.for_game(game, players)
    state = rules.new_game(players, game)
    while not state.is_over:
        seat = state.to_act
        view = state.view(seat)
        labeller.observe(seat, view)
        if view.phase != "flip" and len(view.legal) > 1 and recorded(seat, rng):
            codes, rows = featurer.features(view)
            decisions.add(game, codes, rows, labeller.label(seat, view))
        state.apply(drivers[seat].act(view))


def mixed_game(rules: Rules, players: int, game: int, start: dict[str, float], teacher: Any, featurer: Featurer,
               decisions: Decisions) -> None:
    """A first game: 1-3 skilled bots (the starting weights) at random seats, network bots in the rest."""
    count = min(SKILLED_SEATS[game % len(SKILLED_SEATS)], players - 1)
    seats = set(random.Random(-game).sample(range(players), count))  # a stream of its own for the seating
    drivers = [SkilledBot(rules, random.Random(bot_seed(game, s)), start) if s in seats
               else make_bot("network", rules, bot_seed(game, s)) for s in range(players)]
    record_game(rules, players, game, drivers, lambda seat, rng: rng.random() < MIXED_SAMPLE, teacher, featurer,
                decisions)


def learner_game(rules: Rules, players: int, game: int, weights: dict[str, float], teacher: Any,
                 featurer: Featurer, decisions: Decisions) -> None:
    """A round's game: the learner (the weights fitted so far) in one seat, rotating, network bots in the rest."""
    learner = game % players
    drivers = [SkilledBot(rules, random.Random(bot_seed(game, s)), weights) if s == learner
               else make_bot("network", rules, bot_seed(game, s)) for s in range(players)]
    record_game(rules, players, game, drivers, lambda seat, rng: seat == learner or rng.random() < ROUND_SAMPLE,
                teacher, featurer, decisions)


def play_games(first: int, count: int, play: Any, decisions: Decisions, stage: str) -> None:
    """Play games first..first+count-1 with `play(game)`, printing progress."""
    start = time.process_time()
    for done, game in enumerate(range(first, first + count), 1):
        play(game)
        if done % 100 == 0 or done == count:
            print(f"{stage}: game {done}/{count}, {len(decisions)} decisions, "
                  f"{time.process_time() - start:.0f} CPU-s", flush=True)


# -- the fit ----------------------------------------------------------------------------------


def softmax_loss(w: np.ndarray, data: Arrays, l2: float, derivatives: bool = True) -> Any:
    """Mean negative log-likelihood of the labels under a softmax over each decision's moves (and l2 * |w|^2);
    with its gradient and Hessian when `derivatives`."""
    firsts, owner = data.firsts, data.owner
    n = len(data.sizes)
    s = data.X @ w
    s = s - np.maximum.reduceat(s, firsts)[owner]  # stable: each decision's best at 0
    e = np.exp(s)
    log_z = np.log(np.add.reduceat(e, firsts))
    loss = float(np.sum(log_z - s[data.label_rows]) / n + l2 * w @ w)
    if not derivatives:
        return loss
    p = e / np.exp(log_z)[owner]
    px = p[:, None] * data.X
    expected = np.add.reduceat(px, firsts)  # each decision's expected features
    grad = (expected.sum(0) - data.X[data.label_rows].sum(0)) / n + 2 * l2 * w
    hessian = (px.T @ data.X - expected.T @ expected) / n + 2 * l2 * np.eye(len(w))  # mean covariance
    return loss, grad, hessian


def newton(data: Arrays, start: np.ndarray, l2: float = 1e-6, steps: int = 60) -> np.ndarray:
    """Minimise softmax_loss by Newton's method with a backtracking line search (the loss is convex)."""
    w = start.copy()
    for _ in range(steps):
        loss, grad, hessian = softmax_loss(w, data, l2)
        if np.abs(grad).max() < 1e-9:
            break
        step = np.linalg.solve(hessian, grad)
        t = 1.0
        while softmax_loss(w - t * step, data, l2, False) > loss - 1e-4 * t * grad @ step and t > 1e-10:
            t /= 2
        w = w - t * step
    return w


def choices(w: np.ndarray, data: Arrays) -> np.ndarray:
    """The row the skilled bot would play in each decision: the best, and between equals the lower code."""
    firsts, owner = data.firsts, data.owner
    s = data.X @ w
    near = s >= np.maximum.reduceat(s, firsts)[owner] - TIE
    place = np.arange(len(s)) - firsts[owner]
    return np.minimum.reduceat(np.where(near, place, np.iinfo(int).max), firsts)


def agreement(w: np.ndarray, data: Arrays) -> float | None:
    """Share of decisions where the bot with coefficients w plays the label (top-1 agreement)."""
    return float(np.mean(choices(w, data) == data.labels)) if len(data.sizes) else None


def hinge(data: Arrays, start: np.ndarray, epochs: int = 150, rate: float = 0.05) -> np.ndarray:
    """Multiclass (Crammer-Singer) hinge loss, margin 1, by full-batch subgradient steps at the start's norm
    (so the margin has a fixed scale); returns the weights of the best top-1 agreement seen."""
    firsts, owner, labels = data.firsts, data.owner, data.label_rows
    n, norm = len(data.sizes), np.linalg.norm(start)
    w = start.copy()
    best = (agreement(w, data) or 0.0, w.copy())
    wrong = np.ones(len(data.X), dtype=bool)
    wrong[labels] = False
    for epoch in range(epochs):
        s = data.X @ w
        padded = s + wrong  # every wrong move must trail the label by the margin
        rival = np.maximum.reduceat(padded, firsts)
        violated = rival > s[labels]
        worst = wrong & (padded >= rival[owner]) & violated[owner]  # the rivals that set the loss
        share = np.add.reduceat(worst.astype(float), firsts)[owner][worst]  # ties split the step
        grad = (data.X[worst] / share[:, None]).sum(0) - data.X[labels[violated]].sum(0)
        w = w - rate * (1 - epoch / epochs) * grad / n
        w = w / np.linalg.norm(w) * norm
        score = agreement(w, data) or 0.0
        if score > best[0]:
            best = (score, w.copy())
    return best[1]


def fit(data: Arrays, current: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(softmax fit, hinge fit from it) of the labels, starting from the current coefficients at half scale."""
    soft = newton(data, current * 0.5)  # half: the current scale is sharper than the labels bear
    return soft, hinge(data, soft)


def held_out(game: int) -> bool:
    return game % HELD_OUT == HELD_OUT - 1


def fit_and_tell(decisions: Decisions, current: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """fit() on the decisions not held out, printing the training agreements."""
    start, train = time.process_time(), decisions.arrays(lambda game: not held_out(game))
    soft, fitted = fit(train, current)
    print(f"fit on {len(train.sizes)} decisions: train top-1 current {agreement(current, train):.4f}, "
          f"softmax {agreement(soft, train):.4f}, fitted {agreement(fitted, train):.4f} "
          f"({time.process_time() - start:.0f} CPU-s)", flush=True)
    return soft, fitted


# -- the run ----------------------------------------------------------------------------------


def command_line(args: argparse.Namespace) -> str:
    """The command that makes the file, every setting spelled out (the output path left out)."""
    start = f" --start {args.start}" if args.start else ""
    teacher = f" --teacher mcts --iterations {args.iterations}" if args.teacher == "mcts" else ""
    return (f"python scripts/fit_skilled_imitation.py --players {args.players} --games {args.games} "
            f"--rounds {args.rounds} --round-games {args.round_games} --seed {args.seed}{start}{teacher}")


def starting_weights(given: str | None, players: int) -> dict[str, float]:
    """The weights the first games' skilled bots play and the fit is scaled to: `name=value,...`, else the
    shipped ones (so a run after these were shipped can start where the shipped run started)."""
    weights = dict(skilled.default_weights(players))
    for item in (given or "").split(","):
        if item:
            name, _, value = item.partition("=")
            if name not in WEIGHT_NAMES:
                raise SystemExit(f"--start: {name!r} is not a weight ({', '.join(WEIGHT_NAMES)})")
            weights[name] = float(value)
    return weights


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=DEFAULTS["players"], choices=[3, 4, 5])
    parser.add_argument("--games", type=int, default=DEFAULTS["games"],
                        help="first games: 1-3 skilled bots (the starting weights) among network bots")
    parser.add_argument("--rounds", type=int, default=DEFAULTS["rounds"],
                        help="rounds where the weights fitted so far play one seat against network bots")
    parser.add_argument("--round-games", type=int, default=DEFAULTS["round_games"], help="games a round")
    parser.add_argument("--seed", type=int, default=DEFAULTS["seed"], help="the first game's seed")
    parser.add_argument("--start", metavar="NAME=VALUE,...", help="starting weights (default: the shipped ones)")
    parser.add_argument("--teacher", choices=["network", "mcts"], default=DEFAULTS["teacher"],
                        help="whose choices the weights imitate: the network bot's or the search bot's")
    parser.add_argument("--iterations", type=int, default=DEFAULTS["iterations"],
                        help="the search bot's rollouts a decision, when it teaches")
    parser.add_argument("--out", type=Path, required=True, help="JSON file to write")
    args = parser.parse_args(argv)
    last = args.seed + args.games + args.rounds * args.round_games - 1
    if args.seed < 0 or last >= EVALUATION_SEEDS:
        parser.error(f"game seeds {args.seed}..{last} must lie in 0..{EVALUATION_SEEDS - 1} (evaluation games "
                     "start there)")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    start = time.process_time()
    rules = load_rules(skilled.reference_variant(args.players))
    shipped = starting_weights(args.start, args.players)
    current = coefficients(shipped)
    featurer, teacher = Featurer(rules), make_teacher(args.teacher, rules, args.iterations)
    decisions = Decisions()
    tools = {"teacher": teacher, "featurer": featurer, "decisions": decisions}
    play_games(args.seed, args.games, functools.partial(mixed_game, rules, args.players, start=shipped, **tools),
               decisions, "mixed")
    soft, fitted = fit_and_tell(decisions, current)
    first = args.seed + args.games
    for round_ in range(1, args.rounds + 1):
        weights = as_weights(fitted, shipped["capture"])
        print(f"round {round_}: learner skilled:" + ",".join(f"{k}={v:g}" for k, v in weights.items()), flush=True)
        play_games(first, args.round_games, functools.partial(learner_game, rules, args.players, weights=weights,
                                                              **tools), decisions, f"round {round_}")
        first += args.round_games
        soft, fitted = fit_and_tell(decisions, current)
    test = decisions.arrays(held_out)
    scores = {"held_out_decisions": len(test.sizes), "train_decisions": len(decisions) - len(test.sizes),
              "dropped": decisions.dropped, "current": agreement(current, test), "softmax": agreement(soft, test),
              "fitted": agreement(fitted, test)}
    scores = {k: round(v, 4) if isinstance(v, float) else v for k, v in scores.items()}
    document = {"players": args.players, "weights": as_weights(fitted, shipped["capture"]),
                "trained_by": command_line(args), "agreement": scores}
    args.out.write_text(json.dumps(document, indent=2) + "\n")
    print(f"held-out top-1 agreement with the {args.teacher} bot ({scores['held_out_decisions']} decisions): "
          f"current {scores['current']}, softmax fit {scores['softmax']}, fitted {scores['fitted']}")
    print(f"wrote {args.out} ({time.process_time() - start:.0f} CPU-s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
