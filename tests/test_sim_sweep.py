"""`scoutlab sweep`: parsing --set, the grid, points checked by the spec layer, pairing, outputs, determinism."""

import csv
import json

import pytest

from scoutlab.cli import main
from scoutlab.sim.sweep import MAX_POINTS, grid, parse_setting, point_rules, sweep

PNG = b"\x89PNG\r\n\x1a\n"


def test_parse_setting_reads_yaml_values_and_keeps_lists_whole():
    s = parse_setting("scout_and_show.chips_per_round=0,1,2")
    assert (s.path, s.steps, s.values) == ("scout_and_show.chips_per_round", ("scout_and_show", "chips_per_round"), (0, 1, 2))
    assert s.short == "chips_per_round"
    assert parse_setting("deal.hand_size.2=9,10").short == "hand_size.2"
    flags = parse_setting("scoring.exempt_last_show_owner=true,false")
    assert flags.values == (True, False)
    ends = parse_setting("end_conditions=[hand_emptied],[hand_emptied, everyone_scouted]")
    assert ends.values == (["hand_emptied"], ["hand_emptied", "everyone_scouted"])


@pytest.mark.parametrize("text, message", [
    ("chips", "expected PATH=V1,V2,..."),
    ("=1,2", "expected PATH=V1,V2,..."),
    ("a..b=1", "has an empty step"),
    ("a=1,,2", "an empty value"),
    ("a=1,1", "given twice"),
    ("a=" + ",".join(map(str, range(30))), "at most 20"),
    ("a=" + "9" * 600, "at most 500"),
    ("a=[1", "cannot read the value"),
])
def test_bad_settings_say_what_is_wrong(text, message):
    with pytest.raises(ValueError, match=message):
        parse_setting(text)


def test_the_grid_is_every_combination_and_bounded():
    a, b = parse_setting("x=1,2,3"), parse_setting("y=a,b")
    assert grid([a, b]) == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]
    with pytest.raises(ValueError, match="at least one --set"):
        grid([])
    big = [parse_setting("x=" + ",".join(map(str, range(10)))), parse_setting("y=" + ",".join(map(str, range(10))))]
    with pytest.raises(ValueError, match=f"100 points; at most {MAX_POINTS}"):
        grid(big)
    with pytest.raises(ValueError, match="set twice"):
        grid([a, parse_setting("x=4")])


def test_a_point_is_the_variant_with_the_value_laid_over_it():
    s = parse_setting("scout_and_show.chips_per_round=0,2")
    rules = point_rules("official", [s], (1,))
    assert rules.spec.doc["scout_and_show"]["chips_per_round"] == 2
    assert rules.spec.doc["deal"]["hand_size"] == {"3": 12, "4": 11, "5": 9}  # the rest inherited
    hand = point_rules("two-player", [parse_setting("deal.hand_size.2=9,10")], (0,))
    assert hand.hand_size[2] == 9


def test_a_bad_path_gets_the_spec_layers_message():
    with pytest.raises(ValueError, match=r"--set scout_and_show\.chips_per_rund=0: \$\.scout_and_show\.chips_per_rund: "
                                         r"unknown key 'chips_per_rund'; did you mean 'chips_per_round'\?"):
        point_rules("official", [parse_setting("scout_and_show.chips_per_rund=0")], (0,))
    with pytest.raises(ValueError, match="needs 120 cards, but the deck holds only 44"):
        point_rules("two-player", [parse_setting("deal.hand_size.2=30")], (0,))
    with pytest.raises(ValueError, match="always extends"):
        point_rules("official", [parse_setting("name=x")], (0,))


def test_a_sweep_of_a_spec_file(tmp_path):
    spec = tmp_path / "house.yaml"
    spec.write_text("extends: official\nname: house\nscoring: {card_in_hand: -2}\n")
    rules = point_rules(str(spec), [parse_setting("rounds.count=1")], (0,))
    assert rules.spec.doc["scoring"]["card_in_hand"] == -2 and rules.spec.doc["rounds"]["count"] == 1


def test_points_that_deal_alike_are_paired_and_others_are_not():
    chips = sweep("official", ["scout_and_show.chips_per_round=0,1"], players=4, games=10, workers=1)
    assert [c.paired for c in chips.comparisons] == [True]
    hands = sweep("two-player", ["deal.hand_size.2=10,11"], games=10, workers=1)
    (c,) = hands.comparisons
    assert not c.paired and c.why_unpaired == "deal sizes differ (10 vs 11 cards)"
    assert any("unpaired" in line for line in hands.findings)


def test_identical_points_differ_by_exactly_zero():
    # "1" and "+1" are the same number: both points play the same games, game by game.
    report = sweep("official", ["scout_and_show.chips_per_round=1,+1"], games=8, workers=1)
    (c,) = report.comparisons
    assert c.paired and all(d.value == pytest.approx(0, abs=1e-9) for d in c.rows)


def test_the_same_seed_gives_the_same_numbers_on_any_number_of_workers():
    options = {"players": 3, "games": 30, "seed": 5, "metrics": ["turns_per_round", "scouts"]}
    one = sweep("official", ["scout_and_show.chips_per_round=0,2"], workers=1, **options)
    two = sweep("official", ["scout_and_show.chips_per_round=0,2"], workers=2, **options)
    assert [v.estimates for v in one.variants] == [v.estimates for v in two.variants]
    other = sweep("official", ["scout_and_show.chips_per_round=0,2"], workers=1, **{**options, "seed": 6})
    assert [v.estimates for v in one.variants] != [v.estimates for v in other.variants]


def test_metrics_choose_the_rows_and_the_tests():
    report = sweep("official", ["scout_and_show.chips_per_round=0,1,2"], games=10, workers=1,
                   metrics=["scouts", "turns_per_round"])
    assert report.sweep["metrics"] == ["scouts", "turns_per_round"]
    assert all({d.key for d in c.rows} == {"scouts", "turns_per_round"} for c in report.comparisons)
    assert report.strong is None  # no skill metric asked for: no slow skill games
    with pytest.raises(ValueError, match="unknown metric 'scuts'; did you mean 'scouts'"):
        sweep("official", ["scout_and_show.chips_per_round=0,1"], games=5, workers=1, metrics=["scuts"])


def test_sweep_command_writes_table_charts_json_csv_and_report(tmp_path, capsys):
    plots, page, out_json, out_csv = tmp_path / "plots", tmp_path / "s.html", tmp_path / "s.json", tmp_path / "s.csv"
    code = main(["sweep", "official", "--players", "4", "--set", "scout_and_show.chips_per_round=0,1,2",
                 "--games", "10", "--workers", "1", "--metrics", "scouts,score_round",
                 "--plots", str(plots), "--report", str(page), "--json", str(out_json), "--csv", str(out_csv)])
    assert code == 0
    out = capsys.readouterr().out
    assert "Every variant plays 4 players: as asked." in out
    for point in ("chips_per_round=0", "chips_per_round=1", "chips_per_round=2"):
        assert point in out
    assert (plots / "sweep_scouts.png").read_bytes().startswith(PNG)
    assert (plots / "sweep_score_round.png").read_bytes().startswith(PNG)
    data = json.loads(out_json.read_text())
    assert data["sweep"]["points"] == [{"scout_and_show.chips_per_round": v} for v in (0, 1, 2)]
    assert [v["setting"] for v in data["variants"]] == data["sweep"]["points"]
    assert data["findings"]
    rows = list(csv.DictReader(out_csv.open()))
    assert {r["variant"] for r in rows} == {"chips_per_round=0", "chips_per_round=1", "chips_per_round=2"}
    html = page.read_text()
    assert "across the sweep" in html and 'href="#def-scouts-per-round"' in html


def test_sweep_refuses_players_all(capsys):
    assert main(["sweep", "official", "--set", "scout_and_show.chips_per_round=0,1", "--players", "all"]) == 1
    assert "give --players N" in capsys.readouterr().err


@pytest.mark.parametrize("players", ["0", "-1", "3"])
def test_sweep_refuses_a_count_the_variant_does_not_allow_in_one_line(capsys, players):
    assert main(["sweep", "two-player", "--set", "deal.hand_size.2=9,10", "--players", players, "--games", "2"]) == 1
    err = capsys.readouterr().err  # 0 was a ZeroDivisionError's traceback
    assert f"is for 2 players, not {players}" in err and err.count("\n") == 1


def test_weighted_slope_is_the_textbook_wls_estimate():
    from scoutlab.sim.trend import weighted_slope

    # An exact line y = 1 + 2x with unit standard errors: slope 2, SE = 1 / sqrt(Sxx) = 1 / sqrt(5).
    slope, se = weighted_slope([0, 1, 2, 3], [1, 3, 5, 7], [1, 1, 1, 1])
    assert slope == pytest.approx(2) and se == pytest.approx(1 / 5 ** 0.5)
    # Weights 1/SE^2: a point four times as precise counts sixteen times as much (Draper & Smith's WLS).
    xs, ys, ses = [0, 1, 2], [0.0, 1.0, 4.0], [1.0, 0.25, 1.0]
    w = [1 / s**2 for s in ses]
    mx = sum(wi * x for wi, x in zip(w, xs)) / sum(w)
    my = sum(wi * y for wi, y in zip(w, ys)) / sum(w)
    sxx = sum(wi * (x - mx) ** 2 for wi, x in zip(w, xs))
    expected = sum(wi * (x - mx) * (y - my) for wi, x, y in zip(w, xs, ys)) / sxx
    assert weighted_slope(xs, ys, ses) == pytest.approx((expected, sxx ** -0.5))
    assert expected == pytest.approx(2.0)  # the middle point sits at the weighted mean of x: the outer two set the slope
    with pytest.raises(ValueError):
        weighted_slope([1, 1, 1], [1, 2, 3], [1, 1, 1])
    with pytest.raises(ValueError):
        weighted_slope([0, 1, 2], [1, 2, 3], [1, 0, 1])


def test_a_numeric_sweep_reports_its_trends_first():
    report = sweep("official", ["scout_and_show.chips_per_round=0,1,2,3"], players=4, games=40, workers=1,
                   metrics=["score_round", "scouts"])
    trends = report.sweep["trends"]
    assert [t["key"] for t in trends] == ["score_round", "scouts"]
    assert report.findings[0].startswith(("Each +1 in scout_and_show.chips_per_round: ",
                                          "Score per player per round is not a straight line", "Scouts per round is"))
    assert all(t["low"] < t["slope"] < t["high"] for t in trends)
    # Fewer than three points, or a value that is not a number: no trend.
    assert sweep("official", ["scout_and_show.chips_per_round=0,1"], games=5, workers=1).sweep["trends"] == []
    flags = sweep("official", ["scoring.exempt_last_show_owner=true,false"], games=5, workers=1)
    assert flags.sweep["trends"] == []


def test_a_target_names_the_closest_point_and_is_checked():
    report = sweep("official", ["rounds.count=2,3,4"], games=12, workers=1, metrics=["scouts"],
                   targets=["turns_per_round=15"])
    assert report.sweep["metrics"] == ["scouts", "turns_per_round"]  # a target's metric is shown and tested too
    assert report.sweep["targets"] == {"turns_per_round": 15.0}
    line = next(line for line in report.findings if line.startswith("Turns per round is closest to 15.00 at count="))
    best = min(report.variants, key=lambda v: abs(v.estimate("turns_per_round").value - 15))
    assert f"at {best.label}: " in line and "[" in line
    with pytest.raises(ValueError, match="unknown metric 'turns_per_rund'; did you mean 'turns_per_round'"):
        sweep("official", ["rounds.count=2,3"], games=4, workers=1, targets=["turns_per_rund=25"])
    with pytest.raises(ValueError, match="expected METRIC=VALUE"):
        sweep("official", ["rounds.count=2,3"], games=4, workers=1, targets=["turns_per_round"])
    with pytest.raises(ValueError, match="is not a number"):
        sweep("official", ["rounds.count=2,3"], games=4, workers=1, targets=["turns_per_round=many"])


def test_a_numeric_sweeps_findings_are_few_and_its_charts_draw_the_fit_with_its_band():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from scoutlab.sim.sweep_view import _draw_fit, _trend
    from scoutlab.sim.trend import fitted

    report = sweep("official", ["scout_and_show.chips_per_round=0,1,2,3"], players=4, games=40, workers=1)
    differences = [line for line in report.findings if not line.startswith(("Caveat", "The bots played"))]
    assert len(differences) <= 8 + 4  # trends (at most 8), flat trends in one line, the table's line, two optima
    assert any(line.startswith("Each point's difference from the first is in the table (") for line in report.findings)
    assert not any(line.startswith("No significant difference") for line in report.findings)
    trend = _trend(report, "scouts")
    figure, ax = plt.subplots()
    caption = _draw_fit(ax, trend, 1)
    (line,) = ax.lines
    assert line.get_label() == ("quadratic fit" if trend.curved else "straight-line fit")
    assert ("grey curve" if trend.curved else "grey line") in caption
    middle = (trend.xs[0] + trend.xs[-1]) / 2
    value, low, high = fitted(trend, middle)
    assert low < value < high and len(ax.collections) == 1  # the 95% band
    plt.close(figure)


@pytest.mark.parametrize("target, said", [
    ("turns_per_round=30%", "--target turns_per_round: '30%': a percentage is for a share"),  # was read as 0.30 turns
    ("end.hand_emptied=150%", "--target end.hand_emptied: '150%': a target runs from -1 to 1 (or -100% to 100%)"),
    ("turns_per_round=1e308", "--target turns_per_round: '1e308': a target runs from -1,000,000,000 to 1,000,000,000"),
    ("turns_per_round=nan", "a target runs from"),
    ("turns_per_round=" + "9" * 5000, "--target is 5,016 characters long; at most"),  # said "expected METRIC=VALUE"
])
def test_a_target_that_no_metric_can_take_is_refused_in_one_line(capsys, target, said):
    assert main(["sweep", "official", "--set", "scoring.captured_card=1,2", "--games", "2", "--target", target]) == 1
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1, err
