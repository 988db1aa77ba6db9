"""`scoutlab play`: the real program driven through a pseudo-terminal, and its screens in-process."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import pytest

from scoutlab.bots import make_bot
from scoutlab.bots.levels import level_bot
from scoutlab.cli import main
from scoutlab.play import screen
from scoutlab.play.terminal import TerminalGame
from scoutlab.rules import load_rules
from scoutlab.text.bot_names import bot_label
from scoutlab.text.i18n import gettext_for

pexpect = pytest.importorskip("pexpect", reason="pexpect drives the terminal game (test extra)")

ANSI = re.compile(r"\x1b\[[0-9;]*m")
PROMPTS = [r"keep/flip> ", r"your move> ", r"Final standings", pexpect.EOF, r"Press Enter for the next round\. "]
PAUSE = 4
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
    paused = 0
    while True:
        which = child.expect(PROMPTS)
        transcript.append(child.before)
        if which == PAUSE:
            paused += 1
            child.sendline("")
            continue
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
    assert paused == 1, "the game waits for Enter between the two rounds, not after the last"
    assert "You act again: scout once more, or show." in text or "scout" not in text.split("Round 1 ends")[0]
    assert not re.search("[\u200e\u200f\u202a-\u202e\u2066-\u2069]", raw), "no direction marks in English"

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
    assert "P2 (Random bot): " in plain(child.before), "seats before yours choose first"
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


@pytest.mark.parametrize("encoding, lang, shown", [("ascii", "en", False), ("ascii", "ar", False), ("cp1256", "ar", False),
                                                    ("cp1253", "el", True), ("utf-8", "fa", True)])
def test_a_terminal_that_cannot_show_the_game_is_told_so_before_the_deal(encoding, lang, shown):
    result = subprocess.run(
        [sys.executable, "-m", "scoutlab.cli", "play", "--seed", "2", "--bots", "random", "--lang", lang],
        input=b"quit\n", capture_output=True, timeout=60, env={**os.environ, "PYTHONIOENCODING": encoding},
    )
    err = result.stderr.decode(encoding)
    if shown:  # Greek's own code page holds its letters and the dot: the game is played
        assert result.returncode == 0 and err == "", err
    else:  # it was Python's codec error, after the first line
        assert result.returncode == 1 and result.stdout == b"", result.stdout
        assert err == (f"scoutlab play: this terminal's encoding ({encoding}) cannot show the game in '{lang}'; "
                       "set a UTF-8 locale (for example LANG=C.UTF-8) or PYTHONIOENCODING=utf-8\n")


@pytest.mark.parametrize("args, message", [
    (["--seat", "3", "--variant", "two-player"], "--seat 3: seats run from 1 to 2"),
    (["--players", "7"], "variant 'official' is for 3, 4, 5 players, not 7"),
    (["--bots", "random,random,random"], "3 players need 2 opponents (or one bot for all), got 3"),
    (["--bots", "randm"], "unknown bot 'randm'; did you mean 'random'?"),
    (["--variant", "no-such-variant"], "no-such-variant"),
    (["--lang", "de"], "--lang 'de': the languages are en, ar, fa, el, bg"),
    (["--level", "impossible"], "unknown level 'impossible'; the levels are easy, medium, hard, expert"),
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

    class marked:  # a translator that marks what it translated; counted messages (ngettext) too
        def __init__(self, lang):
            pass

        def __call__(self, message, **values):
            return "«" + (message.format(**values) if values else message) + "»"

        def ngettext(self, singular, plural, n, **values):
            return self(singular if n == 1 else plural, **values)

    monkeypatch.setattr(terminal, "gettext_for", marked)
    monkeypatch.setattr(screen, "WIDTH", 10_000)  # one message per line, so each can be checked whole
    monkeypatch.setattr(screen, "terminal_width", lambda: 10_000)
    _, text = play_scripted("official", 3, seed=4, seat=0)
    for line in text.splitlines():
        words, before = line, None
        while words != before:  # translated messages may nest (a show's description inside a line)
            words, before = re.sub(r"«[^«»]*»", "", words), words
        words = MOVE_LINE.sub("", words)  # a move line is a seat, a bot name and notation
        words = re.sub(r"Official rules", "", words)  # the variant's title comes translated from its spec
        words = re.sub(r"^: .*", "", words)  # your own move: your (translated) name and notation
        assert not re.search(r"[A-Za-z]{3,}", words), f"untranslated text in {line!r}"


def test_a_level_chooses_the_opponents_and_their_names_say_which_bot():
    child = spawn("--variant", "official", "--players", "4", "--seat", "4", "--seed", "3", "--level", "hard")
    child.expect(r"keep/flip> ")
    seen = plain(child.before)
    assert "You are P4 (you)." in seen
    assert all(f"P{n} (Skilled bot): " in seen for n in (1, 2, 3)), seen
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_help_names_every_level(capsys):
    from scoutlab.bots.levels import DEFAULT_LEVEL, LEVELS

    with pytest.raises(SystemExit):
        main(["play", "--help"])
    words = " ".join(capsys.readouterr().out.split())  # argparse wraps the help
    assert all(level.name in words for level in LEVELS) and f"default: {DEFAULT_LEVEL}" in words


def test_the_default_level_is_expert_and_bots_win_over_a_level():
    child = spawn("--variant", "two-player", "--seat", "2", "--seed", "3")
    child.expect(r"keep/flip> ")
    expert = bot_label(level_bot("expert"), gettext_for("en"))
    assert f"P1 ({expert}): " in plain(child.before), "expert by default, named by its bot without its options"
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    child = spawn("--variant", "two-player", "--seat", "2", "--seed", "3", "--level", "hard", "--bots", "greedy")
    child.expect(r"keep/flip> ")
    assert "P1 (Greedy bot): " in plain(child.before)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()


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


# -- what the round's end looks like on an 80x24 terminal ---------------------------------------------

def _first_round_end(variant: str, players: int):
    from scoutlab.engine.state import GameState

    rules = load_rules(variant)
    state = GameState(rules, players, seed=2)
    while not state.round_ends:
        state.apply(state.legal_actions()[-1])
    return rules, state.round_ends[0]


@pytest.mark.parametrize("lang", ["en", "ar", "fa", "el", "bg"])
@pytest.mark.parametrize("variant, players", [("official", 5), ("two-player", 2), ("two-player-28", 2)])
def test_the_round_summary_fits_80_by_24_in_every_language(lang, variant, players):
    from dataclasses import replace

    from scoutlab.text.i18n import gettext_for

    rules, end = _first_round_end(variant, players)
    _ = gettext_for(lang)
    names = [f"P{s + 1} ({_('you') if s == 0 else 'heuristic'})" for s in range(players)]
    for reason in ("hand_emptied", "everyone_scouted", "opponent_stuck", "turn_cap", "no_legal_action"):
        lines = screen.round_end(replace(end, reason=reason, exempt=1), rules, names, screen.Style(False), _)
        # counted as drawn: an Arabic vowel mark (U+064B in بدلًا) sits on its letter and takes no column
        assert max(map(screen.columns_of, lines)) <= 80, [line for line in lines if screen.columns_of(line) > 80]
        assert len(lines) + 2 <= 24  # with the blank line before it and the prompt to go on


def test_the_game_waits_for_enter_between_rounds_and_says_when_you_act_again():
    rules = load_rules("two-player")
    state = rules.new_game(2, 3)
    prompts = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        legal = [state.format(code) for code in state.legal_actions()]
        scouts = [move for move in legal if move.startswith("scout")]
        return scouts[0] if scouts else legal[-1]  # scout whenever possible: the extra turn follows

    out = io.StringIO()
    TerminalGame(rules, state, 0, [None, make_bot("random", rules, 1)], ask, out, pause=True).run()
    text = out.getvalue()
    assert prompts.count("Press Enter for the next round. ") == state.rounds - 1
    lines = text.splitlines()
    after_scouts = [lines[i + 1] for i, line in enumerate(lines) if line.startswith("P1 (you): scout")]
    again = "You act again: scout once more, or show."
    assert after_scouts.count(again) >= 3
    assert all(line in (again, "") for line in after_scouts), "a scout is followed by the line, or by the round's end"
    assert not any(lines[i + 1] == again for i, line in enumerate(lines) if line.startswith("P2 ")), "only after your scouts"


def test_direction_marks_only_in_right_to_left_languages():
    marks = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")
    _, english = play_scripted("official", 3, seed=4, seat=0, lang="en")
    assert not marks.search(english)
    assert screen.without_direction_marks("\u2066" + "3/7 4/1" + "\u2069") == "3/7 4/1"
    _, persian = play_scripted("official", 3, seed=4, seat=0, lang="fa")
    moves = [line for line in persian.splitlines() if re.match(r"^P\d \(", line) and ": " in line]
    assert moves and all(": \u2066" in line and line.count("\u2066") == line.count("\u2069") for line in moves), \
        "notation and card lists kept left to right"
    assert persian.count("\u2066") == persian.count("\u2069")
    rules = load_rules("official")
    bots = [None, make_bot("random", rules, 1), make_bot("random", rules, 2)]
    game = TerminalGame(rules, rules.new_game(3, 1), 0, bots, input, io.StringIO(), lang="fa")
    game.say("کارت‌ها: \u2066" + "3/7" + "\u2069", "\u2066" + "3/7" + "\u2069")
    assert game.out.getvalue() == "کارت‌ها: \u2066" + "3/7" + "\u2069\n3/7\n", "Persian keeps them where its card lists need them"
    latin = [line for line in persian.splitlines() if not screen.has_right_to_left(line)]
    assert latin and not any(marks.search(line) for line in latin), "never in a line of Latin letters alone (they show as boxes)"
    game = TerminalGame(rules, rules.new_game(3, 1), 0, bots, input, io.StringIO(), lang="en")
    game.say("\u2066" + "3/7" + "\u2069")
    assert game.out.getvalue() == "3/7\n"


def test_columns_line_up_when_a_heading_has_a_zero_width_non_joiner():
    heading = "کارت‌های برده"  # 13 characters, 12 columns: U+200C takes none
    assert screen.columns_of(heading) == 12
    rows = screen.counts_table("P", ["P1", "P2"], [(heading, [3, 10])])
    assert all(screen.columns_of(row) == screen.columns_of(rows[0]) for row in rows)


# -- the terminal's width -------------------------------------------------------------------------------


def play_with_every_screen(lang: str, width: int, variant: str = "official", players: int = 5, seed: int = 11) -> str:
    """A whole scripted game at `width` columns that asks for help, hints and the table on its first turns."""
    rules = load_rules(variant)
    state = rules.new_game(players, seed)
    bots = [None if s == 0 else make_bot("random", rules, s) for s in range(players)]
    commands = ["help", "hint", "table", "hint all"]

    def ask(prompt: str) -> str:
        if commands and state.phase != "flip":
            return commands.pop(0)
        return state.format(state.legal_actions()[-1])  # the last legal move: scouts grow the hand

    out = io.StringIO()
    TerminalGame(rules, state, 0, bots, ask, out, lang=lang, width=width).run()
    return out.getvalue()


@pytest.mark.parametrize("lang", ["en", "ar", "fa", "el", "bg"])
@pytest.mark.parametrize("width", [60, 80, 120])
def test_every_line_fits_the_width_and_no_word_is_split(lang, width):
    text = play_with_every_screen(lang, width)
    too_wide = [line for line in text.splitlines() if screen.columns_of(line) > width]
    assert too_wide == [], f"{len(too_wide)} lines wider than {width} columns, e.g. {too_wide[:3]}"
    # Laid out on a line wide enough for everything, the same game has every word whole: a word cut at the
    # terminal's edge ("orientatio", "n") would be a word that one never prints.
    # (Direction marks aside: a piece of a line with no right-to-left letter loses them.)
    whole = set(screen.without_direction_marks(play_with_every_screen(lang, 10_000)).split())
    cut = sorted(set(screen.without_direction_marks(text).split()) - whole)
    assert cut == [], f"words split across lines at {width} columns: {cut[:10]}"


def test_the_hand_grid_goes_on_in_blocks_when_the_hand_is_wider_than_the_terminal():
    from scoutlab.engine.cards import parse_hand

    _ = gettext_for("en")
    hand = parse_hand(" ".join(f"{n % 10 + 1}/{(n + 3) % 10 + 1}" for n in range(16)))
    rows = screen.hand_grid(hand, screen.Style(False), _, width=40)
    assert len(rows) % 4 == 0 and len(rows) > 4 and max(map(len, rows)) <= 40
    positions = [int(n) for row in rows[0::4] for n in row.split()[1:]]
    assert positions == list(range(1, 17)), "every card once, in order"
    for block in range(0, len(rows), 4):
        first, last = int(rows[block].split()[1]), int(rows[block].split()[-1])
        gaps = [int(n) for n in rows[block + 3].split()[1:]]
        assert gaps == list(range(first - 1, last + 1)), "each block's gaps around its own cards"


@pytest.mark.parametrize("width", [40, 60, 80])
def test_the_score_table_fits_by_folding_its_headings_or_a_line_per_seat(width):
    headings = ["Hand", "Captured", "Chips received", "Scout & Show chip", "Score"]
    names = ["P1 (you)", "P2 (Search bot)", "P3 (Search bot)"]
    rows = screen.counts_table("Player", names, [(h, [12, 0, 3]) for h in headings], mark=0, width=width)
    assert max(map(screen.columns_of, rows)) <= width
    shown = {word.rstrip(":") for word in " ".join(rows).split()}  # a line per seat says "P1 (you): Hand 12 · ..."
    assert shown >= {*" ".join(headings).split(), *" ".join(names).split()}, "every word shown whole"
    assert sum(row.startswith("> P1 (you)") for row in rows) == 1


def test_the_score_table_and_the_seats_are_in_the_players_language():
    text = play_with_every_screen("fa", 80, "two-player", 2)
    _ = gettext_for("fa")
    assert "(you)" not in text and "P1 (شما)" in text
    assert f"P2 ({_('Random bot')})" in text and "(random)" not in text
    table = [line for line in text.splitlines() if line.startswith(("> P1", "  P2"))]
    assert table and all("P1 (شما)" in line or _("Random bot") in line for line in table)


def test_wrapping_counts_columns_as_the_terminal_draws_them():
    persian = "کارت‌های برده " * 6  # U+200C takes no column
    assert all(screen.columns_of(line) <= 30 for line in screen.wrapped(persian.strip(), 30))
    assert screen.columns_of("\x1b[1;4m10\x1b[0m/3") == 4, "ANSI codes take no column"
    assert screen.columns_of("漢字") == 4, "a wide character takes two"
    cards = "کارت‌ها: \u2066" + "1/2 3/4 5/6" + "\u2069 " + "و بعد " * 3
    assert any("\u20661/2 3/4 5/6\u2069" in line for line in screen.wrapped(cards, 24)), "an isolated card list stays whole"
    assert screen.wrapped("  " + "word " * 30, 40, hanging="    ")[1].startswith("    word")


def test_what_a_scout_takes_is_said_in_the_players_language():
    _ = gettext_for("fa")
    text = play_with_every_screen("fa", 80, "official", 3)
    scouts = [line for line in text.splitlines() if re.match(r"^P\d \(.*\): \u2066scout", line)]
    assert scouts and not any("takes" in line or "shows" in line for line in scouts)
    assert all("را برمی‌دارد" in line and line.count("\u2066") == line.count("\u2069") for line in scouts)
    english = play_with_every_screen("en", 80, "official", 3)
    assert re.search(r"^P\d \(.*\): scout \S+ \d+  \(takes \d+/\d+\)$", english, re.M), "English reads as before"


def test_a_terminal_claiming_a_hundred_million_columns_is_laid_out_at_a_thousand(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100000000")  # the layout tried every width up to it: a hang
    assert screen.terminal_width() == screen.MAX_WIDTH == 1_000


@pytest.mark.parametrize("lang", ["ar", "fa", "el", "bg"])
@pytest.mark.parametrize("typed", ["dance", "show 3-1", "scout left flip", "show " + "1" * 200])
def test_a_refused_move_is_said_in_the_player_s_language(lang, typed):
    from scoutlab.engine.actions import NotationError, parse_action
    from scoutlab.text.i18n import gettext_for
    from scoutlab.text.notation_messages import translate_notation_error

    with pytest.raises(NotationError) as error:
        parse_action(typed)
    said = translate_notation_error(str(error.value), gettext_for(lang))
    assert said != str(error.value) and "not a move" not in said and "at most" not in said  # a 200-character move: English
