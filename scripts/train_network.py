"""Train the network bot (core/scoutlab/bots/network.py): imitate the search bot, then learn on its own positions.

1. Imitation. Games of `--players` with `--drivers` in the seats (cycled game by game); at a
   `--label-rate` share of the decisions the teacher (`--teacher`, the search bot by default)
   is asked for its move, which is played, and the position's candidate rows (read from the
   seat's View, network_features.py) are kept with the teacher's choice as the label.
2. Further distillation from the search on the network's own positions (DAgger, Ross, Gordon
   and Bagnell 2011): `--dagger-games` games with the network just fitted in every seat, the
   teacher labelling the same share of decisions, the network's move played; then the network
   is fitted again on all positions.
Fitting: the cross-entropy of the teacher's move under a softmax of the scores over each
decision's candidates, Adam, in numpy; the last tenth of each stage's decisions is held out and
the teacher's move's share of first places on it is reported. Everything is seeded, and one
process on one BLAS thread does it all, so the same command writes the same file.

    python scripts/train_network.py                       # the shipped weights (see docs/bots.md for the time)
    python scripts/train_network.py --games 2 --dagger-games 1 --epochs 1 --teacher mcts:iterations=6 --out /tmp/n.json
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread: the same sums in the same order, so the same weights
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import sys
import time
from itertools import pairwise
from pathlib import Path

import numpy as np

from scoutlab.bots import make_bot, network
from scoutlab.bots.network_features import CONTEXT, MOVE, Reader
from scoutlab.match import bot_seed
from scoutlab.rules import load_rules


class Positions:
    """Labelled decisions: each one's context, its candidates' rows (contiguous) and the teacher's candidate."""

    def __init__(self) -> None:
        self.contexts: list[list[float]] = []
        self.rows: list[list[float]] = []
        self.sizes: list[int] = []
        self.labels: list[int] = []

    def add(self, context: list[float], codes: list[int], rows: list[list[float]], chosen: int) -> None:
        self.contexts.append(context)
        self.rows += rows
        self.sizes.append(len(codes))
        self.labels.append(codes.index(chosen))

    def arrays(self) -> dict[str, np.ndarray]:
        sizes = np.asarray(self.sizes, dtype=np.int64)
        return {"contexts": np.asarray(self.contexts, dtype=np.float32), "rows": np.asarray(self.rows, dtype=np.float32),
                "sizes": sizes, "starts": np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64),
                "labels": np.asarray(self.labels, dtype=np.int64)}


def play(rules, players: int, games: range, drivers: list[str], teacher: str, label_rate: float, scouts: int,
         positions: Positions, report) -> None:
    """Play `games` (their numbers are the deals' seeds), labelling decisions with the teacher's moves."""
    started = time.process_time()
    for game in games:
        driver = drivers[game % len(drivers)]
        bots = [make_bot(driver, rules, bot_seed(game, seat)) for seat in range(players)]
        teachers = [make_bot(teacher, rules, bot_seed(game, seat) + 1) for seat in range(players)]
        pick = np.random.default_rng(game)  # which decisions are labelled
        reader = Reader(rules)
        state = rules.new_game(players, game)
        while not state.is_over:
            seat = state.to_act
            view = state.view(seat)
            if len(view.legal) > 1 and pick.random() < label_rate:
                code = teachers[seat].act(view)
                context, codes, rows = reader.read(view, scouts, (code,))
                positions.add(context, codes, rows, code)
                if driver.startswith("network"):
                    code = bots[seat].act(view)  # DAgger: the learner's own move is played
            else:
                knowledge = getattr(teachers[seat], "knowledge", None)
                if knowledge is not None:
                    knowledge.observe(view)  # the search remembers what its seat saw
                code = bots[seat].act(view)
            state.apply(code)
        if (game - games.start + 1) % 20 == 0 or game + 1 == games.stop:
            report(f"  game {game - games.start + 1}/{len(games)}: {len(positions.labels)} positions, "
                   f"{time.process_time() - started:.0f} CPU-s")


# -- fitting -----------------------------------------------------------------------------------


def initial(sizes: list[int], rng: np.random.Generator) -> list[list[np.ndarray]]:
    """He-initialised layers [weight, bias] for these widths (the input first, one score last)."""
    return [[rng.normal(0.0, np.sqrt(2.0 / n_in), (n_in, n_out)), np.zeros(n_out)]
            for n_in, n_out in pairwise(sizes)]


def batch(data: dict[str, np.ndarray], decisions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rows of these decisions (context joined to each move's row), each row's decision, the decisions'
    first rows and their labels' rows."""
    sizes = data["sizes"][decisions]
    firsts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    owner = np.repeat(np.arange(len(decisions)), sizes)
    index = data["starts"][decisions][owner] + np.arange(int(sizes.sum())) - firsts[owner]
    x = np.hstack([data["contexts"][decisions][owner], data["rows"][index]]).astype(np.float64)
    return x, owner, firsts, firsts + data["labels"][decisions]


def forward(layers, x: np.ndarray) -> list[np.ndarray]:
    """Each layer's output (rectified but the last), the input first."""
    outputs = [x]
    for i, (weight, bias) in enumerate(layers):
        out = outputs[-1] @ weight + bias
        outputs.append(out if i == len(layers) - 1 else np.maximum(out, 0.0))
    return outputs


def loss_and_grads(layers, data, decisions: np.ndarray) -> tuple[float, list[list[np.ndarray]]]:
    x, owner, firsts, labelled = batch(data, decisions)
    outputs = forward(layers, x)
    scores = outputs[-1][:, 0]
    top = np.maximum.reduceat(scores, firsts)
    exp = np.exp(scores - top[owner])
    total = np.add.reduceat(exp, firsts)
    p = exp / total[owner]
    loss = float(-np.mean(np.log(p[labelled] + 1e-12)))
    delta = p.copy()
    delta[labelled] -= 1.0
    delta = (delta / len(decisions))[:, None]
    grads: list[list[np.ndarray]] = []
    for i in range(len(layers) - 1, -1, -1):
        weight = layers[i][0]
        grads.append([outputs[i].T @ delta, delta.sum(axis=0)])
        if i:
            delta = (delta @ weight.T) * (outputs[i] > 0)
    return loss, grads[::-1]


def agreement(layers, data, decisions: np.ndarray) -> float:
    """The share of these decisions where the teacher's move scores highest (ties: against it)."""
    if not len(decisions):
        return float("nan")
    x, owner, firsts, labelled = batch(data, decisions)
    scores = forward(layers, x)[-1][:, 0]
    best = np.maximum.reduceat(scores, firsts)
    ahead = np.add.reduceat((scores >= scores[labelled][owner]).astype(np.int64), firsts)  # itself included
    return float(np.mean((scores[labelled] >= best) & (ahead == 1)))


def fit(layers, data, epochs: int, rate: float, seed: int, report, size: int = 128) -> tuple[list, float]:
    """Adam on the whole set but its held-out last tenth; returns the layers and the held-out agreement."""
    count = len(data["labels"])
    held = max(1, count // 10) if count >= 10 else 0
    train, test = np.arange(count - held), np.arange(count - held, count)
    rng = np.random.default_rng(seed)
    moments = [[np.zeros_like(p) for p in layer] for layer in layers]
    squares = [[np.zeros_like(p) for p in layer] for layer in layers]
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(train)
        losses = []
        lr = rate * (0.5 * (1 + np.cos(np.pi * epoch / max(epochs, 1))))  # cosine decay
        for first in range(0, len(order), size):
            loss, grads = loss_and_grads(layers, data, np.sort(order[first:first + size]))
            losses.append(loss)
            step += 1
            for layer, grad, m, v in zip(layers, grads, moments, squares):
                for j in range(2):
                    m[j] = 0.9 * m[j] + 0.1 * grad[j]
                    v[j] = 0.999 * v[j] + 0.001 * grad[j] ** 2
                    layer[j] -= lr * (m[j] / (1 - 0.9 ** step)) / (np.sqrt(v[j] / (1 - 0.999 ** step)) + 1e-8)
        report(f"  epoch {epoch + 1}/{epochs}: loss {np.mean(losses) if losses else float('nan'):.3f}, "
               f"held-out agreement {agreement(layers, data, test):.3f}")
    return layers, agreement(layers, data, test)


def merged(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """One set of positions from several, in order."""
    sizes = np.concatenate([p["sizes"] for p in parts])
    return {"contexts": np.concatenate([p["contexts"] for p in parts]), "rows": np.concatenate([p["rows"] for p in parts]),
            "sizes": sizes, "starts": np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64),
            "labels": np.concatenate([p["labels"] for p in parts])}


def document(layers, command: str, notes: dict) -> dict:
    return {"format": network.FORMAT, "trained_by": command, "training": notes,
            "context": list(CONTEXT), "move": list(MOVE),
            "layers": [{"weight": np.round(w, 6).tolist(), "bias": np.round(b, 6).tolist()} for w, b in layers]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="official")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--teacher", default="mcts", help="the bot whose moves are learned (default: mcts)")
    parser.add_argument("--drivers", default="skilled,skilled,skilled,heuristic",
                        help="bots in every seat of the imitation games, one per game in turn")
    parser.add_argument("--games", type=int, default=120, help="imitation games")
    parser.add_argument("--dagger-games", type=int, default=30, help="games with the network in every seat")
    parser.add_argument("--label-rate", type=float, default=0.5, help="share of decisions the teacher labels")
    parser.add_argument("--hidden", default="64,32", help="hidden layers' widths")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--rate", type=float, default=0.003, help="Adam's step size")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path(network.__file__).with_name(network.WEIGHTS_FILE))
    args = parser.parse_args(argv)
    command = "python scripts/train_network.py " + " ".join(argv if argv is not None else sys.argv[1:])
    rules = load_rules(args.variant)
    if args.players not in rules.players:
        parser.error(f"{rules.name} is for {', '.join(map(str, rules.players))} players, not {args.players}")

    def report(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    started = time.process_time()
    scouts = network.DEFAULTS["sns_scouts"]
    widths = [len(CONTEXT) + len(MOVE), *(int(w) for w in args.hidden.split(",") if w), 1]
    layers = initial(widths, np.random.default_rng(args.seed))
    first = args.seed * 1_000_000  # game seeds: the imitation games, then the network's own
    report(f"imitation: {args.games} games of {rules.name} at {args.players} players, teacher {args.teacher}")
    imitation = Positions()
    play(rules, args.players, range(first, first + args.games), args.drivers.split(","), args.teacher, args.label_rate,
         scouts, imitation, report)
    parts = [imitation.arrays()]
    layers, held = fit(layers, parts[0], args.epochs, args.rate, args.seed, report)
    notes = {"variant": rules.name, "players": args.players, "teacher": args.teacher,
             "imitation": {"games": args.games, "positions": len(imitation.labels), "held_out_agreement": round(held, 4)}}
    if args.dagger_games:
        out = args.out.with_suffix(".partial.json")  # the learner the games below play: written as the bot reads it
        out.write_text(json.dumps(document(layers, command, notes)))
        own = Positions()
        report(f"the network's own positions: {args.dagger_games} games")
        play(rules, args.players, range(first + args.games, first + args.games + args.dagger_games),
             [f"network:weights={out}"], args.teacher, args.label_rate, scouts, own, report)
        out.unlink()
        parts.append(own.arrays())
        layers, held = fit(layers, merged(parts), max(1, args.epochs // 2), args.rate / 3, args.seed + 1, report)
        notes["own_positions"] = {"games": args.dagger_games, "positions": len(own.labels),
                                  "held_out_agreement": round(held, 4)}
    args.out.write_text(json.dumps(document(layers, command, notes)) + "\n")  # no times: the same command, the same file
    print(f"wrote {args.out} in {time.process_time() - started:.0f} CPU-seconds: {json.dumps(notes)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
