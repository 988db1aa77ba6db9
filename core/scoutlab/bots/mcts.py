"""The search bot: Monte Carlo search over sampled deals, with the skilled bot as prior and rollout policy.

A seat cannot see the other hands, so the bot deals them again and again, consistently
with what it knows (`determinize.Sampler`), and tries its candidate moves on each deal
with the real engine: after the move, every seat plays on as the skilled bot would (the
rollout) to the round's end, which scores it, or for `depth` moves, after which the
position is scored by the round's points so far plus the skilled bot's reading of each
hand left. A move's worth is its seat's margin over the others, averaged over the deals
(in the last round, half its share of the win and half its margin over the best other).

The candidates are the skilled bot's best `root` moves (its prior). The budget of
rollouts is shared out by sequential halving (Karnin, Koren and Somekh 2013): every
candidate is tried on the same deals, the worse half is dropped, and the survivors get
more deals, so the budget goes where the choice is close and every comparison is paired.
Scout & Show is searched and played in rollouts wherever the rules allow it. At a round's
start the keep-or-flip of the hand is searched the same way, its two choices each played
out to the round's end (the seats still to choose keep or flip as the skilled bot would):
one decision a round that shapes the whole round, which the skilled bot reads only from the
hand's static worth.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

from scoutlab.bots.cycles import Positions
from scoutlab.bots.determinize import Knowledge, Sampler
from scoutlab.bots.options import bot_options, positive
from scoutlab.bots.skilled import SkilledBot
from scoutlab.engine.actions import FLIP, KEEP
from scoutlab.engine.cards import SHIFT
from scoutlab.engine.native import turns

if TYPE_CHECKING:
    from scoutlab.engine.state import GameState, View
    from scoutlab.rules import Rules

DEFAULTS = {
    "iterations": 300,  # rollouts per decision, over all candidates
    "seconds": 0.0,  # also stop after this much time (0: no time limit)
    "root": 6,  # candidates searched: the skilled bot's best moves
    "depth": 0,  # moves played after the candidate before the position is scored (0: to the round's end)
    "spread": 15.0,  # points of margin that move a reward from 0.5 to 0 or 1
    "flips": True,  # search the round-start keep or flip too (false: keep or flip as the skilled bot does)
}
# Budgets past these keep a game waiting too long to be meant: scaled from what 300 rollouts take at 5 players
# (21 ms a move, 0.36 s a keep or flip; docs/bots.md), 100,000 take about 7 s and 2 minutes; an hour a move is no pace.
MOST = {"iterations": 100_000, "seconds": 3_600.0, "root": 1_000, "depth": 10_000}


class MctsBot:
    """Plays the candidate whose rollouts over sampled deals fare best."""

    name = "mcts"

    def __init__(self, rules: Rules, rng: random.Random, options: dict[str, Any]):
        self.options = bot_options(self.name, options, DEFAULTS)
        for key in ("iterations", "root", "spread"):
            positive(self.name, key, self.options[key], most=MOST.get(key))
        for key in ("seconds", "depth"):
            positive(self.name, key, self.options[key], allow_zero=True, most=MOST.get(key))
        self.rules = rules
        self.rng = rng
        self.policy = SkilledBot(rules, rng, {})  # the prior, the rollout policy and the reading of hands
        self.knowledge = Knowledge(rules)
        self.iterations_done = 0  # for benchmarks: rollouts actually played, over all decisions
        self.positions = Positions()  # back in a position played before this round: play another move

    def act(self, view: View) -> int:
        self.knowledge.observe(view)
        policy = self.policy
        policy.use_weights(view.players)
        if view.phase == "flip":
            keep_or_flip = policy.choose_flip(view.hand)
            if not self.options["flips"]:
                return keep_or_flip
            return self.search(view, [keep_or_flip, FLIP if keep_or_flip == KEEP else KEEP])
        ranked = [code for _, code in policy.ranked(view)]
        tried = self.positions.tried(view)
        if tried:  # search only the moves not yet played here; with none left, the one played least
            fresh = [code for code in ranked if code not in tried]
            if not fresh:
                return self.positions.choose(view, ranked)
            ranked = fresh
        return self.positions.note(view, self.choose(view, ranked))

    def choose(self, view: View, ranked: list[int]) -> int:
        """The move played among `ranked` (the prior's order): its best `root` searched, unless there is one."""
        candidates = ranked[: self.options["root"]]
        return candidates[0] if len(candidates) == 1 else self.search(view, candidates)

    # -- the search ------------------------------------------------------------------------

    def search(self, view: View, candidates: list[int]) -> int:
        """Sequential halving over the candidates (best prior first), each round on deals they all share."""
        opts = self.options
        sampler = Sampler(self.rules, view, self.knowledge)
        deadline = time.perf_counter() + opts["seconds"] if opts["seconds"] else None
        alive = list(candidates)
        totals = dict.fromkeys(candidates, 0.0)
        budget = opts["iterations"]
        halvings = (len(alive) - 1).bit_length()  # until one is left
        while len(alive) > 1:
            deals = max(1, budget // (halvings * len(alive)))
            for _ in range(deals):
                if deadline is not None and time.perf_counter() > deadline:
                    break
                deal = sampler.sample(self.rng)
                for code in alive:
                    totals[code] += self.rollout(deal.clone(), code, view.seat)
                self.iterations_done += len(alive)
            budget -= deals * len(alive)
            halvings = max(1, halvings - 1)
            alive.sort(key=lambda code: -totals[code])  # stable: ties keep the prior's order
            out_of_time = deadline is not None and time.perf_counter() > deadline
            alive = alive[:1] if out_of_time or budget <= 0 else alive[: (len(alive) + 1) // 2]
        return alive[0]

    def rollout(self, state: GameState, code: int, seat: int) -> float:
        """Play `code` (a move, or the keep or flip), then skilled play for `depth` moves or to the round's end:
        the seat's reward in [0, 1]."""
        rounds_before = len(state.round_ends)
        # a sampled deal gives the seat its own hand and table, so the same legal moves: no check, no undo
        turns.apply_in_rollout(state, code)
        while state.phase == "flip":  # the seats after this one keep or flip their hands as the skilled bot does
            turns.apply_in_rollout(state, self.policy.choose_flip(tuple(state.hands[state.to_act])))
        self.policy.play_out(state, self.options["depth"] or -1, rounds_before)  # -1 never counts down to 0
        if len(state.round_ends) > rounds_before:
            return self.reward(state, list(state.round_ends[-1].scores), seat, round_over=True)
        return self.reward(state, self.estimate(state), seat, round_over=False)

    def estimate(self, state: GameState) -> list[float]:
        """Each seat's round points if the round were scored now, its hand valued as the skilled bot reads it."""
        value = self.policy.hand_value
        return [state.points_captured * len(state.captured[i])
                + state.points_received * state.chips_received[i]
                + state.points_unspent * state.chips_held[i]
                + value([c >> SHIFT for c in state.hands[i]])
                for i in range(state.players)]

    def reward(self, state: GameState, points: list[float], seat: int, round_over: bool) -> float:
        """The round's margin over the others' mean; in the last round, half win share and half margin over the best other."""
        n, spread = state.players, self.options["spread"]
        others = [j for j in range(n) if j != seat]
        if state.round + 1 < self.rules.rounds_for(n):  # a sampled game stops after this round: ask the rules
            return _squash(points[seat] - sum(points[j] for j in others) / len(others), spread)
        # totals include a finished round's scores already
        totals = list(state.totals) if round_over else [t + p for t, p in zip(state.totals, points)]
        best_other = max(totals[j] for j in others)
        share = 1.0 if totals[seat] > best_other else 0.5 if totals[seat] == best_other else 0.0
        return 0.5 * share + 0.5 * _squash(totals[seat] - best_other, spread)


def _squash(margin: float, spread: float) -> float:
    return min(1.0, max(0.0, 0.5 + margin / (2 * spread)))
