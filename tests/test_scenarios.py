"""The rules of docs/rules.md as data: every case in tests/scenarios/*.yaml, run against the engine.

Case files (a position, actions, what must follow) and deck files (facts about decks and
deals) are run by scoutlab.testing.scenarios, whose docstring describes the format;
plugin authors run their own scenario files with it.
"""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from scoutlab.engine.state import View
from scoutlab.rules import load_rules
from scoutlab.testing.scenarios import check_deal, load_scenario_file, run_case

SCENARIOS = Path(__file__).resolve().parent / "scenarios"

# The sections of docs/rules.md every rule of which some case must name in its `rule:`.
SECTIONS = ["1", "2", "3A", "3B", "3C", "4", "5", "6", "7", "8"] + [f"10.{i}" for i in range(1, 10)]

# The runner lives in scoutlab.testing.scenarios, so plugin authors run their own files with it.
FILES = [load_scenario_file(path) for path in sorted(SCENARIOS.glob("*.yaml"))]
DOCUMENTS = [(scenario.path, scenario.data, scenario.lines) for scenario in FILES]


def _cases():
    for scenario in FILES:
        for index, case in enumerate(scenario.data.get("cases", [])):
            yield pytest.param(scenario, index, id=f"{scenario.path.stem}/{case.get('id')}")


def _deals():
    for scenario in FILES:
        for index, fact in enumerate(scenario.data.get("deals", [])):
            yield pytest.param(scenario, index, id=f"{scenario.path.stem}/{fact['variant']}-{fact['players']}p")


# --------------------------------------------------------------------------- rules cases


@pytest.mark.parametrize("scenario, index", list(_cases()))
def test_case(scenario, index: int) -> None:
    run_case(scenario, index)


def test_every_section_has_cases() -> None:
    """Each section of docs/rules.md (and each edge case of §10) is named by some case's `rule`."""
    named = " ".join(case["rule"] for _, doc, _ in DOCUMENTS for case in doc.get("cases", []))
    named += " " + " ".join(doc.get("rule", "") for _, doc, _ in DOCUMENTS if "deals" in doc)
    missing = [s for s in SECTIONS if not re.search(rf"(?<![\d.]){re.escape(s)}(?![\d])", named)]
    assert not missing, f"no scenario names these sections of docs/rules.md: {missing}"


def test_case_ids_are_unique_and_readable() -> None:
    for path, doc, _ in DOCUMENTS:
        ids = [case.get("id") for case in doc.get("cases", [])]
        assert all(isinstance(i, str) and re.fullmatch(r"[a-z0-9][a-z0-9-]*", i) for i in ids), path.name
        assert len(ids) == len(set(ids)), f"{path.name}: duplicate case ids"


def test_a_view_holds_only_public_fields() -> None:
    """docs/rules.md §10.9: nothing in a View names another seat's cards or the undealt cards."""
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


@pytest.mark.parametrize("scenario, index", list(_deals()))
def test_deal(scenario, index: int) -> None:
    check_deal(scenario, index)
