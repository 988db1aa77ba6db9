"""Many games at once for self-play: one observation row and one action-mask row per game, in arrays made once.

`Games(variant, players, count)` plays `count` games of one variant side by side, each
at its own seat to act, with the PettingZoo environment's encoding (docs/rl.md): the
same actions (Scout & Show in two halves), the same observation vector, the same
"score" rewards. `step(actions)` takes one action per game, and a game that ends is
dealt again at once (its row of `done` says so for that step), so every row always
holds a live decision. Nothing is allocated per step beyond what the engine itself
needs: `observations`, `masks`, `seats`, `rewards` and `done` are the same arrays every
step, overwritten in place.
"""

from __future__ import annotations

import random

import numpy as np

from scoutlab.engine.state import GameState, IllegalAction
from scoutlab.rl.encoding import Encoding
from scoutlab.rules import Rules, load_rules


class Games:
    """`count` games of one variant and player count, stepped together (see the module docstring)."""

    def __init__(self, variant: str | Rules = "official", players: int = 4, count: int = 64, seed: int = 0):
        self.rules = variant if isinstance(variant, Rules) else load_rules(variant)
        if players not in self.rules.players:
            allowed = ", ".join(map(str, self.rules.players))
            raise ValueError(f"variant {self.rules.name!r} is for {allowed} players, not {players}")
        if count < 1:
            raise ValueError(f"count must be at least 1, not {count}")
        self.players, self.count = players, count
        self.encoding = Encoding(self.rules, players)
        self._seeds = random.Random(seed)
        self.games: list[GameState] = [self._deal() for _ in range(count)]
        self.pending: list[int | None] = [None] * count  # a Scout & Show scout chosen, its show to come
        self.observations = np.zeros((count, self.encoding.length), dtype=np.float32)
        self.masks = np.zeros((count, self.encoding.size), dtype=np.int8)
        self.seats = np.zeros(count, dtype=np.int64)  # the seat to act in each game: whose observation the row is
        self.rewards = np.zeros((count, players), dtype=np.float32)  # each seat's change of total in the last step
        self.done = np.zeros(count, dtype=bool)  # the game ended in the last step (its row is a new game's)
        self.finished = 0  # games played to the end so far
        for i in range(count):
            self._observe(i)

    def _deal(self) -> GameState:
        return self.rules.new_game(self.players, self._seeds.getrandbits(48))

    def _observe(self, i: int) -> None:
        game, pending = self.games[i], self.pending[i]
        seat = game.to_act
        self.seats[i] = seat
        self.encoding.observe_state(game, seat, pending, self.observations[i])
        self.encoding.mask(game.legal_actions(), pending, self.masks[i])

    def step(self, actions) -> None:
        """One action per game (from its row's mask); an action outside its mask raises IllegalAction, naming
        the game, and nothing is played."""
        encoding, rewards = self.encoding, self.rewards
        chosen = np.asarray(actions, dtype=np.int64).reshape(-1).tolist()
        if len(chosen) != self.count:
            raise ValueError(f"step takes one action per game: {self.count}, not {len(chosen)}")
        for i, action in enumerate(chosen):  # all checked before any is played, so a refusal changes nothing
            if not (0 <= action < encoding.size and self.masks[i, action]):
                raise IllegalAction(f"game {i}: action {action} is not in its mask")
        rewards.fill(0)
        self.done.fill(False)
        for i, action in enumerate(chosen):
            game, pending = self.games[i], self.pending[i]
            if encoding.starts_scout_and_show(action, pending):
                self.pending[i] = action - encoding.sns_scouts  # the same seat now chooses the show
            else:
                before = game.totals[:]
                game.apply(encoding.engine_code(action, pending))
                self.pending[i] = None
                after = game.totals
                if after != before:  # totals change only at a round's end
                    rewards[i] = [a - b for a, b in zip(after, before)]
                if game.is_over:
                    self.done[i] = True
                    self.finished += 1
                    self.games[i] = self._deal()
            self._observe(i)
