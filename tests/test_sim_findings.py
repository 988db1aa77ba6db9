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
    def __init__(self, label, players, bots=("random",), games=2000, rounds=3.0, tuning="", estimates=(),
                 fairness=None):
        self.label, self.players, self.bots, self.games = label, players, bots, games
        self.tuning = tuning
        self.estimates = [_estimate("rounds", rounds, rounds, rounds), *estimates]
        self.fairness = fairness or {"chi2": 1.0, "df": players - 1, "p": 0.6}

    @property
    def lineup(self):
        return lineup_words(self.bots)

    def estimate(self, key):
        return next((e for e in self.estimates if e.key == key), None)


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


def test_players_all_compares_each_variants_counts_with_each_other_and_the_variants_within_each_count():
    entries = entries_for([("official", None), ("house-wrap", None)], every_count=True)
    assert [(e.label, e.players) for e in entries] == [
        ("official", 3), ("house-wrap", 3), ("official", 4), ("house-wrap", 4), ("official", 5), ("house-wrap", 5)]
    pairs = comparisons_for(entries, grouped=True)
    within = {(0, 1), (2, 3), (4, 5)}  # house-wrap against official at 3, 4 and 5 players
    official = {(0, 2), (0, 4), (2, 4)}  # official 3p vs 4p vs 5p, each pair
    house = {(1, 3), (1, 5), (3, 5)}
    assert set(pairs) == within | official | house and len(pairs) == 9
    assert [b for _, b in pairs] == sorted(b for _, b in pairs)  # a variant's comparisons sit together
    alone = entries_for([("official", None)], every_count=True)
    assert comparisons_for(alone, grouped=True) == ((0, 1), (0, 2), (1, 2))  # 3p vs 4p vs 5p
    apart = entries_for([("official", None), ("two-player", None)], every_count=True)
    assert (apart[0].label, apart[0].players) == ("two-player", 2)
    assert comparisons_for(apart, grouped=True) == ((1, 2), (1, 3), (2, 3))  # no count in common with two-player


def test_players_all_end_to_end(capsys):
    assert main(["simulate", "official", "--players", "all", "--games", "12", "--workers", "1", "--strong", "none"]) == 0
    out = capsys.readouterr().out
    assert ("--players all: every count each variant allows: official at 3, 4, 5 players; each variant's counts "
            "compared with each other.") in out
    for label in ("official (3p)", "official (4p)", "official (5p)"):
        assert label in out
    # official 5p is compared with both 3p and 4p: each difference on a row that names the other variant
    assert "    - official (3p)" in out and "    - official (4p)" in out
    assert "official (5p) vs official (4p): unpaired: player counts differ (4 vs 5)" in out


def test_players_all_compares_variants_only_where_they_share_a_count(capsys):
    assert main(["compare", "official", "two-player", "--players", "all", "--games", "8", "--workers", "1",
                 "--strong", "none"]) == 0
    out = capsys.readouterr().out
    assert "Not compared with another variant (no player count in common): two-player, official" in out
    assert "two-player (2p) vs" not in out and "vs two-player (2p)" not in out


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


# -- what a designer asks: the seats, the round ends, what changed most --------------------------------------


def _seat_variant(label, players, wins, games=600, chi2=9.88, p=0.007):
    rates = [_estimate(f"win.{s}", w, w - 0.04, w + 0.04, "share", f"P{s + 1} win rate") for s, w in enumerate(wins)]
    first = _estimate("first_player", wins[0] - 1 / players, wins[0] - 1 / players - 0.04,
                      wins[0] - 1 / players + 0.04, "share", "first-player advantage (P1 win rate - 1/n)")
    return _Variant(label, players, ("skilled",), games=games, rounds=4.0, estimates=[*rates, first],
                    fairness={"chi2": chi2, "df": players - 1, "p": p})


def test_a_comparison_says_which_variant_seats_do_not_win_equally_with_the_numbers():
    official = _seat_variant("official (3p)", 3, [0.34, 0.33, 0.33], chi2=0.06, p=0.97)
    four = _seat_variant("four-rounds (3p)", 3, [0.40, 0.33, 0.27])
    c = Comparison("official (3p)", "four-rounds (3p)", True, None,
                   [_difference("scouts", 5.0, 5.1, -0.2, 0.4, False)])
    lines = findings(_Report([official, four], [c]))  # Holm: P1's score test (p 0.0005) x 4, then 0.007 x 3
    said = [line for line in lines if line.startswith("four-rounds (3p): seats do not win equally")]
    assert said == ["four-rounds (3p): seats do not win equally (chi-square 9.88, df 2, p 0.007; Holm over the 4 seat "
                    "tests of this run: 0.021): P1 wins 40.0% [36.0, 44.0], P3 27.0% [23.0, 31.0], against a fair "
                    "33.3%; the first-player advantage is +6.7 pp [+2.7 pp, +10.7 pp]."]
    assert not any(line.startswith("official (3p):") for line in lines)  # its seats are fair: nothing to say


def test_a_first_player_edge_alone_is_said_with_its_score_test():
    # 2,000 games, P1 wins 36%: the score test against 1/3 gives z = 0.0267 / sqrt(2/9 / 2000) = 2.53.
    edge = _seat_variant("a (3p)", 3, [0.36, 0.32, 0.32], games=2000, chi2=5.2, p=0.074)
    plain = _seat_variant("b (3p)", 3, [0.33, 0.34, 0.33], games=2000, chi2=0.1, p=0.95)
    lines = findings(_Report([edge, plain], [Comparison("a (3p)", "b (3p)", True, None, [])]))
    (line,) = [line for line in lines if "first player wins" in line]
    assert line.startswith("a (3p): the first player wins more than a fair share: first-player advantage +2.7 pp "
                           "[-1.3 pp, +6.7 pp] (score test p 0.011; Holm over the 4 seat tests of this run: 0.046)")
    assert "the chi-square over all seats is 5.20, df 2, p 0.074" in line


def test_a_plugins_end_condition_is_said_with_its_share_when_only_one_variant_has_it():
    official = _Variant("official (3p)", 3, estimates=[
        _estimate("end.hand_emptied", 0.6, 0.57, 0.63, "share", "round ends: (i) a hand emptied"),
        _estimate("end.turn_cap", 0.0, 0.0, 0.002, "share", "round ends: turn cap hit")])
    six = _Variant("six (3p)", 3, estimates=[
        _estimate("end.hand_emptied", 0.2, 0.17, 0.23, "share", "round ends: (i) a hand emptied"),
        _estimate("end.six_turns", 0.62, 0.581, 0.658, "share", "round ends: six_turns"),
        _estimate("end.turn_cap", 0.0, 0.0, 0.002, "share", "round ends: turn cap hit")])
    d = _difference("end.hand_emptied", 0.6, 0.2, -0.43, -0.37, True, unit="share", label="round ends: (i) a hand emptied")
    lines = findings(_Report([official, six], [Comparison("official (3p)", "six (3p)", True, None, [d])]))
    (line,) = [line for line in lines if line.startswith("Rounds end differently")]
    assert line == ("Rounds end differently in six (3p) than in official (3p) (share of rounds): (i) a hand emptied "
                    "20.0% against 60.0% (-40.0 pp [-43.0 pp, -37.0 pp]); six_turns 62.0% [58.1, 65.8] in six (3p), a "
                    "way of ending official (3p) does not have.")


def _sized(key, a, b, sd, label=None, unit="count"):
    """A significant difference of a metric whose per-game SD is `sd` (1,000 games, so SE = sd / sqrt(1000))."""
    half = 1.96 * sd / 1000 ** 0.5
    ea = Estimate(key, label or key, "Length", unit, a, a - half, a + half, 1000, "mean")
    eb = Estimate(key, label or key, "Length", unit, b, b - half, b + half, 1000, "mean")
    return Difference(key, label or key, "Length", unit, ea, eb, b - a, b - a - 0.1, b - a + 0.1, 0.001, 0.001, True)


def test_differences_are_ranked_by_effect_size_and_capped_with_the_rest_left_to_the_table():
    c = Comparison("a (3p)", "b (3p)", True, None, [
        _sized("turns", 40.0, 41.0, 10.0),  # a headline metric, but a tenth of an SD
        _sized("captured", 10.0, 14.0, 2.0, "cards captured per round"),  # two SDs: what changed most
        *[_sized(f"m{i}", 1.0, 1.0 + 0.3 + i / 100, 1.0, f"metric {i}") for i in range(8)],
    ])
    lines = findings(_Report([_Variant("a (3p)", 3), _Variant("b (3p)", 3)], [c]))
    assert lines[0].startswith("Cards captured per round is 40% higher in b (3p)")
    differences = [line for line in lines if " than " in line and not line.startswith(("No significant", "Caveat"))]
    assert len(differences) == 8
    assert not any(line.startswith("b (3p) games are") for line in differences)  # the small turns difference is cut
    assert "2 more significant differences are in the table." in lines


def _sweep_report(key, unit, values, label=None, half=0.03, path="scout_and_show.chips_per_round"):
    variants = [_Variant(f"chips_per_round={i}", 4, estimates=[
        Estimate(key, label or key, "Outcome", unit, y, y - half, y + half, 300, "mean")]) for i, y in enumerate(values)]
    report = _Report(variants, [])
    report.sweep = {"settings": [{"path": path, "values": list(range(len(values)))}],
                    "points": [{path: i} for i in range(len(values))], "labels": [v.label for v in variants],
                    "metrics": [key], "targets": {}}
    return report


def test_a_curved_sweep_trend_is_said_in_two_pieces_not_as_one_slope():
    from scoutlab.sim.trend import trends

    # The tester's figures: 63.2 -> 64.8 -> 83.0 -> 93.0% (a straight line would say +10.8 pp per step).
    report = _sweep_report("end.hand_emptied", "share", [0.632, 0.648, 0.830, 0.930], "round ends: (i) a hand emptied")
    (t,) = trends(report)
    assert t.curved and t.model == "quadratic"
    (line,) = [line for line in findings(report, [t]) if "hand emptied" in line]
    assert line.startswith("Round ends: (i) a hand emptied is not a straight line in scout_and_show.chips_per_round: "
                           "it stays level up to chips_per_round=1 (+1.6 pp per step [-2.6 pp, +5.8 pp]), then rises "
                           "(+14.1 pp per step [+12.0 pp, +16.2 pp]); 63.2% at 0, 64.8% at 1, 93.0% at 3 (curvature "
                           "+2.1 pp per step² [+0.6 pp, +3.6 pp]")
    # Rising and levelling off: both pieces rise, the first more steeply.
    concave = _sweep_report("score_round", "points", [5.0, 7.0, 8.0, 8.4], "score per player per round", half=0.2)
    (t,) = trends(concave)
    assert t.curved and "it rises steeply up to chips_per_round=1" in findings(concave, [t])[0]
    assert ", then slowly (" in findings(concave, [t])[0]
    # On a straight line there is no curvature to report, and the slope is said as before.
    straight = _sweep_report("score_round", "points", [5.0, 6.0, 7.0, 8.0], "score per player per round", half=0.2)
    (t,) = trends(straight)
    assert not t.curved and findings(straight, [t])[0].startswith(
        "Each +1 in scout_and_show.chips_per_round: score per player per round rises, +1.00 per step")


def test_a_sweep_names_the_point_closest_to_a_target_with_its_interval():
    report = _sweep_report("first_player", "share", [0.06, 0.005, -0.05], "first-player advantage (P1 win rate - 1/n)")
    lines = findings(report)
    assert ("First-player advantage (P1 win rate - 1/n) is closest to 0 at chips_per_round=1: +0.5 pp "
            "[-2.5 pp, +3.5 pp]; no other point's interval includes it.") in lines
    report.sweep["targets"] = {"first_player": 0.04}
    assert any(line.startswith("First-player advantage (P1 win rate - 1/n) is closest to 4.0% at chips_per_round=0: "
                               "6.0% [3.0, 9.0]") for line in findings(report))


def test_score_histograms_of_every_seat_share_one_set_of_bins():
    from scoutlab.sim.charts import _scores

    narrow = dict.fromkeys(range(20, 30), 1)  # 10 values: alone, bins of width 1
    wide = dict.fromkeys(range(-30, 60), 1)  # 90 values: alone, bins of width 3
    v = _Variant("a (2p)", 2)
    v.histograms = {"score.0": narrow, "score.1": wide}
    figure, caption = _scores(_Report([v], []))
    steps = [line.get_xdata() for line in figure.axes[0].lines]
    widths = {round(float(xs[1] - xs[0]), 6) for xs in steps}
    assert widths == {3.0} and "one width shared by the seats" in caption
    assert all((float(xs[0]) - float(steps[0][0])) % 3 == 0 for xs in steps)  # and the same bin edges


def after_ten_turns(state) -> bool:
    return state.turn >= 10


class TenTurns:
    from scoutlab.host.hookspecs import hookimpl

    @hookimpl
    def scoutlab_end_conditions(self):
        from scoutlab.host.hookspecs import EndCondition

        return {"ten_turns": EndCondition(after_ten_turns, False, "the round ends after ten turns")}


def test_a_plugins_end_condition_in_a_real_compare_is_said_with_its_share(tmp_path):
    from scoutlab.sim import compare
    from scoutlab.testing.plugins import installed_plugin

    spec = tmp_path / "ten.yaml"
    spec.write_text("extends: official\nname: ten\nplugins: [ten-turns]\n"
                    "end_conditions: [hand_emptied, everyone_scouted, ten_turns]\n")
    with installed_plugin("ten-turns", TenTurns()):
        report = compare([("official", 3), (str(spec), 3)], games=30, workers=1, strong=None, bots=["random"])
    share = report.variants[1].estimate("end.ten_turns")
    assert share.value > 0.5  # random play rarely empties a hand in ten turns
    (line,) = [line for line in report.findings if line.startswith("Rounds end differently in ten (3p)")]
    assert (f"ten_turns {share.value * 100:.1f}% [{share.low * 100:.1f}, {share.high * 100:.1f}] in ten (3p), "
            "a way of ending official (3p) does not have") in line
