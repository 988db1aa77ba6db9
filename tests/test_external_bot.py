"""`external:CMD` bots: a program that answers one line per decision, and what happens when it misbehaves."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import sys
import textwrap
import time
from pathlib import Path

import pytest

from scoutlab.bots import BotError, make_bot, parse_bot, split_bots
from scoutlab.cli import main
from scoutlab.match import close_bots, make_bots, play_game
from scoutlab.rules import load_rules
from scoutlab.text.log import replay_steps

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "bots"


@pytest.fixture(scope="module")
def rules():
    return load_rules("two-player")


def bot_script(tmp_path: Path, name: str, body: str) -> str:
    """An `external:` bot name running a small Python program."""
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body))
    return f"external:{sys.executable} {path}"


FIRST_LEGAL = """
    import sys, json
    for line in sys.stdin:
        print(json.loads(line)["legal"][0], flush=True)
"""


def first_legal_game(rules, seed):
    """The same game with the first legal move chosen in-process."""
    state = rules.new_game(2, seed)
    while not state.is_over:
        state.apply(state.legal_actions()[0] if state.to_act == 0 else state.legal_actions()[-1])
    return state


class LastLegal:
    name = "last"

    def act(self, view):
        return view.legal[-1]


def test_a_program_plays_every_move_of_its_seat(tmp_path, rules, capsys):
    bot = make_bot(bot_script(tmp_path, "first", FIRST_LEGAL), rules, 1)
    state = play_game(rules, 2, [bot, LastLegal()], seed=4)
    assert state.history == first_legal_game(rules, 4).history
    assert capsys.readouterr().err == ""
    process = bot._program.process
    bot.close()
    assert process.poll() is not None, "closing the bot ends the program"


def test_the_program_sees_its_seat_view_as_json(tmp_path, rules):
    log = tmp_path / "seen.jsonl"
    bot = make_bot(bot_script(tmp_path, "spy", f"""
        import sys, json
        with open({str(log)!r}, "w") as seen:
            for line in sys.stdin:
                seen.write(line); seen.flush()
                print(json.dumps({{"action": json.loads(line)["legal"][-1]}}), flush=True)
    """), rules, 1)
    state = rules.new_game(2, 8)
    while not state.is_over:
        if state.to_act == 1:
            hand = [f"{c >> 5}/{c & 31}" for c in state.hands[1]]
            code = bot.act(state.view(1))
            assert code == state.legal_actions()[-1], "a JSON answer {\"action\": ...} is accepted"
            seen = json.loads(log.read_text().splitlines()[-1])
            assert seen["seat"] == 1 and seen["hand"] == hand
            assert seen["legal"] == [state.format(c) for c in state.legal_actions()]
            assert seen["hand_sizes"] == [len(h) for h in state.hands]
            assert "deals" not in seen and "set_aside" not in seen
            state.apply(code)
        else:
            state.apply(state.legal_actions()[0])
    bot.close()


@pytest.mark.parametrize("body, timeout, warning", [
    ("import sys; sys.exit(3)", 10, "exited with code 3 without answering: stopped; random legal moves play its seat"),
    ("import time, sys\nsys.stdin.readline()\ntime.sleep(60)", 0.3, "gave no answer within 0.3 s: stopped"),
    ("import sys\nfor line in sys.stdin: print('pass', flush=True)", 10, "answered 'pass', not a move in notation"),
    ("import sys\nfor line in sys.stdin: print('show 1-30', flush=True)", 10, "answered 'show 1-30', not a legal move here"),
])
def test_a_failing_program_is_reported_and_replaced(tmp_path, rules, capsys, body, timeout, warning):
    name = bot_script(tmp_path, "bad", body) + f",timeout={timeout}"
    bots = make_bots([name, "random"], rules, 2, seed=5)
    state = play_game(rules, 2, bots, seed=5)
    assert state.is_over, "the match goes on"
    err = capsys.readouterr().err
    assert f"bot {bots[0].name} (seat P1) {warning}" in err
    if "stopped" in warning:
        assert err.count("warning") == 1, "a stopped program is reported once"
        assert bots[0]._program is None
    bots[0].close()


def test_a_hanging_program_and_its_children_are_killed(tmp_path, rules):
    pid_file = tmp_path / "child.pid"
    script = tmp_path / "hang.sh"
    script.write_text(f"#!/bin/sh\nsleep 60 &\necho $! > {pid_file}\nwait\n")
    script.chmod(0o755)
    bot = make_bot(f"external:{script},timeout=0.5", rules, 1)
    state = rules.new_game(2, 1)
    assert bot.act(state.view(0)) in state.legal_actions()
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not alive(child), "the program's own child is killed with it"


def alive(pid: int) -> bool:
    """Running, and not a zombie waiting for a parent that is gone to be reaped."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] == "Z")


def test_the_program_starts_on_the_first_decision_one_per_bot(tmp_path, rules):
    """Building a bot (as each simulator worker does) starts nothing; each bot then runs its own program."""
    name = bot_script(tmp_path, "first", FIRST_LEGAL)
    bots = [make_bot(name, rules, 1), make_bot(name, rules, 1)]
    assert all(bot._program is None for bot in bots)
    state = rules.new_game(2, 3)
    assert [bot.act(state.view(0)) for bot in bots] == [state.legal_actions()[0]] * 2
    assert bots[0]._program.process.pid != bots[1]._program.process.pid
    for bot in bots:
        bot.close()


@pytest.mark.parametrize("name, message", [
    ("external", "bot 'external' needs a command: external:CMD"),
    ("external:no-such-program-here", "cannot run 'no-such-program-here': no such executable"),
    ("external:sh,timeout=0", "timeout must be a number of seconds above 0"),
    ("external:sh,timeout=inf", "timeout must be a number of seconds above 0 and at most 86400, got inf"),
    ("external:sh,timeout=nan", "timeout must be a number of seconds above 0 and at most 86400, got nan"),
    ("external:sh,timeout=1e400", "timeout must be a number of seconds above 0 and at most 86400, got inf"),
    ("external:sh,timeout=90000", "at most 86400, got 90000"),
    ("external:sh,speed=3", "bot 'external' takes a command and timeout=SECONDS, not speed"),
    ("external:sh 'unclosed", "a quote is never closed in the command"),  # was shlex's "No closing quotation"
])
def test_bad_external_bot_names(rules, name, message):
    with pytest.raises(BotError, match=message):
        make_bot(name, rules, 1)


def test_a_program_that_cannot_run_says_why(rules, tmp_path, monkeypatch):
    script = tmp_path / "bot.py"
    script.write_text("print('flip')\n")
    with pytest.raises(BotError, match="the file is not executable"):  # both said "no such executable"
        make_bot(f"external:{script}", rules, 1)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BotError, match=r"no such executable on the PATH \(a program in this folder is run as \./bot\.py\)"):
        make_bot("external:bot.py", rules, 1)

def test_bot_names_and_lists():
    assert parse_bot("external:node bot.js,timeout=5") == ("external", {"arg": "node bot.js", "timeout": 5})
    assert parse_bot("external:python3 bot.py --depth=3") == ("external", {"arg": "python3 bot.py --depth=3"})
    assert parse_bot("mcts:iterations=400,c=1.4") == ("mcts", {"iterations": 400, "c": 1.4})
    assert split_bots("external:node b.js,timeout=2,random") == ["external:node b.js,timeout=2", "random"]
    assert split_bots("mcts:iterations=400,c=1.4,random,random") == ["mcts:iterations=400,c=1.4", "random", "random"]
    with pytest.raises(BotError):
        parse_bot("random:x=1,loose")


# -- the example bots in other languages, through `scoutlab game` -----------------------------------


def game_through_the_cli(variant: str, players: int, seed: int, bots: str, capsys):
    """Run `scoutlab game`, then the same game in-process; both must agree on the final scores."""
    assert main(["game", "--variant", variant, "--players", str(players), "--seed", str(seed), "--bots", bots]) == 0
    out, err = capsys.readouterr()
    assert "warning" not in err, err
    rules = load_rules(variant)
    state = play_game(rules, players, make_bots(split_bots(bots), rules, players, seed), seed)
    printed = dict(re.findall(r"^  (P\d): (-?\d+)", out.split("Final scores:")[-1], re.M))
    assert printed == {f"P{seat + 1}": str(total) for seat, total in enumerate(state.totals)}
    return rules, state


@pytest.mark.skipif(shutil.which("jq") is None, reason="jq is not installed")
def test_the_jq_example_plays_the_first_legal_move(capsys):
    _rules, state = game_through_the_cli("two-player", 2, 6, f"external:{EXAMPLES / 'first-legal.sh'},random", capsys)
    for before, code in replay_steps(state):
        if before.to_act == 0:
            assert code == before.legal_actions()[0]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_node_example_shows_as_many_cards_as_it_can(capsys):
    bots = f"external:node {EXAMPLES / 'greedy.js'},timeout=5,random,random"
    rules, state = game_through_the_cli("official", 3, 2, bots, capsys)
    decisions = 0
    for before, code in replay_steps(state):
        if before.to_act != 0:
            continue
        decisions += 1
        codec = rules.codec
        shown = {c: codec.decode(c).length if codec.kind(c) == "show" else 0 for c in before.legal_actions()}
        assert shown[code] == max(shown.values())
    assert decisions > 5


def test_an_external_opponent_in_the_terminal_game(tmp_path, monkeypatch, capsys):
    name = bot_script(tmp_path, "first", FIRST_LEGAL)
    monkeypatch.setattr("sys.stdin", io.StringIO("flip\nquit\n"))
    assert main(["play", "--variant", "two-player", "--seat", "2", "--seed", "3", "--bots", name, "--color", "never", "--lang", "en"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert re.search(r"^P1 \(external:.*first\.py\): keep$", out, re.M), "the program chose P1's hand flip"
    assert "P2 (you): flip" in out and "You left the match." in out


# --------------------------------------------------------------------------- bounded in time, size and lifetime


def test_a_program_that_never_reads_cannot_hang_the_game(tmp_path, rules, capsys):
    """It answers without reading, so its input pipe fills: the write times out like a read would."""
    # One answer each time more input is waiting (FIONREAD), without reading it: answers as asked, so it
    # is not stopped as a flood, until its input pipe is full and the next request cannot be written.
    spam = bot_script(tmp_path, "spam", """
        import array, fcntl, termios, time
        last = 0
        while True:
            waiting = array.array("i", [0])
            fcntl.ioctl(0, termios.FIONREAD, waiting)
            if waiting[0] > last:
                last = waiting[0]
                print("keep", flush=True)
            time.sleep(0.005)
    """)
    official = load_rules("official")
    bots = make_bots([f"{spam},timeout=0.5", f"{spam},timeout=0.5", "random"], official, 3, seed=2)
    started = time.monotonic()
    state = play_game(official, 3, bots, seed=2)
    assert state.is_over
    assert time.monotonic() - started < 20, "each stuck write waits at most the timeout"
    err = capsys.readouterr().err
    for seat in (1, 2):
        assert f"(seat P{seat}) did not read its input within 0.5 s: stopped; random legal moves play its seat from now on" in err
    close_bots(bots)


def test_an_endless_answer_line_stops_at_the_cap(tmp_path, rules, capsys):
    from scoutlab.base.limits import MAX_BOT_ANSWER
    from scoutlab.bots.external import _TOO_LONG

    endless = bot_script(tmp_path, "endless", "import sys\nsys.stdin.readline()\nwhile True:\n    sys.stdout.write('x' * 4096)\n")
    bot = make_bot(f"{endless},timeout=5", rules, 1)
    state = rules.new_game(2, 1)
    started = time.monotonic()
    assert bot.act(state.view(0)) in state.legal_actions()
    assert time.monotonic() - started < 4, "the cap, not the timeout, ends the wait"
    err = capsys.readouterr().err
    assert f"answered a line longer than 64 KB ({MAX_BOT_ANSWER:,} bytes): stopped" in err
    assert bot.failed and bot._program is None
    assert _TOO_LONG is not None


def test_a_deep_json_answer_is_reported_and_replaced(tmp_path, rules, capsys):
    deep = bot_script(tmp_path, "deep", "import sys\nfor line in sys.stdin:\n    print('{\"action\": ' + '[' * 10000, flush=True)\n")
    bots = make_bots([deep, "random"], rules, 2, seed=5)
    state = play_game(rules, 2, bots, seed=5)
    assert state.is_over
    err = capsys.readouterr().err
    assert "answered JSON that is nested deeper than 64 levels of lists and mappings: a random legal move is played instead" in err
    assert "Traceback" not in err
    bots[0].close()


def test_a_program_that_cannot_start_is_reported_once(tmp_path, rules, capsys):
    script = tmp_path / "broken.sh"
    script.write_text("#!/no/such/interpreter\n")
    script.chmod(0o755)
    bots = make_bots([f"external:{script}", "random"], rules, 2, seed=5)
    state = play_game(rules, 2, bots, seed=5)
    assert state.is_over and sum(seat == 0 for _, seat, _ in state.history) > 1
    err = capsys.readouterr().err
    assert err.count("warning") == 1, err
    assert "could not start: No such file or directory: random legal moves play its seat from now on" in err


def _processes_with(marker: str) -> list[int]:
    """Pids of live processes whose command line holds `marker`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode() and alive(int(entry.name)):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _background_bot(tmp_path: Path, marker: str) -> str:
    """A polite shell bot that leaves `sleep MARKER` running in the background and exits at end of input."""
    script = tmp_path / "background.sh"
    script.write_text(f"#!/bin/sh\nsleep {marker} &\nwhile read -r line; do echo keep; done\n")
    script.chmod(0o755)
    return f"external:{script}"


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs /proc")
def test_what_a_program_starts_ends_with_the_game(tmp_path, capsys):
    marker = f"{os.getpid() % 1000 + 777}.{time.time_ns() % 10**6}"
    assert main(["game", "--quiet", "--bots", f"{_background_bot(tmp_path, marker)},random,random", "--seed", "3"]) == 0
    deadline = time.monotonic() + 3
    while _processes_with(f"sleep {marker}") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _processes_with(f"sleep {marker}") == [], "the program exited by itself, and its group was still ended"


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs /proc")
def test_what_a_program_starts_ends_with_a_simulator_worker(tmp_path, capsys):
    marker = f"{os.getpid() % 1000 + 778}.{time.time_ns() % 10**6}"
    bot = _background_bot(tmp_path, marker)
    assert main(["simulate", "official", "--games", "4", "--workers", "2", "--bots", f"{bot},random,random"]) == 0
    deadline = time.monotonic() + 3
    while _processes_with(f"sleep {marker}") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _processes_with(f"sleep {marker}") == [], "pool workers end their bots' programs as they exit"


@pytest.mark.parametrize("timeout", ["inf", "nan"])
def test_an_endless_or_undefined_timeout_is_one_line(capsys, timeout):
    assert main(["game", "--quiet", "--bots", f"external:sh,timeout={timeout},random,random"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert f"timeout must be a number of seconds above 0 and at most 86400, got {timeout}" in err


def test_a_program_flooding_short_lines_is_held_to_a_few_and_stopped(tmp_path, rules, capsys):
    """It answers, then writes `keep` lines for ever: scoutlab keeps at most 16 of them, then stops it
    (it grew from 43 to 139 MB in 24 s, a queue of every line)."""
    from scoutlab.bots.external import MAX_PENDING_LINES

    flood = bot_script(tmp_path, "flood", """
        import json, sys
        print(json.loads(sys.stdin.readline())["legal"][0], flush=True)
        while True:
            sys.stdout.write("keep\\n" * 64)
            sys.stdout.flush()
    """)
    bot = make_bot(f"{flood},timeout=5", rules, 1)
    state = rules.new_game(2, 1)
    assert bot.act(state.view(0)) == state.legal_actions()[0]
    time.sleep(1.0)  # a million lines' worth of time
    assert bot._program.lines.qsize() <= MAX_PENDING_LINES + 2
    assert bot.act(state.view(0)) in state.legal_actions()
    assert f"wrote more than {MAX_PENDING_LINES} lines it was not asked for (one answer per request): stopped" in capsys.readouterr().err
    assert bot.failed and bot._program is None


def _setsid_bot(tmp_path: Path, marker: str, answer_delay: float = 0.0) -> str:
    """A bot whose child leaves its session (setsid) to run `sleep MARKER`, then answers the first legal move."""
    return bot_script(tmp_path, "setsid", f"""
        import json, os, sys, time
        if os.fork() == 0:
            os.setsid()
            os.execvp("sleep", ["sleep", {marker!r}])
        for line in sys.stdin:
            time.sleep({answer_delay})
            print(json.loads(line)["legal"][0], flush=True)
    """)


def _gone(marker: str, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while _processes_with(f"sleep {marker}") and time.monotonic() < deadline:
        time.sleep(0.05)
    return _processes_with(f"sleep {marker}") == []


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs /proc")
def test_a_child_that_leaves_the_session_ends_with_the_game(tmp_path, capsys):
    marker = f"{os.getpid() % 1000 + 779}.{time.time_ns() % 10**6}"
    assert main(["game", "--quiet", "--bots", f"{_setsid_bot(tmp_path, marker)},random,random", "--seed", "3"]) == 0
    assert _gone(marker), "a setsid child of the program outlived the game"


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_what_a_program_started_dies_with_scoutlab_on_a_signal(tmp_path, signum):
    import subprocess

    marker = f"{os.getpid() % 1000 + 780 + signum}.{time.time_ns() % 10**6}"
    background = _background_bot(tmp_path, marker + "1")
    game = subprocess.Popen(
        [sys.executable, "-m", "scoutlab.cli", "game", "--quiet", "--seed", "3",
         "--bots", f"{_setsid_bot(tmp_path, marker + '2', answer_delay=0.3)},{background},random"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 20
    while not (_processes_with(f"sleep {marker}1") and _processes_with(f"sleep {marker}2")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _processes_with(f"sleep {marker}1") and _processes_with(f"sleep {marker}2"), "the programs did not start"
    game.send_signal(signum)
    _out, err = game.communicate(timeout=20)
    assert game.returncode in (-signum, 128 + signum, 130), (game.returncode, err)
    assert b"Traceback" not in err
    assert _gone(marker + "1") and _gone(marker + "2"), "a program's processes outlived scoutlab"
