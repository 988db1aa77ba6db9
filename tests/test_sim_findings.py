"""Findings in words, definitions, the long-form table, chart helpers and player counts."""

import re
from pathlib import Path

import pytest

from scoutlab.cli import main
from scoutlab.sim import comparisons_for, entries_for, run
from scoutlab.sim.charts import quantile
from scoutlab.sim.compare import Difference
from scoutlab.sim.definitions import ANCHORS, CHART_ANCHORS, DEFINITIONS, anchor
from scoutlab.sim.findings import findings, sentence
from scoutlab.sim.metrics import Estimate, catalogue
from scoutlab.sim.results import Comparison, half_width, lineup_words

DOCS = Path(__file__).resolve().parent.parent / "docs" / "metrics.md"


def _estimate(key, value, low, high, unit="count", label=None):
    return Estimate(key, label or key, "Length", unit, value, low, high, 1000, "mean")


def _difference(key, a, b, low, high, significant, unit="count", label=None):
    return Difference(key, label or key, "Length", unit, _estimate(key, a, a - 1, a + 1, unit, label),
                      _estimate(key, b, b - 1, b + 1, unit, label), b - a, low, high, 0.001 if significant else 0.5,
                      0.001 if significant else 0.9, significant)


def test_a_shorter_game_reads_as_a_percentage_with_its_interval():
    c = Comparison("official (3p)", "two-player (2p)", False, "player counts differ (3 vs 2)")
    d = _difference("turns", 39.5, 30.5, -9.6, -8.4, True)
    text = sentence(c, d)
    # (30.5 - 39.5) / 39.5 = -22.8%: "23% shorter", both values, the difference's interval
    assert text.startswith("two-player (2p) games are 23% shorter than official (3p) games: 30.50 against 39.50 turns")
    assert "[-9.60, -8.40]" in text


def test_a_share_difference_reads_in_percentage_points():
    c = Comparison("a (3p)", "b (3p)", True, None)
    d = _difference("end.hand_emptied", 0.074, 0.586, 0.49, 0.534, True, unit="share", label="round ends: (i) a hand emptied")
    text = sentence(c, d)
    assert "58.6% against 7.4%" in text and "+51.2 pp" in text and "[+49.0 pp, +53.4 pp]" in text


class _Variant:
    def __init__(self, label, players, bots=("random",), games=2000, rounds=3.0, tuning=""):
        self.label, self.players, self.bots, self.games = label, players, bots, games
        self.tuning = tuning
        self._rounds = rounds
        self.fairness = {"chi2": 1.0, "df": players - 1, "p": 0.6}

    @property
    def lineup(self):
        return lineup_words(self.bots)

    def estimate(self, key):
        return _estimate("rounds", self._rounds, self._rounds, self._rounds) if key == "rounds" else None


class _Report:
    def __init__(self, variants, comparisons, strong=None):
        self.variants, self.comparisons = variants, comparisons
        self.strong, self.weak, self.advantage_games, self.games_done, self.sweep = strong, "greedy", 250, 2000, None


def test_findings_say_what_differed_what_did_not_and_the_caveats():
    c = Comparison("official (3p)", "two-player (2p)", False, "player counts differ (3 vs 2)",
                   [_difference("turns", 39.5, 30.5, -9.6, -8.4, True),
                    _difference("scouts", 5.0, 5.1, -0.2, 0.4, False, label="scouts per round")])
    report = _Report([_Variant("official (3p)", 3), _Variant("two-player (2p)", 2, rounds=2.0)], [c])
    lines = findings(report)
    assert lines[0].startswith("two-player (2p) games are 23% shorter")
    assert any(line.startswith("No significant difference") and "scouts per round" in line for line in lines)
    caveats = [line for line in lines if line.startswith("Caveat:")]
    assert any("unpaired with official (3p): two-player (2p) (player counts differ (3 vs 2))" in line for line in caveats)
    assert any("per-round rows" in line for line in caveats)
    assert any("random in every seat" in line and "random play" in line for line in caveats)
    assert not any("small sample" in line for line in caveats)  # 2,000 games each
    # The order: differences, then what did not differ, then caveats.
    kinds = [0 if not (line.startswith(("No significant", "Caveat"))) else
             1 if line.startswith("No significant") else 2 for line in lines]
    assert kinds == sorted(kinds)


def test_a_small_paired_sample_says_small_and_not_unpaired():
    c = Comparison("a (3p)", "b (3p)", True, None, [_difference("turns", 39.5, 39.0, -1, 0.2, False)])
    report = _Report([_Variant("a (3p)", 3, games=100), _Variant("b (3p)", 3, ("greedy",), games=100)], [c])
    lines = findings(report)
    assert any("small sample (100 games)" in line for line in lines)
    assert not any("unpaired" in line for line in lines)
    assert not any("random play" in line for line in lines)  # not every seat is random


def test_half_width_is_the_larger_side_of_the_interval():
    assert half_width(_estimate("x", 0.3, 0.25, 0.37)) == pytest.approx(0.07)
    assert half_width(_estimate("x", None, None, None)) is None


def test_every_metric_has_a_definition_and_every_anchor_is_a_heading_of_docs_metrics():
    headings = {_slug(line.lstrip("#").strip()) for line in DOCS.read_text(encoding="utf-8").splitlines()
                if line.startswith("#")}
    reasons = ("hand_emptied", "rule_ii", "turn_cap", "no_legal_action")
    for players in (2, 3, 5):
        for metric in catalogue(players, reasons, skill=("heuristic", "greedy")):
            assert anchor(metric.key) in DEFINITIONS, metric.key
    for target in set(ANCHORS.values()) | set(CHART_ANCHORS.values()) | set(DEFINITIONS):
        assert target in headings, f"docs/metrics.md has no heading for #{target}"
    assert all(_slug(heading) == target for target, (heading, _) in DEFINITIONS.items())


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def test_quantile_of_a_histogram():
    counts = {1: 1, 2: 1, 3: 1, 4: 1, 100: 1}
    assert quantile(counts, 0.5) == 3  # the median of 1, 2, 3, 4, 100
    assert quantile({5: 99, 200: 1}, 0.99) == 5  # the top 1% is beyond the 99th percentile
    assert quantile({}, 0.5) is None


def test_player_counts_are_chosen_and_explained():
    official, two = entries_for([("official", None), ("two-player", None)])
    assert (official.players, two.players) == (3, 2)
    assert "smallest count" in official.why and "NAME:N" in official.why
    assert "only count" in two.why
    (four,) = entries_for([("official", 4)])
    assert four.players == 4 and "as asked" in four.why


def test_players_all_groups_by_count_and_compares_within_each():
    entries = entries_for([("official", None), ("house-wrap", None)], every_count=True)
    assert [(e.label, e.players) for e in entries] == [
        ("official", 3), ("house-wrap", 3), ("official", 4), ("house-wrap", 4), ("official", 5), ("house-wrap", 5)]
    assert comparisons_for(entries, grouped=True) == ((0, 1), (2, 3), (4, 5))
    alone = entries_for([("official", None)], every_count=True)
    assert comparisons_for(alone, grouped=True) == ((0, 1), (0, 2))  # each count against the smallest


def test_players_all_end_to_end(capsys):
    assert main(["simulate", "official", "--players", "all", "--games", "12", "--workers", "1", "--strong", "none"]) == 0
    out = capsys.readouterr().out
    assert "--players all: every count each variant allows: official at 3, 4, 5 players" in out
    for label in ("official (3p)", "official (4p)", "official (5p)"):
        assert label in out


def test_players_must_be_a_number_or_all(capsys):
    with pytest.raises(SystemExit):
        main(["simulate", "official", "--players", "many"])
    assert "expected a number of players or 'all'" in capsys.readouterr().err


def test_three_variants_print_a_long_form_table_within_100_columns(capsys):
    code = main(["compare", "official", "two-player", "house-wrap", "--games", "12", "--workers", "1",
                 "--strong", "none"])
    assert code == 0
    out = capsys.readouterr().out
    table = [line for line in out.splitlines() if line[:1] in "┃│┏┡└"]
    assert table and max(len(line) for line in table) <= 100
    assert "reference" in out and "metric / variant" in out


def test_header_json_and_csv_name_the_lineup(tmp_path, capsys):
    json_path, csv_path = tmp_path / "r.json", tmp_path / "r.csv"
    assert main(["simulate", "two-player", "--games", "12", "--workers", "1", "--strong", "none",
                 "--bots", "greedy,random", "--json", str(json_path), "--csv", str(csv_path)]) == 0
    out = capsys.readouterr().out
    assert "Lineup: P1 greedy, P2 random." in out
    assert "two-player (2p): 2 players, the only count it allows." in out
    assert "Resolution (widest 95% half-width" in out and "Findings" in out
    import csv
    import json

    data = json.loads(json_path.read_text())
    assert data["variants"][0]["lineup"] == "P1 greedy, P2 random"
    assert data["findings"] and any("bots (P1 greedy, P2 random)" in line for line in data["findings"])
    win = next(e for e in data["variants"][0]["estimates"] if e["key"] == "win.0")
    assert win["half_width"] == pytest.approx(max(win["value"] - win["low"], win["high"] - win["value"]))
    assert win["definition"] == "docs/metrics.md#seat-win-rates"
    rows = list(csv.DictReader(csv_path.open()))
    assert {r["lineup"] for r in rows} == {"P1 greedy, P2 random"} and "half_width" in rows[0]


def test_skill_games_measure_the_strong_bot_among_the_weak(capsys):
    report = run("simulate", [("two-player", None)], 16, workers=1, strong="greedy", weak="random",
                 advantage_games=16)
    (v,) = report.variants
    depth, luck = v.estimate("skill_depth"), v.estimate("luck")
    assert depth.label == "skill depth: greedy among random"
    # Two players: depth = 2w - 1 and luck = 1 - w, so depth = 1 - 2 luck exactly.
    assert depth.value == pytest.approx(1 - 2 * luck.value)
    assert "skill games: greedy among random, 16 games" in report.describe()


def test_rounds_read_as_fewer_rounds():
    c = Comparison("official (3p)", "two-player (2p)", False, "player counts differ (3 vs 2)")
    text = sentence(c, _difference("rounds", 3.0, 2.0, -1.0, -1.0, True))
    assert text.startswith("two-player (2p) games have 33% fewer rounds than official (3p) games: 2.00 against 3.00 rounds")


def test_one_game_gives_words_not_infinite_intervals():
    report = run("simulate", [("official", None)], 1, workers=1, strong="greedy", weak="greedy", advantage_games=1)
    text = "\n".join(report.findings) + report.resolution() + report.describe()
    assert "inf" not in text and "too few games for an interval" in text
    assert "1 game," in report.describe() and "1 game per variant" in text
    assert "both greedy" in text  # the same bot on both sides measures nothing
