"""Playing one game while noting what the metrics need, then keeping only a small summary of it.

The game is played exactly as `scoutlab.match.play_game` plays it (same seed, same
bot seeds), so any simulated game can be replayed alone with `scoutlab game --seed`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from scoutlab.bots import Bot, bot_factory, make_bot
from scoutlab.engine.state import PLAYING, GameState
from scoutlab.match import bot_seed
from scoutlab.rules import Rules


@dataclass(frozen=True)
class RoundFacts:
    """One round as the metrics see it."""

    reason: str  # the end condition that ended it, or "turn_cap"
    turns: int
    starter: int  # the seat that started the round
    scores: tuple[int, ...]
    captured: int  # cards captured in the round, all seats together
    scout_turns: tuple[int, ...] = ()  # the turn number (1-based) of each plain scout
    sns_turns: tuple[int, ...] = ()  # the turn number of each Scout & Show


@dataclass(frozen=True)
class GameSummary:
    """One finished game as the metrics see it."""

    totals: tuple[int, ...]
    rounds: tuple[RoundFacts, ...]
    decisions: int  # decisions in play (the keep/flip choice, always two ways, is not counted)
    options: int  # legal actions summed over those decisions
    widest: int  # the most legal actions at one decision
    forced: int  # decisions with exactly one legal action
    lead: tuple[tuple[int, ...], ...]  # running scores before play and after every move
    moves: int = 0  # a hash of every action in order: equal in two variants when the bots chose alike

    @property
    def players(self) -> int:
        return len(self.totals)

    @property
    def winners(self) -> tuple[int, ...]:
        best = max(self.totals)
        return tuple(seat for seat, total in enumerate(self.totals) if total == best)


class Lineup:
    """One bot per seat, built afresh for each game with the seeds `match.make_bots` gives them."""

    def __init__(self, names: Sequence[str], rules: Rules, players: int):
        names = list(names) * players if len(names) == 1 else list(names)
        if len(names) != players:
            raise ValueError(f"{players} players need {players} bots (or one for all), got {len(names)}")
        for name in dict.fromkeys(names):
            make_bot(name, rules, 0)  # unknown bots and bad options fail here, with the registry's message
        self.names = names
        self.rules = rules
        self._factories = [bot_factory(name) for name in names]  # resolved once, not once a game

    def bots(self, seed: int) -> list[Bot]:
        return [
            factory(self.rules, random.Random(bot_seed(seed, seat)), dict(options))
            for seat, (factory, options) in enumerate(self._factories)
        ]


def running_scores(state: GameState) -> tuple[int, ...]:
    """Each seat's total plus what it would score if the round ended now (no exemption)."""
    if state.is_over:
        return tuple(state.totals)
    rules = state.rules
    return tuple(
        state.totals[seat]
        + len(state.captured[seat]) * rules.points_captured
        + state.chips_received[seat] * rules.points_received
        + state.chips_held[seat] * rules.points_unspent
        + len(state.hands[seat]) * rules.points_in_hand
        for seat in range(state.players)
    )


def play_traced(rules: Rules, players: int, bots: Sequence[Bot], seed: int) -> GameSummary:
    """Play one game between `bots` and summarise it."""
    state = rules.new_game(players, seed)
    kind_of = rules.codec.kind
    rounds: list[RoundFacts] = []
    lead: list[tuple[int, ...]] = []
    scouts: list[int] = []
    sns: list[int] = []
    decisions = options = widest = forced = 0
    while not state.is_over:
        seat = state.to_act
        view = state.view(seat)
        if state.phase != PLAYING:
            state.apply(bots[seat].act(view))
            continue
        if not lead:
            lead.append(running_scores(state))
        width = len(view.legal)
        decisions += 1
        options += width
        widest = max(widest, width)
        forced += width == 1
        code = bots[seat].act(view)
        turn, starter = state.turn + 1, state.starting_seat
        kind = kind_of(code)
        if kind == "scout":
            scouts.append(turn)
        elif kind == "scout_and_show":
            sns.append(turn)
        state.apply(code)
        lead.append(running_scores(state))
        if len(state.round_ends) > len(rounds):  # this move ended the round
            end = state.round_ends[-1]
            rounds.append(RoundFacts(end.reason, end.turns, starter, end.scores, sum(end.captured),
                                     tuple(scouts), tuple(sns)))
            scouts, sns = [], []
    # ints hash to themselves, so a tuple's hash is the same in every process: chunks compare across workers
    return GameSummary(tuple(state.totals), tuple(rounds), decisions, options, widest, forced, tuple(lead),
                       hash(tuple(state.history)))
