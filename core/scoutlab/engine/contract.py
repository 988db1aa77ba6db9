"""What the engine asks of compiled rules: `CompiledRules`, the one contract between the rules compiler and play.

`scoutlab.rules.Rules` compiles a spec and its plugins into an object that has all of this
(mypy checks that it does: rules.py hands itself over as a `CompiledRules`); the engine
(turns, state, explain) is typed against this protocol only, so it imports nothing above
its layer, not even for types. Every member is read-only here: play reads the rules, it
never changes them. `Table._knobs` copies the plain values into the table once per game,
so the hot loop reads its own fields; the rest is read when a round is dealt or when
plugin code is involved. docs/architecture.md ("The knobs", generated from the code) maps
each YAML knob to its name here and in the `Table`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from scoutlab.base.errors import HookError
from scoutlab.base.values import EndCondition, RoundEnd
from scoutlab.engine.actions import Codec
from scoutlab.engine.legal import Layout, ShowTrie

if TYPE_CHECKING:
    from scoutlab.engine.turns import Event, Table

# Plugin code the engine calls with its table: an end condition's check, an observer, a score adjuster.
EndCheck = tuple[str, "Callable[[Table], bool]", bool]  # (name, check(state), exempts the last show's owner)
Observer = tuple[str, "Callable[[Event, Table], object]"]  # (plugin, observe(event, state)), None is the only fit answer
Adjuster = tuple[str, "Callable[[Table, RoundEnd], object]"]  # (plugin, adjust(state, end)), None or an int per seat


class CompiledRules(Protocol):
    """A variant's rules as the engine plays them: plain values, the action layout, and checked plugin calls."""

    # -- the variant -----------------------------------------------------------------------------
    @property
    def name(self) -> str: ...
    @property
    def players(self) -> tuple[int, ...]: ...  # the player counts the variant allows

    # -- dealing (docs/rules.md §1-2) ------------------------------------------------------------
    @property
    def removed(self) -> Mapping[int, list[int]]: ...  # per player count: the cards left out of the deck
    @property
    def hand_size(self) -> Mapping[int, int]: ...  # per player count
    @property
    def shuffle_once(self) -> bool: ...  # one shuffle for the whole game, each round dealing the next slice
    @property
    def random_orientation(self) -> bool: ...  # each dealt card turned either way up at random
    @property
    def flip_allowed(self) -> bool: ...  # each seat may flip its whole hand at round start
    @property
    def flip_reverses(self) -> bool: ...  # a flipped hand is also reversed left to right
    @property
    def scout_chips(self) -> int: ...  # Scout chips each seat holds at round start
    @property
    def sns_chips(self) -> int: ...  # Scout & Show chips each seat holds at round start

    def rounds_for(self, players: int) -> int: ...
    def deck_for(self, players: int) -> list[int]: ...  # a new list each call
    def starting_seat(self, players: int, round_index: int, totals: Sequence[int]) -> int: ...  # totals before it

    # -- a turn (§3-5) ---------------------------------------------------------------------------
    @property
    def scout_pays(self) -> bool: ...  # a scout costs the scout a chip, paid into the middle
    @property
    def extra_turn(self) -> bool: ...  # a plain scout keeps the turn
    @property
    def sns_fallback(self) -> bool: ...  # a Scout & Show may end as a plain scout when no show follows
    @property
    def max_turns(self) -> int: ...  # per round, then the round ends as turn_cap

    # -- scoring (§6) ----------------------------------------------------------------------------
    @property
    def points_captured(self) -> int: ...
    @property
    def points_received(self) -> int: ...
    @property
    def points_unspent(self) -> int: ...
    @property
    def points_in_hand(self) -> int: ...
    @property
    def exemption(self) -> bool: ...  # the round's ender is spared the penalty for cards in hand
    @property
    def points_unspent_scout_show(self) -> int: ...  # per Scout & Show chip still held at the round's end

    # -- actions and shows -----------------------------------------------------------------------
    @property
    def codec(self) -> Codec: ...
    @property
    def layout(self) -> Layout: ...  # the codec's codes as tables for the listing
    @property
    def builtin_shows(self) -> bool: ...  # shows ranked by integer keys; else the plugins' hooks, through `trie`
    @property
    def trie(self) -> ShowTrie: ...

    def strength(self, cards: list[int]) -> int: ...  # what a show must beat to replace these cards
    def classify(self, values: tuple[int, ...]) -> str | None: ...  # a show's kind, None for no show

    # -- end conditions and plugin code mid-action -----------------------------------------------
    @property
    def end_conditions(self) -> Sequence[tuple[str, EndCondition]]: ...
    @property
    def end_checks(self) -> Sequence[EndCheck]: ...
    @property
    def ends_builtin(self) -> bool: ...  # every end condition is the built-in one of its name
    @property
    def guarded(self) -> bool: ...  # plugin code runs mid-action, so apply must be able to undo
    @property
    def observed(self) -> bool: ...
    @property
    def observers(self) -> Sequence[Observer]: ...
    @property
    def scores_hooked(self) -> bool: ...
    @property
    def adjusters(self) -> Sequence[Adjuster]: ...

    # The plugin host words a failed plugin's error; the rules carry the wording here, so the engine imports no host.
    def adjuster_error(self, plugin: str, end: RoundEnd, state: object, exc: BaseException | None,
                       answer: object) -> HookError | None: ...
    def observer_error(self, plugin: str, event: Event, state: object, exc: BaseException | None,
                       answer: object) -> HookError: ...


__all__ = ["Adjuster", "CompiledRules", "EndCheck", "Observer"]
