"""Per-game data out of simulate, compare and sweep: files, the Python API and its example (docs/data.md)."""

from __future__ import annotations

import csv
import importlib.util
import os
import re
from pathlib import Path

import pytest

from scoutlab.cli import main
from scoutlab.match import make_bots, play_game
from scoutlab.rules import load_rules
from scoutlab.sim import compare, simulate
from scoutlab.sim.gamedata import GAME_COLUMNS, ROUND_COLUMNS
from scoutlab.sim.runner import game_seed

ROOT = Path(__file__).resolve().parents[1]
QUICK = ["--games", "12", "--workers", "1"]


def _read(path: Path) -> list[dict]:
    return list(csv.DictReader(path.open(encoding="utf-8")))


def test_compare_writes_a_row_per_game_and_seat_and_per_round_and_seat(tmp_path, capsys):
    games, rounds = tmp_path / "g.csv", tmp_path / "r.csv"
    assert main(["compare", "official", "two-player", *QUICK, "--strong", "greedy", "--weak", "random", "--advantage-games", "3",
                 "--games-csv", str(games), "--rounds-csv", str(rounds)]) == 0
    g, r = _read(games), _read(rounds)
    assert list(g[0]) == [name for name, _ in GAME_COLUMNS] and list(r[0]) == [name for name, _ in ROUND_COLUMNS]
    lineup = [row for row in g if row["kind"] == "lineup"]
    assert len(lineup) == 12 * 3 + 12 * 2  # every game, every seat
    assert len([row for row in g if row["kind"] == "skill"]) == 3 * 3 + 3 * 2
    assert [int(row["game"]) for row in g] == sorted(int(row["game"]) for row in g)  # in game order
    for row in g:
        assert row["won"] in ("true", "false") and row["game_seed"] == str(game_seed(0, int(row["game"])))
    skill = [row for row in g if row["kind"] == "skill" and row["variant"] == "official (3p)" and row["game"] == "1"]
    assert [row["bot"] for row in skill] == ["random", "greedy", "random"]  # the strong bot visits seat 1 + game % n
    # the rounds' scores add up to each game's score, seat by seat
    totals: dict[tuple, int] = {}
    for row in r:
        key = (row["variant"], row["kind"], row["game"], row["seat"])
        totals[key] = totals.get(key, 0) + int(row["score"])
    assert totals == {(row["variant"], row["kind"], row["game"], row["seat"]): int(row["score"]) for row in g}
    assert {row["end_reason"] for row in r} <= {"hand_emptied", "everyone_scouted", "opponent_stuck", "turn_cap"}


def test_a_games_seed_replays_the_game_with_scoutlab_game(tmp_path, capsys):
    games = tmp_path / "g.csv"
    assert main(["simulate", "official:4", "--games", "3", "--workers", "1", "--strong", "none", "--bots", "greedy",
                 "--seed", "5", "--games-csv", str(games)]) == 0
    row = [row for row in _read(games) if row["game"] == "2"]
    rules = load_rules("official")
    seed = int(row[0]["game_seed"])
    state = play_game(rules, 4, make_bots(["greedy"], rules, 4, seed), seed)
    assert list(state.totals) == [int(r["score"]) for r in row]


def test_the_numbers_are_the_same_with_and_without_per_game_rows():
    plain = simulate("two-player", games=20, workers=1, strong=None, seed=3)
    kept = simulate("two-player", games=20, workers=1, strong=None, seed=3, per_game=True)
    assert plain.to_dict()["variants"] == kept.to_dict()["variants"]
    assert plain.kept is None  # a plain run keeps no rows: constant memory
    assert "kept" not in kept.to_dict()


def test_a_plain_runs_chunks_carry_no_games():
    from scoutlab.sim.runner import Plan, entrant, play_chunk

    rules = load_rules("two-player")
    e = entrant("two-player", rules, 2, ["greedy"])
    assert play_chunk(Plan((e,), 10, 0), 0, 10).records == []
    assert len(play_chunk(Plan((e,), 10, 0, per_game=True), 0, 10).records) == 10


def test_parquet_files_have_typed_columns(tmp_path, capsys):
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    games, rounds = tmp_path / "g.parquet", tmp_path / "r.parquet"
    assert main(["simulate", "two-player", *QUICK, "--strong", "none", "--games-parquet", str(games),
                 "--rounds-parquet", str(rounds)]) == 0
    table = pq.read_table(games)
    assert table.num_rows == 24
    types = {field.name: str(field.type) for field in table.schema}
    assert types["score"] == "int64" and types["won"] == "bool" and types["variant"] == "string"
    assert types["win_share"] == "double"
    assert {field.name: str(field.type) for field in pq.read_table(rounds).schema}["started"] == "bool"


def test_sweep_rows_are_named_by_their_point(tmp_path, capsys):
    games = tmp_path / "g.csv"
    assert main(["sweep", "two-player", *QUICK, "--set", "scout_and_show.chips_per_round=0,2",
                 "--games-csv", str(games)]) == 0
    assert {row["variant"] for row in _read(games)} == {"chips_per_round=0", "chips_per_round=2"}


def test_report_games_and_rounds_are_dataframes():
    pytest.importorskip("pandas")
    report = compare([("official", 3), ("two-player", None)], games=10, workers=1, strong=None, per_game=True)
    games, rounds = report.games(), report.rounds()
    assert len(games) == 10 * 3 + 10 * 2
    assert str(games["score"].dtype) == "int64" and str(games["won"].dtype) == "bool"
    assert str(games["variant"].dtype) == "string" and str(rounds["end_reason"].dtype) == "string"
    assert (rounds.groupby(["variant", "game"])["round"].max().groupby("variant").min() >= 2).all()


def test_report_games_without_per_game_says_how_to_ask():
    report = simulate("two-player", games=5, workers=1, strong=None)
    with pytest.raises(ValueError, match=r"kept no per-game rows; run it with per_game=True"):
        report.games()


def test_without_pandas_games_names_the_extra(monkeypatch):
    report = simulate("two-player", games=5, workers=1, strong=None, per_game=True)
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pandas" else real(name, *a))
    with pytest.raises(ValueError, match=r"^Report.games\(\) needs pandas: pip install 'scoutlab\[data\]'$"):
        report.games()


def test_parquet_without_pyarrow_is_refused_before_the_run(monkeypatch, tmp_path, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pyarrow" else real(name, *a))
    assert main(["simulate", "two-player", "--games", "100000", "--games-parquet", str(tmp_path / "g.parquet")]) == 1
    assert "needs pyarrow: pip install 'scoutlab[data]'" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--games-csv", "-", "--csv", "-"], "--csv - and --games-csv - would both write to standard output"),
    (["--games-parquet", "-"], "--games-parquet writes a file, not standard output"),
    (["--rounds-csv", "/no/such/folder/r.csv"], "cannot write --rounds-csv /no/such/folder/r.csv: there is no folder"),
])
def test_bad_data_options_are_one_line(argv, message, capsys):
    assert main(["simulate", "two-player", "--games", "5", *argv]) == 1
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
@pytest.mark.parametrize("option", ["--games-parquet", "--rounds-parquet"])
def test_parquet_to_a_named_pipe_is_refused_before_the_run(option, tmp_path, capsys):
    """Parquet seeks as it writes: to a pipe nobody read it waited for ever, to a read one it failed after the run."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    assert main(["simulate", "two-player", "--games", "100000", option, str(pipe)]) == 1
    err = capsys.readouterr().err
    assert f"{option} {pipe}: Parquet is written with seeks, so it needs a file, not a named pipe" in err
    assert len(err.strip().splitlines()) == 1


def test_csv_columns_are_typed():
    report = compare([("official", 3), ("two-player", None)], games=12, workers=1, strong=None)
    rows = report.csv_rows()
    for column in ("value", "low", "high", "half_width", "p", "p_holm"):
        assert all(row[column] is None or isinstance(row[column], (int, float)) for row in rows), column
    assert all(row["significant"] is None or isinstance(row["significant"], bool) for row in rows)
    estimates = [row for row in rows if row["kind"] == "estimate"]
    assert all(row["p"] is None and row["versus"] is None and row["significant"] is None for row in estimates)
    assert any(isinstance(row["p"], float) for row in rows if row["kind"] != "estimate")


def test_csv_file_flags_are_true_or_false_and_missing_is_empty(tmp_path, capsys):
    out = tmp_path / "c.csv"
    assert main(["compare", "official", "two-player", *QUICK, "--strong", "none", "--csv", str(out)]) == 0
    rows = _read(out)
    assert {row["significant"] for row in rows} <= {"", "true", "false"}
    assert {row["p"] for row in rows if row["kind"] == "estimate"} == {""}


def test_the_example_in_docs_data_md_runs():
    pytest.importorskip("pandas")
    text = (ROOT / "docs" / "data.md").read_text(encoding="utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", text, re.S)
    exec(compile(code, "docs/data.md", "exec"), {})
