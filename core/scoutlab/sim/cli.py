"""What `scoutlab simulate` and `scoutlab compare` share: their options, the progress bar, the outputs."""

from __future__ import annotations

import argparse
import csv
import importlib.util
import io
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from scoutlab.base import files
from scoutlab.base.limits import digits, excerpt, on_one_line
from scoutlab.bots import split_bots
from scoutlab.sim import ADVANTAGE_CAP, LINEUP, WEAK_BOT, run
from scoutlab.sim.gamedata import TABLES, CsvSink, GameData, ParquetSink, require_pandas
from scoutlab.sim.results import Report
from scoutlab.sim.sweep import sweep
from scoutlab.sim.table import print_report
from scoutlab.spec.variant import SpecError, load_spec


def add_run_arguments(parser: argparse.ArgumentParser, games: int) -> None:
    """The options both commands take; `games` is the command's default number of games."""
    parser.add_argument("--players", type=players_option, metavar="N|all",
                        help="number of players (default: each variant's smallest); 'all': every count each "
                             "variant allows, each variant's counts compared with each other (3p vs 4p vs 5p) and "
                             "the variants compared within each count they share")
    parser.add_argument("--games", type=int, default=games, help=f"games per variant (default: {games})")
    parser.add_argument("--bots", default=LINEUP,
                        help=f"comma-separated bots, one per seat or one for all (default: {LINEUP}; "
                             "random, greedy, heuristic, mcts as baselines)")
    parser.add_argument("--seed", type=int, default=0,
                        help="run seed: the same seed gives the same numbers on any number of workers (default: 0)")
    parser.add_argument("--workers", type=int, help="worker processes (default: every core)")
    parser.add_argument("--backend", choices=["pool", "ray"], default="pool",
                        help="pool: local processes, needs no service (default); ray: a Ray cluster")
    parser.add_argument("--address", help="Ray cluster address, e.g. ray://head:10001 (default: a local Ray)")
    parser.add_argument("--strong", default="auto",
                        help="the stronger bot of the skill games, one seat among --weak bots "
                             "(default: skilled, else heuristic, else greedy; 'none' skips the skill games)")
    parser.add_argument("--weak", default=WEAK_BOT,
                        help=f"the weaker bots of the skill games (default: {WEAK_BOT})")
    parser.add_argument("--advantage-games", type=int,
                        help=f"skill games per variant (default: half of --games, at most {ADVANTAGE_CAP})")
    parser.add_argument("--json", metavar="FILE", help="write the report as JSON ('-' for standard output)")
    parser.add_argument("--csv", metavar="FILE", help="write one row per estimate and difference ('-' for standard output)")
    parser.add_argument("--games-csv", metavar="FILE",
                        help="write one row per game and seat: variant, game, game_seed, seat, bot, score, won, rounds, "
                             "turns, round_ends (docs/data.md; '-' for standard output)")
    parser.add_argument("--rounds-csv", metavar="FILE",
                        help="write one row per round and seat: game, round, seat, bot, score, started, end_reason, turns")
    parser.add_argument("--games-parquet", metavar="FILE",
                        help="the --games-csv rows as Parquet (needs pyarrow: pip install 'scoutlab[data]')")
    parser.add_argument("--rounds-parquet", metavar="FILE", help="the --rounds-csv rows as Parquet")
    parser.add_argument("--plots", metavar="DIR", help="write PNG charts into DIR")
    parser.add_argument("--report", metavar="FILE", help="write a self-contained HTML report")


def run_command(command: str, specs: list[tuple[str, int | None]], args: argparse.Namespace) -> int:
    """Run, then print and write what the options ask for; 130 when Ctrl-C cut the run short."""

    to_stdout = [option for option, path in outputs(args) if path == "-"]
    if len(to_stdout) > 1:
        raise ValueError(f"{' and '.join(f'{o} -' for o in to_stdout)} would {'both' if len(to_stdout) == 2 else 'all'} write to standard output; give files")
    for option in ("--games-parquet", "--rounds-parquet"):
        path = getattr(args, option[2:].replace("-", "_"))
        if path == "-":
            raise ValueError(f"{option} writes a file, not standard output; give a file name")
        if path and files.is_pipe(path):  # Parquet seeks as it writes: a pipe fails after the run, or waits for ever
            raise ValueError(f"{option} {on_one_line(path)}: Parquet is written with seeks, so it needs a file, "
                             "not a named pipe; give a file name")
    require_extras(["rich", "numpy"] + (["matplotlib"] if args.plots or args.report else []))
    if args.games_parquet or args.rounds_parquet:
        require_pandas("--games-parquet and --rounds-parquet", ("pyarrow",))
    check_outputs(args, [read for spec, _ in specs for read in _files_read(spec)])  # before the run: a typo costs no run

    strong = None if args.strong.lower() in ("none", "") else args.strong
    options = {"bots": split_bots(args.bots), "seed": args.seed, "workers": args.workers, "backend": args.backend,
                   "address": args.address, "strong": strong, "weak": args.weak, "advantage_games": args.advantage_games}
    every = args.players == ALL
    if every:
        specs = [(spec, None) for spec, _ in specs]
    # opened only when the run starts (inside run_entries' data.start is later still): a load error leaves no empty file
    options["data"] = LazyGameData(args)
    fitted: list[str] = []  # what --tune found, said first in the findings (and so in the report)
    if getattr(args, "tune", False):
        require_extras(["cma"])
        # imported only when asked: tuning needs the cma package, which a plain compare does not
        from scoutlab.bots.tuned import check_cache
        from scoutlab.sim.tune import Budget, fitted_words, tune_untuned, untuned_keys

        check_cache(untuned_keys(specs, every))
        budget = Budget()
        done = tune_untuned(specs, every, budget, workers=args.workers,
                            report=lambda line: print(line, file=sys.stderr, flush=True))
        fitted = [fitted_words(kept, budget) for kept in done]
    with progress_bar() as progress:
        if command == "sweep":
            if every:
                raise ValueError("sweep plays one player count: give --players N")
            metrics = [m.strip() for m in args.metrics.split(",") if m.strip()] if args.metrics else None
            report = sweep(specs[0][0], args.sets, players=specs[0][1], games=args.games, metrics=metrics,
                           targets=getattr(args, "targets", ()), progress=progress, **options)
        else:
            report = run(command, specs, args.games, every_count=every, progress=progress, **options)
    report.findings[:0] = fitted
    write_outputs(report, args)
    return 130 if report.interrupted else 0


class LazyGameData(GameData):
    """The per-game files the options ask for, opened when the run starts (after its specs and bots are checked)."""

    def __init__(self, args: argparse.Namespace):
        super().__init__()
        self._files = [(table, fmt, path) for table in ("games", "rounds") for fmt in ("csv", "parquet")
                       if (path := getattr(args, f"{table}_{fmt}", None))]

    @property
    def wanted(self) -> bool:
        return bool(self._files) or super().wanted

    def start(self, plan, labels) -> None:
        for table, fmt, path in self._files:
            sink = (CsvSink if fmt == "csv" else ParquetSink)(path, TABLES[table])
            (self.games if table == "games" else self.rounds).append(sink)
        self._files = []
        super().start(plan, labels)


FILE_OPTIONS = ("json", "csv", "games_csv", "rounds_csv", "games_parquet", "rounds_parquet", "report")  # as args names them


def outputs(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(option, path) of every file option given."""
    return [(f"--{name.replace('_', '-')}", path) for name in FILE_OPTIONS if (path := getattr(args, name, None))]


def write_outputs(report: Report, args: argparse.Namespace) -> None:
    machine_stdout = any(path == "-" for _, path in outputs(args))
    if machine_stdout:
        print(report.describe(), file=sys.stderr)
    else:
        print_report(report)
    texts: list[tuple[str, str]] = []  # written as a set: a run that cannot write one replaces none
    if args.json:
        texts.append((args.json, json.dumps(report.to_dict(), indent=2, allow_nan=False) + "\n"))
    if args.csv:
        texts.append((args.csv, _csv_text(report.csv_rows())))
    written = []
    if args.plots or args.report:
        # imported only when charts or a report are asked for: matplotlib alone takes about half a second
        from scoutlab.sim.charts import render_charts, save_charts
        from scoutlab.sim.report import html_report
        from scoutlab.sim.sweep_view import sweep_charts

        # drawn once for both the folder and the page; a sweep's own charts first
        charts = (sweep_charts(report) if report.sweep else []) + render_charts(report)
        if args.report:
            texts.append((args.report, html_report(report, charts)))
    for text in [text for path, text in texts if path == "-"]:
        sys.stdout.write(text)
    files.write_all((path, text) for path, text in texts if path != "-")
    if args.plots:
        written += [str(p) for p in save_charts(charts, args.plots)]
    if args.report and args.report != "-":
        written.append(args.report)
    for path in written:
        print(f"wrote {path}", file=sys.stderr if machine_stdout else sys.stdout)


def require_extras(modules: list[str]) -> None:
    """Say which optional packages are missing, instead of failing on an import mid-run."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise ValueError(f"this needs {', '.join(missing)}: pip install 'scoutlab[sim]'")


def _files_read(spec: str) -> tuple[str, ...]:
    """The spec files a run reads for `spec`: it and every file its `extends` chain names (an output must be none)."""
    try:
        return load_spec(spec).chain
    except SpecError:  # the run says why, naming the file, when it loads the spec
        return (spec,)


def check_outputs(args: argparse.Namespace, specs: list[str]) -> None:
    """Every output file must be named, writable where it is named, its own and none of the spec files read;
    --plots must not be a file."""
    for name in (*FILE_OPTIONS, "plots"):
        if getattr(args, name, None) == "":  # would be skipped as not given
            raise ValueError(f"--{name.replace('_', '-')} needs a file name, not ''")
    files.check_outputs(outputs(args), reads=specs)  # a shipped name is no file: check_output passes it by
    if args.plots and Path(args.plots).exists() and not Path(args.plots).is_dir():
        raise ValueError(f"cannot write --plots into {args.plots}: it is a file, not a folder")


ALL = "all"


def players_option(text: str) -> int | str:
    """--players: a count, or 'all'."""
    if text.strip().lower() == ALL:
        return ALL
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of players or 'all', got {excerpt(text)}") from None


def parse_spec(text: str, players: int | str | None) -> tuple[str, int | None]:
    """`official:4` -> ("official", 4); `house.yaml` -> ("house.yaml", players)."""
    name, colon, count = text.rpartition(":")
    if colon and digits(count) and name:
        if len(count) > 3:  # no variant seats a thousand players; int() of a long text is slow, or refused
            raise ValueError(f"{name}: {count[:20]}{'...' * (len(count) > 20)} players is more than any variant seats")
        return name, int(count)
    return text, players if isinstance(players, int) else None


@contextmanager
def progress_bar() -> Iterator:
    """A rich progress bar with rate and ETA on a terminal (stderr); nothing when piped."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.progress import BarColumn, Progress, ProgressColumn, TextColumn
    from rich.text import Text

    class RateAndEta(ProgressColumn):
        """Games so far, the mean rate since the run began, and the time left at that rate."""

        def render(self, task):
            if task.total is None:
                return Text("starting")
            rate = task.completed / task.elapsed if task.elapsed and task.completed else 0.0
            if not rate:
                return Text(f"0/{task.total} games")
            left = int((task.total - task.completed) / rate)
            return Text(f"{task.completed}/{task.total} games  {rate:.0f} games/s  ETA {left // 60}:{left % 60:02d}")

    with Progress(TextColumn("simulating"), BarColumn(), RateAndEta(), transient=True) as bar:
        task = bar.add_task("games", total=None)

        def update(done: int, total: int) -> None:
            if bar.tasks[0].total is None:
                bar.reset(task, total=total)  # the clock starts with the games, not with loading
            bar.update(task, completed=done)

        yield update


def _csv_text(rows: list[dict]) -> str:
    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["kind"])
    writer.writeheader()
    # None is an empty field; flags are true/false, as in the per-game files
    writer.writerows({k: ("true" if v else "false") if isinstance(v, bool) else v for k, v in row.items()} for row in rows)
    return out.getvalue()

