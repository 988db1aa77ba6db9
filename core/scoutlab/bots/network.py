"""The network bot: a small policy network, in numpy, that scores each candidate move from the seat's view.

Each candidate move is read as a row of numbers (network_features.py: the decision's
context and the move's own row, from the seat's View only); a two-layer perceptron
(rectified linear units) gives each row a score, and the bot plays the best-scored move
(`sample=true`: draws one, with probability growing as exp(score / temperature)). The
weights were fitted by imitating the search bot (`mcts`) on self-play positions, then on
positions the network reached itself (scripts/train_network.py, which reproduces the
shipped file `network_weights.json` from the command recorded in it; docs/bots.md).

It is an opponent of another kind than the skilled bot, for an honest ladder: it learned
from the search's choices, not from the skilled bot's weights, and reads the hand through
features of its own. With numpy (the `sim` and `rl` extras) it is fast; without, it computes the same scores in
plain Python, slower.
"""

from __future__ import annotations

import json
import math
import random
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scoutlab.base.errors import BotError
from scoutlab.base.limits import MAX_NETWORK_BYTES, InputTooLarge, excerpt, json_mistake, loads_json, read_capped, unreadable
from scoutlab.bots.cycles import Positions
from scoutlab.bots.network_features import CONTEXT, MOVE, Reader
from scoutlab.bots.options import bot_options, positive

if TYPE_CHECKING:
    from scoutlab.engine.state import View
    from scoutlab.rules import Rules

WEIGHTS_FILE = "network_weights.json"
FORMAT = "scoutlab-network-1"
DEFAULTS: dict[str, Any] = {
    "weights": "",  # a weights file; empty: the shipped one
    "sample": False,  # draw a move by its score instead of playing the best
    "temperature": 1.0,  # with sample: higher spreads the draw
    "sns_scouts": 4,  # Scout & Shows read: those after this many of the best scouts
}


class Network:
    """The perceptron: the context's and the move's parts of the first layer kept apart, so the context is
    multiplied once per decision, not once per move. With numpy (the `sim` and `rl` extras) it scores all of a
    decision's moves in a few array products; without it, in plain Python (about a hundred times slower, still
    well within a second a decision: the browser may seat it where only the `web` extra is installed)."""

    def __init__(self, layers: list[tuple[list[list[float]], list[float]]]):
        self.layers = layers
        try:
            import numpy
        except ImportError:  # plain Python: the same sums, in a fixed order
            self.numpy: Any = None
            self.arrays: list[tuple[Any, Any]] | None = None
        else:
            self.numpy = numpy
            self.arrays = [(numpy.asarray(w, dtype=numpy.float64), numpy.asarray(b, dtype=numpy.float64)) for w, b in layers]
        first = layers[0][0]
        self.context_part, self.move_part = first[: len(CONTEXT)], first[len(CONTEXT):]

    def __deepcopy__(self, memo: dict[int, Any]) -> Network:
        return self  # never changed after it is made: copies of a bot share it

    def __reduce__(self) -> tuple[type, tuple[list[tuple[list[list[float]], list[float]]]]]:
        return Network, (self.layers,)  # pickled as its numbers (a module cannot be)

    def scores(self, context: list[float], rows: list[list[float]]) -> list[float]:
        """Each row's score."""
        if self.arrays is None:
            return self._plain_scores(context, rows)
        np = self.numpy
        weight, bias = self.arrays[0]
        hidden = np.asarray(rows, dtype=np.float64) @ weight[len(CONTEXT):]
        hidden += np.asarray(context, dtype=np.float64) @ weight[: len(CONTEXT)] + bias
        np.maximum(hidden, 0.0, out=hidden)
        for weight, bias in self.arrays[1:-1]:
            hidden = np.maximum(hidden @ weight + bias, 0.0)
        weight, bias = self.arrays[-1]
        return (hidden @ weight + bias)[:, 0].tolist()

    def _plain_scores(self, context: list[float], rows: list[list[float]]) -> list[float]:
        shared = list(self.layers[0][1])
        for x, line in zip(context, self.context_part):
            if x:
                shared = [s + x * w for s, w in zip(shared, line)]
        scores = []
        for row in rows:
            hidden = shared
            for x, line in zip(row, self.move_part):
                if x:
                    hidden = [h + x * w for h, w in zip(hidden, line)]
            hidden = [h if h > 0.0 else 0.0 for h in hidden]
            for weight, bias in self.layers[1:]:
                out = list(bias)
                for h, line in zip(hidden, weight):
                    if h:
                        out = [o + h * w for o, w in zip(out, line)]
                hidden = out if weight is self.layers[-1][0] else [o if o > 0.0 else 0.0 for o in out]
            scores.append(hidden[0])
        return scores


def load(path: str | Path | None = None) -> tuple[Network, dict[str, Any]]:
    """The network in a weights file (default: the shipped one) and the file's document; BotError in one line
    if the file is missing, not JSON, or not a network for these features."""
    where = "the shipped weights" if path is None else f"weights file {excerpt(str(path))}"
    try:
        # a user's file is read capped, and never a pipe or a device, which could be endless
        text = (resources.files(__package__).joinpath(WEIGHTS_FILE).read_text() if path is None
                else read_capped(str(path), MAX_NETWORK_BYTES, where))
        document = loads_json(text)
    except InputTooLarge as error:
        raise BotError(f"bot 'network': {error}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise BotError(f"bot 'network': cannot read {where}: {unreadable(error, 'a weights file')}") from None
    except json.JSONDecodeError as error:
        raise BotError(f"bot 'network': {where} is not JSON ({json_mistake(error)})") from None
    except ValueError as error:  # too deep, NaN, a number past Python's digit cap: each said whole, in a line
        raise BotError(f"bot 'network': {where} is not JSON ({error})") from None
    problem = _problem(document)
    if problem:
        raise BotError(f"bot 'network': {where} {problem}")
    layers = [([[float(x) for x in row] for row in layer["weight"]], [float(x) for x in layer["bias"]])
              for layer in document["layers"]]
    return Network(layers), document


def _problem(document: Any) -> str:
    """What makes a document not a network for these features ("" if nothing)."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        return f"is not a network bot's weights (no \"format\": \"{FORMAT}\")"
    if document.get("context") != list(CONTEXT) or document.get("move") != list(MOVE):
        return "was made for other features than this version reads (its \"context\" and \"move\" names differ)"
    layers = document.get("layers")
    if not isinstance(layers, list) or not layers:
        return "has no \"layers\""
    width = len(CONTEXT) + len(MOVE)
    for i, layer in enumerate(layers):
        weight, bias = (layer.get("weight"), layer.get("bias")) if isinstance(layer, dict) else (None, None)
        if not (isinstance(weight, list) and isinstance(bias, list) and len(weight) == width
                and all(isinstance(row, list) and len(row) == len(bias) for row in weight)):
            return f"layer {i + 1}: \"weight\" must be {width} rows of as many numbers as \"bias\" has"
        if not all(isinstance(x, (int, float)) and math.isfinite(x) for row in weight for x in row) or \
                not all(isinstance(x, (int, float)) and math.isfinite(x) for x in bias):
            return f"layer {i + 1} holds something that is not a finite number"
        width = len(bias)
    if width != 1:
        return f"ends in {width} outputs, not one score"
    return ""


class NetworkBot:
    """Scores every candidate move with the network and plays the best (or draws one, with `sample`)."""

    name = "network"

    def __init__(self, rules: Rules, rng: random.Random, options: dict[str, Any]):
        self.options = bot_options(self.name, options, DEFAULTS)
        positive(self.name, "temperature", self.options["temperature"])
        positive(self.name, "sns_scouts", self.options["sns_scouts"], allow_zero=True)
        self.network, self.document = load(self.options["weights"] or None)
        self.rng = rng
        self.reader = Reader(rules)
        self.positions = Positions()  # back in a position played before this round: play another move

    def ranked(self, view: View) -> list[tuple[float, int]]:
        """(score, code) of every candidate move, best first; between equal scores, the lower code."""
        context, codes, rows = self.reader.read(view, self.options["sns_scouts"])
        scores = self.network.scores(context, rows)
        return sorted(zip(scores, codes), key=lambda item: (-item[0], item[1]))

    def act(self, view: View) -> int:
        ranked = self.ranked(view)
        if self.positions.tried(view):  # here before in this round: the best move not yet played here
            return self.positions.choose(view, [code for _, code in ranked])
        if not self.options["sample"] or len(ranked) == 1:
            return self.positions.note(view, ranked[0][1])
        best, temperature = ranked[0][0], self.options["temperature"]
        weights = [math.exp((score - best) / temperature) for score, _ in ranked]
        return self.positions.note(view, self.rng.choices([code for _, code in ranked], weights)[0])
