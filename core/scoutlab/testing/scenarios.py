"""Scenario files: rules written as data (the format of tests/scenarios/*.yaml), run against the engine.

A case file holds `cases:`, each a position (inline, see docs/positions.md), an action
(or `actions`, applied in turn) in the notation, and `expect`: either `legal: false`
with an `error` substring, or fields of the state after the actions (seats count
from 1, as in positions). A file may give a default `variant:` for its cases. A case
may play a house rule of its own, `spec:`, a mapping of knobs over its variant (as a
spec file that `extends` it would write them), so a new knob needs no spec file.

A deck file holds `deals:`, facts about decks and deals (docs/rules.md §1, §2 and §6) checked
against `rules.new_game(...)` and against whole games played to their last round.

`run_scenario_file(path)` runs every case and deal of a file; a broken expectation
raises AssertionError naming the file, the line and what differs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from scoutlab.engine.cards import bottom, format_hand, identity, parse_hand, top
from scoutlab.engine.state import IllegalAction
from scoutlab.records.position import dump_position, position_from_data
from scoutlab.rules import Rules, load_rules
from scoutlab.spec import source as yamlsrc
from scoutlab.spec.variant import load_spec_text

CASE_KEYS = {"id", "rule", "spec", "position", "action", "actions", "expect"}
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


@dataclass(frozen=True)
class ScenarioFile:
    """A parsed scenario file: its data and the line of every JSON path, for messages."""

    path: Path
    data: dict[str, Any]
    lines: dict

    def where(self, *path: Any) -> str:
        return f"{self.path.name}:{self.lines.get(path)}"


def load_scenario_file(path: str | Path) -> ScenarioFile:
    """Parse a scenario file; raises ValueError when it is not YAML holding a mapping."""
    path = Path(path)
    parsed = yamlsrc.parse(path.read_text(encoding="utf-8"))
    if parsed.findings or not isinstance(parsed.data, dict):
        raise ValueError(f"{path}: not a scenario file: {[f.message for f in parsed.findings]}")
    return ScenarioFile(path, parsed.data, parsed.lines)


def run_scenario_file(path: str | Path) -> int:
    """Run every case and deal fact of a scenario file; returns how many ran."""
    scenario = load_scenario_file(path)
    cases = scenario.data.get("cases", [])
    deals = scenario.data.get("deals", [])
    for index in range(len(cases)):
        run_case(scenario, index)
    for index in range(len(deals)):
        check_deal(scenario, index)
    return len(cases) + len(deals)


# --------------------------------------------------------------------------- rules cases


def run_case(scenario: ScenarioFile, index: int) -> None:
    """Set up case `index`'s position, play its actions and check what it expects."""
    case = scenario.data["cases"][index]
    where = scenario.where("cases", index)
    known(case, CASE_KEYS, where, "case")
    expect = case["expect"]
    known(expect, EXPECT_KEYS, where, "expect")
    position = dict(case["position"])
    if scenario.data.get("variant") is not None:
        position.setdefault("variant", scenario.data["variant"])
    rules = None
    if "spec" in case:  # the case's own house rule over its variant; the position is then for that rule
        rules = house_rule(case["spec"], position.pop("variant", "official"), scenario, where)
    state = position_from_data(
        position, str(scenario.path), scenario.lines, ("cases", index, "position"), str(scenario.path.parent), rules
    )
    actions = [case["action"]] if "action" in case else list(case.get("actions", []))
    for text in actions[:-1]:
        state.apply_text(text)
    ends_before = len(state.round_ends)
    if actions and expect.get("legal", True) is False:
        before = dump_position(state)
        try:
            state.apply_text(actions[-1])
        except IllegalAction as refused:
            assert expect["error"] in str(refused), f"{where}: the refusal gives another reason: {refused}"
        else:
            raise AssertionError(f"{where}: {actions[-1]!r} was accepted, but the case expects it refused")
        assert dump_position(state) == before, f"{where}: a refused action changed the state"
        return
    assert "error" not in expect, f"{where}: `error` goes with `legal: false`"
    if actions:
        state.apply_text(actions[-1])
    check_state(state, expect, ends_before, where)


def house_rule(knobs: Any, variant: str, scenario: ScenarioFile, where: str) -> Rules:
    """A case's `spec:` compiled: its knobs over `variant`, as a spec file beside the scenario that extends it."""
    assert isinstance(knobs, dict) and "extends" not in knobs, f"{where}: `spec` is a mapping of knobs over the variant"
    doc = {"schema_version": 1, "name": where, "extends": variant, **knobs}
    return Rules(load_spec_text(yaml.safe_dump(doc, sort_keys=False), where, scenario.path.parent))


def known(mapping: dict, allowed: set[str], where: str, what: str) -> None:
    unknown = set(mapping) - allowed
    assert not unknown, f"{where}: unknown {what} keys {sorted(unknown)} (known: {sorted(allowed)})"


def _seat(value: int | None) -> int:
    return -1 if value is None else value - 1


def _cards(text: str) -> str:
    return " ".join(text.split())


def check_state(state, expect: dict, ends_before: int, where: str) -> None:
    """Compare the state with each field the case expects (seats count from 1)."""
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
        counted = {kind: kinds.count(kind) for kind in expect["legal_count"]}
        assert counted == expect["legal_count"], f"{where}: legal actions by kind"
    if "view" in expect:
        _check_view(state, dict(expect["view"]), where)


def _check_round_end(state, want: dict | None, ends_before: int, where: str) -> None:
    ended = state.round_ends[ends_before:]
    if want is None:
        assert not ended, f"{where}: the round ended ({ended[0].reason if ended else ''}) but should go on"
        return
    known(want, ROUND_END_KEYS, where, "round_end")
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


# --------------------------------------------------------------------------- decks and deals


def check_deal(scenario: ScenarioFile, index: int) -> None:
    """Check deal fact `index` against new games of a few seeds, each played out to its last round."""
    fact = scenario.data["deals"][index]
    where = scenario.where("deals", index)
    known(fact, DEAL_KEYS, where, "deal")
    variant = fact["variant"]
    if variant.endswith((".yaml", ".yml")):  # a spec path, relative to the scenario file
        variant = str(scenario.path.parent / variant)
    rules = load_rules(variant)
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
