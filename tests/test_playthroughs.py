"""Playthroughs: one fixed game per shipped variant and player count, diffed against tests/playthroughs/.

Any change to the rules, the deal, the notation or the log shows up here as a readable
diff. When the change is intended, rewrite the files and review them in the commit:
    python -m scoutlab.records regenerate-playthroughs
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest

from scoutlab.records.game import main, playthrough, playthrough_name, playthrough_targets

HERE = Path(__file__).resolve().parent / "playthroughs"
TARGETS = playthrough_targets()
REGENERATE = "if the change is intended: python -m scoutlab.records regenerate-playthroughs"


@pytest.mark.parametrize(("variant", "players"), TARGETS)
def test_playthrough_matches(variant, players):
    path = HERE / playthrough_name(variant, players)
    if not path.exists():
        pytest.fail(f"{path.name} is missing ({REGENERATE})", pytrace=False)
    expected = path.read_text(encoding="utf-8")
    actual = playthrough(variant, players)
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), f"{path.name} (stored)", f"{path.name} (now)", lineterm=""
        )
        pytest.fail("\n".join([f"the playthrough changed ({REGENERATE}):", *diff]), pytrace=False)


def test_every_playthrough_file_belongs_to_a_shipped_variant():
    expected = {playthrough_name(variant, players) for variant, players in TARGETS}
    stale = sorted(p.name for p in HERE.glob("*.txt") if p.name not in expected)
    assert not stale, f"playthroughs of no shipped variant: {stale} (delete them)"


def test_a_playthrough_shows_the_deal_every_action_and_the_legal_counts():
    lines = playthrough("official", 3).splitlines()
    header = lines.index("Legal actions before each action, by round:")
    log, tail = lines[:lines.index("Final scores:")], lines[header + 1:]
    actions = [line for line in log if re.match(r"  P\d+: (keep|flip|show|scout)", line)]
    counts = [int(n) for line in tail for n in line.split(": ")[1].split()]
    assert any(line.startswith("  P1 dealt: ") for line in log)
    assert len(actions) == len(counts) and counts[:3] == [2, 2, 2]  # each seat first chooses keep or flip
    assert tail[0].startswith("  round 1, actions 1-")


def test_regenerating_writes_every_file_and_removes_stale_ones(tmp_path, capsys):
    (tmp_path / "retired-variant-3p.txt").write_text("old\n", encoding="utf-8")
    assert main(["regenerate-playthroughs", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(playthrough_name(v, n) for v, n in TARGETS)
    out = capsys.readouterr().out
    assert out.count("wrote ") == len(TARGETS) and "removed " in out and "retired-variant-3p.txt" in out
    assert (tmp_path / "official-3p.txt").read_text(encoding="utf-8") == playthrough("official", 3)


def test_regenerating_needs_a_folder(tmp_path, monkeypatch, capsys):
    assert main(["something-else"]) == 2
    monkeypatch.chdir(tmp_path)
    assert main(["regenerate-playthroughs"]) == 1
    assert "run this from the repository root" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
