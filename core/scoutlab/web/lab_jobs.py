"""The lab's runs: each comparison or sweep plays in a process of its own, bounded in games, time and number.

A job is a `scoutlab.sim.compare` or `scoutlab.sim.sweep` run in a spawned process (one core,
inline: no pool under it), so the server's event loop and threads never play a game, and a
cancel really stops the work (the process is terminated). Progress comes back through two
shared integers (games done, games in the run). At the time limit the process gets SIGINT:
the simulator then stops after the chunk it is playing and the job keeps the games played;
if it has not stopped a little later, it is terminated. A finished job's files (findings,
charts, the HTML report, per-game CSV and Parquet) stay in a folder of their own for
KEEP_SECONDS, found again by the job's id, which is all a page needs to find it after a reload.
Jobs live in the server's memory: a restart forgets them.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import re
import secrets
import shutil
import signal
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from scoutlab.text.i18n import N_

#: Games per variant (or per sweep point) one job may ask for.
MAX_GAMES = 2000
#: Games of a whole job: variants (or points) times games.
MAX_JOB_GAMES = 8000
#: Seconds a job may play; then it stops after its current chunk and keeps what it played.
MAX_SECONDS = 300
#: Seconds a job has to stop after its time limit before it is terminated.
GRACE_SECONDS = 20
#: Jobs playing at once (the machine's two cores); more are refused until one ends.
MAX_RUNNING = 2
#: Jobs held, running or finished; the oldest finished is forgotten first.
MAX_KEPT = 40
#: Seconds a finished job's results stay available.
KEEP_SECONDS = 3600
#: Values of a swept knob.
MAX_SWEEP_VALUES = 6
#: A comparison that fits the bots first runs this quick tuning (scoutlab.sim.tune.Budget) for a variant without
#: one: 4,800 games, about 35 seconds of a core at 5 players, well inside MAX_SECONDS.
TUNING = {"generations": 5, "population": 8, "games": 100, "check_games": 400}
#: A job's id: 16 URL-safe characters (96 random bits), so it cannot be guessed.
JOB_ID = re.compile(r"^[A-Za-z0-9_-]{16}$")
#: File names a job may hold; nothing else is ever served from its folder.
FILES = re.compile(r"^(report\.html|games\.csv|rounds\.csv|games\.parquet|rounds\.parquet|chart-[0-9]{1,2}\.png)$")
#: The user's variant as the simulator reads it, inside the job's folder.
SPEC_FILE = "variant.yaml"

RUNNING, FINISHED, CANCELLED, FAILED = "running", "finished", "cancelled", "failed"


class Refused(ValueError):
    """A job the lab will not start: `message` is an English message id, `fields` fill it in."""

    def __init__(self, message: str, **fields: Any):
        super().__init__(message.format(**fields))
        self.message = message
        self.fields = fields


class Busy(Refused):
    """As many jobs run as the lab runs at once."""


@dataclass(frozen=True)
class Ask:
    """What a page asks to run. `text` is the variant's YAML, already validated by the spec layer."""

    kind: str  # "compare" or "sweep"
    text: str
    against: str = ""  # compare: the shipped variant compared with
    players: int | None = None  # None: the variant's smallest count
    games: int = 200
    knob: str = ""  # sweep: the spec path swept
    values: tuple[int, ...] = ()  # sweep: its values
    seed: int = 0
    tune: bool = False  # compare: fit the bots first to each variant that has no tuning

    def variants(self) -> int:
        return 2 if self.kind == "compare" else len(self.values)


@dataclass
class Job:
    id: str
    ask: Ask
    folder: Path
    started: float
    state: str = RUNNING
    ended: float | None = None
    timed_out: bool = False  # stopped by the time limit (with what it played, when it could stop in time)
    error: str = ""  # English message id of a failure
    error_fields: dict[str, Any] = field(default_factory=dict)
    process: Any = None
    counter: Any = None  # shared (games done, games in the run, 1 while the bots are fitted first)
    interrupted_at: float | None = None

    @property
    def progress(self) -> tuple[int, int]:
        if self.counter is None:
            return 0, 0
        return int(self.counter[0]), int(self.counter[1])

    @property
    def fitting(self) -> bool:
        """Whether the games counted are the tuning's that fits the bots first, not yet the run's."""
        return self.counter is not None and self.counter[2] == 1

    def result(self) -> dict[str, Any] | None:
        """The findings, charts and files the run wrote, once it has finished."""
        path = self.folder / "result.json"
        if self.state != FINISHED or not path.is_file():
            return None
        return json.loads(path.read_text(encoding="utf-8"))

    def file(self, name: str) -> Path | None:
        """One of a finished job's files, if the name is one a job makes and it exists."""
        if not FILES.match(name) or self.state != FINISHED:  # a cancelled or failed run's data stopped mid-write
            return None
        path = self.folder / name
        return path if path.is_file() else None


def check_ask(ask: Ask) -> None:
    """Refused, in one sentence, for a job past the caps (the spec itself is checked by the caller)."""
    if ask.kind not in ("compare", "sweep"):
        raise Refused(N_("Choose a comparison or a sweep."))
    if not 1 <= ask.games <= MAX_GAMES:
        raise Refused(N_("A run plays from 1 to {most} games per variant."), most=MAX_GAMES)
    if ask.kind == "sweep" and not 2 <= len(ask.values) <= MAX_SWEEP_VALUES:
        raise Refused(N_("A sweep tries from 2 to {most} values."), most=MAX_SWEEP_VALUES)
    if ask.games * ask.variants() > MAX_JOB_GAMES:
        raise Refused(N_("Games this run would play: {games}; the lab plays at most {most} in one run."),
                      games=ask.games * ask.variants(), most=MAX_JOB_GAMES)


class Jobs:
    """The lab's jobs: started, watched (time limits, ends, expiry) by one thread, found by id, cancelled."""

    def __init__(self, root: str | Path | None = None, max_running: int = MAX_RUNNING, max_seconds: float = MAX_SECONDS,
                 keep_seconds: float = KEEP_SECONDS, grace_seconds: float = GRACE_SECONDS):
        self._root = Path(root) if root else None  # made with the first job: an app that runs none leaves no folder
        self.max_running, self.max_seconds, self.keep_seconds, self.grace_seconds = max_running, max_seconds, keep_seconds, grace_seconds
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._context = multiprocessing.get_context("spawn")  # never fork a server full of threads
        self._watcher: threading.Thread | None = None
        self._closed = False

    def start(self, ask: Ask) -> Job:
        check_ask(ask)
        with self._lock:
            self._forget_expired()
            if sum(job.state == RUNNING for job in self._jobs.values()) >= self.max_running:
                raise Busy(N_("The lab already runs as many runs as it can at once ({count}); try again when one ends."),
                              count=self.max_running)
            if len(self._jobs) >= MAX_KEPT:
                oldest = min((j for j in self._jobs.values() if j.state != RUNNING), key=lambda j: j.ended or 0.0, default=None)
                if oldest is not None:
                    self._drop(oldest)
            job_id = secrets.token_urlsafe(12)
            folder = self.root() / job_id
            folder.mkdir(parents=True)
            counter = self._context.Array("q", 3, lock=False)
            process = self._context.Process(target=play, args=(asdict(ask), str(folder), counter), daemon=True,
                                            name=f"scoutlab-lab-{job_id}")
            job = Job(job_id, ask, folder, time.monotonic(), process=process, counter=counter)
            process.start()
            self._jobs[job_id] = job
            self._watch()
        return job

    def root(self) -> Path:
        """The folder of every job's folder (call with the lock held)."""
        if self._root is None:
            self._root = Path(tempfile.mkdtemp(prefix="scoutlab-lab-"))
        return self._root

    def get(self, job_id: str) -> Job | None:
        if not isinstance(job_id, str) or not JOB_ID.match(job_id):
            return None
        with self._lock:
            job = self._jobs.get(job_id)
            if job is not None:
                self._refresh(job)
            return job

    def cancel(self, job_id: str) -> Job | None:
        job = self.get(job_id)
        if job is None:
            return None
        with self._lock:
            if job.state == RUNNING:
                job.process.terminate()
                job.process.join(5)
                job.state, job.ended = CANCELLED, time.monotonic()
        return job

    def running(self) -> int:
        with self._lock:
            return sum(job.state == RUNNING for job in self._jobs.values())

    def close(self) -> None:
        """Stop every running job and remove every job's files (the server is shutting down)."""
        with self._lock:
            self._closed = True
            for job in list(self._jobs.values()):
                self._drop(job)
            if self._root is not None:
                shutil.rmtree(self._root, ignore_errors=True)

    # -- the watcher --------------------------------------------------------------------------

    def _watch(self) -> None:
        if self._watcher is None or not self._watcher.is_alive():
            self._watcher = threading.Thread(target=self._loop, name="scoutlab-lab-watcher", daemon=True)
            self._watcher.start()

    def _loop(self) -> None:
        # Runs while any job runs: a time limit is kept even when no page asks.
        while True:
            time.sleep(0.25)
            with self._lock:
                if self._closed:
                    return
                for job in list(self._jobs.values()):
                    self._refresh(job)
                self._forget_expired()
                if not any(job.state == RUNNING for job in self._jobs.values()):
                    self._watcher = None
                    return

    def _refresh(self, job: Job) -> None:
        """Bring a running job's state up to date: ended, or past its time limit (call with the lock held)."""
        if job.state != RUNNING:
            return
        now = time.monotonic()
        if not job.process.is_alive():
            job.process.join()
            job.ended = now
            failure = job.folder / "failure.json"
            if job.process.exitcode == 0 and (job.folder / "result.json").is_file():
                job.state = FINISHED
            else:
                job.state = FAILED
                if failure.is_file():
                    said = json.loads(failure.read_text(encoding="utf-8"))
                    job.error, job.error_fields = said["message"], said["fields"]
                elif job.timed_out:
                    job.error = N_("The run passed the time limit of {seconds} seconds and was stopped.")
                    job.error_fields = {"seconds": int(self.max_seconds)}
                else:
                    job.error = N_("The run stopped unexpectedly.")
            return
        elapsed = now - job.started
        if elapsed > self.max_seconds and job.interrupted_at is None:
            job.timed_out, job.interrupted_at = True, now
            with contextlib.suppress(ProcessLookupError):
                os.kill(job.process.pid, signal.SIGINT)  # the simulator stops after its chunk and reports what it played
        elif job.interrupted_at is not None and now - job.interrupted_at > self.grace_seconds:
            job.process.terminate()
            job.process.join(5)

    def _forget_expired(self) -> None:
        now = time.monotonic()
        for job in list(self._jobs.values()):
            if job.state != RUNNING and job.ended is not None and now - job.ended > self.keep_seconds:
                self._drop(job)

    def _drop(self, job: Job) -> None:
        if job.state == RUNNING and job.process.is_alive():
            job.process.terminate()
            job.process.join(5)
        self._jobs.pop(job.id, None)
        shutil.rmtree(job.folder, ignore_errors=True)


# -- in the job's own process ------------------------------------------------------------------


def play(ask_fields: dict[str, Any], folder: str, counter: Any) -> None:
    """The job's process: run the comparison or sweep, then write its findings, charts, report and data."""
    os.chdir(folder)  # the variant's file is named as the user's own: labels and the data's `spec` column read well
    ask = Ask(**{**ask_fields, "values": tuple(ask_fields["values"])})
    Path(SPEC_FILE).write_text(ask.text, encoding="utf-8")

    def progress(done: int, total: int) -> None:
        counter[0], counter[1], counter[2] = done, total, 0

    def fitting(done: int, total: int) -> None:
        counter[0], counter[1], counter[2] = done, total, 1

    try:
        report, charts = _run(ask, progress, fitting)
    except TuningStopped:
        Path("failure.json").write_text(json.dumps({"message": N_(
            "The time ran out while the bots were being fitted to the variant, before any game of the run."),
            "fields": {}}), encoding="utf-8")
        return
    except (ValueError, OSError) as exc:  # a spec or option the simulator refuses: said in one line
        Path("failure.json").write_text(json.dumps({"message": N_("The simulator refused this run: {reason}"),
                                                    "fields": {"reason": str(exc)[:300]}}), encoding="utf-8")
        return
    _write(report, charts)


def _run(ask: Ask, progress, fitting) -> tuple[Any, list]:
    # imported in the job's process only: the server itself never loads the simulator
    from scoutlab.sim import compare
    from scoutlab.sim.gamedata import TABLES, CsvSink, GameData, ParquetSink, Sink
    from scoutlab.sim.sweep import sweep

    games: list[Sink] = [CsvSink("games.csv", TABLES["games"])]
    rounds: list[Sink] = [CsvSink("rounds.csv", TABLES["rounds"])]
    if _has("pyarrow"):
        games.append(ParquetSink("games.parquet", TABLES["games"]))
        rounds.append(ParquetSink("rounds.parquet", TABLES["rounds"]))
    options = {"workers": 1, "seed": ask.seed, "progress": progress, "data": GameData(games, rounds)}
    if ask.kind == "compare":
        specs = [(ask.against, ask.players), (SPEC_FILE, ask.players)]
        fitted = _tune_first(specs, fitting) if ask.tune else []
        report = compare(specs, games=ask.games, **options)
        report.findings[:0] = fitted
    else:
        values = ",".join(str(v) for v in ask.values)
        report = sweep(SPEC_FILE, [f"{ask.knob}={values}"], players=ask.players, games=ask.games, **options)
    return report, _charts(report)


class TuningStopped(Exception):
    """The time limit came while the bots were being fitted, before the run played a game."""


def _tune_first(specs: list, progress) -> list[str]:
    """Fit the bots to each variant of the run without a tuning (`scoutlab tune`'s search, on the lab's small
    budget), kept in the job's folder only, so the server's cache never grows with the lab's variants; a finding
    for each."""
    # imported in the job's process only, as above (and pycma with it)
    from scoutlab.sim.tune import Budget, fitted_words, tune_untuned

    os.environ["SCOUTLAB_CACHE_DIR"] = os.getcwd()  # the job's folder: the comparison below finds the tunings there
    budget = Budget(**TUNING)
    try:
        done = tune_untuned(specs, False, budget, workers=1, report=lambda line: None, progress=progress)
    except KeyboardInterrupt:  # the time limit's SIGINT: no game of the run has been played
        raise TuningStopped from None
    return [fitted_words(kept, budget, "a quick tuning") for kept in done]


def _charts(report) -> list:
    # imported in the job's process only: matplotlib alone takes about half a second
    from scoutlab.sim.charts import render_charts
    from scoutlab.sim.sweep_view import sweep_charts

    return (sweep_charts(report) if report.sweep else []) + render_charts(report)


def _write(report, charts: list) -> None:
    # imported in the job's process only, as above
    from scoutlab.sim.report import write_report

    write_report(report, charts, "report.html")
    shown = []
    for number, chart in enumerate(charts):
        Path(f"chart-{number}.png").write_bytes(chart.png)
        shown.append({"file": f"chart-{number}.png", "stem": chart.stem, "title": chart.title, "caption": chart.caption})
    files = [name for name in ("report.html", "games.csv", "rounds.csv", "games.parquet", "rounds.parquet") if Path(name).is_file()]
    result = {"findings": list(report.findings), "charts": shown, "files": files, "interrupted": bool(report.interrupted),
              "games_done": report.games_done, "games_asked": report.games_asked}
    Path("result.json.part").write_text(json.dumps(result), encoding="utf-8")
    os.replace("result.json.part", "result.json")  # whole or absent: the server never reads half a result


def _has(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None
