"""What the terminal game prints: the table, a hand, the legal moves, a round's end and the standings.

Pure functions of one seat's `View` (plus the rules and the seats' names), so the
terminal shows a player exactly what that seat may know (RULES.md 10.9). Every
word goes through the i18n gettext `_`; numbers and notation are never translated.
"""

from __future__ import annotations

import textwrap
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from scoutlab.engine.actions import Flip, Scout, ScoutShow, format_action
from scoutlab.engine.cards import bottom, flipped, top
from scoutlab.engine.explain import describe_show, end_reason
from scoutlab.text.i18n import Gettext

if TYPE_CHECKING:
    from scoutlab.engine.state import RoundEnd, View
    from scoutlab.rules import Rules


#: Unicode's direction marks, embeddings and isolates: what right-to-left text needs and nothing else does.
DIRECTION_MARKS = dict.fromkeys([0x200E, 0x200F, 0x061C, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def without_direction_marks(text: str) -> str:
    """`text` without direction marks: a left-to-right terminal needs none, and some draw them as boxes."""
    return text.translate(DIRECTION_MARKS)


class Style:
    """ANSI emphasis when the output is a terminal; plain text otherwise.

    `isolate` (right-to-left languages) wraps card lists and notation in Unicode isolates,
    so a terminal that lays out Arabic or Persian keeps `3/7 4/1` in its order.
    """

    def __init__(self, color: bool, isolate: bool = False):
        self.color = color
        self.isolate = isolate

    def ltr(self, text: str) -> str:
        """`text` kept left to right inside right-to-left text (only where the language needs it)."""
        return f"\u2066{text}\u2069" if self.isolate else text

    def _wrap(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color else text

    def top(self, text: str) -> str:
        """The number that counts: bold and underlined."""
        return self._wrap("1;4", text)

    def faint(self, text: str) -> str:
        return self._wrap("2", text)

    def strong(self, text: str) -> str:
        return self._wrap("1", text)

    def card(self, c: int) -> str:
        """`top/bottom` with the top number prominent."""
        return f"{self.top(str(top(c)))}/{self.faint(str(bottom(c)))}"

    def cards(self, cards: Sequence[int]) -> str:
        return self.ltr(" ".join(self.card(c) for c in cards))


def _right(text: str, width: int, shown: str) -> str:
    """`shown` (perhaps with ANSI codes) right-aligned as if it were `text`."""
    return " " * max(0, width - len(text)) + shown


def hand_grid(hand: Sequence[int], style: Style, _: Gettext, indent: str = "  ") -> list[str]:
    """The hand as columns: position, top number (prominent), bottom number, and the gaps between cards."""
    labels = [_("card"), _("top"), _("bottom"), _("gap")]
    width = max(map(len, labels)) + 2
    rows = [indent + labels[0].ljust(width) + "".join(f"{i:>4}" for i in range(1, len(hand) + 1))]
    rows.append(indent + labels[1].ljust(width) + "".join(_right(str(top(c)), 4, style.top(str(top(c)))) for c in hand))
    rows.append(indent + labels[2].ljust(width) + "".join(_right(str(bottom(c)), 4, style.faint(str(bottom(c)))) for c in hand))
    # Gap G sits between card G and card G+1: the number a scout or Scout & Show names.
    rows.append(indent + style.faint(labels[3].ljust(width - 2) + "".join(f"{g:>4}" for g in range(len(hand) + 1))))
    return rows


def table(view: View, rules: Rules, names: Sequence[str], style: Style, _: Gettext, variant: str | None = None) -> list[str]:
    """The round, the active set and its owner, and every seat's counts and score (`variant`: its title)."""
    lines = [style.strong(_("Round {number} of {rounds}", number=view.round + 1, rounds=view.rounds) + f" · {variant or view.variant}")]
    if view.active:
        values = [top(c) for c in view.active]
        show = f"{style.cards(view.active)}  ({describe_show(values, rules.classify(tuple(values)), _)})"
        owner = view.active_owner if view.active_owner is not None else view.to_act  # an active set always has an owner
        lines.append(_("Active set of {player}: {show}", player=names[owner], show=show))
    else:
        lines.append(_("No active set: any valid show may be played."))
    columns = [(_("Hand"), view.hand_sizes), (_("Captured"), view.captured)]
    if not rules.scout_pays:
        columns.append((_("Chips received"), view.chips_received))
    if rules.scout_chips:
        columns.append((_("Scout chips"), view.chips_held))
    if rules.sns_chips:
        columns.append((_("Scout & Show chip"), view.scout_show_chips))
    columns.append((_("Score"), view.totals))
    return lines + counts_table(_("Player"), names, columns, mark=view.to_act)


def columns_of(text: str) -> int:
    """How many terminal columns `text` takes: zero-width characters (U+200C, direction marks) take none."""
    return len(text) - sum(1 for ch in text if ch == "\u200c" or ord(ch) in DIRECTION_MARKS)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - columns_of(text))


def counts_table(first: str, names: Sequence[str], columns, mark: int | None = None) -> list[str]:
    """A row per seat: its name, then one number per (heading, values) column, right-aligned under the heading."""
    width = max(columns_of(first), *map(columns_of, names))
    rows = ["  " + _pad(first, width) + "".join(f"  {heading}" for heading, _ in columns)]
    for seat, name in enumerate(names):
        cells = "".join(f"  {values[seat]:>{columns_of(heading)}}" for heading, values in columns)
        rows.append(("> " if seat == mark else "  ") + _pad(name, width) + cells)
    return rows


def flip_choice(view: View, rules: Rules, style: Style, _: Gettext) -> list[str]:
    """The round-start choice, with the hand both ways."""
    hand = list(view.hand)
    turned = [flipped(c) for c in (reversed(hand) if rules.flip_reverses else hand)]
    return [
        _("You may flip your whole hand now. After the first move, its order and orientation lock."),
        _("Keep the hand") + ": keep",
        *hand_grid(hand, style, _),
        _("Flip the whole hand") + ": flip",
        *hand_grid(turned, style, _),
    ]


def legal_summary(view: View, rules: Rules, _: Gettext) -> list[str]:
    """The legal moves grouped: every show, each scout family with its gaps, and how many Scout & Shows."""
    decode = rules.codec.decode
    shows, scouts, scout_shows = [], defaultdict(list), []
    for code in view.legal:
        action = decode(code)
        if isinstance(action, Flip):
            shows.append(format_action(action))
        elif isinstance(action, Scout):
            scouts[(action.end, action.flip)].append(action.gap)
        elif isinstance(action, ScoutShow):
            scout_shows.append(format_action(action))
        else:
            shows.append(format_action(action))
    lines = []
    if shows:
        lines.append("  " + ", ".join(shows))
    for (end, flip), gaps in scouts.items():
        family = format_action(Scout(end, flip, 0))[: -len(" 0")]
        spread = f"{gaps[0]}..{gaps[-1]}" if gaps == list(range(gaps[0], gaps[-1] + 1)) else ", ".join(map(str, gaps))
        lines.append("  " + _("{family} G, with G from {gaps}", family=family, gaps=spread))
    if scout_shows:
        lines.append("  " + _("{count} Scout & Show moves, e.g. {example}; 'hint all' lists them",
                              count=len(scout_shows), example=scout_shows[0]))
    return lines or ["  -"]


def all_legal(view: View, rules: Rules, width: int = 78) -> list[str]:
    """Every legal move in notation, in columns."""
    moves = [format_action(rules.codec.decode(code)) for code in view.legal]
    column = max(map(len, moves), default=0) + 2
    per_line = max(1, width // column)
    return ["  " + "".join(m.ljust(column) for m in moves[i:i + per_line]).rstrip()
            for i in range(0, len(moves), per_line)]


#: The width of the smallest terminal the game is laid out for (80x24).
WIDTH = 80


def wrapped(text: str, width: int | None = None) -> list[str]:
    """A sentence on as many lines of at most `width` (else WIDTH) columns as it needs."""
    return textwrap.wrap(text, width=width or WIDTH, break_long_words=False, break_on_hyphens=False) or [""]


def round_end(end: RoundEnd, rules: Rules, names: Sequence[str], style: Style, _: Gettext) -> list[str]:
    """Why the round ended and each seat's score line, within 80 columns."""
    title = _("Round {number} ends: {reason}", number=end.round + 1, reason=end_reason(end, rules, _, names))
    lines = [style.strong(line) for line in wrapped(title)]
    if end.exempt is not None:
        lines += wrapped(_("{player} owned the last show and loses nothing for the cards in hand.", player=names[end.exempt]))
    columns: list[tuple[str, Sequence[object]]] = [(_("Captured"), end.captured)]
    if not rules.scout_pays:
        columns.append((_("Chips received"), end.chips_received))
    if rules.scout_chips:
        columns.append((_("Chips kept"), end.chips_held))
    columns += [(_("Cards in hand"), end.cards_in_hand), (_("Round score"), [f"{s:+d}" for s in end.scores])]
    return lines + counts_table(_("Player"), names, columns)


def standings(totals: Sequence[int], names: Sequence[str], you: int, style: Style, _: Gettext) -> list[str]:
    """Final standings, best first; tied seats share a rank and the victory."""
    best = max(totals)
    winners = [seat for seat, total in enumerate(totals) if total == best]
    width = max(map(len, names))
    lines = [style.strong(_("Final standings"))]
    for seat in sorted(range(len(totals)), key=lambda seat: (-totals[seat], seat)):
        rank = 1 + sum(1 for other in totals if other > totals[seat])  # ties share a rank
        mark = _("winner") if seat in winners else ""
        lines.append(f"  {rank}. {names[seat].ljust(width)}  {totals[seat]:>3}  {mark}".rstrip())
    if len(winners) > 1:
        lines.append(_("Tied players share the victory."))
    lines.append(_("You win!") if you in winners else _("{players} won.", players=", ".join(names[s] for s in winners)))
    return lines
