"""`scoutlab play`: the real program driven through a pseudo-terminal, and its screens in-process."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import pytest

from scoutlab.bots import make_bot
from scoutlab.cli import main
from scoutlab.play import screen
from scoutlab.play.terminal import PREFERRED_BOTS, TerminalGame, default_opponent
from scoutlab.rules import load_rules

pexpect = pytest.importorskip("pexpect", reason="pexpect drives the terminal game (test extra)")

ANSI = re.compile(r"\x1b\[[0-9;]*m")
PROMPTS = [r"keep/flip> ", r"your move> ", r"Final standings", pexpect.EOF]
MOVE_LINE = re.compile(r"^(P\d) \(([^)]*)\): (\S.*?)(?:  [\[(].*)?$")


def plain(text: str) -> str:
    return ANSI.sub("", text).replace("\r", "")


def spawn(*args: str) -> pexpect.spawn:
    env = {**os.environ, "TERM": "xterm", "LANG": "C.UTF-8"}
    for name in ("NO_COLOR", "LC_ALL", "LC_MESSAGES"):
        env.pop(name, None)
    return pexpect.spawn(sys.executable, ["-m", "scoutlab.cli", "play", *args], env=env,
                         encoding="utf-8", timeout=30, dimensions=(50, 160))


def first_listed_move(child: pexpect.spawn, prompt: str) -> str:
    """Ask for every legal move and take the first one listed."""
    child.sendline("hint all")
    child.expect(prompt)
    listing = plain(child.before).split("Moves:", 1)[1]
    return re.split(r"\s{2,}", listing.strip().splitlines()[0].strip())[0]


def test_a_whole_two_player_game_in_a_terminal():
    child = spawn("--variant", "two-player", "--seed", "5", "--bots", "random")
    transcript = []
    tried_bad_input = False
    while True:
        which = child.expect(PROMPTS)
        transcript.append(child.before)
        if which >= 2:
            break
        prompt = PROMPTS[which]
        if which == 1 and not tried_bad_input:
            tried_bad_input = True
            child.sendline("show 1-40")  # parses, but no hand is that long here
            child.expect(prompt)
            assert "'show 1-40': your hand has only" in plain(child.before)
            child.sendline("scout sideways 3")
            child.expect(prompt)
            assert "'scout sideways 3' is not a move: expected keep, flip" in plain(child.before)
        child.sendline(first_listed_move(child, prompt))
    child.expect(pexpect.EOF)
    transcript.append(child.before)
    child.close()
    assert child.exitstatus == 0
    raw = "".join(transcript)
    text = plain(raw)
    assert "\x1b[1;4m" in raw, "on a terminal the top numbers are bold and underlined"
    assert "Round 1 ends: " in text and "Round 2 ends: " in text

    # Replaying every printed move on the engine must reach the printed final scores.
    state = load_rules("two-player").new_game(2, 5)
    for line in text.splitlines():
        m = MOVE_LINE.match(line.strip())
        if m:
            assert m[1] == f"P{state.to_act + 1}"
            state.apply_text(m[3])
    assert state.is_over
    standings = dict(re.findall(r"^\s+\d\. (P\d) \(.*?\)\s+(-?\d+)", text.split("Final standings")[-1], re.M))
    assert standings == {f"P{s + 1}": str(t) for s, t in enumerate(state.totals)}


def test_quit_and_end_of_input_leave_cleanly():
    child = spawn("--variant", "two-player", "--seed", "1", "--bots", "random")
    child.expect(r"keep/flip> ")
    child.sendline("quit")
    child.expect("You left the match.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    child = spawn("--variant", "official", "--players", "4", "--seat", "3", "--seed", "1", "--bots", "random")
    child.expect(r"keep/flip> ")
    assert "P2 (random): " in plain(child.before), "seats before yours choose first"
    child.sendeof()
    child.expect("You left the match.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_plain_text_when_output_is_not_a_terminal():
    result = subprocess.run(
        [sys.executable, "-m", "scoutlab.cli", "play", "--variant", "two-player", "--seed", "2", "--bots", "random",
         "--lang", "en"],
        input="help\nhint\nkeep\nquit\n", capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "\x1b[" not in result.stdout
    assert "scout left 2 show 1-3" in result.stdout  # the help
    assert "keep, flip" in result.stdout  # the hint at round start


@pytest.mark.parametrize("args, message", [
    (["--seat", "3", "--variant", "two-player"], "--seat 3: seats run from 1 to 2"),
    (["--players", "7"], "variant 'official' is for 3, 4, 5 players, not 7"),
    (["--bots", "random,random,random"], "3 players need 2 opponents (or one bot for all), got 3"),
    (["--bots", "randm"], "unknown bot 'randm'; did you mean 'random'?"),
    (["--variant", "no-such-variant"], "no-such-variant"),
    (["--lang", "de"], "--lang de: the languages are en, ar, fa, el, bg"),
])
def test_bad_arguments_are_one_line_errors(args, message, capsys):
    assert main(["play", *args]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


# -- in-process: the same game with a scripted player -----------------------------------------------


def play_scripted(variant: str, players: int, seed: int, seat: int, lang: str | None = None):
    rules = load_rules(variant)
    state = rules.new_game(players, seed)
    bots = [None if s == seat else make_bot("random", rules, s) for s in range(players)]
    out = io.StringIO()

    def ask(prompt: str) -> str:
        return state.format(state.legal_actions()[-1])  # the last legal move: scouts and Scout & Shows too

    game = TerminalGame(rules, state, seat, bots, ask, out, lang=lang)
    assert game.run() == 0
    return state, out.getvalue()


@pytest.mark.parametrize("variant, players", [("official", 4), ("official", 5), ("two-player-28", 2)])
def test_scripted_games_reach_the_standings(variant, players):
    state, text = play_scripted(variant, players, seed=11, seat=1)
    assert state.is_over
    assert text.count(" ends: ") == state.rounds
    assert "Final standings" in text
    best = max(state.totals)
    assert text.count("winner") == state.totals.count(best)


def test_every_word_goes_through_the_translator(monkeypatch):
    import scoutlab.play.terminal as terminal

    def marked(lang):
        return lambda message, **values: "«" + (message.format(**values) if values else message) + "»"

    monkeypatch.setattr(terminal, "gettext_for", marked)
    _, text = play_scripted("official", 3, seed=4, seat=0)
    for line in text.splitlines():
        words, before = line, None
        while words != before:  # translated messages may nest (a show's description inside a line)
            words, before = re.sub(r"«[^«»]*»", "", words), words
        words = MOVE_LINE.sub("", words)  # a move line is a seat, a bot name and notation
        words = re.sub(r"official|\(random\)", "", words)  # the variant's and the bots' names are names
        words = re.sub(r"^: .*", "", words)  # your own move: your (translated) name and notation
        assert not re.search(r"[A-Za-z]{3,}", words), f"untranslated text in {line!r}"


def test_default_opponent_is_the_best_available():
    assert default_opponent() in PREFERRED_BOTS
    from scoutlab.bots import known_bots

    assert default_opponent() == next(b for b in PREFERRED_BOTS if b in known_bots())


# -- the screens -------------------------------------------------------------------------------------


def test_hand_grid_lines_up_positions_numbers_and_gaps():
    from scoutlab.engine.cards import parse_hand

    _ = lambda message, **values: message.format(**values) if values else message  # noqa: E731
    rows = screen.hand_grid(parse_hand("3/7 10/1 5/2"), screen.Style(False), _)
    card, tops, bottoms, gaps = rows
    for position, t, b in (("1", "3", "7"), ("2", "10", "1"), ("3", "5", "2")):
        column = card.index(f" {position}", len("  card")) + len(position)
        assert tops[column] == t[-1] and bottoms[column] == b[-1]
    # gap G falls between card G and card G+1
    assert card.index(" 1") < gaps.rindex("1") < card.index(" 2")


def test_standings_share_ranks_and_victory():
    _ = lambda message, **values: message.format(**values) if values else message  # noqa: E731
    lines = screen.standings([12, 9, 12], ["P1 (you)", "P2 (greedy)", "P3 (greedy)"], 0, screen.Style(False), _)
    assert lines[1].split() == ["1.", "P1", "(you)", "12", "winner"]
    assert lines[2].split() == ["1.", "P3", "(greedy)", "12", "winner"]
    assert lines[3].split() == ["3.", "P2", "(greedy)", "9"]
    assert lines[-2:] == ["Tied players share the victory.", "You win!"]
    lines = screen.standings([3, 9, 9], ["P1 (you)", "P2 (a)", "P3 (b)"], 0, screen.Style(False), _)
    assert lines[-1] == "P2 (a), P3 (b) won."


def test_hint_groups_scouts_by_end_and_orientation():
    rules = load_rules("official")
    state = rules.new_game(3, 2)
    for move in ("keep", "keep", "keep", "show 1"):
        state.apply_text(move)
    _ = lambda message, **values: message.format(**values) if values else message  # noqa: E731
    lines = screen.legal_summary(state.view(state.to_act), rules, _)
    hand = len(state.hands[state.to_act])
    assert f"  scout left G, with G from 0..{hand}" in lines
    assert f"  scout left flip G, with G from 0..{hand}" in lines
    assert any("Scout & Show moves, e.g." in line for line in lines)
