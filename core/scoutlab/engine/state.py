"""The state of one game: hands, active set and owner, chips, captured piles, turn, round and history.

Moves go in only through `apply`, which refuses an illegal action with the rule it
breaks and leaves the state untouched. `legal_actions` lists every legal action code
for the seat to act; `view(seat)` is everything that seat may know (docs/rules.md §10.9).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from scoutlab.base.errors import HookError, IllegalAction, NotationError
from scoutlab.base.values import Move, RoundEnd, RoundFacts, View
from scoutlab.engine.actions import SHOW_BASE, format_action, parse_action
from scoutlab.engine.cards import format_hand
from scoutlab.engine.events import Event
from scoutlab.engine.explain import why_illegal, why_illegal_action
from scoutlab.engine.native import turns
from scoutlab.engine.turns import FIELDS, FLIPPING, NO_LEGAL_ACTION, OVER, PLAYING, TURN_CAP

if TYPE_CHECKING:
    from scoutlab.engine.contract import CompiledRules
    from scoutlab.engine.turns import Table
else:
    Table = turns.Table  # the compiled build's class where it is installed (native.py), else the source's

# The rules a game was made with, as their own type: `Rules.new_game` makes a GameState[Rules], whose `rules`
# a client reads in full (spec, name, ...), while the engine reads only the contract.
R = TypeVar("R", bound="CompiledRules", covariant=True)


class GameState(Table, Generic[R]):
    """One game of a compiled variant for a number of players, from a seed.

    The play itself (dealing, legal actions, apply, round ends, scoring) is `turns.Table`,
    compiled where it can be; this class adds the plugin paths it calls back into, the
    undo guard, the notation, views, facts and explanations.
    """

    rules: R

    def __init__(self, rules: R, players: int, seed: int) -> None:
        if players not in rules.players:
            allowed = ", ".join(map(str, rules.players))
            raise ValueError(f"variant {rules.name!r} is for {allowed} players, not {players}")
        self._knobs(rules, players)
        self.seed = seed
        self.rng = random.Random(seed)
        self.rounds = rules.rounds_for(players)
        self.removed: list[int] = rules.removed[players]
        self.totals = [0] * players
        self.round_ends = []
        self.history = []
        self.deals = []  # each round's hands as dealt, for records
        # With a single shuffle (deal.shuffle: once), later rounds deal slices of this pool:
        # round r deals pool[r*n*size:(r+1)*n*size], the rest is set aside. None: shuffle each round.
        self.pool = self.shuffled(rules.deck_for(players)) if rules.shuffle_once else None
        self._replayable = True  # the seed and the history rebuild this state (undo under plugins)
        self._start_round(0)

    def refresh(self) -> None:
        """Recompute what follows from the fields after they were set directly (positions do this).

        The rules' knobs too: the loop reads them once (`_knobs`), so a state given other rules plays by them.
        """
        self._knobs(self.rules, self.players)
        self.beat = self.rules.strength(self.active)
        self._legal = None
        self._replayable = False  # the seed and history no longer say how this state came about

    # -- applying an action -------------------------------------------------------------------

    def _undo(self, done: int, legal: list[int] | None, saved: Any, exc: BaseException, code: int) -> None:
        """Undo an action whose plugin code raised (`turns._guarded_play` re-raises after this)."""
        if saved is None:
            self._replay(done)
            self._legal = legal
        else:
            self._restore(saved)
        if isinstance(exc, HookError):
            exc.locate(f"{self.where(code)}; the game state is unchanged")

    # How `_apply` changes each list field, which says how to undo it: lists it changes in place
    # are copied (of the per-seat lists only the acting seat's own changes in place), lists it
    # only appends to are cut back, lists it only rebinds are kept.
    # tests/test_plugin_management.py fails on a list field missing here.
    _PER_SEAT = ("hands", "captured")
    _CHANGED = _PER_SEAT + ("active", "chips_received", "chips_held", "scout_show_chips", "totals")
    _GROWING = ("history", "deals", "round_ends")
    _REBOUND = ("_legal", "pool", "set_aside", "removed")

    def _snapshot(self) -> tuple[dict[str, Any], tuple[int, ...]]:
        """What `_restore` needs to undo `_apply`: the fields, and the lengths of the growing lists.

        Not the rng: it is drawn only to deal a new round, the last step of an action, after
        every hook has run (tests/test_plugin_management.py checks that its state is kept).
        """
        saved = self.fields()
        seat = self.to_act
        for key in self._PER_SEAT:
            lists = saved[key] = list(saved[key])
            lists[seat] = list(lists[seat])
        for key in self._CHANGED[len(self._PER_SEAT):]:
            saved[key] = list(saved[key])
        return saved, (len(self.history), len(self.deals), len(self.round_ends))

    def _replay(self, actions: int) -> None:
        """Become this game again as it was after its first `actions` actions, from the seed.

        Hooks are pure, so replaying what succeeded once succeeds again, with the same result.
        """
        again = GameState(self.rules, self.players, self.seed)
        for _, _, code in self.history[:actions]:
            again._apply(code)
        self._become(again.fields())

    def _restore(self, snapshot: tuple[dict[str, Any], tuple[int, ...]]) -> None:
        saved, lengths = snapshot
        for key, length in zip(self._GROWING, lengths):
            del saved[key][length:]
        self._become(saved)

    def clone(self) -> GameState[R]:
        """A copy to play on: every list that play changes is its own, the rest (rules, random stream) shared."""
        twin = type(self).__new__(type(self))
        twin.__dict__.update(vars(self))
        self.copy_into(twin)
        return twin

    def fields(self) -> dict[str, Any]:
        """Every field of this state by name: the compiled table's (which live outside `vars`) and the rest."""
        out = {name: getattr(self, name) for name in FIELDS if hasattr(self, name)}
        out.update(vars(self))
        return out

    def _become(self, fields: dict[str, Any]) -> None:
        """Take these fields as they are, and no others (those of `fields()`)."""
        self.__dict__.clear()
        for name, value in fields.items():
            setattr(self, name, value)

    # A compiled table keeps its fields outside __dict__, so copy and pickle go through `fields()`.
    def __getstate__(self) -> dict[str, Any]:
        return self.fields()

    def __setstate__(self, fields: dict[str, Any]) -> None:
        self._become(fields)

    def where(self, code: int | None = None) -> str:
        """The position in words for error messages: variant, round, turn, seat, and the action tried."""
        moment = "the hand-flip choice" if self.phase == FLIPPING else f"turn {self.turn + 1}"
        doing = f"playing {self.format(code)!r}" if code is not None else "listing legal actions"
        return f"variant {self.rules.name!r} round {self.round + 1}, {moment}, seat {self.to_act} {doing}"

    def apply_text(self, text: str) -> int:
        """Parse the notation and apply it; returns the code. Raises NotationError or IllegalAction."""
        code = self.code(text)
        self.apply(code)
        return code

    def code(self, text: str) -> int:
        """The code of a move in notation. NotationError for text that is no move; IllegalAction, with
        the reason for this hand, for a move no hand could hold (`show 99`), so every door says the same."""
        action = parse_action(text)
        try:
            return self.rules.codec.encode(action)
        except NotationError:
            raise IllegalAction(why_illegal_action(self, action)) from None

    # -- plugin code mid-action: end conditions, scores, observers ------------------------------

    def _hook_end_checks(self) -> bool:
        for name, check, exempts in self.rules.end_checks:
            if check(self):
                self._end_round(name, self.last_shower if exempts and self.last_shower >= 0 else -1)
                return True
        return False

    def _adjuster_error(self, plugin: str, end: RoundEnd, exc: BaseException | None, answer: object) -> BaseException | None:
        if isinstance(exc, HookError):
            return exc  # already names its plugin (e.g. a game played inside an adjuster)
        return self.rules.adjuster_error(plugin, end, self, exc, answer)

    def _observe(self, event: Event) -> None:
        """Tell the observers (see `turns._observe`)."""
        turns._observe(self, event)

    def _observer_error(self, plugin: str, event: Event, exc: BaseException | None, answer: object) -> BaseException:
        if isinstance(exc, HookError):
            return exc  # already names its plugin (e.g. a game played inside an observer)
        # The plugin host words the error; the rules carry it here, so the engine needs no host import.
        return self.rules.observer_error(plugin, event, self, exc, answer)

    # -- the round's facts, for plugins ------------------------------------------------------------

    @property
    def facts(self) -> RoundFacts:
        """This round so far by name: moves per seat and kind, the turn, and the last move parsed.

        Counted from the history, continuing from the last answer: asking after every action
        (as an end condition does) costs one step each time, not a rescan of the round.
        """
        cached: tuple[int, RoundFacts | None] = getattr(self, "_facts", (self.round_start, None))
        counted, facts = cached
        # Start the count again for a new round, or where an undone action shortened the history.
        if facts is None or facts.round != self.round or not self.round_start <= counted <= len(self.history):
            counted, facts = self.round_start, None
        if facts is not None and counted == len(self.history):
            return facts
        kinds = {"show": 0, "scout": 1, "scout_and_show": 2}
        tallies = [list(facts.shows), list(facts.scouts), list(facts.scout_shows)] if facts else [[0] * self.players for _ in kinds]
        codec = self.rules.codec
        for _, seat, code in self.history[counted:]:
            if code >= SHOW_BASE:  # hand-flip choices are not moves
                tallies[kinds[codec.kind(code)]][seat] += 1
        last = self._last_move()
        shows, scouts, scout_shows = (tuple(t) for t in tallies)
        facts = RoundFacts(self.round, sum(shows) + sum(scouts) + sum(scout_shows), scouts, shows, scout_shows, last)
        self._facts = (len(self.history), facts)
        return facts

    def _last_move(self) -> Move | None:
        """The round's last move, while it is still the last: its cards are read off the table."""
        if self.last_seat < 0 or len(self.history) <= self.round_start:
            return None
        _, seat, code = self.history[-1]
        codec = self.rules.codec
        kind = codec.kind(code)
        if kind == "flip":
            return None
        action = codec.decode(code)
        showed = kind == "show" or (kind == "scout_and_show" and self.last_kind == "scout_and_show")
        return Move(seat, kind, action, tuple(self.active) if showed else (), None if kind == "show" else self.last_scouted)

    def winners(self) -> list[int]:
        """Every seat with the highest total: ties share the victory."""
        best = max(self.totals)
        return [i for i, t in enumerate(self.totals) if t == best]

    # -- what a seat may see ------------------------------------------------------------------

    def view(self, seat: int) -> View:
        """Seat's information state: never another seat's cards nor the undealt cards."""
        return View(
            seat=seat,
            players=self.players,
            variant=self.rules.name,
            round=self.round,
            rounds=self.rounds,
            phase=self.phase,
            to_act=self.to_act,
            starting_seat=self.starting_seat,
            turn=self.turn,
            hand=tuple(self.hands[seat]),
            hand_sizes=tuple(len(h) for h in self.hands),
            active=tuple(self.active),
            active_owner=None if self.active_owner < 0 else self.active_owner,
            chips_received=tuple(self.chips_received),
            chips_held=tuple(self.chips_held),
            scout_show_chips=tuple(self.scout_show_chips),
            captured=tuple(len(c) for c in self.captured),
            totals=tuple(self.totals),
            history=tuple(self.history),
            round_ends=tuple(self.round_ends),
            legal=tuple(self.legal_actions()) if seat == self.to_act else (),
        )

    # -- explaining an illegal action ----------------------------------------------------------

    def explain(self, code: int) -> str:
        """Why this action is not legal here, in the words of the rules."""
        return why_illegal(self, code)

    def format(self, code: int) -> str:
        return format_action(self.rules.codec.decode(code))

    def __repr__(self) -> str:
        hands = " | ".join(format_hand(h) for h in self.hands)
        return (
            f"<GameState {self.rules.name} round {self.round + 1}/{self.rounds} {self.phase} "
            f"to_act={self.to_act} active=[{format_hand(self.active)}] hands: {hands}>"
        )


__all__ = ["FLIPPING", "NO_LEGAL_ACTION", "OVER", "PLAYING", "TURN_CAP", "GameState", "IllegalAction", "RoundEnd", "View"]
