"""docs/architecture.md's table of knobs is the code's own mapping, and every knob reaches the compiled rules."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_found = importlib.util.spec_from_file_location("gen_knob_table", ROOT / "scripts" / "gen_knob_table.py")
assert _found is not None and _found.loader is not None
generator = importlib.util.module_from_spec(_found)
_found.loader.exec_module(generator)


def test_the_knob_table_is_current():
    text = generator.DOC.read_text(encoding="utf-8")
    assert generator.rewrite(text) == text, "run python scripts/gen_knob_table.py"


def test_a_stale_table_is_caught():
    text = generator.DOC.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| `max_turns_per_round`"))
    assert generator.rewrite(text.replace(row + "\n", "")) != text.replace(row + "\n", "")


def test_every_knob_of_the_schema_is_read_into_the_rules():
    # A knob the compiler never reads would validate and then change nothing.
    unread = [knob for knob, rules, *_ in generator.rows() if rules == "—"]
    assert unread == []


def test_the_table_follows_a_knob_to_the_table_field():
    rows = {row[0]: row for row in generator.rows()}
    assert rows["`max_turns_per_round`"][1:4] == ("`max_turns`", "`max_turns`", "`max_turns`")
    assert rows["`scout_and_show.chips_per_round`"][1] == "`sns_chips`"
    assert "`turns._deal`" in rows["`scout_and_show.chips_per_round`"][4]
    assert "`starting_seat()`" in rows["`rounds.rotate_start`"][2]
