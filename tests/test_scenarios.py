"""The rules of RULES.md as data: every case in tests/scenarios/*.yaml, run against the engine.

A case file holds `cases:`, each a position (inline, see docs/positions.md), an action
(or `actions`, applied in turn) in the notation, and `expect`: either `legal: false`
with an `error` substring, or fields of the state after the actions (seats count
from 1, as in positions). A file may give a default `variant:` for its cases.

A deck file holds `deals:`, facts about decks and deals (RULES.md 1, 2 and 6) checked
against `rules.new_game(...)` and against whole games played to their last round.
"""

from __future__ import annotations

import random
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from scoutlab import yamlsrc
from scoutlab.cards import bottom, format_hand, identity, parse_hand, top
from scoutlab.position import dump_position, position_from_data
from scoutlab.rules import load_rules
from scoutlab.state import IllegalAction, View

SCENARIOS = Path(__file__).resolve().parent / "scenarios"

CASE_KEYS = {"id", "rule", "position", "action", "actions", "expect"}
SEAT_FIELDS = {"owner": "active_owner", "to_act": "to_act", "starting_seat": "starting_seat", "last_shower": "last_shower"}
LIST_FIELDS = {"chips_received", "chips_held", "scout_show_chips", "totals"}
EXPECT_KEYS = (
    {"legal", "error", "hands", "active", "captured", "phase", "round", "turn", "flips_left", "round_end",
     "game_over", "winners", "legal_actions", "legal_count", "view"}
    | set(SEAT_FIELDS) | LIST_FIELDS
)
ROUND_END_KEYS = {"reason", "exempt", "scores", "captured", "chips_received", "chips_held", "cards_in_hand", "turns"}
DEAL_KEYS = {"variant", "players", "removed", "cards_in_play", "dealt_each", "set_aside", "rounds", "starting_seats",
             "scout_chips", "scout_show_chips", "later_rounds_deal", "random_orientation"}
# The sections of RULES.md every rule of which some case must name in its `rule:`.
SECTIONS = ["1", "2", "3A", "3B", "3C", "4", "5", "6", "7", "8"] + [f"10.{i}" for i in range(1, 10)]


def _documents() -> list[tuple[Path, Any, dict]]:
    documents = []
    for path in sorted(SCENARIOS.glob("*.yaml")):
        parsed = yamlsrc.parse(path.read_text(encoding="utf-8"))
        if parsed.findings or not isinstance(parsed.data, dict):
            raise ValueError(f"{path}: not a scenario file: {[f.message for f in parsed.findings]}")
        documents.append((path, parsed.data, parsed.lines))
    return documents


DOCUMENTS = _documents()


def _cases():
    for path, doc, lines in DOCUMENTS:
        for index, case in enumerate(doc.get("cases", [])):
            yield pytest.param(path, doc.get("variant"), index, case, lines, id=f"{path.stem}/{case.get('id')}")


def _deals():
    for path, doc, lines in DOCUMENTS:
        for index, fact in enumerate(doc.get("deals", [])):
            yield pytest.param(path, index, fact, lines, id=f"{path.stem}/{fact['variant']}-{fact['players']}p")


# --------------------------------------------------------------------------- rules cases


@pytest.mark.parametrize("path, variant, index, case, lines", _cases())
def test_case(path: Path, variant: str | None, index: int, case: dict, lines: dict) -> None:
    where = f"{path.name}:{lines.get(('cases', index))}"
    _known(case, CASE_KEYS, where, "case")
    expect = case["expect"]
    _known(expect, EXPECT_KEYS, where, "expect")
    position = dict(case["position"])
    if variant is not None:
        position.setdefault("variant", variant)
    state = position_from_data(position, str(path), lines, ("cases", index, "position"))
    actions = [case["action"]] if "action" in case else list(case.get("actions", []))
    for text in actions[:-1]:
        state.apply_text(text)
    ends_before = len(state.round_ends)
    if actions and expect.get("legal", True) is False:
        before = dump_position(state)
        with pytest.raises(IllegalAction) as refused:
            state.apply_text(actions[-1])
        assert expect["error"] in str(refused.value), f"{where}: the refusal gives another reason"
        assert dump_position(state) == before, f"{where}: a refused action changed the state"
        return
    assert "error" not in expect, f"{where}: `error` goes with `legal: false`"
    if actions:
        state.apply_text(actions[-1])
    _check_state(state, expect, ends_before, where)


def _known(mapping: dict, allowed: set[str], where: str, what: str) -> None:
    unknown = set(mapping) - allowed
    assert not unknown, f"{where}: unknown {what} keys {sorted(unknown)} (known: {sorted(allowed)})"


def _seat(value: int | None) -> int:
    return -1 if value is None else value - 1


def _cards(text: str) -> str:
    return " ".join(text.split())


def _check_state(state, expect: dict, ends_before: int, where: str) -> None:
    if "hands" in expect:
        assert [format_hand(h) for h in state.hands] == [_cards(h) for h in expect["hands"]], f"{where}: hands"
    if "active" in expect:
        assert format_hand(state.active) == _cards(expect["active"]), f"{where}: active set"
    for key, attribute in SEAT_FIELDS.items():
        if key in expect:
            assert getattr(state, attribute) == _seat(expect[key]), f"{where}: {key} (seats count from 1)"
    for key in LIST_FIELDS:
        if key in expect:
            assert getattr(state, key) == expect[key], f"{where}: {key}"
    if "captured" in expect:
        got = [len(c) if isinstance(want, int) else format_hand(c) for c, want in zip(state.captured, expect["captured"])]
        want = [w if isinstance(w, int) else _cards(w) for w in expect["captured"]]
        assert got == want, f"{where}: captured"
    for key, value in (("phase", state.phase), ("round", state.round + 1), ("turn", state.turn), ("flips_left", state.flips_left)):
        if key in expect:
            assert value == expect[key], f"{where}: {key}"
    if "round_end" in expect:
        _check_round_end(state, expect["round_end"], ends_before, where)
    if "game_over" in expect:
        assert state.is_over == expect["game_over"], f"{where}: game over"
    if "winners" in expect:
        assert state.winners() == [_seat(s) for s in expect["winners"]], f"{where}: winners"
    if "legal_actions" in expect:
        got = sorted(state.format(code) for code in state.legal_actions())
        assert got == sorted(expect["legal_actions"]), f"{where}: legal actions"
    if "legal_count" in expect:
        kinds = [state.rules.codec.kind(code) for code in state.legal_actions()]
        got = {kind: kinds.count(kind) for kind in expect["legal_count"]}
        assert got == expect["legal_count"], f"{where}: legal actions by kind"
    if "view" in expect:
        _check_view(state, dict(expect["view"]), where)


def _check_round_end(state, want: dict | None, ends_before: int, where: str) -> None:
    ended = state.round_ends[ends_before:]
    if want is None:
        assert not ended, f"{where}: the round ended ({ended[0].reason if ended else ''}) but should go on"
        return
    _known(want, ROUND_END_KEYS, where, "round_end")
    assert len(ended) == 1, f"{where}: expected the round to end"
    end = ended[0]
    for key, value in want.items():
        got = getattr(end, key)
        if key == "exempt":
            assert got == (None if value is None else value - 1), f"{where}: exempt seat (seats count from 1)"
        else:
            assert (list(got) if isinstance(got, tuple) else got) == value, f"{where}: round_end.{key}"


def _check_view(state, want: dict, where: str) -> None:
    seat = want.pop("seat") - 1
    view = state.view(seat)
    for key, value in want.items():
        got = getattr(view, key)
        if key in ("hand", "active"):
            assert format_hand(got) == _cards(value), f"{where}: view.{key}"
        else:
            assert list(got) == value, f"{where}: view.{key}"


def test_every_section_has_cases() -> None:
    """Each section of RULES.md (and each edge case of section 10) is named by some case's `rule`."""
    named = " ".join(case["rule"] for _, doc, _ in DOCUMENTS for case in doc.get("cases", []))
    named += " " + " ".join(doc.get("rule", "") for _, doc, _ in DOCUMENTS if "deals" in doc)
    missing = [s for s in SECTIONS if not re.search(rf"(?<![\d.]){re.escape(s)}(?![\d])", named)]
    assert not missing, f"no scenario names RULES.md section(s) {missing}"


def test_case_ids_are_unique_and_readable() -> None:
    for path, doc, _ in DOCUMENTS:
        ids = [case.get("id") for case in doc.get("cases", [])]
        assert all(isinstance(i, str) and re.fullmatch(r"[a-z0-9][a-z0-9-]*", i) for i in ids), path.name
        assert len(ids) == len(set(ids)), f"{path.name}: duplicate case ids"


def test_a_view_holds_only_public_fields() -> None:
    """RULES.md 10.9: nothing in a View names another seat's cards or the undealt cards."""
    public = {"seat", "players", "variant", "round", "rounds", "phase", "to_act", "starting_seat", "turn", "hand",
              "hand_sizes", "active", "active_owner", "chips_received", "chips_held", "scout_show_chips",
              "captured", "totals", "history", "round_ends", "legal"}
    assert {f.name for f in fields(View)} == public
    state = load_rules("official").new_game(4, seed=3)
    for seat in range(4):
        view = state.view(seat)
        assert view.hand == tuple(state.hands[seat])
        assert view.legal == (tuple(state.legal_actions()) if seat == state.to_act else ())


# --------------------------------------------------------------------------- decks and deals


@pytest.mark.parametrize("path, index, fact, lines", _deals())
def test_deal(path: Path, index: int, fact: dict, lines: dict) -> None:
    where = f"{path.name}:{lines.get(('deals', index))}"
    _known(fact, DEAL_KEYS, where, "deal")
    rules = load_rules(fact["variant"])
    n = fact["players"]
    removed = sorted(identity(c) for c in parse_hand(fact["removed"]))
    assert rules.removed[n] == removed, f"{where}: removed cards"
    for seed in range(3):
        state = rules.new_game(n, seed)
        dealt = [identity(c) for hand in state.hands for c in hand]
        in_play = dealt + [identity(c) for c in state.set_aside]
        assert len(set(in_play)) == len(in_play) == fact["cards_in_play"], f"{where}: cards in play"
        assert not set(in_play) & set(removed), f"{where}: a removed card was dealt"
        assert [len(h) for h in state.hands] == [fact["dealt_each"]] * n, f"{where}: dealt each"
        assert len(state.set_aside) == fact["set_aside"], f"{where}: set aside"
        assert state.rounds == fact["rounds"], f"{where}: rounds"
        assert state.chips_held == [fact["scout_chips"]] * n, f"{where}: Scout chips at round start"
        assert state.scout_show_chips == [fact["scout_show_chips"]] * n, f"{where}: Scout & Show chips"
        if fact["random_orientation"]:
            tops_low = [top(c) < bottom(c) for hand in state.hands for c in hand]
            assert any(tops_low) and not all(tops_low), f"{where}: every card dealt the same way up"
        _check_later_rounds(state, fact, seed, where)


def _check_later_rounds(state, fact: dict, seed: int, where: str) -> None:
    """Play the game out at random, checking each round's starting seat, chips and deal."""
    rng = random.Random(seed)
    n = state.players
    first_deal = {identity(c) for hand in state.hands for c in hand}
    starts = [state.starting_seat + 1]
    while not state.is_over:
        before = state.round
        state.apply(rng.choice(state.legal_actions()))
        if state.round != before and not state.is_over:
            starts.append(state.starting_seat + 1)
            assert state.chips_held == [fact["scout_chips"]] * n, f"{where}: chips return each round"
            assert state.scout_show_chips == [fact["scout_show_chips"]] * n, f"{where}: Scout & Show chips return"
            assert state.chips_received == [0] * n and not any(state.captured), f"{where}: a fresh round"
            deal = [identity(c) for hand in state.hands for c in hand]
            assert [len(h) for h in state.hands] == [fact["dealt_each"]] * n, f"{where}: dealt each in round {state.round + 1}"
            if fact["later_rounds_deal"] == "set_aside":
                everything = set(state.rules.deck_for(n))
                assert set(deal) == everything - first_deal, f"{where}: round {state.round + 1} deals exactly the set-aside cards"
            else:
                shuffled = set(deal) | {identity(c) for c in state.set_aside}
                assert shuffled == set(state.rules.deck_for(n)), f"{where}: round {state.round + 1} deals the whole deck afresh"
                assert state.hands != state.deals[0], f"{where}: round {state.round + 1} repeats the first deal"
    assert starts == fact["starting_seats"], f"{where}: starting seats by round"
