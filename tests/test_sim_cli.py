"""`scoutlab simulate` and `scoutlab compare` end to end, on small runs."""

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from scoutlab.cli import main
from scoutlab.sim.layout import format_interval, format_value

PNG = b"\x89PNG\r\n\x1a\n"
QUICK = ["--games", "20", "--workers", "1", "--strong", "none"]


def test_simulate_prints_what_ran_and_a_table(capsys):
    assert main(["simulate", "two-player", *QUICK, "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("simulate two-player (2p) [skilled]: 20 games, seed 3, 1 worker (inline)")
    for label in ("P1 win rate", "seat fairness", "round ends: (ii) a show stood", "drama (CardStock)",
                  "branching factor", "scouts per round", "winner's margin"):
        assert label in out


def test_simulate_json_and_csv(tmp_path, capsys):
    json_path, csv_path = tmp_path / "run.json", tmp_path / "run.csv"
    code = main(["simulate", "official:4", *QUICK, "--bots", "greedy,random,random,random",
                 "--json", str(json_path), "--csv", str(csv_path)])
    assert code == 0
    data = json.loads(json_path.read_text())
    (variant,) = data["variants"]
    assert variant["players"] == 4 and variant["games"] == 20
    assert variant["bots"] == ["greedy", "random", "random", "random"]
    wins = [e for e in variant["estimates"] if e["key"].startswith("win.")]
    assert len(wins) == 4 and sum(e["value"] for e in wins) == pytest.approx(1.0)
    rows = list(csv.DictReader(io.StringIO(csv_path.read_text())))
    assert {r["key"] for r in rows} == {e["key"] for e in variant["estimates"]}
    assert all(r["kind"] == "estimate" and r["variant"] == "official (4p)" for r in rows)


def test_json_to_standard_output_is_only_json(capsys):
    assert main(["simulate", "two-player", *QUICK, "--json", "-"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["command"] == "simulate"
    assert "simulate two-player" in captured.err


def test_compare_with_report_and_plots(tmp_path, capsys):
    report, plots = tmp_path / "report.html", tmp_path / "plots"
    code = main(["compare", "official", "two-player", "--games", "24", "--workers", "2", "--strong", "greedy",
                 "--advantage-games", "6", "--report", str(report), "--plots", str(plots),
                 "--json", str(tmp_path / "c.json")])
    assert code == 0
    out = capsys.readouterr().out
    assert "unpaired: player counts differ (3 vs 2)" in out
    assert "Holm-Bonferroni" in out
    data = json.loads((tmp_path / "c.json").read_text())
    pngs = sorted(p.name for p in plots.iterdir())
    # How rounds end is drawn only when rounds ended in more than one way.
    ways = {e["key"] for v in data["variants"] for e in v["estimates"] if e["key"].startswith("end.") and e["value"]}
    expected = ["round_lengths.png", "scores.png", "scout_timing.png", "win_rates.png"]
    assert pngs == sorted(expected + (["end_reasons.png"] if len(ways) > 1 else []))
    assert all((plots / name).read_bytes().startswith(PNG) for name in pngs)

    page = report.read_text()
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert page.count('src="data:image/png;base64,') == len(pngs)
    official = {e["key"]: e for e in data["variants"][0]["estimates"]}
    for key in ("win.0", "turns", "skill_depth"):
        e = official[key]
        assert format_value(e["value"], e["unit"]) in page
        assert format_interval(e["low"], e["high"], e["unit"]) in page
    diff = data["comparisons"][0]["rows"][0]
    assert format_interval(diff["low"], diff["high"], diff["unit"]) in page


@pytest.mark.parametrize("argv, message", [
    (["simulate", "no-such-variant", "--games", "5"], "no-such-variant"),
    (["simulate", "official", "--players", "2", "--games", "5"], "is for 3, 4, 5 players, not 2"),
    (["simulate", "official", "--bots", "nobot", "--games", "5"], "unknown bot 'nobot'"),
    (["simulate", "official", "--games", "0"], "--games must be from 1 to 1,000,000,000, got 0"),
    (["simulate", "official", "--workers", "0"], "--workers must be at least 1"),
    (["simulate", "official", "--advantage-games", "-1"], "--advantage-games must be 0 or more"),
    (["simulate", "official", "--games", "5", "--strong", "nobot"], "unknown bot 'nobot'"),
    (["simulate", "official", "--games", "5", "--address", "ray://x:1"], "--address is for the ray backend"),
    (["compare", "official", "--games", "5"], "at least two variants"),
    (["simulate", "official", "--games", "5", "--report", "/no/such/folder/r.html"], "there is no folder"),
    (["simulate", "official", "--games", "5", "--json", "-", "--csv", "-"], "would both write"),
    (["compare", "official", "two-player", "--bots", "random,random,random", "--games", "5"],
     "2 players need 2 bots"),
    (["simulate", "official", "--games", "5", "--weak", "nobot"], "unknown bot 'nobot'"),
    (["sweep", "official", "--games", "5"], "at least one --set"),
    (["sweep", "official", "--games", "5", "--set", "scout_and_show.chips_per_rund=0,1"],
     "$.scout_and_show.chips_per_rund: unknown key 'chips_per_rund'; did you mean 'chips_per_round'?"),
    (["sweep", "official", "--games", "5", "--set", "scout_and_show.chips_per_round"], "expected PATH=V1,V2,..."),
    (["sweep", "official", "--games", "5", "--set", "a=1,2,3,4,5,6,7,8,9", "--set", "b=1,2,3,4,5,6,7,8"],
     "the grid has 72 points; at most 64"),
    (["sweep", "official", "--games", "5", "--set", "rounds.count=1,2", "--metrics", "scuts"],
     "unknown metric 'scuts'; did you mean 'scouts'?"),
    (["sweep", "official", "--games", "5", "--set", "rounds.count=1,2", "--players", "2"],
     "is for 3, 4, 5 players, not 2"),
    (["sweep", "two-player", "--games", "5", "--set", "deal.hand_size.2=30"], "but the deck holds only 44"),
    (["sweep", "official", "--games", "5", "--set", "extends=two-player"], "always extends 'official'"),
])
def test_bad_input_is_one_line_without_traceback(argv, message, capsys):
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_plots_into_a_file_is_refused_before_the_run(tmp_path, capsys):
    taken = tmp_path / "taken"
    taken.write_text("")
    assert main(["simulate", "official", "--games", "100000", "--plots", str(taken)]) == 1
    assert "it is a file, not a folder" in capsys.readouterr().err


def test_missing_extras_are_named():
    from scoutlab.sim import cli

    with pytest.raises(ValueError, match=r"needs no_such_module_xyz: pip install 'scoutlab\[sim\]'"):
        cli.require_extras(["rich", "no_such_module_xyz"])


def _wait_for_workers(pid: int, count: int, timeout: float = 60) -> None:
    """Wait until the process has `count` child processes (its pool), however loaded the machine is."""
    children = f"/proc/{pid}/task/{pid}/children"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with open(children) as f:
                if len(f.read().split()) >= count:
                    return
        except FileNotFoundError:  # the process has not started yet, or has ended
            pass
        time.sleep(0.1)
    raise AssertionError(f"no pool of {count} workers appeared within {timeout} s")


def test_ctrl_c_in_a_terminal_reports_what_finished():
    """A real SIGINT to the whole process group, as a terminal sends it, mid-run on two workers."""
    command = [sys.executable, "-m", "scoutlab.cli", "simulate", "two-player", "--games", "1000000",
               "--workers", "2", "--strong", "none"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        _wait_for_workers(process.pid, 2)
        time.sleep(1.5)  # the run is under way: the pool is up and games are being played
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert "(interrupted)" in out and "Interrupted: the numbers below cover the first" in out
    assert "P1 win rate" in out


def test_a_run_stopped_before_any_game_still_renders(tmp_path):
    from scoutlab.rules import load_rules
    from scoutlab.sim.charts import render_charts
    from scoutlab.sim.report import html_report
    from scoutlab.sim.results import build_report
    from scoutlab.sim.runner import Outcome, Plan, entrant
    from scoutlab.sim.table import print_report
    from scoutlab.sim.tally import Tally

    rules = load_rules("official")
    plan = Plan((entrant("official", rules, 3, ["random"]),), games=50, seed=0, strong="greedy", advantage_games=5)
    report = build_report("simulate", Outcome(plan, [Tally()], [], 0, True, 0.1, "inline", 1), [rules])
    out = io.StringIO()
    print_report(report, out)
    assert "Interrupted: the numbers below cover the first 0 games." in out.getvalue()
    assert json.loads(json.dumps(report.to_dict(), allow_nan=False))["games_done"] == 0
    assert "<table>" in html_report(report, render_charts(report))


def test_help_says_what_players_all_compares_and_how_to_aim_a_sweep(capsys):
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "each variant's counts compared with each other (3p vs 4p vs 5p)" in text
    assert "the variants compared within each count they share" in text
    with pytest.raises(SystemExit):
        main(["sweep", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--target METRIC=VALUE" in text and "say which point comes closest to this value" in text


@pytest.mark.parametrize(("command", "example"), [
    ("tune", "    scoutlab tune my-house-rule.yaml --players all --quick\n"),
    ("sweep", "    scoutlab sweep official --set rounds.count=2,3,4,5 --target turns_per_round=30\n"),
])
def test_help_shows_each_example_on_a_line_of_its_own(capsys, command, example):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = capsys.readouterr().out
    assert example in text
    assert "\n\n    scoutlab" in text  # the examples stand apart from the paragraph that introduces them


def test_the_main_commands_cost_is_one_figure_in_the_help_and_the_readme(capsys):
    import re
    from pathlib import Path

    from scoutlab.commands import compare

    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    helped = " ".join(capsys.readouterr().out.split())
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("- Cost of the main command"):readme.index("<!-- section: play -->")]
    said = {
        "compare --help": re.findall(r"about ([\d.]+(?: to [\d.]+)?) CPU-seconds", helped),
        "core/scoutlab/commands/compare.py": re.findall(r"about ([\d.]+(?: to [\d.]+)?) CPU-seconds", " ".join(compare.__doc__.split())),
        "README.md": re.findall(r"about ([\d.]+(?: to [\d.]+)?) CPU-seconds", section),
    }
    assert all(len(found) == 1 for found in said.values()), said
    assert len({found[0] for found in said.values()}) == 1, said
