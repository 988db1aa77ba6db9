"""Playing a game between bots: the one loop the CLI, the simulator and the records share."""

from __future__ import annotations

from collections.abc import Sequence

from scoutlab.bots import Bot, make_bot
from scoutlab.engine.state import GameState
from scoutlab.rules import Rules


def bot_seed(seed: int, seat: int) -> int:
    """Each seat's bot draws from its own stream, so one bot's choices never shift another's."""
    return (seed * 1_000_003 + seat * 7919 + 1) & 0xFFFFFFFFFFFF


def make_bots(names: Sequence[str], rules: Rules, players: int, seed: int) -> list[Bot]:
    """One bot per seat; a single name serves every seat."""
    if len(names) == 1:
        names = list(names) * players
    if len(names) != players:
        raise ValueError(f"{players} players need {players} bots (or one for all), got {len(names)}")
    return [make_bot(name, rules, bot_seed(seed, seat)) for seat, name in enumerate(names)]


def play_game(rules: Rules, players: int, bots: Sequence[Bot], seed: int) -> GameState:
    """Play a whole game; each bot sees only its own seat's view."""
    state = rules.new_game(players, seed)
    while not state.is_over:
        seat = state.to_act
        state.apply(bots[seat].act(state.view(seat)))
    return state


def close_bots(bots: Sequence[Bot]) -> None:
    """End what the bots hold (an external bot's program and its process group) once the match is over."""
    for bot in bots:
        close = getattr(bot, "close", None)
        if close is not None:
            close()
