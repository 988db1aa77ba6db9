"""The decision loop of one game: dealing, legal actions, applying an action, the round-end checks and the scoring.

`Table` holds a game's hands, table, chips and turn as plain ints and lists, and plays
them. `GameState` (state.py) is a Table plus all that surrounds play: the guard that
undoes an action a plugin broke, the notation, views, facts and explanations. setup.py
compiles this module with mypyc, together with legal.py, as
`scoutlab.engine._turns_native`; `scoutlab.engine.native` picks the compiled build while
its source stamp matches, else this source, which is the reference
(tests/test_turns_native.py plays every variant both ways and compares).

Where the rules let a plugin decide (show strength, end conditions), the loop calls a
`_hook_...` method that GameState overrides, and only when the compiled rules say a
plugin is there. Observers and score adjusters, which run after every action or round,
are called directly; GameState words their errors.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from mypy_extensions import mypyc_attr

from scoutlab.base.errors import HookError, IllegalAction
from scoutlab.base.values import round_end
from scoutlab.engine.legal import (
    MASK,
    SHIFT,
    SHOW_BASE,
    Layout,
    ShowTrie,
    active_set_key,
    append_scouts,
    append_trie_scout_shows,
    append_trie_shows,
    play_codes,
)

if TYPE_CHECKING:  # the contract is a Protocol: to the compiled build an object whose attributes it looks up
    from scoutlab.engine.contract import CompiledRules

FLIPPING: Final = "flip"
PLAYING: Final = "play"
OVER: Final = "over"
SHOW: Final = "show"
SCOUT: Final = "scout"
SCOUT_AND_SHOW: Final = "scout_and_show"
TURN_CAP: Final = "turn_cap"
NO_LEGAL_ACTION: Final = "no_legal_action"
KEEP: Final = 0
FLIP: Final = 1

# The built-in end conditions (host/builtin.py), checked here without a call into Python.
HAND_EMPTIED: Final = "hand_emptied"
EVERYONE_SCOUTED: Final = "everyone_scouted"
OPPONENT_STUCK: Final = "opponent_stuck"
BUILTIN_ENDS: Final = (HAND_EMPTIED, EVERYONE_SCOUTED, OPPONENT_STUCK)

# Every field a Table holds, for copying a state whose compiled fields live outside its __dict__.
FIELDS: Final = (
    "rules", "players", "layout", "guarded", "builtin_shows", "observed", "observers", "scores_hooked", "adjusters",
    "builtin_ends", "end_names", "end_exempts", "scout_pays", "extra_turn", "sns_fallback", "flip_reverses", "exemption",
    "max_turns", "points_captured", "points_received", "points_unspent", "points_in_hand",
    "rng", "rounds", "round", "pool", "set_aside", "deals", "round_ends", "totals", "history",
    "hands", "active", "active_owner", "beat", "last_shower", "last_seat", "last_kind", "last_scouted",
    "round_start", "captured", "chips_received", "chips_held", "chips_paid", "scout_show_chips",
    "turn", "starting_seat", "to_act", "flips_left", "phase", "_legal", "_replayable",
)


# Made after every action an observer sees: never GC-tracked (it holds only strings, ints and a read-only
# mapping of them, so it is in no cycle) and made in the memory of the last one freed.
@mypyc_attr(acyclic=True, free_list_len=1)
class Event:
    """One game event as observers (the scoutlab_game_event hook) receive it: `kind`, `round`, `data`.

    `kind` is "action" (data: seat, code), "round_end" (end) or "game_end"; `round` is
    0-based; `data` is a read-only mapping. Immutable: compiled, its fields cannot be set.
    It is made after every action an observer sees, so an action's event holds only its
    ints and makes its `data` when asked (a new read-only mapping each time, always equal).
    It behaves as the tuple (kind, round, data) it used to be: unpacking, indexing, equality.
    """

    __slots__ = ("_code", "_data", "_seat", "kind", "round")

    def __init__(self, kind: str, round: int, data: Mapping[str, Any] | None = None, seat: int = -1, code: int = -1) -> None:
        self.kind: Final = kind
        self.round: Final = round
        self._data: Final = data  # None for an action's event: made from seat and code when asked
        self._seat: Final = seat
        self._code: Final = code

    @property
    def data(self) -> Mapping[str, Any]:
        data = self._data
        if data is None:
            return MappingProxyType({"seat": self._seat, "code": self._code})
        return data

    def _tuple(self) -> tuple[str, int, Mapping[str, Any]]:
        return (self.kind, self.round, self.data)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._tuple())

    def __len__(self) -> int:
        return 3

    def __getitem__(self, index: int) -> Any:
        return self._tuple()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Event):
            return self.kind == other.kind and self.round == other.round and dict(self.data) == dict(other.data)
        if isinstance(other, tuple):
            return self._tuple() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.kind, self.round, tuple(self.data.items())))

    def __repr__(self) -> str:
        return f"Event(kind={self.kind!r}, round={self.round!r}, data={self.data!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        if self._data is None:
            return (action_event, (self.round, self._seat, self._code))
        return (Event, (self.kind, self.round, self._data))


def _set_once(event: Any, name: str, value: Any) -> None:
    """The pure-Python build's guard of an event's fields, which mypyc makes read-only in the compiled one."""
    if hasattr(event, name):
        raise AttributeError(f"attribute {name!r} of 'Event' objects is not writable")
    object.__setattr__(event, name, value)  # __init__, once per field


def _never_deleted(event: Any, name: str) -> None:
    raise AttributeError(f"attribute {name!r} of 'Event' objects is not writable")


if not hasattr(Event, "__mypyc_attrs__"):  # the source, run as Python
    setattr(Event, "__setattr__", _set_once)  # noqa: B010 (not a method mypy should see)
    setattr(Event, "__delattr__", _never_deleted)  # noqa: B010


def action_event(round: int, seat: int, code: int) -> Event:
    """The event of one action: seat `seat` played action `code` in round `round` (0-based)."""
    return Event("action", round, None, seat, code)


def game_event(kind: str, round: int, **data: Any) -> Event:
    """Any other event, with its data read-only like an action's."""
    return Event(kind, round, MappingProxyType(data))


@mypyc_attr(allow_interpreted_subclasses=True)
class Table:
    """A game's cards, chips and turn, and the loop that plays them (see the module docstring)."""

    # The rules, read once per game from the compiled rules (`_knobs`).
    rules: CompiledRules
    players: int
    layout: Layout
    guarded: bool  # plugin code runs mid-action: apply goes through GameState's undo guard
    builtin_shows: bool  # shows ranked by integer keys; else a plugin's hooks decide
    observed: bool
    observers: tuple[tuple[str, Any], ...]  # (plugin name, function of (event, state)), called after every action
    scores_hooked: bool
    adjusters: tuple[tuple[str, Any], ...]  # (plugin name, function of (state, end)), called at every round end
    builtin_ends: bool  # every end condition is one of the built-in three
    end_names: tuple[str, ...]
    end_exempts: tuple[bool, ...]
    scout_pays: bool
    extra_turn: bool
    sns_fallback: bool
    flip_reverses: bool
    exemption: bool
    max_turns: int
    points_captured: int
    points_received: int
    points_unspent: int
    points_in_hand: int
    # The game.
    rng: Any
    rounds: int
    round: int
    pool: list[int] | None
    set_aside: list[int]
    deals: list[list[list[int]]]
    round_ends: list[Any]
    totals: list[int]
    history: list[tuple[int, int, int]]
    # The round.
    hands: list[list[int]]
    active: list[int]
    active_owner: int
    beat: Any  # an int key on the fast path, else a trie node or None (Rules.strength)
    last_shower: int
    last_seat: int
    last_kind: str | None
    last_scouted: int | None
    round_start: int
    captured: list[list[int]]
    chips_received: list[int]
    chips_held: list[int]
    chips_paid: int
    scout_show_chips: list[int]
    turn: int
    starting_seat: int
    to_act: int
    flips_left: int
    phase: str
    _legal: list[int] | None
    _replayable: bool  # the seed and the history rebuild this state (how an action plugin code broke is undone)

    def _knobs(self, rules: CompiledRules, players: int) -> None:
        """Copy what the loop asks of the rules into plain fields, once per game."""
        self.rules = rules
        self.players = players
        self.layout = rules.layout
        self.guarded = rules.guarded
        self.builtin_shows = rules.builtin_shows
        self.observed = rules.observed
        self.observers = tuple(rules.observers)
        self.scores_hooked = rules.scores_hooked
        self.adjusters = tuple(rules.adjusters)
        # The built-in conditions by name, unless a plugin offers its own function under that name.
        self.builtin_ends = rules.ends_builtin and all(name in BUILTIN_ENDS for name, _, _ in rules.end_checks)
        self.end_names = tuple([name for name, _, _ in rules.end_checks])
        self.end_exempts = tuple([bool(exempts) for _, _, exempts in rules.end_checks])
        self.scout_pays = rules.scout_pays
        self.extra_turn = rules.extra_turn
        self.sns_fallback = rules.sns_fallback
        self.flip_reverses = rules.flip_reverses
        self.exemption = rules.exemption
        self.max_turns = rules.max_turns
        self.points_captured = rules.points_captured
        self.points_received = rules.points_received
        self.points_unspent = rules.points_unspent
        self.points_in_hand = rules.points_in_hand

    def copy_into(self, twin: Table) -> None:
        """Give `twin` every field of this table, copying the lists that play changes, so either plays on alone.

        One C function where compiled: a search plays each sampled deal on many copies.
        """
        _copy_into(self, twin)

    # -- dealing ------------------------------------------------------------------------------

    def shuffled(self, cards: list[int]) -> list[int]:
        """The cards in a new list, shuffled by this game's rng: order and, if the spec says so, orientation (docs/rules.md §1)."""
        return _shuffled(self, cards)

    def _start_round(self, index: int) -> None:
        _deal(self, index)

    def _apply(self, code: int) -> None:
        """Play an action known to be legal (`apply` checks; replaying a history need not)."""
        _play(self, code)

    def _end_round(self, reason: str, exempt: int) -> None:
        _end_round(self, reason, exempt)

    def _may_scout(self, seat: int) -> bool:
        """Whether this seat may scout now: a table to scout from, not its own, and a chip to pay if scouts cost one."""
        return _may_scout(self, seat)

    # -- legal actions ------------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """Every legal action code for the seat to act (cached until the next action)."""
        return _listing(self)

    def shows_and_scouts(self) -> list[int]:
        """The legal actions of the seat to act without its Scout & Shows, in the same order (a new list).

        A search's rollout weighs only the few Scout & Shows it finds itself, so listing the
        hundreds of them after every move would be wasted (see `scout_and_show_open`).
        """
        return shows_and_scouts(self)

    def scout_and_show_open(self) -> bool:
        """Whether the seat to act may Scout & Show at all: it may scout and holds its Scout & Show chip
        (whether some show then beats what is left is the mover's question)."""
        return scout_and_show_open(self)

    # -- applying an action -------------------------------------------------------------------

    def apply(self, code: int) -> None:
        """Play one action for the seat to act; an illegal one raises IllegalAction and changes nothing."""
        legal = self._legal
        if legal is None:
            legal = _listing(self)
        if not _is_listed(legal, code):
            raise IllegalAction(self.explain(code))
        if self.guarded:
            _guarded_play(self, code, legal)
        else:
            _play(self, code)

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    # -- what GameState says and does where plugins or words come in (overridden there) ---------

    def explain(self, code: int) -> str:
        """Why this action is not legal here, in the words of the rules."""
        return f"action {code} is not legal here"

    def _snapshot(self) -> Any:
        """What `_undo` needs to restore a state that its seed and history cannot rebuild."""
        raise NotImplementedError

    def _undo(self, done: int, legal: list[int] | None, saved: Any, exc: BaseException, code: int) -> None:
        """Make this state again what it was before the action that raised `exc` (its first `done` actions)."""
        raise NotImplementedError

    def _observer_error(self, plugin: str, event: Any, exc: BaseException | None, answer: Any) -> BaseException:
        """The error to raise for an observer that raised `exc`, or else answered something other than None."""
        raise NotImplementedError

    def where(self, code: int | None = None) -> str:
        """The position in words for error messages."""
        raise NotImplementedError

    def _hook_end_checks(self) -> bool:
        """Check the rules' end conditions through their functions; end the round and say True if one holds."""
        raise NotImplementedError

    def _adjuster_error(self, plugin: str, end: Any, exc: BaseException | None, answer: Any) -> BaseException | None:
        """The error to raise for a score adjuster that raised `exc`, or else answered `answer` (None if it fits)."""
        raise NotImplementedError


# Whether this module runs compiled (mypyc gives its classes __mypyc_attrs__), for what is written differently for each.
COMPILED: Final = hasattr(Table, "__mypyc_attrs__")


# -- the loop: module functions, so that compiled calls go straight to C, never through a subclass --


def _is_listed(legal: list[int], code: int) -> bool:
    """`code in legal`. Compiled, a loop over the list's ints, a few times cheaper than `in`,
    which compares Python objects one by one; a list of Scout & Show codes runs to hundreds."""
    if not COMPILED:
        return code in legal
    for listed in legal:  # noqa: SIM110 (a loop mypyc compiles to C; any() would make a generator)
        if listed == code:
            return True
    return False


def _copy_into(t: Table, twin: Table) -> None:
    # Every name of FIELDS (tests/test_turns_native.py, test_a_clone_plays_on_alone, checks that none is missed).
    twin.rules, twin.players, twin.layout, twin.guarded = t.rules, t.players, t.layout, t.guarded
    twin.builtin_shows, twin.observed, twin.observers, twin.scores_hooked = t.builtin_shows, t.observed, t.observers, t.scores_hooked
    twin.adjusters, twin.builtin_ends, twin.end_names, twin.end_exempts = t.adjusters, t.builtin_ends, t.end_names, t.end_exempts
    twin.scout_pays, twin.extra_turn, twin.sns_fallback = t.scout_pays, t.extra_turn, t.sns_fallback
    twin.flip_reverses, twin.exemption, twin.max_turns = t.flip_reverses, t.exemption, t.max_turns
    twin.points_captured, twin.points_received = t.points_captured, t.points_received
    twin.points_unspent, twin.points_in_hand = t.points_unspent, t.points_in_hand
    twin.rng, twin.rounds, twin.round, twin.pool = t.rng, t.rounds, t.round, t.pool
    twin.set_aside, twin.deals, twin.round_ends = list(t.set_aside), list(t.deals), list(t.round_ends)
    twin.totals, twin.history = list(t.totals), list(t.history)
    twin.hands = [list(hand) for hand in t.hands]
    twin.active, twin.active_owner, twin.beat = list(t.active), t.active_owner, t.beat
    twin.last_shower, twin.last_seat, twin.last_kind, twin.last_scouted = (
        t.last_shower, t.last_seat, t.last_kind, t.last_scouted)
    twin.round_start = t.round_start
    twin.captured = [list(pile) for pile in t.captured]
    twin.chips_received, twin.chips_held = list(t.chips_received), list(t.chips_held)
    twin.chips_paid, twin.scout_show_chips = t.chips_paid, list(t.scout_show_chips)
    twin.turn, twin.starting_seat, twin.to_act = t.turn, t.starting_seat, t.to_act
    twin.flips_left, twin.phase, twin._legal, twin._replayable = t.flips_left, t.phase, t._legal, t._replayable


def shuffle(rng: Any, cards: list[int]) -> None:
    """`rng.shuffle(cards)`. For a plain random.Random the same steps as its shuffle, compiled: the
    same draws of getrandbits in the same order, so the same deal for a seed, for less than half
    the cost of the interpreted one (dealing is much of a short game)."""
    if type(rng) is not random.Random:  # a subclass may draw otherwise
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    i = len(cards) - 1
    while i > 0:  # random.Random.shuffle: for i in reversed(range(1, n)), j = _randbelow(i + 1)
        n = i + 1
        k = n.bit_length()
        j: int = getrandbits(k)  # random.Random._randbelow_with_getrandbits
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
        i -= 1


def _shuffled(t: Table, cards: list[int]) -> list[int]:
    cards = list(cards)
    shuffle(t.rng, cards)
    if t.rules.random_orientation:
        bits: int = t.rng.getrandbits(len(cards))
        for i in range(len(cards)):
            if bits >> i & 1:
                c = cards[i]
                cards[i] = ((c & MASK) << SHIFT) | (c >> SHIFT)
    return cards


def _deal(t: Table, index: int) -> None:
    rules, n = t.rules, t.players
    size: int = rules.hand_size[n]
    pool = t.pool
    if pool is not None:
        start, stop = index * n * size, (index + 1) * n * size
        cards = pool[start:stop]
        t.set_aside = pool[:start] + pool[stop:]
    else:
        shuffled = _shuffled(t, rules.deck_for(n))
        cards, t.set_aside = shuffled[: n * size], shuffled[n * size :]
    t.round = index
    t.hands = [cards[i * size : (i + 1) * size] for i in range(n)]
    t.deals.append([list(h) for h in t.hands])
    t.active = []
    t.active_owner = -1
    t.beat = _strength(t, [])
    t.last_shower = -1  # owner of the round's last show, for (ii) and the exemption
    t.last_seat = -1
    t.last_kind = None
    t.last_scouted = None  # the card the last scout took, for `facts`
    t.round_start = len(t.history)  # where this round's moves begin in the history
    t.captured = [[] for _ in range(n)]
    t.chips_received = [0] * n
    t.chips_held = [int(rules.scout_chips)] * n
    t.chips_paid = 0  # paid into the middle (scout_pays)
    t.scout_show_chips = [int(rules.sns_chips)] * n
    t.turn = 0
    t.starting_seat = rules.starting_seat(n, index, t.totals)
    t.to_act = t.starting_seat
    t.flips_left = n if rules.flip_allowed else 0
    t.phase = FLIPPING if t.flips_left else PLAYING
    t._legal = None


def _may_scout(t: Table, seat: int) -> bool:
    return len(t.active) > 0 and t.active_owner != seat and (not t.scout_pays or t.chips_held[seat] > 0)


def _play_actions(t: Table, seat: int, scout_shows: bool) -> list[int]:
    """The seat's legal plays under the built-in shows; without the Scout & Shows unless `scout_shows`."""
    beat: int = t.beat
    return play_codes(
        t.hands[seat], t.active, beat, _may_scout(t, seat), scout_shows and t.scout_show_chips[seat] > 0,
        t.sns_fallback, t.layout,
    )


def trie_play_actions(t: Table, seat: int, scout_shows: bool) -> list[int]:
    """The seat's legal plays under plugins that decide shows, in `play_codes`'s order, the shows from the rules'
    trie of the hooks' answers (`legal.ShowTrie`); without the Scout & Shows unless `scout_shows`."""
    hand = t.hands[seat]
    tops = [c >> SHIFT for c in hand]
    out: list[int] = []
    append_trie_shows(tops, t.beat, t.rules.trie, SHOW_BASE, t.layout.width, out)
    if _may_scout(t, seat):
        append_scouts(len(hand), len(t.active), t.layout, out)
        if scout_shows and t.scout_show_chips[seat] > 0:
            trie_scout_shows(t, tops, out)
    return out


def _hook_play_actions(t: Table, seat: int, scout_shows: bool) -> list[int]:
    """`trie_play_actions`, saying where if a plugin's show hook fails (compiled: a rollout lists in C)."""
    try:
        return trie_play_actions(t, seat, scout_shows)
    except HookError as exc:
        exc.locate(t.where())
        raise


def trie_scout_shows(t: Table, tops: list[int], out: list[int]) -> None:
    """Under plugins, every Scout & Show of a hand of top numbers `tops` from the active set: each scout in
    turn, then every show of the new hand that beats what the scout left (`legal.append_trie_scout_shows`)."""
    trie: ShowTrie = t.rules.trie
    layout, active = t.layout, t.active
    width, stride = layout.width, layout.sns_stride
    for end in range(1 if len(active) == 1 else 2):
        taken = active[-1] if end else active[0]
        beat = trie.active_node([c >> SHIFT for c in (active[:-1] if end else active[1:])])
        for flip in range(2):
            first = layout.sns_base + (end * 2 + flip) * (width + 1) * stride
            fallback = first + layout.show_count if t.sns_fallback else -1
            value = (taken & MASK) if flip else (taken >> SHIFT)
            append_trie_scout_shows(tops, value, beat, trie, first, stride, width, fallback, out)


def _guarded_play(t: Table, code: int, legal: list[int] | None) -> None:
    # Plugin code runs mid-action (end conditions, scoring, observers): if it raises, undo.
    # A game played from its seed is rebuilt by replaying its history, so the usual path
    # saves nothing; a state whose fields were set by hand (refresh) keeps a snapshot.
    saved: Any = None if t._replayable else t._snapshot()
    done = len(t.history)
    try:
        _play(t, code)
    except BaseException as exc:
        t._undo(done, legal, saved, exc, code)
        raise


def _observe(t: Table, event: Any) -> None:
    """Tell the observers, called directly rather than through pluggy, since this runs after every action.

    Their guard wrappers are skipped too: `_observer_error` makes the same checks, and costs
    nothing unless one fails.
    """
    for plugin, observe in t.observers:
        try:
            answer = observe(event, t)
        except (Exception, SystemExit) as exc:  # sys.exit() in a plugin is its failure, as base.errors.PLUGIN_FAILURES says
            error = t._observer_error(plugin, event, exc, None)
            if error is exc:
                raise  # a plugin error of its own, which already names its plugin
            raise error from exc
        if answer is not None:
            raise t._observer_error(plugin, event, None, answer)


def _play(t: Table, code: int) -> None:
    seat = t.to_act
    t.history.append((t.round, seat, code))
    t._legal = None
    if t.phase == FLIPPING:
        _choose_flip(t, seat, code)
        return
    layout = t.layout
    width = layout.width
    t.turn += 1
    if code < layout.scout_base:
        rel = code - SHOW_BASE
        _show(t, seat, rel // width, rel % width + 1)
        kind = SHOW
    elif code < layout.sns_base:
        _scout(t, seat, code - layout.scout_base)
        kind = SCOUT
    else:
        rel = code - layout.sns_base
        show = rel % layout.sns_stride
        t.scout_show_chips[seat] -= 1
        _scout(t, seat, rel // layout.sns_stride)
        if show == layout.show_count:  # the informal 28-card game's fallback: the turn ends as a plain scout
            kind = SCOUT
        else:
            _show(t, seat, show // width, show % width + 1)
            kind = SCOUT_AND_SHOW
    t.last_kind = kind
    t.last_seat = seat
    stays = t.extra_turn and kind == SCOUT
    t.to_act = seat if stays else (seat + 1) % t.players
    if t.observed:
        _observe(t, action_event(t.round, seat, code))
    _check_round_end(t)


def _choose_flip(t: Table, seat: int, code: int) -> None:
    if code == FLIP:
        hand = t.hands[seat]
        if t.flip_reverses:
            hand = hand[::-1]
        t.hands[seat] = [((c & MASK) << SHIFT) | (c >> SHIFT) for c in hand]
    t.flips_left -= 1
    t.to_act = (seat + 1) % t.players
    if not t.flips_left:
        t.phase = PLAYING  # every seat has chosen; the starting seat is to act again
    if t.observed:
        _observe(t, action_event(t.round, seat, code))


def _show(t: Table, seat: int, start: int, length: int) -> None:
    hand = t.hands[seat]
    shown = hand[start : start + length]
    del hand[start : start + length]
    if t.active:
        t.captured[seat].extend(t.active)
    t.active = shown
    t.active_owner = seat
    t.last_shower = seat
    t.beat = _strength(t, shown)


def _scout(t: Table, seat: int, index: int) -> None:
    gaps = t.layout.width + 1
    side, gap = index // gaps, index % gaps
    active = t.active
    taken = active.pop() if side >= 2 else active.pop(0)  # side = end * 2 + flip
    t.last_scouted = taken
    t.hands[seat].insert(gap, ((taken & MASK) << SHIFT) | (taken >> SHIFT) if side & 1 else taken)
    if t.scout_pays:
        t.chips_held[seat] -= 1
        t.chips_paid += 1
    else:
        t.chips_received[t.active_owner] += 1
    if not active:
        t.active_owner = -1  # nothing to beat and nothing to capture
    t.beat = _strength(t, active)


def _strength(t: Table, cards: list[int]) -> Any:
    if t.builtin_shows:
        return active_set_key(cards)
    trie: ShowTrie = t.rules.trie
    return trie.active_node([c >> SHIFT for c in cards])  # may ask the hooks: `_guarded_play` undoes if they raise


def _check_round_end(t: Table) -> None:
    if t.builtin_ends:
        names = t.end_names
        for i in range(len(names)):
            name = names[i]
            if name == HAND_EMPTIED:  # (i) a show emptied the hand of the player who made it
                ended = t.last_kind != SCOUT and not t.hands[t.last_seat]
            elif name == EVERYONE_SCOUTED:  # (ii) the turn came back to the last show's owner through scouts
                ended = t.last_kind == SCOUT and t.to_act == t.last_shower
            else:  # (ii, two players) the player to act can neither show nor scout
                ended = not _has_action(t)
            if ended:
                exempt = t.last_shower if t.end_exempts[i] and t.last_shower >= 0 else -1
                _end_round(t, name, exempt)
                return
    elif t._hook_end_checks():
        return
    if t.turn >= t.max_turns:
        _end_round(t, TURN_CAP, -1)
    elif not _has_action(t):
        _end_round(t, NO_LEGAL_ACTION, -1)  # a spec without opponent_stuck reached a dead end


def _end_round(t: Table, reason: str, exempt: int) -> None:
    """Score the round (exempt: the seat spared the penalty for cards in hand, -1 for none), then deal the next."""
    n = t.players
    if not t.exemption:
        exempt = -1
    in_hand = [len(h) for h in t.hands]
    captured = [len(c) for c in t.captured]
    scout_show_points: int = t.rules.points_unspent_scout_show  # read once a round, like the deal's knobs
    scores = [
        captured[i] * t.points_captured
        + t.chips_received[i] * t.points_received
        + t.chips_held[i] * t.points_unspent
        + (0 if i == exempt else in_hand[i] * t.points_in_hand)
        + t.scout_show_chips[i] * scout_show_points
        for i in range(n)
    ]
    end = round_end(
        t.round, reason, None if exempt < 0 else exempt, tuple(scores), tuple(captured),
        tuple(t.chips_received), tuple(t.chips_held), tuple(in_hand), t.turn,
        (), None if t.last_shower < 0 else t.last_shower,  # no adjustments yet; who made the last show
    )
    if t.scores_hooked:
        end = _adjusted(t, end, scores)
    t.round_ends.append(end)
    final: tuple[int, ...] = end.scores
    for i in range(n):
        t.totals[i] += final[i]
    t._legal = None
    if t.observed:
        _observe(t, game_event("round_end", t.round, end=end))
    if t.round + 1 < t.rounds:
        _deal(t, t.round + 1)
    else:
        t.phase = OVER
        if t.observed:
            _observe(t, game_event("game_end", t.round))


def _adjusted(t: Table, end: Any, scores: list[int]) -> Any:
    """The round's end with every score_round plugin's adjustment added, and each nonzero one named for the
    log. Called directly, as the observers are (`_observe`), since this runs at every round end."""
    adjustments: list[tuple[str, tuple[int, ...]]] = []
    for plugin, adjust in t.adjusters:
        try:
            answer = adjust(t, end)
        except (Exception, SystemExit) as exc:  # as in _observe
            error = t._adjuster_error(plugin, end, exc, None)
            if error is None or error is exc:
                raise  # a plugin error of its own, which already names its plugin
            raise error from exc
        if answer is None:
            continue
        error = t._adjuster_error(plugin, end, None, answer)  # one int per seat, or it names the plugin
        if error is not None:
            raise error
        adjustment = tuple(answer)
        if any(adjustment):
            scores = [s + a for s, a in zip(scores, adjustment)]
            adjustments.append((plugin, adjustment))
    if not adjustments:  # most rounds: no plugin adjusts anything, and replace() is slow
        return end
    return replace(end, scores=tuple(scores), adjustments=tuple(adjustments))


def _listing(t: Table) -> list[int]:
    legal = t._legal
    if legal is None:
        if t.phase == PLAYING:
            legal = _play_actions(t, t.to_act, True) if t.builtin_shows else _hook_play_actions(t, t.to_act, True)
        elif t.phase == FLIPPING:
            legal = [KEEP, FLIP]
        else:
            legal = []
        t._legal = legal
    return legal


# Table.shows_and_scouts and scout_and_show_open as functions, and apply_in_rollout: compiled, a rollout
# (bots/weighing.py) calls them in C, where a method of a GameState, a Python subclass, is looked up by name.


def shows_and_scouts(t: Table) -> list[int]:
    legal = t._legal
    if legal is None and t.phase == PLAYING:
        return _play_actions(t, t.to_act, False) if t.builtin_shows else _hook_play_actions(t, t.to_act, False)
    sns_base = t.layout.sns_base
    return [code for code in _listing(t) if code < sns_base]


def scout_and_show_open(t: Table) -> bool:
    seat = t.to_act
    return t.phase == PLAYING and _may_scout(t, seat) and t.scout_show_chips[seat] > 0


def apply_in_rollout(t: Table, code: int) -> None:
    """`apply` for a search's rollout, on the search's own copy of a game, of a code the search took from the
    seat's own legal moves (`shows_and_scouts`, a Scout & Show it found by the rules, a candidate of the view's):
    not checked against the listing, so the Scout & Shows need never be listed; and where plugin code raises
    mid-action, the copy is thrown away with the error, so nothing is saved to undo it (`_guarded_play`)."""
    _play(t, code)


def _has_action(t: Table) -> bool:
    """Whether the seat to act has a legal action, which the round-end checks ask after every move.

    A seat that may scout always has one (and any Scout & Show needs a scout), so then the
    listing, Scout & Shows and all, waits until someone asks for the legal actions. Plugins
    decide what a show is and what beats it, never whether a seat may scout, so this holds under them too.
    """
    if t._legal is None and t.phase == PLAYING and _may_scout(t, t.to_act):
        return True
    return len(_listing(t)) > 0  # a seat that may not scout has only its shows: a short list, kept
