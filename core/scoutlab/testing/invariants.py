"""The engine's invariants, checkable against any spec: the same checks the project runs on its
shipped variants (tests/test_properties.py), for a plugin author's own variant.

At every step of random games: cards are conserved, every legal action is accepted, other
codes are refused and leave no trace, and a seat's view hides what it may not know. Per
game: the game ends, every round ends exactly when and as the variant's own end conditions
say, scores follow from the record, totals are their sums, and the record replays.
`check_invariants` runs them all and raises AssertionError saying which game broke.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scoutlab.engine.actions import FLIP, Flip, Scout, ScoutShow, Show, parse_action
from scoutlab.engine.cards import flipped, identity
from scoutlab.engine.state import NO_LEGAL_ACTION, TURN_CAP, GameState, IllegalAction
from scoutlab.host.builtin import scoutlab_end_conditions as builtin_end_conditions
from scoutlab.records.game import game_record, record_text, replay_record
from scoutlab.rules import Rules, load_rules

Step = Callable[[GameState, random.Random], None]

# docs/rules.md §4, §5 and §7: (ii) spares the owner of the last show, (i) and the cap spare nobody.
BUILTIN_EXEMPTS = {"hand_emptied": False, "everyone_scouted": True, "opponent_stuck": True}


def random_game(rules: Rules, players: int, seed: int, check_step: Step | None = None) -> GameState:
    """Play uniformly random legal moves to the end; `check_step(state, rng)` runs before every move."""
    state = rules.new_game(players, seed)
    rng = random.Random(seed ^ 0x5C0D7)
    # Each round has at most max_turns turns plus one keep/flip choice per seat.
    limit = state.rounds * (rules.max_turns + players)
    for _ in range(limit):
        if state.is_over:
            return state
        if check_step:
            check_step(state, rng)
        legal = state.legal_actions()
        assert legal, f"no legal action in round {state.round + 1}, phase {state.phase}, but the game is not over"
        state.apply(rng.choice(legal))
    assert state.is_over, f"the game did not end within {limit} actions"
    return state


# --------------------------------------------------------------------------- per-step checks


def assert_cards_conserved(state: GameState) -> None:
    """Hands + active set + captured + set aside + removed is the whole deck, each card once."""
    places = [*state.hands, state.active, *state.captured, state.set_aside, state.removed]
    seen = Counter(identity(c) for place in places for c in place)
    twice = sorted(c for c, k in seen.items() if k > 1)
    assert not twice, f"cards in two places: {twice}"
    assert sorted(seen) == sorted(state.rules.deck), "cards went missing or appeared from nowhere"


def fingerprint(state: GameState) -> dict[str, Any]:
    """Every field of the state as comparable values, the random stream included.

    Fill the legal-action cache first (`state.legal_actions()`), or asking for it later
    looks like a change. Under plugins `beat` is a node number of the rules' trie of shows, so
    compare fingerprints of states that share one rules object.
    """
    taken = {key: _frozen(value) for key, value in state.fields().items() if key not in ("rules", "rng", "layout")}
    taken["rng"] = state.rng.getstate()
    return taken


def _frozen(value: Any) -> Any:
    """Lists become tuples all the way down; everything else in a state is already immutable."""
    if isinstance(value, list):  # a state's lists hold ints, or lists, never a mix
        return tuple(map(_frozen, value)) if value and isinstance(value[0], list) else tuple(value)
    return value


def illegal_codes(state: GameState, rng: random.Random) -> list[int]:
    """Codes that were not generated: near misses of legal ones, one per action block, and out of range."""
    codec = state.rules.codec
    legal = set(state.legal_actions())
    blocks = [(0, 2), (2, codec.scout_base), (codec.scout_base, codec.sns_base), (codec.sns_base, codec.size)]
    candidates = [rng.randrange(lo, hi) for lo, hi in blocks]
    near = rng.choice(sorted(legal))
    candidates += [near - 1, near + 1, -1, codec.size]
    return [c for c in candidates if c not in legal]


def assert_refused(state: GameState, rng: random.Random) -> None:
    """Codes that are not legal are refused with a reason and change nothing."""
    state.legal_actions()
    before = fingerprint(state)
    for code in illegal_codes(state, rng):
        try:
            state.apply(code)
        except IllegalAction as refused:
            assert str(refused), f"code {code} was refused without a reason"
        else:
            raise AssertionError(f"code {code} is not among the legal actions, yet it was accepted")
        assert fingerprint(state) == before, f"refusing code {code} changed the state"


def assert_every_legal_action_accepted(state: GameState) -> None:
    for code in state.legal_actions():
        clone(state).apply(code)  # raises if a generated action is refused


def clone(state: GameState) -> GameState:
    """An independent copy to play on: its own lists (two levels deep) and random stream.

    Cheaper than deepcopy, which would also copy the compiled rules' caches.
    """
    twin = copy.copy(state)
    for key, value in state.fields().items():  # not vars(): a compiled state keeps its table's fields outside it
        if isinstance(value, list):
            setattr(twin, key, [list(v) if isinstance(v, list) else v for v in value])
    twin.rng = random.Random()
    twin.rng.setstate(state.rng.getstate())
    return twin


def assert_view_hides_the_rest(state: GameState, seat: int, rng: random.Random) -> None:
    """The seat's view shows its own hand and the table, and does not change when hidden cards do."""
    view = state.view(seat)
    assert list(view.hand) == state.hands[seat]
    assert list(view.active) == state.active
    # Deal the cards this seat cannot see (other hands, set aside) differently, sizes kept.
    hidden = [c for other, hand in enumerate(state.hands) if other != seat for c in hand] + list(state.set_aside)
    rng.shuffle(hidden)
    hidden = [flipped(c) if rng.random() < 0.5 else c for c in hidden]
    twin = copy.copy(state)
    twin.hands = []
    for other, hand in enumerate(state.hands):
        if other == seat:
            twin.hands.append(hand)
        else:
            twin.hands.append(hidden[: len(hand)])
            hidden = hidden[len(hand):]
    twin.set_aside = hidden
    twin._legal = None  # recompute from the twin's own fields
    assert twin.view(seat) == view, f"seat {seat}'s view depends on cards it may not see"


def check_step(state: GameState, rng: random.Random, every_legal_share: float = 0.02) -> None:
    """All per-step invariants; every legal action is tried at a share of the steps (each costs copies)."""
    assert_cards_conserved(state)
    assert state.legal_actions(), "the game is not over but there is no legal action"
    assert_refused(state, rng)
    assert_view_hides_the_rest(state, state.to_act, rng)
    assert_view_hides_the_rest(state, rng.randrange(state.players), rng)
    if rng.random() < every_legal_share:
        assert_every_legal_action_accepted(state)


# --------------------------------------------------------------------------- per-game checks


def tally_round(rules: Rules, deal: list[list[str]], actions: list[dict]) -> dict:
    """Captured cards, chips and cards in hand per seat, worked out from the record's notation alone."""
    n = len(deal)
    in_hand = [len(hand) for hand in deal]
    captured, received, held = [0] * n, [0] * n, [rules.scout_chips] * n
    scout_shows_held = [rules.sns_chips] * n
    on_table, owner, last_shower = 0, None, None
    for entry in actions:
        action, seat = parse_action(entry["action"]), entry["seat"]
        if isinstance(action, Flip):
            continue
        if isinstance(action, ScoutShow):
            scout_shows_held[seat] -= 1
        scout = action if isinstance(action, Scout) else action.scout if isinstance(action, ScoutShow) else None
        if scout:
            in_hand[seat] += 1
            on_table -= 1
            if rules.scout_pays:
                held[seat] -= 1
            else:
                assert owner is not None  # a scout takes from a set somebody showed
                received[owner] += 1
            if not on_table:
                owner = None
        show = action if isinstance(action, Show) else action.show if isinstance(action, ScoutShow) else None
        if show:
            in_hand[seat] -= show.length
            captured[seat] += on_table
            on_table, owner, last_shower = show.length, seat, seat
    return {"captured": captured, "chips_received": received, "chips_held": held,
            "cards_in_hand": in_hand, "last_shower": last_shower, "scout_show_chips": scout_shows_held}


def assert_scores_follow_from_record(rules: Rules, record: dict) -> None:
    """Each round's tallies, exemption and scores follow from its actions; totals and winners from those."""
    totals = [0] * record["players"]
    for index, played in enumerate(record["rounds"]):
        end, tally = played["end"], tally_round(rules, played["deal"], played["actions"])
        for name in ("captured", "chips_received", "chips_held", "cards_in_hand"):
            assert end[name] == tally[name], f"round {index + 1}: {name} {end[name]} but the actions give {tally[name]}"
        exempt, reason = end["exempt"], end["reason"]
        # Which ends exempt: the built-in conditions by the rules' text, a plugin's by its own flag.
        builtins = builtin_end_conditions()
        flags = {
            name: BUILTIN_EXEMPTS[name] if condition == builtins.get(name) else condition.exempts_last_show_owner
            for name, condition in rules.end_conditions
        }
        flags.update({TURN_CAP: False, NO_LEGAL_ACTION: False})
        assert reason in flags, f"round {index + 1} ended by {reason!r}, which is no end condition of the variant"
        if not flags[reason] or not rules.exemption:
            assert exempt is None, f"round {index + 1} ended by {reason} yet exempted P{exempt + 1}"
        else:
            assert exempt == tally["last_shower"], f"round {index + 1}: the owner of the last show was not exempted"
        if not rules.scores_hooked:  # a score_round plugin adds its own terms on top
            expected = [
                tally["captured"][i] * rules.points_captured
                + tally["chips_received"][i] * rules.points_received
                + tally["chips_held"][i] * rules.points_unspent
                + (0 if i == exempt else tally["cards_in_hand"][i] * rules.points_in_hand)
                + tally["scout_show_chips"][i] * rules.points_unspent_scout_show
                for i in range(record["players"])
            ]
            assert end["scores"] == expected, f"round {index + 1}: scores {end['scores']}, the rules give {expected}"
        totals = [t + s for t, s in zip(totals, end["scores"])]
    assert record["totals"] == totals, "totals are not the sums of the round scores"
    best = max(totals)
    assert record["winners"] == [i for i, t in enumerate(totals) if t == best]


# --------------------------------------------------------------------------- why each round ended


def _last_show_seat(state: GameState) -> int | None:
    """The seat of the round's last show (a Scout & Show's included), read from the history."""
    codec = state.rules.codec
    for round_index, seat, code in reversed(state.history):
        if round_index != state.round:
            break
        action = codec.decode(code)
        if isinstance(action, Show) or (isinstance(action, ScoutShow) and action.show is not None):
            return seat
    return None


def _builtin_holds(name: str, state: GameState) -> bool:
    """Whether a built-in end condition holds after the last action, from the rules' text
    (docs/rules.md §4 and §7) and the history, never from the engine's own check or bookkeeping (`last_kind`, ...)."""
    _, seat, code = state.history[-1]
    action = state.rules.codec.decode(code)
    showed = isinstance(action, Show) or (isinstance(action, ScoutShow) and action.show is not None)
    if name == "hand_emptied":  # (i) a show emptied the hand of the player who made it
        return showed and not state.hands[seat]
    if name == "everyone_scouted":  # (ii) a scout brings the turn back to the owner of the last show
        return not showed and state.to_act == _last_show_seat(state)
    if name == "opponent_stuck":  # (ii, two players) the player to act, after a show or a scout, is stuck
        return not state.legal_actions()
    raise KeyError(name)


def due_round_end(state: GameState) -> str | None:
    """Why the round must end right after the last action (the turn passed on), or None if it goes on.

    The first of the variant's own end conditions that holds, in the order the spec lists them
    (built-in ones judged by `_builtin_holds`, a plugin's by its own check); else the turn cap
    when it is reached; else `no_legal_action` when the player to act is stuck and no condition
    of the variant says so (never, in a variant that lists `opponent_stuck`).
    """
    builtins = builtin_end_conditions()
    for name, condition in state.rules.end_conditions:
        own = condition == builtins.get(name)  # a plugin may offer a condition under a built-in name
        if _builtin_holds(name, state) if own else condition.check(state):
            return name
    turns = sum(1 for r, _, code in state.history if r == state.round and code > FLIP)  # flips are no turns
    if turns >= state.rules.max_turns:
        return TURN_CAP
    if not state.legal_actions():
        return NO_LEGAL_ACTION
    return None


def assert_round_ends_explained(state: GameState) -> None:
    """Replay a game played from its seed, checking after every action that the round ended exactly
    when the variant's own end conditions say (`due_round_end`), for that reason, with the turn
    passed as docs/rules.md §2 and §7 say (to the next seat, or, after a scout with an extra turn, the same seat).
    """
    rules = state.rules
    again = _Watched(rules, state.players, state.seed)
    for _, _, code in state.history:
        again.asked = None
        again.apply(code)
        if again.asked is None:
            continue  # a hand-flip choice: no round ends on one
        where, due, ended = again.asked
        reason = again.round_ends[ended].reason if len(again.round_ends) > ended else None
        assert reason == due, f"{where}: the round {'ended as ' + reason if reason else 'went on'}, " + (
            f"but the variant's end conditions say {due}" if due else "but no end condition of the variant holds"
        )
    assert [e.reason for e in again.round_ends] == [e.reason for e in state.round_ends], "the replay ended otherwise"


class _Watched(GameState):
    """A replay that stops at the engine's round-end check after each action, to see what is due there.

    The engine asks `_hook_end_checks` at that moment when the end conditions are not all
    built in; here they are treated as if none were, so it asks every time, and the
    conditions then run as the rules' Python checks, which give the same answers.
    """

    def __init__(self, rules: Rules, players: int, seed: int) -> None:
        super().__init__(rules, players, seed)
        self.builtin_ends = False
        self.asked: tuple[str, str | None, int] | None = None

    def _hook_end_checks(self) -> bool:
        round_index, seat, code = self.history[-1]
        action = self.rules.codec.decode(code)
        scouted = isinstance(action, Scout) or (isinstance(action, ScoutShow) and action.show is None)
        extra = self.rules.extra_turn and scouted  # a Scout & Show with no show ends as a plain scout
        turn = seat if extra else (seat + 1) % self.players
        where = f"round {round_index + 1}, turn {self.turn}, after P{seat + 1} played {self.format(code)!r}"
        assert self.to_act == turn, f"{where}: P{self.to_act + 1} is to act, not P{turn + 1}"
        self.asked = (where, due_round_end(self), len(self.round_ends))
        return super()._hook_end_checks()


def assert_record_replays(state: GameState) -> None:
    """The game's record replays to the same game, byte for byte."""
    names = ["random"] * state.players
    text = record_text(game_record(state, names))
    result = replay_record(json.loads(text))
    assert result.ok, str(result.divergence)
    assert record_text(game_record(result.state, names)) == text, "the replayed record differs"


# --------------------------------------------------------------------------- all of it, for any spec


@dataclass(frozen=True)
class InvariantReport:
    """What `check_invariants` played: enough to see that it did check something."""

    variant: str
    games: int
    steps: int
    rounds: int
    turn_cap_rounds: int


def check_invariants(
    spec: str | Rules, players: int | list[int] | None = None, games: int = 10, seed: int = 0,
    every_legal_share: float = 0.02,
) -> InvariantReport:
    """Play `games` random games per player count (default: every count the spec allows) and check
    every invariant at every step and after every game; raises AssertionError naming the game.

    `spec` is a shipped variant name, a spec file path, or compiled Rules.
    """
    rules = spec if isinstance(spec, Rules) else load_rules(spec)
    counts = list(rules.players) if players is None else [players] if isinstance(players, int) else list(players)
    steps = rounds = capped = played = 0
    for n in counts:
        for game_seed in range(seed, seed + games):
            counted = 0

            def step(state: GameState, rng: random.Random) -> None:
                nonlocal counted
                counted += 1
                check_step(state, rng, every_legal_share)

            try:
                state = random_game(rules, n, game_seed, step)
                assert_cards_conserved(state)
                assert state.legal_actions() == [], "a finished game still offers actions"
                record = game_record(state, ["random"] * n)
                assert_scores_follow_from_record(rules, record)
                assert_round_ends_explained(state)
                assert_record_replays(state)
            except AssertionError as exc:
                raise AssertionError(f"variant {rules.name!r}, {n} players, seed {game_seed}: {exc}") from exc
            played += 1
            steps += counted
            rounds += len(state.round_ends)
            capped += sum(end.reason == TURN_CAP for end in state.round_ends)
    return InvariantReport(rules.name, played, steps, rounds, capped)
