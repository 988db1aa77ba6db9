"""Compiling a merged, validated spec into a Rules object of plain values and callables.

Everything the engine asks of the rules during play is decided here, once: which
cards leave the deck, how many are dealt, who pays for a scout, which end conditions
hold, and whether shows can be ranked by the fast integer keys or need the plugin
hooks (results cached, since those hooks are pure).
"""

from __future__ import annotations

import difflib
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from scoutlab.base.errors import HookError, PluginError, Problem, SpecError, SpecWarning
from scoutlab.base.values import EndCondition, RoundEnd, ShowInfo
from scoutlab.engine.actions import Codec
from scoutlab.engine.cards import MASK, SHIFT, full_deck, identity, parse_card
from scoutlab.engine.events import Event
from scoutlab.engine.native import legal
from scoutlab.engine.shows import builtin_key, builtin_kind, builtin_show_domain
from scoutlab.engine.state import GameState
from scoutlab.host import builtin
from scoutlab.host.guard import raised, wrong_answer
from scoutlab.host.manager import make_manager, offered_end_conditions, plugin_ref, plugins_offering
from scoutlab.spec.variant import Spec, load_spec


class Rules:
    """A spec compiled for play. Read-only after construction; one Rules serves many games.

    It is the engine's `CompiledRules` (engine/contract.py) and more (the spec, the plugin
    manager, warnings): mypy checks every member of that contract here where `new_game`
    hands `self` to a GameState.
    """

    def __init__(self, spec: Spec):
        doc = spec.doc
        self.spec = spec
        self.name: str = doc["name"]
        description = doc.get("description", "")  # a string, or per language: the English here, screens use variant_text
        self.description: str = description if isinstance(description, str) else description["en"]
        self.players: tuple[int, ...] = tuple(doc["players"])

        deck = doc["deck"]
        self.lowest: int = deck["lowest"]
        self.highest: int = deck["highest"]
        self.deck: list[int] = full_deck(self.lowest, self.highest)
        self.random_orientation: bool = deck["random_orientation"]
        self.removed: dict[int, list[int]] = {n: self._removed(deck["remove"].get(str(n), {})) for n in self.players}
        self._decks = {n: [c for c in self.deck if c not in self.removed[n]] for n in self.players}

        deal = doc["deal"]
        self.hand_size: dict[int, int] = {int(n): size for n, size in deal["hand_size"].items()}
        self.shuffle_once: bool = deal["shuffle"] == "once"

        self.flip_allowed: bool = doc["hand_flip"]["allowed"]
        self.flip_reverses: bool = doc["hand_flip"]["reverses_order"]
        self.scout_pays: bool = doc["scout"]["payment"] == "scout_pays"
        self.extra_turn: bool = doc["scout"]["extra_turn"]
        self.sns_chips: int = doc["scout_and_show"]["chips_per_round"]
        self.sns_fallback: bool = doc["scout_and_show"]["fallback_to_scout"]
        self.scout_chips: int = doc["scout_chips_per_round"]

        scoring = doc["scoring"]
        self.points_captured: int = scoring["captured_card"]
        self.points_received: int = scoring["chip_received"]
        self.points_unspent: int = scoring["unspent_chip"]
        self.points_in_hand: int = scoring["card_in_hand"]
        self.exemption: bool = scoring["exempt_last_show_owner"]
        self.points_unspent_scout_show: int = scoring["unspent_scout_show_chip"]

        rounds = doc["rounds"]
        self.round_count: int | None = None if rounds["count"] == "per_player" else rounds["count"]
        self.first_starting_seat: int = rounds["first_starting_seat"]
        self.rotate_start: int = rounds["rotate_start"]
        self.lowest_total_starts: bool = rounds["lowest_total_starts"]
        self.max_turns: int = doc["max_turns_per_round"]

        # The largest possible hand is every card of the deck, so codes fit any position.
        self.codec = Codec(len(self.deck))
        self.layout = legal.Layout(self.codec.width)  # the same codes, as tables for the hot loop

        try:
            self.plugins = make_manager(doc.get("plugins", []))
        except PluginError as exc:
            raise SpecError([spec.problem("$.plugins", str(exc))]) from None
        offered: dict[str, EndCondition] = {}
        for conditions in self.plugins.hook.scoutlab_end_conditions():
            offered.update(conditions or {})
        listed = [plugin_ref(item) for item in doc.get("plugins", [])]
        problems = [
            spec.problem(f"$.end_conditions[{i}]", _unknown_condition(name, offered, [n for n, _ in listed]))
            for i, name in enumerate(doc["end_conditions"])
            if name not in offered
        ]
        if problems:
            raise SpecError(problems)
        #: Problems that do not stop the spec but likely defeat its purpose (`scoutlab validate` lists them).
        self.warnings: list[Problem] = self._unused_end_conditions(listed)
        for warning in self.warnings:
            warnings.warn(str(warning), SpecWarning, stacklevel=2)
        self.end_conditions: list[tuple[str, EndCondition]] = [(n, offered[n]) for n in doc["end_conditions"]]
        # (name, check, exempts) for the check after every action, unpacked once here.
        self.end_checks = [(n, c.check, c.exempts_last_show_owner) for n, c in self.end_conditions]

        # When only the built-in rules answer the show hooks, use integer keys and skip the hooks.
        self.builtin_shows: bool = self._shows_are_builtin()
        # The shows as the hooks classify and compare them, each asked once (the plugin path, and `classify`).
        self.trie = legal.ShowTrie(self.highest + 1, self._classify_hook, self._compare_hook)
        # Observers, called directly after every action, in the order pluggy would call them (LIFO).
        hooks = self.plugins.hook
        self.observers = [_direct(impl, ("event", "state")) for impl in hooks.scoutlab_game_event.get_hookimpls()[::-1]]
        self.observed: bool = bool(self.observers)
        # Score adjusters too, at every round end.
        self.adjusters = [_direct(impl, ("state", "end")) for impl in hooks.scoutlab_score_round.get_hookimpls()[::-1]]
        self.scores_hooked: bool = bool(self.adjusters)
        # Plugin code that runs mid-action may raise: then `apply` must be able to undo the action.
        # Whether every end condition is the built-in one of its name, which the engine checks itself.
        self.ends_builtin: bool = all(
            condition == builtin.scoutlab_end_conditions().get(name) for name, condition in self.end_conditions
        )
        self.guarded: bool = not self.builtin_shows or self.scores_hooked or self.observed or not self.ends_builtin

    def _unused_end_conditions(self, listed: list[tuple[str, dict]]) -> list[Problem]:
        """A warning for each listed plugin that offers end conditions of which end_conditions enables none:
        its rule would never end a round."""
        enabled = self.spec.doc["end_conditions"]
        found = []
        for i, (name, _) in enumerate(listed):
            offered = offered_end_conditions(self.plugins.get_plugin(name)) if name != "builtin" else []
            if offered and not set(offered) & set(enabled):
                found.append(self.spec.problem(
                    f"$.plugins[{i}]", f"plugin {name!r} offers the end condition {' or '.join(map(repr, offered))}, but "
                                       "end_conditions does not list it, so the plugin never ends a round; add it: "
                                       f"end_conditions: [{', '.join([*enabled, offered[0]])}]"))
        return found

    def _shows_are_builtin(self) -> bool:
        """Whether the built-in rules alone classify and compare shows in this deck.

        True when no plugin implements the show hooks, or when every plugin that does
        defers (answers None) to every question the engine could ask with these numbers:
        then the fast integer keys give exactly the answers the hooks would.
        """
        hooks = self.plugins.hook
        classify = [i for i in hooks.scoutlab_classify_show.get_hookimpls() if i.plugin_name != "builtin"]
        beats = [i for i in hooks.scoutlab_show_beats.get_hookimpls() if i.plugin_name != "builtin"]
        if not classify and not beats:
            return True
        shows, extensions = builtin_show_domain(self.lowest, self.highest)
        infos = [ShowInfo(values, builtin_kind(values)) for values in shows]
        try:
            return all(
                _call(impl, values=values) is None for impl in classify for values in shows + extensions
            ) and all(_call(impl, show=show, active=active) is None for impl in beats for show in infos for active in infos)
        except Exception:
            return False  # a plugin that fails here will be reported, with its position, during play

    def _removed(self, removal: dict[str, Any]) -> list[int]:
        cards = {identity(parse_card(text)) for text in removal.get("cards", [])}
        for n in removal.get("containing", []):
            cards.update(c for c in self.deck if c >> SHIFT == n or c & MASK == n)
        return sorted(cards)

    # -- per player count ---------------------------------------------------------------

    def rounds_for(self, players: int) -> int:
        return players if self.round_count is None else self.round_count

    def deck_for(self, players: int) -> list[int]:
        """The cards in play for this many players, lower number on top, in a fixed order (a new list)."""
        return list(self._decks[players])

    def starting_seat(self, players: int, round_index: int, totals: Sequence[int]) -> int:
        """The seat that starts round `round_index` (from 0), given the totals of the rounds before it."""
        seat = (self.first_starting_seat + round_index * self.rotate_start) % players
        if self.lowest_total_starts:  # in the first round every total is 0, so the rotation's seat starts it
            # between equal lowest totals, the rotation's seat or the first of them to its left
            lowest = min(totals)
            seat = next((seat + k) % players for k in range(players) if totals[(seat + k) % players] == lowest)
        return seat

    def new_game(self, players: int, seed: int) -> GameState[Rules]:
        return GameState(self, players, seed)

    # -- plugin code the engine calls mid-action ---------------------------------------------

    @staticmethod
    def adjuster_error(plugin: str, end: RoundEnd, state: object, exc: BaseException | None, answer: object) -> HookError | None:
        """The error for a score adjuster that raised `exc`, or else answered `answer` (None: a fitting answer)."""
        arguments = {"state": state, "end": end}
        if exc is not None:
            return raised(plugin, "scoutlab_score_round", arguments, exc)
        return wrong_answer(plugin, "scoutlab_score_round", arguments, answer)

    @staticmethod
    def observer_error(plugin: str, event: Event, state: object, exc: BaseException | None, answer: object) -> HookError:
        """The error for an observer that raised `exc`, or else answered something other than None."""
        arguments = {"event": event, "state": state}
        if exc is not None:
            return raised(plugin, "scoutlab_game_event", arguments, exc)
        return wrong_answer(plugin, "scoutlab_game_event", arguments, answer) or HookError(
            plugin, "scoutlab_game_event", None, f"returned {answer!r}; expected None"
        )

    # -- shows under plugins (the general path) -----------------------------------------------

    def _classify_hook(self, values: tuple[int, ...]) -> str | None:
        """The hooks' kind of these top numbers, None for no show (the trie asks once per run of numbers)."""
        kind = self.plugins.hook.scoutlab_classify_show(values=values)  # a str: hookguard checks plugins'
        return None if kind == "invalid" else kind

    def _compare_hook(self, show: tuple[int, ...], show_kind: str, active: tuple[int, ...], active_kind: str) -> bool:
        """The hooks' verdict: does `show` beat `active`? (the trie asks once per pair)"""
        return self.plugins.hook.scoutlab_show_beats(
            show=ShowInfo(show, show_kind), active=ShowInfo(active, active_kind)
        )  # a bool: hookguard checks plugins' answers

    def _in_deck(self, values: tuple[int, ...]) -> bool:
        """Whether these are numbers the cards carry, which the trie has rows for."""
        return all(0 <= v <= self.highest for v in values)

    def classify(self, values: tuple[int, ...]) -> str | None:
        """The kind of show these top numbers make, or None when they make none."""
        if not self._in_deck(values):
            return self._classify_hook(values)
        node = self.trie.node(values)
        return None if node == legal.NO_SHOW else self.trie.kinds[node]

    def beats(self, values: tuple[int, ...], active: tuple[int, ...]) -> bool:
        """Whether a show with these top numbers beats an active set with those (any path); False if either is no show."""
        if self.builtin_shows:
            mine = builtin_key(values) if values else None
            theirs = builtin_key(active) if active else legal.NOTHING_TO_BEAT
            return mine is not None and theirs is not None and mine > theirs
        if not (self._in_deck(values) and self._in_deck(active)):  # numbers no card carries: ask the hooks
            kind = self._classify_hook(values) if values else None
            if kind is None or not active:
                return kind is not None
            return self._compare_hook(values, kind, active, self._classify_hook(active) or "invalid")
        show = self.trie.node(values)
        return show not in (legal.ROOT, legal.NO_SHOW) and self.trie.beats(show, self.trie.active_node(active))

    def append_shows(self, tops: list[int], beat, base: int, out: list[int]) -> None:
        """Append the codes (from `base`) of every show in `tops` stronger than `beat` (see strength)."""
        if self.builtin_shows:
            legal.append_shows(tops, beat, base, self.codec.width, out)
        else:
            legal.append_trie_shows(tops, beat, self.trie, base, self.codec.width, out)

    def append_scout_shows(self, tops: list[int], value: int, beat, first: int, fallback: int, out: list[int]) -> None:
        """Under plugins, the Scout & Shows of one scouted card of top number `value` put in at every gap:
        the shows stronger than `beat` of each new hand, codes from `first` (see `legal.append_trie_scout_shows`)."""
        legal.append_trie_scout_shows(tops, value, beat, self.trie, first, self.codec.sns_stride, self.codec.width,
                                      fallback, out)

    def strength(self, cards: list[int]) -> int:
        """What a show must beat to replace these cards as the active set.

        On the fast path the show's key (-1 for an empty table), else the cards' node in the
        trie of classified shows (`legal.ROOT` for an empty table).
        """
        if self.builtin_shows:
            return legal.active_set_key(cards)
        return self.trie.active_node([c >> SHIFT for c in cards])


def _direct(impl, order: tuple[str, str]) -> tuple[str, Callable[[Any, Any], Any]]:
    """A hook implementation as (plugin name, plain function of its two arguments in `order`), for the
    engine to call after every action or round: unwrapped from hookguard's checks, which it makes itself."""
    function, names = getattr(impl.function, "__wrapped__", impl.function), impl.argnames
    if names == order:
        return impl.plugin_name, function  # the usual signature: no adapter in the way
    return impl.plugin_name, lambda first, second: function(*[first if name == order[0] else second for name in names])


def _call(impl, **kwargs: Any) -> Any:
    """Call one hook implementation as pluggy would: with the arguments it names."""
    return impl.function(*[kwargs[name] for name in impl.argnames])


def _unknown_condition(name: str, offered: dict[str, EndCondition], listed: list[str]) -> str:
    """Why `name` is no end condition here: a plugin that offers it is not listed, or a near miss, or unknown."""
    offering = plugins_offering(name, set(listed))
    if offering:
        plugins = ", ".join([*(n for n in listed if n != "builtin"), offering[0]])
        return (f"unknown end condition {name!r}; the installed plugin {offering[0]!r} offers it: list it under "
                f"plugins (plugins: [{plugins}]) (known: {', '.join(sorted(offered))})")
    close = difflib.get_close_matches(name, list(offered), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown end condition {name!r}{hint} (known: {', '.join(sorted(offered))})"


def load_rules(name_or_path: str) -> Rules:
    """Load, validate and compile a variant by shipped name or file path; raises SpecError."""
    return Rules(load_spec(name_or_path))

