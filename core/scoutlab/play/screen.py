"""What the terminal game prints: the table, a hand, the legal moves, a round's end and the standings.

Pure functions of one seat's `View` (plus the rules and the seats' names), so the
terminal shows a player exactly what that seat may know (docs/rules.md §10.9). Every
word goes through the i18n gettext `_`; numbers and notation are never translated.
"""

from __future__ import annotations

import re
import shutil
import unicodedata
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from scoutlab.engine.actions import Flip, Scout, ScoutShow, format_action
from scoutlab.engine.cards import bottom, flipped, top
from scoutlab.engine.explain import describe_show, end_reason
from scoutlab.text.i18n import Gettext, left_to_right, ngettext

if TYPE_CHECKING:
    from scoutlab.engine.state import RoundEnd, View
    from scoutlab.rules import Rules


#: Unicode's direction marks, embeddings and isolates: what right-to-left text needs and nothing else does.
DIRECTION_MARKS = dict.fromkeys([0x200E, 0x200F, 0x061C, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])
#: The width the game is laid out for when it cannot ask the terminal (an 80x24 terminal's).
WIDTH = 80
MAX_WIDTH = 1_000  # wider than any screen: no table needs more room


def without_direction_marks(text: str) -> str:
    """`text` without direction marks: a left-to-right terminal needs none, and some draw them as boxes."""
    return text.translate(DIRECTION_MARKS)


def has_right_to_left(text: str) -> bool:
    """Whether `text` holds an Arabic or Hebrew letter: only such a line needs direction marks."""
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


def marks_where_needed(text: str) -> str:
    """A right-to-left language's line: its isolates kept if it has right-to-left letters, else dropped (they show as boxes)."""
    return text if has_right_to_left(text) else without_direction_marks(text)


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
        return left_to_right(text) if self.isolate else text

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


def hand_grid(hand: Sequence[int], style: Style, _: Gettext, indent: str = "  ", width: int | None = None) -> list[str]:
    """The hand as columns: position, top number (prominent), bottom number, and the gaps between cards.

    A hand too long for `width` columns (else WIDTH) goes on as many blocks of four rows as it needs,
    each block's gap row from the gap before its first card to the gap after its last.
    """
    labels = [_("card"), _("top"), _("bottom"), _("gap")]
    label = max(map(columns_of, labels)) + 2
    # a card takes 4 columns; the gap row starts 2 columns left of the cards and ends 2 right of them
    per_block = max(1, ((width or WIDTH) - columns_of(indent) - label - 2) // 4)
    rows = []
    for first in range(0, max(1, len(hand)), per_block):
        cards = hand[first:first + per_block]
        rows.append(indent + _pad(labels[0], label) + "".join(f"{i:>4}" for i in range(first + 1, first + len(cards) + 1)))
        rows.append(indent + _pad(labels[1], label) + "".join(_right(str(top(c)), 4, style.top(str(top(c)))) for c in cards))
        rows.append(indent + _pad(labels[2], label) + "".join(_right(str(bottom(c)), 4, style.faint(str(bottom(c)))) for c in cards))
        # Gap G sits between card G and card G+1: the number a scout or Scout & Show names.
        gaps = range(first, first + len(cards) + 1)
        rows.append(indent + style.faint(_pad(labels[3], label - 2) + "".join(f"{g:>4}" for g in gaps)))
    return rows


def table(view: View, rules: Rules, names: Sequence[str], style: Style, _: Gettext, variant: str | None = None,
          width: int | None = None) -> list[str]:
    """The round, the active set and its owner, and every seat's counts and score (`variant`: its title), within `width` columns."""
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
    return [*(piece for line in lines for piece in wrapped(line, width)), *counts_table(_("Player"), names, columns, view.to_act, width)]


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def columns_of(text: str) -> int:
    """How many terminal columns `text` takes: ANSI codes and zero-width characters (U+200C, direction marks,
    combining marks) take none, East Asian wide characters two."""
    count = 0
    for ch in _ANSI.sub("", text):
        if unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        count += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return count


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - columns_of(text))


def _heading_width(heading: str, cells: Sequence[str], lines: int) -> int:
    """The narrowest column that holds the cells and the heading on at most `lines` lines (or one word a line)."""
    narrowest = max(max(map(columns_of, heading.split()), default=0), *map(columns_of, cells))
    for width in range(narrowest, max(narrowest, columns_of(heading)) + 1):
        if len(wrapped(heading, width)) <= lines:
            return width
    return narrowest


def counts_table(first: str, names: Sequence[str], columns, mark: int | None = None, width: int | None = None) -> list[str]:
    """A row per seat: its name, then one number per (heading, values) column, right-aligned under the heading.

    Within `width` columns (else WIDTH): headings go on two lines, then one word a line, when one line is too
    wide; if even that is too wide, each seat gets a line of its own, `heading value` pairs wrapped.
    """
    width = width or WIDTH
    name_width = max(columns_of(first), *map(columns_of, names))
    cells = [[str(value) for value in values] for _heading, values in columns]
    for lines in (1, 2, 99):
        widths = [_heading_width(heading, column, lines) for (heading, _values), column in zip(columns, cells)]
        if 2 + name_width + sum(2 + w for w in widths) <= width:
            break
    else:
        rows = []
        for seat, name in enumerate(names):
            pairs = [f"{heading} {column[seat]}" for (heading, _values), column in zip(columns, cells)]
            rows += listing(pairs, width, ("> " if seat == mark else "  ") + f"{name}: ", "    ", " ·")
        return rows
    headings = [wrapped(heading, w) for (heading, _values), w in zip(columns, widths)]
    spare = width - (2 + name_width + sum(2 + w for w in widths))
    while spare > 0:  # the room left widens the tallest heading, one line shorter at a time
        tallest = max(range(len(widths)), key=lambda i: len(headings[i]))
        heading, lines = columns[tallest][0], len(headings[tallest])
        wider = next((w for w in range(widths[tallest] + 1, widths[tallest] + spare + 1) if len(wrapped(heading, w)) < lines), None)
        if lines == 1 or wider is None:
            break
        spare -= wider - widths[tallest]
        widths[tallest], headings[tallest] = wider, wrapped(heading, wider)
    depth = max(map(len, headings))
    rows = []
    for line in range(depth):  # headings sit on the row just above the numbers: short ones are padded at the top
        words = [lines_[line - depth + len(lines_)] if line >= depth - len(lines_) else "" for lines_ in headings]
        label = first if line == depth - 1 else ""
        rows.append(("  " + _pad(label, name_width) + "".join("  " + _pad(word, w) for word, w in zip(words, widths))).rstrip())
    for seat, name in enumerate(names):
        row = "".join("  " + " " * (w - columns_of(column[seat])) + column[seat] for column, w in zip(cells, widths))
        rows.append(("> " if seat == mark else "  ") + _pad(name, name_width) + row)
    return rows


def flip_choice(view: View, rules: Rules, style: Style, _: Gettext, width: int | None = None) -> list[str]:
    """The round-start choice, with the hand both ways (each within `width` columns)."""
    hand = list(view.hand)
    turned = [flipped(c) for c in (reversed(hand) if rules.flip_reverses else hand)]
    return [
        _("You may flip your whole hand now. After the first move, its order and orientation lock."),
        _("Keep the hand") + ": keep",
        *hand_grid(hand, style, _, width=width),
        _("Flip the whole hand") + ": flip",
        *hand_grid(turned, style, _, width=width),
    ]


def listing(items: Sequence[str], width: int | None = None, indent: str = "  ", hanging: str | None = None,
            separator: str = ",") -> list[str]:
    """`items` joined by `separator` on lines of at most `width` columns (else WIDTH), never broken inside an item
    that fits a line; continuation lines start with `hanging` (else `indent`)."""
    width = width or WIDTH
    hanging = indent if hanging is None else hanging
    lines: list[str] = []
    line = ""
    for i, item in enumerate(items):
        piece = item + (separator if i < len(items) - 1 else "")
        if line.strip() and columns_of(line + " " + piece) > width:
            lines.append(line)
            line = hanging
        line = f"{line} {piece}" if line.strip() else (line or indent) + piece
    return [*(piece for text in [*lines, line] if text.strip() for piece in wrapped(text, width))]


def glossary(entries: Sequence[tuple[str, str]], width: int | None = None) -> list[str]:
    """(notation, meaning) pairs in two columns, each meaning wrapped beside its notation within `width` columns;
    below it, indented, when the terminal is too narrow for both."""
    width = width or WIDTH
    column = 2 + max(columns_of(notation) for notation, _meaning in entries) + 2
    lines = []
    for notation, meaning in entries:
        if width - column >= 24:
            first, *rest = wrapped(meaning, width - column)
            lines += [_pad("  " + notation, column) + first, *(" " * column + line for line in rest)]
        else:
            lines += ["  " + notation, *wrapped("      " + meaning, width)]
    return lines


def legal_summary(view: View, rules: Rules, _: Gettext, width: int | None = None) -> list[str]:
    """The legal moves grouped: every show, each scout family with its gaps, and how many Scout & Shows; within `width` columns."""
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
    lines = listing(shows, width)
    for (end, flip), gaps in scouts.items():
        family = format_action(Scout(end, flip, 0))[: -len(" 0")]
        spread = f"{gaps[0]}..{gaps[-1]}" if gaps == list(range(gaps[0], gaps[-1] + 1)) else ", ".join(map(str, gaps))
        lines += wrapped("  " + _("{family} G, with G from {gaps}", family=family, gaps=spread), width, hanging="    ")
    if scout_shows:
        lines += wrapped("  " + ngettext("{count} Scout & Show move, e.g. {example}; 'hint all' lists it",
                                         "{count} Scout & Show moves, e.g. {example}; 'hint all' lists them",
                                         len(scout_shows), _, count=len(scout_shows), example=scout_shows[0]), width, hanging="    ")
    return lines or ["  -"]


def all_legal(view: View, rules: Rules, width: int = 78) -> list[str]:
    """Every legal move in notation, in columns."""
    moves = [format_action(rules.codec.decode(code)) for code in view.legal]
    column = max(map(len, moves), default=0) + 2
    per_line = max(1, width // column)
    return ["  " + "".join(m.ljust(column) for m in moves[i:i + per_line]).rstrip()
            for i in range(0, len(moves), per_line)]


def terminal_width() -> int:
    """The terminal's width in columns now: $COLUMNS, else the terminal's own, else WIDTH (output to a file or a pipe);
    at most MAX_WIDTH (COLUMNS=100000000 made the layout try every width up to it)."""
    return min(shutil.get_terminal_size((WIDTH, 24)).columns, MAX_WIDTH)


_ISOLATE_OPEN = dict.fromkeys("\u2066\u2067\u2068")


def _words(text: str) -> list[str]:
    """`text` split at its spaces, except inside isolates: a card list in right-to-left text stays on one line."""
    words, word, depth = [], "", 0
    for ch in text:
        if ch in _ISOLATE_OPEN:
            depth += 1
        elif ch == "\u2069":
            depth = max(0, depth - 1)
        if ch == " " and depth == 0:
            if word:
                words.append(word)
            word = ""
        else:
            word += ch
    return [*words, word] if word else words


def wrapped(text: str, width: int | None = None, hanging: str | None = None) -> list[str]:
    """`text` on as many lines of at most `width` (else WIDTH) columns as it needs, broken only between words.

    Columns are counted as the terminal draws them (columns_of). A line keeps its leading spaces, and its
    continuation lines start with `hanging` (else the same spaces). An isolated run (a card list in Arabic or
    Persian) is one word while it fits a line; a single word wider than the line keeps a line of its own.
    """
    width = width or WIDTH
    if columns_of(text) <= width:
        return [text]
    lead = text[: len(text) - len(text.lstrip(" "))]
    hanging = lead if hanging is None else hanging
    words: list[str] = []
    for word in _words(text):
        words += word.split(" ") if columns_of(word) > width - columns_of(hanging) else [word]
    lines: list[str] = []
    line = lead
    for word in words:
        if line.strip() and columns_of(line) + 1 + columns_of(word) > width:
            lines.append(line)
            line = hanging
        line = f"{line} {word}" if line.strip() else line + word
    return [*lines, line]


def round_end(end: RoundEnd, rules: Rules, names: Sequence[str], style: Style, _: Gettext, width: int | None = None) -> list[str]:
    """Why the round ended and each seat's score line, within `width` columns (else WIDTH, 80)."""
    title = _("Round {number} ends: {reason}", number=end.round + 1, reason=end_reason(end, rules, _, names))
    lines = [style.strong(line) for line in wrapped(title, width)]
    if end.exempt is not None:
        lines += wrapped(_("{player} owned the last show and loses nothing for the cards in hand.", player=names[end.exempt]), width)
    columns: list[tuple[str, Sequence[object]]] = [(_("Captured"), end.captured)]
    if not rules.scout_pays:
        columns.append((_("Chips received"), end.chips_received))
    if rules.scout_chips:
        columns.append((_("Chips kept"), end.chips_held))
    columns += [(_("Cards in hand"), end.cards_in_hand), (_("Round score"), [f"{s:+d}" for s in end.scores])]
    return lines + counts_table(_("Player"), names, columns, width=width)


def standings(totals: Sequence[int], names: Sequence[str], you: int, style: Style, _: Gettext) -> list[str]:
    """Final standings, best first; tied seats share a rank and the victory."""
    best = max(totals)
    winners = [seat for seat, total in enumerate(totals) if total == best]
    width = max(map(columns_of, names))
    lines = [style.strong(_("Final standings"))]
    for seat in sorted(range(len(totals)), key=lambda seat: (-totals[seat], seat)):
        rank = 1 + sum(1 for other in totals if other > totals[seat])  # ties share a rank
        mark = _("winner") if seat in winners else ""
        lines.append(f"  {rank}. {_pad(names[seat], width)}  {totals[seat]:>3}  {mark}".rstrip())
    if len(winners) > 1:
        lines.append(_("Tied players share the victory."))
    lines.append(_("You win!") if you in winners else _("{players} won.", players=", ".join(names[s] for s in winners)))
    return lines
