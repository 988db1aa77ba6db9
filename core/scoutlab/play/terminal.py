"""A whole match in the terminal: one human seat against bots, moves typed in the action notation.

The loop asks the seat to act: a bot answers from its own view, the human types a
move (or `hint`, `help`, `table`, `quit`). Everything printed comes from the human
seat's view (screen.py), the opponents' moves as `scoutlab.text.log.describe_action`
says them, and every refusal says why (`scoutlab.engine.explain.why_illegal`, in the player's language).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

from scoutlab.engine.actions import NotationError, Scout, parse_action
from scoutlab.engine.explain import why_illegal, why_illegal_action
from scoutlab.play import screen
from scoutlab.text.bot_names import bot_label
from scoutlab.text.i18n import gettext_for, is_rtl, ngettext
from scoutlab.text.log import describe_action
from scoutlab.text.notation_messages import translate_notation_error
from scoutlab.text.variant_text import title

if TYPE_CHECKING:
    from scoutlab.bots import Bot
    from scoutlab.engine.state import GameState
    from scoutlab.rules import Rules

def _short(name: str, width: int = 24) -> str:
    """A bot's name fit for a table column: `external:` commands can be long."""
    return name if len(name) <= width else name[: width // 2 - 1] + "…" + name[-(width // 2):]


class Quit(Exception):
    """The player left the match."""


class TerminalGame:
    """One match: `seat` is the human's (0-based), `bots` play every other seat (None at the human's).

    `labels` names each bot as it was asked for (`mcts:seconds=0.8`); without them, by the bot's own name.
    Players read each bot's name in their language (`bot_label`), never its options. Every line is
    laid out for `width` columns, else the terminal's width at the time it is printed.
    """

    def __init__(
        self,
        rules: Rules,
        state: GameState,
        seat: int,
        bots: Sequence[Bot | None],
        ask: Callable[[str], str],
        out: TextIO,
        color: bool = False,
        lang: str | None = None,
        delay: float = 0.0,
        pause: bool = False,
        labels: Sequence[str | None] | None = None,
        width: int | None = None,
    ):
        self.rules, self.state, self.seat, self.bots = rules, state, seat, bots
        self.ask, self.out, self.delay, self.pause = ask, out, delay, pause
        self.lang = lang
        self._width = width
        self.title = title(rules.spec.doc, lang)  # the variant as players call it, in their language
        self._ = gettext_for(lang)
        # Left-to-right text needs no direction marks, and some terminals draw them as boxes.
        self.marks = is_rtl(lang or "")
        self.style = screen.Style(color, isolate=is_rtl(lang or ""))
        _ = self._
        given = labels or [None if bot is None else bot.name for bot in bots]
        self.names = [
            _("{player} (you)", player="P" + str(s + 1)) if bot is None else f"P{s + 1} ({_short(bot_label(given[s] or bot.name, _))})"
            for s, bot in enumerate(bots)
        ]

    @property
    def width(self) -> int:
        """The columns to lay out for: as given, else the terminal's now (it may have been resized)."""
        return self._width or screen.terminal_width()

    def say(self, *lines: str) -> None:
        """Print `lines`, each wrapped at the width between words; direction marks only on lines with right-to-left letters."""
        width = self.width
        for line in lines:
            for piece in screen.wrapped(line, width):
                print(screen.marks_where_needed(piece) if self.marks else screen.without_direction_marks(piece), file=self.out)
        self.out.flush()

    def run(self) -> int:
        """Play to the end (or until the player quits); 0 either way."""
        _ = self._
        state = self.state
        self.say(
            ngettext("{variant}, {players} player, game number {seed}. You are {you}.",
                     "{variant}, {players} players, game number {seed}. You are {you}.", state.players, _,
                     variant=self.title, players=state.players, seed=state.seed, you=self.names[self.seat]),
            _("Type a move such as 'show 2-3' or 'scout left 0', or 'help'."),
        )
        try:
            while not state.is_over:
                rounds_ended = len(state.round_ends)
                if state.to_act == self.seat:
                    self._human_turn()
                else:
                    self._bot_turn()
                if len(state.round_ends) > rounds_ended:
                    self.say("", *screen.round_end(state.round_ends[-1], self.rules, self.names, self.style, _, self.width), "")
                    if self.pause and not state.is_over:
                        self._wait()
        except Quit:
            self.say(_("You left the match."))
            return 0
        self.say(*screen.standings(state.totals, self.names, self.seat, self.style, _))
        return 0

    def _wait(self) -> None:
        """Hold the round's summary on screen until the player is ready: the next deal would scroll it away."""
        try:
            self.ask(self._("Press Enter for the next round. "))
        except EOFError:
            raise Quit from None

    def _bot_turn(self) -> None:
        state = self.state
        seat = state.to_act
        bot = self.bots[seat]
        assert bot is not None  # the person's own seat is played by _your_turn, never here
        code = bot.act(state.view(seat))
        line = f"{self.names[seat]}: {describe_action(state, code, self._, self.style.ltr)}"
        state.apply(code)
        if self.delay:
            time.sleep(self.delay)
        self.say(line)

    def _human_turn(self) -> None:
        _ = self._
        view = self.state.view(self.seat)
        self.say("")
        self.say(*screen.table(view, self.rules, self.names, self.style, _, self.title, self.width))
        if view.phase == "flip":
            self.say(*screen.flip_choice(view, self.rules, self.style, _, self.width))
            # TRANSLATORS: keep and flip are typed as they are in every language; say what they mean around them.
            prompt = _("keep/flip> ")
        else:
            self.say(_("Your hand") + ":", *screen.hand_grid(view.hand, self.style, _, width=self.width))
            prompt = _("your move> ")
        while True:
            try:
                text = self.ask(prompt).strip()
            except EOFError:
                raise Quit from None
            if text and self._command(text, view):
                return

    def _command(self, text: str, view) -> bool:
        """Answer a command or play a move; True once a move was played."""
        _ = self._
        word = " ".join(text.lower().split())
        if word in ("quit", "exit", "q"):
            raise Quit
        if word in ("help", "?"):
            self.say(*self._help())
            return False
        if word == "hint":
            self.say(_("Moves") + ":", *screen.legal_summary(view, self.rules, _, self.width))
            return False
        if word == "hint all":
            self.say(_("Moves") + ":", *screen.all_legal(view, self.rules, self.width))
            return False
        if word in ("table", "look"):
            self.say(*screen.table(view, self.rules, self.names, self.style, _, self.title, self.width))
            self.say(_("Your hand") + ":", *screen.hand_grid(view.hand, self.style, _, width=self.width))
            return False
        return self._move(text)

    def _move(self, text: str) -> bool:
        _ = self._
        state = self.state
        try:
            action = parse_action(text)
        except NotationError as exc:
            self.say(translate_notation_error(str(exc), _), _("Type 'hint' for the legal moves, or 'help'."))
            return False
        try:
            code = self.rules.codec.encode(action)
        except NotationError:  # a move no hand could hold: the reason for this hand, as everywhere
            self.say(why_illegal_action(state, action, _), _("Type 'hint' for the legal moves, or 'help'."))
            return False
        if code not in state.legal_actions():
            self.say(why_illegal(state, code, _), _("Type 'hint' for the legal moves, or 'help'."))
            return False
        line = f"{self.names[self.seat]}: {describe_action(state, code, self._, self.style.ltr)}"
        rounds_ended = len(state.round_ends)
        scouted = isinstance(self.rules.codec.decode(code), Scout)
        state.apply(code)
        self.say(line)
        if scouted and state.to_act == self.seat and len(state.round_ends) == rounds_ended:
            self.say(_("You act again: scout once more, or show."))  # the two-player rules' extra turn
        return True

    def _help(self) -> list[str]:
        _ = self._
        examples = [
            ("keep | flip", _("at round start: keep your whole hand, or turn it around")),
            ("show 3 | show 3-5", _("show card 3, or cards 3 to 5 (adjacent, a set or a run)")),
            ("scout left 4", _("take the left end card of the active set, insert it at gap 4")),
            ("scout right flip 0", _("take the right end card, turn it over, insert it at gap 0")),
            ("scout left 2 show 1-3", _("Scout & Show: scout, then show from the new hand")),
        ]
        return [
            _("Moves (positions count from 1, left to right, as in the 'card' row):"),
            *screen.glossary(examples, self.width),
            _("Gap G is how many of your cards stay left of the scouted card (the 'gap' row)."),
            _("Commands: hint (legal moves), hint all (every one), table (show the table again), help, quit."),
        ]
