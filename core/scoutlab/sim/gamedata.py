"""Per-game data: one row per game per seat and one per round per seat, streamed to CSV or Parquet, or kept.

A plain run keeps only tallies. When per-game data is asked for (`--games-csv`,
`--rounds-parquet` and the like, or `per_game=True` in Python), each chunk also returns
a compact record of every game (runner.GameRecord), and `GameData` turns them into rows
as the chunks are merged, in game order: written out at once, or kept for
`Report.games()` / `Report.rounds()`. The columns are typed and the same in every file:
whole numbers, true/false and text, never an empty string among numbers (docs/data.md).
"""

from __future__ import annotations

import csv
import importlib.util
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from typing import Any, TextIO

from scoutlab.base import files
from scoutlab.sim.runner import GameRecord, Plan, game_seed

# (column, type): "int", "float", "bool" or "str". The order is the files' column order.
GAME_COLUMNS: tuple[tuple[str, str], ...] = (
    ("variant", "str"),  # the run's label: "official (3p)", or a sweep point's settings
    ("spec", "str"),  # as given: a shipped name or a spec file
    ("players", "int"),
    ("game", "int"),  # the game's index in the run, from 0
    ("game_seed", "int"),  # `scoutlab game --variant SPEC --players N --seed GAME_SEED` replays it
    ("kind", "str"),  # "lineup": the --bots lineup; "skill": one --strong bot among --weak ones
    ("seat", "int"),  # 1 is the first player (P1)
    ("bot", "str"),
    ("score", "int"),  # the seat's final total
    ("won", "bool"),  # tied winners all won
    ("win_share", "float"),  # 1 for a sole winner, 1/k for each of k tied winners, else 0
    ("rank", "int"),  # 1 for the winners; ties share a rank
    ("rounds", "int"),
    ("turns", "int"),  # turns in the whole game
    ("round_ends", "str"),  # each round's end reason in order, separated by ";"
)
ROUND_COLUMNS: tuple[tuple[str, str], ...] = (
    ("variant", "str"),
    ("spec", "str"),
    ("players", "int"),
    ("game", "int"),
    ("game_seed", "int"),
    ("kind", "str"),
    ("round", "int"),  # from 1
    ("seat", "int"),
    ("bot", "str"),
    ("score", "int"),  # the seat's score in this round
    ("started", "bool"),  # this seat started the round
    ("end_reason", "str"),  # hand_emptied, everyone_scouted, opponent_stuck, a plugin's condition, turn_cap
    ("turns", "int"),  # turns in the round
    ("scouts", "int"),  # plain scouts in the round, all seats together
    ("scout_and_shows", "int"),  # Scout & Shows in the round, all seats together
    ("captured", "int"),  # cards captured in the round, all seats together
)
TABLES = {"games": GAME_COLUMNS, "rounds": ROUND_COLUMNS}
EXTRA = "pip install 'scoutlab[data]'"


def require_pandas(what: str, modules: Sequence[str] = ("pandas",)) -> None:
    """One line naming the extra when pandas (or pyarrow) is missing."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise ValueError(f"{what} needs {' and '.join(missing)}: {EXTRA}")


class Sink:
    """Where one table's rows go."""

    def write(self, rows: list[tuple]) -> None:
        raise NotImplementedError

    def close(self) -> None:
        pass


class CsvSink(Sink):
    """A CSV file with a header; true/false for flags; '-' is standard output."""

    def __init__(self, path: str, columns: Sequence[tuple[str, str]]):
        self._path = path
        self._closing = ExitStack()  # a file is moved into place at close(), with the rows written by then
        self._file: TextIO = sys.stdout if path == "-" else self._closing.enter_context(files.opened_for_writing(path, newline=""))
        self._bools = [i for i, (_, kind) in enumerate(columns) if kind == "bool"]
        self._writer = csv.writer(self._file)
        self._writer.writerow([name for name, _ in columns])

    def write(self, rows: list[tuple]) -> None:
        if self._bools:
            rows = [tuple(("true" if v else "false") if i in self._bools else v for i, v in enumerate(row)) for row in rows]
        with files.naming(self._path):
            self._writer.writerows(rows)

    def close(self) -> None:
        with files.naming(self._path), self._closing:  # a failed flush (a full disk) still closes, dropping the part
            self._file.flush()


class ParquetSink(Sink):
    """A Parquet file written a row group at a time, so a long run never holds its rows."""

    GROUP = 50_000  # rows per row group

    def __init__(self, path: str, columns: Sequence[tuple[str, str]]):
        require_pandas("--games-parquet and --rounds-parquet", ("pyarrow",))
        import pyarrow as pa
        import pyarrow.parquet as pq

        types = {"int": pa.int64(), "float": pa.float64(), "bool": pa.bool_(), "str": pa.string()}
        self._pa = pa
        self._schema = pa.schema([(name, types[kind]) for name, kind in columns])
        self._path = path
        with ExitStack() as opening:  # written beside its place, as a CSV is, and moved there at close()
            where = opening.enter_context(files.written_beside(path))
            with files.naming(path):
                self._writer = pq.ParquetWriter(where, self._schema)
            self._closing = opening.pop_all()
        self._pending: list[tuple] = []

    def write(self, rows: list[tuple]) -> None:
        self._pending += rows
        if len(self._pending) >= self.GROUP:
            self._flush()

    def _flush(self) -> None:
        if self._pending:
            columns = list(zip(*self._pending))
            table = self._pa.Table.from_arrays(
                [self._pa.array(col, type=field.type) for col, field in zip(columns, self._schema)], schema=self._schema)
            with files.naming(self._path):
                self._writer.write_table(table)
            self._pending = []

    def close(self) -> None:
        with files.naming(self._path), self._closing:  # a failed write drops the part, leaving the old file
            self._flush()
            self._writer.close()


class MemorySink(Sink):
    """Rows kept in memory, for `Report.games()` and `Report.rounds()`."""

    def __init__(self) -> None:
        self.rows: list[tuple] = []

    def write(self, rows: list[tuple]) -> None:
        self.rows += rows


class GameData:
    """Turns game records into rows of the games and rounds tables and hands them to the sinks."""

    def __init__(self, games: Sequence[Sink] = (), rounds: Sequence[Sink] = ()):
        self.games = list(games)
        self.rounds = list(rounds)
        self._plan: Plan | None = None
        self._labels: list[str] = []

    @property
    def wanted(self) -> bool:
        return bool(self.games or self.rounds)

    def start(self, plan: Plan, labels: Sequence[str]) -> None:
        """The run's plan and each entrant's label, as the report will name it."""
        self._plan, self._labels = plan, list(labels)

    def add(self, records: list[GameRecord]) -> None:
        assert self._plan is not None, "start() first"
        games: list[tuple] = []
        rounds: list[tuple] = []
        for record in records:
            game_rows, round_rows = rows(self._plan, self._labels, record)
            games += game_rows
            rounds += round_rows
        for sink in self.games:
            sink.write(games)
        for sink in self.rounds:
            sink.write(rounds)

    def close(self) -> None:
        for sink in self.games + self.rounds:
            sink.close()


def rows(plan: Plan, labels: Sequence[str], record: GameRecord) -> tuple[list[tuple], list[tuple]]:
    """The rows of one game: one per seat for the games table, one per round and seat for the rounds table."""
    e = plan.entrants[record.entrant]
    if record.strong_seat is None:
        bots = list(e.bots)
        kind = "lineup"
    else:
        bots = [plan.weak] * e.players
        bots[record.strong_seat] = plan.strong or ""
        kind = "skill"
    seed = game_seed(plan.seed, record.index)
    head = (labels[record.entrant], e.label, e.players, record.index, seed, kind)
    best = max(record.totals)
    winners = sum(total == best for total in record.totals)
    turns = sum(r.turns for r in record.rounds)
    ends = ";".join(r.reason for r in record.rounds)
    games = [
        (*head, seat + 1, bots[seat], total, total == best, 1 / winners if total == best else 0.0,
         1 + sum(other > total for other in record.totals), len(record.rounds), turns, ends)
        for seat, total in enumerate(record.totals)
    ]
    rounds = [
        (*head, number, seat + 1, bots[seat], score, seat == r.starter, r.reason, r.turns, r.scouts,
         r.scout_and_shows, r.captured)
        for number, r in enumerate(record.rounds, 1)
        for seat, score in enumerate(r.scores)
    ]
    return games, rounds


def frame(table: str, kept: list[tuple]) -> Any:
    """A pandas DataFrame of one table's rows, with its columns' types (also when there are no rows)."""
    require_pandas(f"Report.{table}()")
    import pandas as pd

    columns = TABLES[table]
    dtypes = {"int": "int64", "float": "float64", "bool": "bool", "str": "string"}
    data = pd.DataFrame.from_records(kept, columns=[name for name, _ in columns])
    return data.astype({name: dtypes[kind] for name, kind in columns})
