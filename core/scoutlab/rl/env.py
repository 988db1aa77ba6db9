"""SCOUT as a PettingZoo AEC environment, for any variant and player count (docs/rl.md).

Agents are `player_0` .. `player_{n-1}`, seats in the engine's order. Each step is one
decision of the seat to act: the engine's action, or half of a Scout & Show (see
encoding.py). Observations are dicts {"observation", "action_mask"}; the mask is all
zeros for a seat that is not to act. Rewards: "score" (default) gives each agent the
change of its total, so an agent's rewards over a game add up to its final total;
"win" gives 1/k to each of k tied winners when the game ends, 0 otherwise.
"""

from __future__ import annotations

import random
from typing import ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from scoutlab.engine.state import GameState, IllegalAction
from scoutlab.rl.encoding import Encoding
from scoutlab.rules import Rules, load_rules

REWARDS = ("score", "win")


def env(variant: str | Rules = "official", players: int = 4, **options) -> AECEnv:
    """The environment with PettingZoo's order guard (no step or observation before reset).

    Not its AssertOutOfBoundsWrapper: `raw_env.step` refuses an action outside the space or
    the mask itself, saying why (IllegalAction), and a second wrapper level would forward
    every attribute `last()` reads once more (1.26x the steps a second without it).
    """
    return _OrderGuard(raw_env(variant, players, **options))


class _OrderGuard(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order guard, whose `last()` the environment answers itself.

    The guard's inherited `last()` reads five attributes, each through two `__getattr__`
    forwards, once per step; asked of the environment, the same answer makes a step about an
    eighth cheaper (1.13x the steps a second, benchmarks/rl_env_speed.py).
    """

    def last(self, observe: bool = True):
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")  # as the guard words it
        return self.env.last(observe)


class raw_env(AECEnv):
    """One game of SCOUT per episode; `reset(seed=...)` makes the deal reproducible."""

    metadata: ClassVar[dict] = {"render_modes": ["ansi", "human"], "name": "scoutlab_v0", "is_parallelizable": False}

    def __init__(self, variant: str | Rules = "official", players: int = 4, reward: str = "score",
                 render_mode: str | None = None):
        super().__init__()
        self.rules = variant if isinstance(variant, Rules) else load_rules(variant)
        if players not in self.rules.players:
            allowed = ", ".join(map(str, self.rules.players))
            raise ValueError(f"variant {self.rules.name!r} is for {allowed} players, not {players}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, not {render_mode!r}")
        self.players, self.reward, self.render_mode = players, reward, render_mode
        self.encoding = Encoding(self.rules, players)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observed: dict[tuple, dict[str, np.ndarray]] = {}
        observation = spaces.Dict({
            "observation": spaces.Box(self.encoding.low, self.encoding.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.encoding.size,), dtype=np.int8),
        })
        # The same space object per agent, every time (PettingZoo seeds them).
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = {agent: spaces.Discrete(self.encoding.size) for agent in self.possible_agents}
        self._seeds = random.Random()
        self.game: GameState  # dealt by reset(), which PettingZoo requires before anything else
        self.pending: int | None = None  # the Scout & Show scout the seat to act chose, its show still to come
        self._last_move: tuple[int, int, int | None] | None = None

    @property
    def last_action(self) -> str:
        """The last step in the engine's notation, e.g. `P2 show 1-3` ("" before the first)."""
        if self._last_move is None:
            return ""
        seat, action, pending = self._last_move  # describe reads only the codec, so the game may have moved on
        return f"P{seat + 1} {self.encoding.describe(action, pending, self.game)}"

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)  # later unseeded resets continue this sequence of deals
        self.game = self.rules.new_game(self.players, self._seeds.getrandbits(48))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {agent: {} for agent in self.agents}
        self.pending = None
        self._last_move = None
        self._observed.clear()  # a new game may reuse the old one's id
        self.agent_selection = self.possible_agents[self.game.to_act]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation and mask, made once per position and agent (`last()` and `observe()` share it).

        Read straight off the state (Encoding.observe_state), which holds the same as
        `encoding.observe(game.view(seat), pending)` without building the View.
        """
        seat = self.seats[agent]
        game = self.game
        key = (id(game), len(game.history), self.pending, seat)
        cached = self._observed.get(key)
        if cached is None:
            acts = seat == game.to_act and not game.is_over
            pending = self.pending if acts else None
            cached = {
                "observation": self.encoding.observe_state(game, seat, pending),
                "action_mask": self.encoding.mask(game.legal_actions() if acts else (), pending),
            }
            if len(self._observed) > 4 * self.players:  # only the current position is ever asked again
                self._observed.clear()
            self._observed[key] = cached
        return {"observation": cached["observation"].copy(), "action_mask": cached["action_mask"].copy()}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = int(action)
        seat = self.seats[agent]
        legal = self.observe(agent)["action_mask"] if seat == self.game.to_act else None
        if not (0 <= action < self.encoding.size and legal is not None and legal[action]):
            raise IllegalAction(f"{agent}: action {action} is not legal here ({self._why(action)})")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._last_move = (seat, action, self.pending)  # worded only when rendered: see last_action
        if self.encoding.starts_scout_and_show(action, self.pending):
            self.pending = action - self.encoding.sns_scouts  # the same seat now chooses the show
        else:
            before = list(self.game.totals)
            self.game.apply(self.encoding.engine_code(action, self.pending))
            self.pending = None
            self._reward(before)
            if self.game.is_over:
                self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.possible_agents[self.game.to_act]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _reward(self, before: list[int]) -> None:
        if self.reward == "score":
            for seat, agent in enumerate(self.possible_agents):
                self.rewards[agent] = float(self.game.totals[seat] - before[seat])
        elif self.game.is_over:
            winners = self.game.winners()
            for seat, agent in enumerate(self.possible_agents):
                self.rewards[agent] = 1.0 / len(winners) if seat in winners else 0.0

    def _why(self, action: int) -> str:
        """The engine's reason where there is one; a half Scout & Show is checked by its halves."""
        if not 0 <= action < self.encoding.size:
            return f"actions are 0 to {self.encoding.size - 1}"
        if self.encoding.starts_scout_and_show(action, self.pending):
            return "no show can follow that scout, or no Scout & Show chip is left"
        if self.pending is None and action == self.encoding.none:
            return "'none' only answers a Scout & Show scout"
        return self.game.explain(self.encoding.engine_code(action, self.pending))

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = f"{self.last_action or 'new game'}\n{self.game!r}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
