"""Invariants of the engine over random games of EVERY shipped variant and player count.

Variants are discovered with `shipped_variants()`, so a house rule shipped later is
covered without touching this file. Hypothesis draws the seed; random bots choose the
moves. The checks themselves live in `scoutlab.testing.invariants`, so plugin authors
run the very same ones on their variants. Checked at every step: cards are conserved,
legal actions are accepted and everything else is refused without a trace, a seat's
view hides what it may not know. Checked per game: every round ends exactly when and as
the variant's own end conditions say, scores follow from the record, totals are the sums,
the game ends, and the record replays byte for byte.

`python tests/test_properties.py [GAMES]` prints how often random play hits the turn cap.
"""

from __future__ import annotations

import copy
import random
import sys
from dataclasses import fields, replace

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from scoutlab.engine.state import TURN_CAP, GameState, View
from scoutlab.records.game import game_record
from scoutlab.rules import load_rules
from scoutlab.spec.variant import shipped_variants
from scoutlab.testing.invariants import (
    assert_cards_conserved,
    assert_record_replays,
    assert_refused,
    assert_round_ends_explained,
    assert_scores_follow_from_record,
    assert_view_hides_the_rest,
    check_step,
    random_game,
)

RULES = {name: load_rules(name) for name, _ in shipped_variants()}
TARGETS = [(name, n) for name, rules in RULES.items() for n in rules.players]
GAME = st.tuples(st.sampled_from(TARGETS), st.integers(min_value=0, max_value=2**48))
# A whole game per example: a fixed budget keeps the file well under a minute, and shrinking
# is skipped because a smaller seed is no simpler a game (the failing seed is reported as is).
QUICK = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow],
             "phases": [Phase.explicit, Phase.reuse, Phase.generate]}
TURN_CAP_GAMES = 15  # per variant and player count
TURN_CAP_LIMIT = 0.01  # the share of rounds random play may end at the cap


@settings(max_examples=25, **QUICK)
@given(GAME)
def test_invariants_hold_at_every_step(game):
    (variant, players), seed = game
    state = random_game(RULES[variant], players, seed, check_step)
    assert_cards_conserved(state)
    assert state.legal_actions() == [], "a finished game still offers actions"


@settings(max_examples=60, **QUICK)
@given(GAME)
def test_scores_follow_from_the_record_and_the_record_replays(game):
    (variant, players), seed = game
    rules = RULES[variant]
    state = random_game(rules, players, seed)
    assert_scores_follow_from_record(rules, game_record(state, ["random"] * players))
    assert_round_ends_explained(state)
    assert_record_replays(state)


# Being stuck on the extra turn after a scout ends about 2% of two-player rounds, so 150 games
# (300 rounds) meet it with probability 1 - 0.98**300, above 99.8%; other counts get 30 games.
ROUND_END_GAMES = {2: 150}


@pytest.mark.parametrize(("variant", "players"), TARGETS)
def test_every_round_end_is_explained_by_the_variants_own_conditions(variant, players):
    for seed in range(ROUND_END_GAMES.get(players, 30)):
        assert_round_ends_explained(random_game(RULES[variant], players, seed))


def test_every_shipped_variant_and_player_count_is_covered():
    assert {name for name, _ in TARGETS} == {name for name, _ in shipped_variants()}
    assert ("official", 5) in TARGETS and ("two-player", 2) in TARGETS


# --------------------------------------------------------------------------- the turn cap


def turn_cap_share(variant: str, players: int, games: int, first_seed: int = 0) -> tuple[int, int, int]:
    """(rounds ended by the turn cap, rounds played, turns in the longest round) over `games` random games."""
    capped = rounds = longest = 0
    for seed in range(first_seed, first_seed + games):
        state = random_game(RULES[variant], players, seed)
        rounds += len(state.round_ends)
        capped += sum(end.reason == TURN_CAP for end in state.round_ends)
        longest = max([longest] + [end.turns for end in state.round_ends])
    return capped, rounds, longest


@pytest.mark.parametrize(("variant", "players"), TARGETS)
def test_random_play_rarely_hits_the_turn_cap(variant, players):
    capped, rounds, _ = turn_cap_share(variant, players, TURN_CAP_GAMES)
    assert capped <= TURN_CAP_LIMIT * rounds, f"{capped} of {rounds} rounds hit the turn cap"


# --------------------------------------------------------------------------- the checks can fail


def test_view_fields_are_all_known():
    """A new View field must be looked at here: does it reveal cards? The swap check sees values, not intent."""
    known = {
        "seat", "players", "variant", "round", "rounds", "phase", "to_act", "starting_seat", "turn",
        "hand", "hand_sizes", "active", "active_owner", "chips_received", "chips_held",
        "scout_show_chips", "captured", "totals", "history", "round_ends", "legal",
    }
    new = sorted({f.name for f in fields(View)} - known)
    assert not new, f"new View fields {new}: make sure they reveal no hidden card, then list them here"


def test_a_lost_card_is_caught():
    state = RULES["official"].new_game(3, 1)
    state.hands[1].pop()
    with pytest.raises(AssertionError, match="missing"):
        assert_cards_conserved(state)


def test_a_leaking_view_is_caught():
    class LeakyState(GameState):
        def view(self, seat):  # slips the next seat's cards into a public field
            return replace(super().view(seat), hand_sizes=tuple(self.hands[(seat + 1) % self.players]))

    state = RULES["official"].new_game(3, 1)
    state.__class__ = LeakyState
    with pytest.raises(AssertionError, match="may not see"):
        assert_view_hides_the_rest(state, 0, random.Random(0))


def test_a_refusal_that_leaves_a_trace_is_caught():
    class SloppyState(GameState):
        def apply(self, code):  # counts a turn before checking the action
            self.turn += 1
            super().apply(code)

    state = RULES["official"].new_game(3, 1)
    state.__class__ = SloppyState
    with pytest.raises(AssertionError, match="changed the state"):
        assert_refused(state, random.Random(0))


def test_stuck_on_the_extra_turn_ending_as_no_legal_action_is_caught():
    """The rule bug that once survived: opponent_stuck checked only right after a show (docs/rules.md §7)."""
    rules = copy.copy(RULES["two-player"])
    rules.end_checks = [
        (name, (lambda state: state.last_kind != "scout" and not state.legal_actions()) if name == "opponent_stuck" else check,
         exempts)
        for name, check, exempts in rules.end_checks
    ]
    with pytest.raises(AssertionError, match="ended as no_legal_action, but the variant's end conditions say opponent_stuck"):
        for seed in range(ROUND_END_GAMES[2]):
            assert_round_ends_explained(random_game(rules, 2, seed))


def test_a_round_end_the_variant_does_not_list_is_caught():
    state = random_game(RULES["official"], 3, 1)
    record = game_record(state, [])
    record["rounds"][0]["end"]["reason"] = "opponent_stuck"
    with pytest.raises(AssertionError, match="no end condition of the variant"):
        assert_scores_follow_from_record(RULES["official"], record)


def test_a_wrong_score_is_caught():
    state = random_game(RULES["official"], 3, 1)
    record = game_record(state, [])
    record["rounds"][0]["end"]["scores"][0] += 1
    with pytest.raises(AssertionError, match="round 1: scores"):
        assert_scores_follow_from_record(RULES["official"], record)


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for variant, players in TARGETS:
        capped, rounds, longest = turn_cap_share(variant, players, games)
        cap = RULES[variant].max_turns
        print(f"{variant} {players}p: {capped} of {rounds} rounds hit the turn cap of {cap} ({capped / rounds:.2%}); "
              f"longest round {longest} turns")
