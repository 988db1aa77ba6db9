"""The search bot: information-set Monte Carlo tree search with determinization (SO-ISMCTS).

Each iteration deals the cards the seat cannot see at random, consistently with what it
knows (`determinize.Sampler`), then walks one tree shared by all samples: nodes are
keyed by action codes, and a child is only eligible when its action is legal in this
sample ("availability" counts, Cowling, Powley and Whitehouse 2012). From the first
new node a quick rollout (`playout.playout_action`) plays to the end of the round; the
round's scores, turned into a reward per seat, are backed up, each node crediting the
seat that chose it. The search looks no further than the round's end: the next deal is
unknown anyway, and a round is where points are made.

Breadth is kept small so a few hundred iterations go deep enough: at the root, the
heuristic bot's best moves; below it, every show, the scouts that land beside an equal
or neighbouring number and the longest Scout & Shows. Rollouts are played without
Scout & Show (the rollout policy never chooses it, and listing its many codes at every
step would halve the speed); the tree itself keeps it.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Any

from scoutlab.bots import BotError
from scoutlab.bots.cycles import Positions
from scoutlab.bots.determinize import Knowledge, Sampler
from scoutlab.bots.heuristic import HeuristicBot
from scoutlab.bots.options import bot_options, positive
from scoutlab.bots.playout import playout_action
from scoutlab.engine.actions import SHOW_BASE
from scoutlab.engine.cards import SHIFT, flipped

if TYPE_CHECKING:
    from scoutlab.engine.state import GameState, View
    from scoutlab.rules import Rules

DEFAULTS = {
    "iterations": 150,  # determinized playouts per decision
    "seconds": 0.0,  # also stop after this much time (0: no time limit)
    "c": 0.7,  # UCT exploration constant; rewards lie in [0, 1]
    "root": 6,  # root moves searched: the heuristic bot's best
    "branch": 4,  # scouts and Scout & Shows kept at nodes below the root
    "explore": 0.1,  # share of random moves in rollouts
    "spread": 15.0,  # points of margin that move a reward from 0.5 to 0 or 1
}


class Node:
    """One action's statistics, from the point of view of the seat that took it."""

    __slots__ = ("available", "children", "reward", "seat", "visits")

    def __init__(self, seat: int):
        self.seat = seat
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 1
        self.reward = 0.0


class MctsBot:
    """Chooses the root move whose determinized playouts fare best (most visited)."""

    name = "mcts"

    def __init__(self, rules: Rules, rng: random.Random, options: dict[str, Any]):
        self.options = bot_options(self.name, options, DEFAULTS)
        for key in ("iterations", "root", "branch", "spread"):
            positive(self.name, key, self.options[key])
        for key in ("seconds", "c", "explore"):
            positive(self.name, key, self.options[key], allow_zero=True)
        if self.options["explore"] > 1:
            raise BotError(f"bot 'mcts': option explore={self.options['explore']!r} is a share, from 0 to 1")
        self.rules = rules
        self.rng = rng
        # The heuristic proposes root moves and makes the round-start flip choice.
        self.advisor = HeuristicBot(rules, rng, {})
        self.knowledge: Knowledge = self.advisor.knowledge
        self.iterations_done = 0  # for benchmarks: iterations actually run, over all decisions
        self.positions = Positions()  # back in a position played before this round: play another move

    def act(self, view: View) -> int:
        self.knowledge.observe(view)
        if view.phase == "flip":
            return self.advisor.choose_flip(view.hand)
        moves = self.advisor.candidates(view)
        tried = self.positions.tried(view)
        if len(moves) == 1 and not tried:
            return self.positions.note(view, moves[0].code)
        sampler = Sampler(self.rules, view, self.knowledge)
        sample = sampler.sample(self.rng)
        ranked = sorted(moves, key=lambda m: (-self.advisor.value(view, sample, m, lookahead=True), m.code))
        order = [m.code for m in ranked]
        if tried:  # search only the moves not yet played here; with none left, the one played least
            order = [code for code in order if code not in tried]
            if not order:
                return self.positions.choose(view, [m.code for m in ranked])
        root_moves = order[: self.options["root"]]
        if len(root_moves) == 1:
            return self.positions.note(view, root_moves[0])
        return self.positions.note(view, self.search(view, sampler, root_moves))

    # -- the search ------------------------------------------------------------------------

    def search(self, view: View, sampler: Sampler, root_moves: list[int]) -> int:
        opts = self.options
        root = Node(view.seat)
        deadline = time.perf_counter() + opts["seconds"] if opts["seconds"] else None
        budget = opts["iterations"]
        for done in range(budget):
            if deadline is not None and done and time.perf_counter() > deadline:
                break
            if done >= len(root_moves) and self.decided(root, budget - done):
                break
            self.iterate(sampler.sample(self.rng), root, root_moves)
            self.iterations_done += 1
        # most visited, then the heuristic's order (root_moves is best first)
        return max(root_moves, key=lambda code: (root.children[code].visits if code in root.children else -1,
                                                -root_moves.index(code)))

    @staticmethod
    def decided(root: Node, remaining: int) -> bool:
        """The most visited root move stays so whatever the remaining iterations do: stop early."""
        first, second = sorted((child.visits for child in root.children.values()), reverse=True)[:2]
        return first > second + remaining

    def iterate(self, state: GameState, root: Node, root_moves: list[int]) -> None:
        """One determinized descent, expansion, rollout and backup."""
        rounds_before = len(state.round_ends)
        path = [root]
        node = root
        moves = root_moves
        while True:
            if len(state.round_ends) > rounds_before:
                break
            untried = [code for code in moves if code not in node.children]
            if untried:
                code = untried[0] if node is root else untried[self.rng.randrange(len(untried))]
                child = node.children[code] = Node(state.to_act)
                state.apply(code)
                path.append(child)
                break
            code, node = self.select(node, moves)
            state.apply(code)
            path.append(node)
            moves = self.moves(state) if len(state.round_ends) == rounds_before else []
        rewards = self.rollout(state, rounds_before)
        for visited in path:
            visited.visits += 1
            visited.reward += rewards[visited.seat]

    def select(self, node: Node, moves: list[int]) -> tuple[int, Node]:
        """UCB1 over the children whose action is available in this sample."""
        c = self.options["c"]
        best, best_score = moves[0], -math.inf
        for code in moves:
            child = node.children[code]
            child.available += 1
            score = child.reward / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best, best_score = code, score
        return best, node.children[best]

    def moves(self, state: GameState) -> list[int]:
        """The moves searched below the root: every show, the likeliest scouts and Scout & Shows."""
        legal = state.legal_actions()
        if not legal or legal[0] < SHOW_BASE:
            return list(legal)
        codec = state.rules.codec
        keep = self.options["branch"]
        shows = [c for c in legal if c < codec.scout_base]
        scouts = [c for c in legal if codec.scout_base <= c < codec.sns_base]
        combos = [c for c in legal if c >= codec.sns_base]
        if scouts:
            hand = [c >> SHIFT for c in state.hands[state.to_act]]
            scouts.sort(key=lambda code: (-self.fit(state, hand, code), code))
        if combos:
            width = codec.width
            combos.sort(key=lambda code: (-((code - codec.sns_base) % codec.sns_stride % width), code))
        return shows + scouts[:keep] + combos[:keep]

    @staticmethod
    def fit(state: GameState, hand: list[int], code: int) -> int:
        """How well a scouted card lands: 2 per equal neighbour, 1 per neighbour one apart."""
        codec = state.rules.codec
        side, gap = divmod(code - codec.scout_base, codec.width + 1)
        end, flip = divmod(side, 2)
        taken = state.active[-1] if end else state.active[0]
        value = (flipped(taken) if flip else taken) >> SHIFT
        score = 0
        for neighbour in (hand[gap - 1] if gap else None, hand[gap] if gap < len(hand) else None):
            if neighbour == value:
                score += 2
            elif neighbour is not None and abs(neighbour - value) == 1:
                score += 1
        return score

    def rollout(self, state: GameState, rounds_before: int) -> list[float]:
        """Play quickly to the round's end; a reward in [0, 1] per seat."""
        if len(state.round_ends) == rounds_before:
            state.scout_show_chips = [0] * state.players
            state.refresh()
            explore = self.options["explore"]
            while len(state.round_ends) == rounds_before:
                state.apply(playout_action(state, self.rng, explore))
        return self.rewards(state, state.round_ends[-1].scores)

    def rewards(self, state: GameState, scores: tuple[int, ...]) -> list[float]:
        """Round margin against the others' mean; in the last round, half win share, half total margin."""
        n, spread = state.players, self.options["spread"]
        last = state.round_ends[-1].round + 1 == state.rules.rounds_for(n)
        totals = state.totals  # already include this round's scores
        best = max(totals)
        winners = sum(1 for t in totals if t == best)
        out = []
        for i in range(n):
            others = [j for j in range(n) if j != i]
            if last:
                margin = totals[i] - max(totals[j] for j in others)
                share = 1 / winners if totals[i] == best else 0.0
                out.append(0.5 * share + 0.5 * _squash(margin, spread))
            else:
                out.append(_squash(scores[i] - sum(scores[j] for j in others) / len(others), spread))
        return out


def _squash(margin: float, spread: float) -> float:
    return min(1.0, max(0.0, 0.5 + margin / (2 * spread)))
