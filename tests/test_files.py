"""Output files: checked before the work, written whole or not at all, a named pipe never waited on for ever."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from scoutlab.base import files
from scoutlab.cli import main


def test_a_failed_write_leaves_the_old_file_and_no_part_file(tmp_path):
    target = tmp_path / "out.json"
    target.write_text("the old file\n")
    with pytest.raises(UnicodeEncodeError):
        files.write_whole(target, "half of it, then a character UTF-8 cannot write: \ud800")
    assert target.read_text() == "the old file\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_a_new_file_gets_the_permissions_of_any_new_file_and_an_old_one_keeps_its_own(tmp_path):
    umask = os.umask(0o022)
    try:
        files.write_whole(tmp_path / "new.txt", "x")
        old = tmp_path / "old.txt"
        old.write_text("y")
        old.chmod(0o640)
        files.write_whole(old, "z")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644  # not mkstemp's 0600
    assert stat.S_IMODE(old.stat().st_mode) == 0o640 and old.read_text() == "z"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_nobody_reads_is_refused_at_once(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(files.NoReader, match="no program reads"):
        files.write_whole(pipe, "never read")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_with_a_reader_gets_everything(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(Path(pipe).read_text()))
    reader.start()
    text = "row\n" * 50_000  # more than a pipe holds: the writer must wait for the reader, not fail
    for _ in range(500):  # the reader opens the pipe when its thread runs
        try:
            files.write_whole(pipe, text)
            break
        except files.NoReader:
            threading.Event().wait(0.01)
    reader.join(10)
    assert got == [text]


def test_outputs_are_refused_before_any_work(tmp_path):
    spec = tmp_path / "house.yaml"
    spec.write_text("extends: official\nname: house\n")
    with pytest.raises(ValueError, match="the command reads that file"):
        files.check_outputs([("--json", str(spec))], reads=[str(spec)])
    with pytest.raises(ValueError, match="--json and --csv both name"):
        files.check_outputs([("--json", str(tmp_path / "a")), ("--csv", str(tmp_path / ".." / tmp_path.name / "a"))])
    with pytest.raises(ValueError, match="it is a folder"):
        files.check_outputs([("--json", str(tmp_path))])
    with pytest.raises(ValueError, match="there is no folder"):
        files.check_outputs([("--json", str(tmp_path / "no" / "a.json"))])
    files.check_outputs([("--json", "-"), ("--csv", str(tmp_path / "a.csv"))])  # fine: nothing made yet
    assert sorted(p.name for p in tmp_path.iterdir()) == ["house.yaml"]


def test_a_game_never_writes_its_record_over_its_own_variant(tmp_path, capsys):
    spec = tmp_path / "house.yaml"
    spec.write_text("extends: two-player\nname: house\n")
    assert main(["game", "--variant", str(spec), "--quiet", "--record", str(spec)]) == 1
    assert "cannot write --record" in capsys.readouterr().err
    assert spec.read_text() == "extends: two-player\nname: house\n"


def test_a_simulation_never_writes_its_report_over_its_spec(tmp_path, capsys):
    spec = tmp_path / "house.yaml"
    spec.write_text("extends: official\nname: house\n")
    assert main(["simulate", str(spec), "--games", "2", "--workers", "1", "--strong", "none", "--report", str(spec)]) == 1
    assert "the command reads that file" in capsys.readouterr().err
    assert spec.read_text() == "extends: official\nname: house\n"


@pytest.mark.parametrize("command", [["simulate", "{child}"], ["compare", "official", "{child}"],
                                     ["sweep", "{child}", "--set", "scoring.captured_card=1,2"]])
def test_no_run_writes_over_a_file_its_spec_extends(tmp_path, capsys, command):
    parent, child = tmp_path / "parent.yaml", tmp_path / "sub" / "child.yaml"
    parent.write_text("extends: official\nname: parent\n")
    child.parent.mkdir()
    child.write_text("extends: ../parent.yaml\nname: child\n")
    args = [part.format(child=child) for part in command]
    assert main([*args, "--games", "2", "--workers", "1", "--strong", "none", "--json", str(parent)]) == 1
    assert f"cannot write --json {parent}: the command reads that file" in capsys.readouterr().err
    assert parent.read_text() == "extends: official\nname: parent\n"


def test_a_link_is_written_through_never_replaced(tmp_path):
    kept = tmp_path / "kept.json"
    kept.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(kept)  # as /dev/stdout is a link: moving a file into its place would replace the link
    files.write_whole(link, "new")
    assert link.is_symlink() and kept.read_text() == "new"
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "made.json")  # a link to nothing yet: written through, which makes its target
    files.write_all([(str(dangling), "made")])
    assert dangling.is_symlink() and (tmp_path / "made.json").read_text() == "made"


def test_standard_output_redirected_to_a_file_gets_the_output(tmp_path):
    import subprocess
    import sys

    out = tmp_path / "out.json"
    with out.open("w") as redirected:  # `scoutlab ... --json /dev/stdout > out.json`
        subprocess.run([sys.executable, "-c", "from scoutlab.base import files; files.write_whole('/dev/stdout', 'all of it')"],
                       stdout=redirected, check=True)
    assert out.read_text() == "all of it" and os.path.islink("/dev/stdout")


@pytest.mark.parametrize("order", ["file first", "device first"])
def test_a_run_that_cannot_write_one_output_replaces_none(tmp_path, capsys, order):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    kept = tmp_path / "a.json"
    kept.write_text("old")
    outputs = ["--json", str(kept), "--csv", "/dev/full"]
    if order == "device first":
        outputs = outputs[2:] + outputs[:2]
    assert main(["simulate", "two-player", "--games", "2", "--workers", "1", "--strong", "none", *outputs]) == 1
    assert "/dev/full: No space left on device" in capsys.readouterr().err
    assert kept.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]  # it was replaced


def test_write_all_moves_every_file_into_place_or_none(tmp_path):
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    files.write_all([(str(first), "one"), (str(second), "two")])
    assert (first.read_text(), second.read_text()) == ("one", "two")
    with pytest.raises(OSError):
        files.write_all([(str(first), "ONE"), (str(tmp_path / "no" / "third.txt"), "three")])
    assert first.read_text() == "one" and sorted(p.name for p in tmp_path.iterdir()) == ["first.txt", "second.txt"]


def test_a_report_to_standard_output_is_printed_not_written_to_a_file_named_dash(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "two-player", "--games", "2", "--workers", "1", "--strong", "none", "--report", "-"]) == 0
    assert capsys.readouterr().out.startswith("<!DOCTYPE html>") and list(tmp_path.iterdir()) == []  # it wrote ./-


def _run_until_part_files(tmp_path: Path, outputs: dict[str, Path], workers: int = 1, written: bool = False):
    """A long `scoutlab simulate` writing `outputs` (option: file) into tmp_path, once a part file is there for each
    per-game file (`written`: with rows in them, so the games are under way), waiting 60 s at most."""
    import subprocess
    import sys
    import time

    expected = sum(option.startswith(("--games-", "--rounds-")) for option in outputs)

    def ready() -> bool:
        parts = list(tmp_path.glob(".*.part"))
        return len(parts) == expected and all(not written or part.stat().st_size > 0 for part in parts)

    run = subprocess.Popen([sys.executable, "-m", "scoutlab.cli", "simulate", "official", "--players", "3", "--games", "200000",
                            "--workers", str(workers), "--strong", "none", *(str(x) for item in outputs.items() for x in item)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not ready() and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    return run


def _stop(run, signum: int) -> str:
    """Send the signal and wait for the run to end (60 s at most); its standard error."""
    try:
        run.send_signal(signum)
        return run.communicate(timeout=60)[1]
    finally:
        if run.poll() is None:
            run.kill()
            run.wait(timeout=10)


@pytest.mark.parametrize("signame, option, name", [
    ("SIGTERM", "--games-csv", "games.csv"),  # the part was left behind
    ("SIGHUP", "--games-csv", "games.csv"),  # a closed terminal, likewise
    ("SIGTERM", "--rounds-parquet", "rounds.parquet"),  # Parquet was written in place: the old file was lost to half a new one
])
def test_a_run_ended_by_sigterm_removes_its_part_file_and_keeps_the_old_file(tmp_path, signame, option, name):
    import signal

    if option.endswith("parquet"):
        pytest.importorskip("pyarrow")
    old = tmp_path / name
    old.write_text("the old file\n")
    run = _run_until_part_files(tmp_path, {option: old})
    parts = [p.name for p in tmp_path.glob(".*.part")]
    err = _stop(run, getattr(signal, signame))
    assert [part.split(".")[1] for part in parts] == [name.split(".")[0]], parts
    assert run.returncode == -getattr(signal, signame) and err == ""  # dies of the signal, as it did, saying nothing
    assert [p.name for p in tmp_path.iterdir()] == [name] and old.read_text() == "the old file\n"


def test_a_run_stopped_by_ctrl_c_moves_its_files_in_and_leaves_no_part_file(tmp_path):
    import signal

    pytest.importorskip("pyarrow")
    games, rounds, report = tmp_path / "games.csv", tmp_path / "rounds.parquet", tmp_path / "report.json"
    # two workers: ending the pool sends each SIGTERM, and a worker must not remove the parts its parent writes
    run = _run_until_part_files(tmp_path, {"--games-csv": games, "--rounds-parquet": rounds, "--json": report},
                                workers=2, written=True)
    written = [p.stat().st_size for p in tmp_path.glob(".*.part")]
    err = _stop(run, signal.SIGINT)
    assert len(written) == 2 and all(written), "no rows written within 60 s"
    assert run.returncode == 130 and err == "", err  # the report says it was interrupted, on standard output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.csv", "report.json", "rounds.parquet"]
    assert games.read_text().count("\n") > 1  # the games that finished, as the report has them
