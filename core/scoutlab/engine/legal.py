"""The legal plays of the seat to act: the engine's hot loop, under the built-in show order and under plugins.

Plain functions of ints, lists of ints (cards, strength keys, action codes) and vecs of
i64 (a hand's top numbers), importing only mypyc's runtime types, so that mypyc can compile
this module: setup.py does when a C compiler is at hand, and `scoutlab.native` picks the
compiled module or this source. This source is the reference: tests/test_legal_native.py
checks that the two agree. Compiled, an item of the `vec[i64]` `tops` read at an `i64`
index is a bounds check and a load, where an item of a list of ints is a reference to
count and a number to unbox: the sweeps below read each number several times. (Made from a
list in C, the vec costs a third of what `bytes([...])` did, which was as much as the sweep.)

A show's strength under the official order is one int, so comparing with the active set
is a single integer comparison:
    key = ((2 * count + is_set) << 5) | lowest
More cards beat fewer; with equal counts a set beats a run; then the higher lowest number.
Equal keys are equal strength, which never beats.
"""

from __future__ import annotations

from typing import Any, Final

# mypyc compiles an i64 to a C int64, with no tag checks; to Python it is an int. A conditional
# expression's literal is written i64(9): a bare 9 would make mypyc box both branches as Python ints.
from librt.vecs import extend, vec
from mypy_extensions import i64

SHIFT: Final = 5  # a card is top << 5 | bottom (cards.SHIFT; tests check they agree)
MASK: Final = 31  # the bottom number's bits (cards.MASK)
SHOW_BASE: Final = 2  # codes 0 and 1 are the hand-flip choice (actions.SHOW_BASE)
NOTHING_TO_BEAT: Final = -1  # the key of an empty table: every show beats it
SINGLE_KEY: Final = 3 << SHIFT  # a single card is a set of one: (2*1 + 1) << 5


class Layout:
    """The action codes for hands of at most `width` cards (the layout of actions.Codec), as tables.

    An int above 256 is a new object each time it is computed, so the codes listed most
    often, the scouts and the plain shows, are made once here and handed out again, and so
    are the Scout & Show codes of hands up to the largest seen so far (`sns_codes`).
    """

    def __init__(self, width: int) -> None:
        self.width = width
        self.show_count = width * width
        self.scout_base = SHOW_BASE + self.show_count
        self.sns_base = self.scout_base + 4 * (width + 1)
        self.sns_stride = self.show_count + 1  # the extra slot is "show none", seed 002's fallback
        self.shows: list[Any] = list(range(SHOW_BASE, self.scout_base))  # Any: mypyc appends the objects, unconverted
        # scouts[2 * hand size + ends - 1]: every scout into a hand of that size, from one end or both
        self.scouts: list[list[int]] = []
        for size in range(width + 1):
            for ends in (1, 2):
                codes: list[int] = []
                for side in range(2 * ends):  # side = end * 2 + flip
                    first = self.scout_base + side * (width + 1)
                    codes.extend(range(first, first + size + 1))
                self.scouts.append(codes)
        # The Scout & Show codes of hands of up to `sns_cap` cards, made when a hand first needs them:
        # code sns_base + (side * (width + 1) + gap) * sns_stride + start * width + length - 1 sits at
        # index (side * (sns_cap + 1) + gap) * sns_span + start * (sns_cap + 1) + length - 1, every start
        # and length up to sns_cap + 1 (small, so that it stays in cache). Typed Any so mypyc hands out the objects.
        self.sns_cap = -1
        self.sns_span = 0
        self.sns_codes: list[Any] = []

    def sns_table(self, hand_size: int) -> list[Any]:
        """`sns_codes`, made for hands of `hand_size` cards if it does not reach that far yet."""
        if hand_size > self.sns_cap:
            cap = max(hand_size, self.sns_cap + 4, 12)
            width, stride = self.width, self.sns_stride
            span = (cap + 1) * (cap + 1)
            codes: list[Any] = []
            for side in range(4):
                for gap in range(cap + 1):
                    for start in range(cap + 1):
                        first = self.sns_base + (side * (width + 1) + gap) * stride + start * width
                        codes.extend(range(first, first + cap + 1))
            self.sns_cap, self.sns_span, self.sns_codes = cap, span, codes
        return self.sns_codes

    def __reduce__(self) -> tuple[type, tuple[int]]:
        """Copied and pickled as its width (a game state holds one; a compiled class has no __dict__ to copy)."""
        return Layout, (self.width,)


def set_key(count: int, value: int) -> int:
    return (((count << 1) | 1) << SHIFT) | value


def run_key(count: int, lowest: int) -> int:
    return ((count << 1) << SHIFT) | lowest


def active_set_key(cards: list[int]) -> int:
    """The key of an active set, which is always a valid show (or what scouting left of one).

    Its first two cards tell a set from a run, so no scan is needed: this runs after every move.
    """
    if not cards:
        return NOTHING_TO_BEAT
    first = cards[0] >> SHIFT
    if len(cards) == 1:
        return SINGLE_KEY + first
    if cards[1] >> SHIFT == first:
        return set_key(len(cards), first)
    return run_key(len(cards), min(first, cards[-1] >> SHIFT))


def append_shows(tops: list[int], beat_key: int, base: int, width: int, out: list[Any]) -> None:
    """Append the code of every show in `tops` stronger than `beat_key`.

    A show from position i with n cards has code base + i*width + (n - 1).
    """
    _sweep(vec[i64](tops), beat_key, base, width, out, None)


def top_numbers(hand: list[int]) -> vec[i64]:
    """The top number of each card of a hand (compiled, the vec is made from the list in one C loop,
    faster than appending card by card, where each append is a call into librt)."""
    return vec[i64]([c >> SHIFT for c in hand])


def append_plain_shows(tops: vec[i64], beat_key: int, layout: Layout, out: list[Any]) -> None:
    """`append_shows` for a plain Show, with the codes from the layout's table."""
    _sweep(tops, beat_key, 0, layout.width, out, layout.shows)


def _sweep(tops: vec[i64], beat_key: i64, base: i64, width: i64, out: list[Any], table: list[Any] | None) -> None:
    # One sweep per start position: a set or run can only grow while the next card keeps its step.
    # Each show found is relative code `rel`; the table, when given, holds base + rel ready made.
    n: i64 = len(tops)
    i: i64 = 0
    while i < n:
        v: i64 = tops[i]
        row = i * width
        if SINGLE_KEY + v > beat_key:
            out.append(table[row] if table is not None else base + row)
        j: i64 = i + 1
        if j < n:
            step: i64 = tops[j] - v
            if step == 0:
                while j < n and tops[j] == v:
                    j += 1
                    if ((((j - i) << 1) | 1) << SHIFT) + v > beat_key:
                        rel = row + j - i - 1
                        out.append(table[rel] if table is not None else base + rel)
            elif step == 1 or step == -1:
                prev = v
                while j < n and tops[j] - prev == step:
                    prev = tops[j]
                    j += 1
                    lowest = v if step == 1 else prev
                    if (((j - i) << 1) << SHIFT) + lowest > beat_key:
                        rel = row + j - i - 1
                        out.append(table[rel] if table is not None else base + rel)
        i += 1


def append_insertion_shows(
    tops: vec[i64], value: i64, gap: i64, beat_key: i64, base: i64, width: i64, out: list[Any],
    table: list[Any] | None = None,
) -> None:
    """Append the shows of two or more cards that include a card of `value` inserted at `gap`.

    Shows that avoid the new card are the hand's own shows, found once per scout by the
    caller, and so is the new card alone; only the sets and runs through it are new.
    Codes count positions in the hand after the insertion, where the new card sits at `gap`.
    With a `table`, `base` is an index into it and the code appended is the table's entry.
    """
    n: i64 = len(tops)
    # A step (0: set, +1/-1: run left to right) extends only if a neighbour continues it.
    left_step: i64 = value - tops[gap - 1] if gap > 0 else i64(9)
    right_step: i64 = tops[gap] - value if gap < n else i64(9)
    k: i64 = 0  # while loops on i64: a tuple of steps and range() loops cost a 28-card game 8% more (callgrind)
    while k < 3:  # the engine's historical order: sets, rising runs, falling runs
        step: i64 = 0 if k == 0 else (1 if k == 1 else -1)
        k += 1
        if step != left_step and step != right_step:
            continue
        left: i64 = 0
        while gap - left > 0 and tops[gap - left - 1] == value - step * (left + 1):
            left += 1
        right: i64 = 0
        while gap + right < n and tops[gap + right] == value + step * (right + 1):
            right += 1
        a: i64 = 0
        while a <= left:
            b: i64 = 0
            while b <= right:
                count = a + b + 1
                if count > 1:  # the new card alone is the caller's
                    if step == 0:
                        key = (((count << 1) | 1) << SHIFT) + value
                    else:
                        lowest = value - a if step == 1 else value - b
                        key = ((count << 1) << SHIFT) + lowest
                    if key > beat_key:
                        at = base + (gap - a) * width + count - 1
                        out.append(table[at] if table is not None else at)
                b += 1
            a += 1


def append_scouts(hand_size: int, active_size: int, layout: Layout, out: list[int]) -> None:
    """Append every scout: each end of the active set (one end if it has one card), either way up, any gap."""
    out.extend(layout.scouts[2 * hand_size + (1 if active_size == 1 else 2) - 1])


def append_scout_shows(tops: vec[i64], active: list[int], fallback: bool, layout: Layout, out: list[Any]) -> None:
    """Scout & Show: every scout, then every show of the new hand that beats what is left.

    The hand's own shows survive an insertion left or right of them (shifted past it), so
    across the gaps each one's codes form an arithmetic progression. Only the new card
    alone and the shows through it are found gap by gap. The codes are the layout's
    ready-made ints (`Layout.sns_table`), walked by index: index and code move together.
    """
    n: i64 = len(tops)
    width: i64 = layout.width
    show_count: i64 = layout.show_count
    stride: i64 = layout.sns_stride
    sns_base: i64 = layout.sns_base
    codes = layout.sns_table(n)
    span: i64 = layout.sns_span
    rows: i64 = layout.sns_cap + 1  # gaps per side, and starts and lengths per gap
    ends: i64 = 1 if len(active) == 1 else 2  # while loops on i64 below: compiled, C loops with no range objects
    rel: i64
    start: i64
    stop: i64
    gap: i64
    end: i64 = 0
    while end < ends:
        taken = active[-1] if end else active[0]
        beat: i64 = active_set_key(active[:-1] if end else active[1:])
        own: list[int] = []
        _sweep(tops, beat, 0, width, own, None)
        split_at: list[int] = [0] * (n + 1)  # how many own shows a card at each gap would split, for the fallback
        if fallback:
            for rel in own:
                start = rel // width
                stop = start + rel % width + 1
                gap = start + 1
                while gap < stop:
                    split_at[gap] = split_at[gap] + 1
                    gap += 1
        flip: i64 = 0
        while flip < 2:
            value: i64 = (taken & MASK) if flip else (taken >> SHIFT)
            side = end * 2 + flip
            block = side * rows * span  # the index of this side's gap 0, offset 0
            for rel in own:
                start = rel // width
                stop = start + rel % width + 1
                offset = start * rows + rel % width  # where this show sits in a gap's row of the table
                at, last = block + stop * span + offset, block + n * span + offset  # gaps stop..n
                while at <= last:
                    out.append(codes[at])
                    at += span
                at, last = block + offset + rows, block + start * span + offset + rows  # gaps 0..start
                while at <= last:
                    out.append(codes[at])
                    at += span
            single = SINGLE_KEY + value > beat
            gap = 0
            while gap <= n:
                base = block + gap * span
                before = len(out)
                left: i64 = tops[gap - 1] if gap else i64(-2)  # -2: no neighbour, nothing within one step
                right: i64 = tops[gap] if gap < n else i64(-2)
                if single:
                    out.append(codes[base + gap * rows])  # the new card alone
                if -1 <= value - left <= 1 or -1 <= value - right <= 1:
                    append_insertion_shows(tops, value, gap, beat, base, rows, out, codes)  # a row's starts are `rows` apart
                if fallback and len(out) == before and split_at[gap] == len(own):  # no show at all: scout only
                    out.append(sns_base + (side * (width + 1) + gap) * stride + show_count)
                gap += 1
            flip += 1
        end += 1


def play_codes(
    hand: list[int], active: list[int], beat: int, may_scout: bool, scout_show: bool, fallback: bool, layout: Layout
) -> list[int]:
    """Every legal Show, Scout and Scout & Show code of a hand, in that order."""
    tops = top_numbers(hand)
    out: list[int] = []
    append_plain_shows(tops, beat, layout, out)
    if may_scout:
        append_scouts(len(hand), len(active), layout, out)
        if scout_show:
            append_scout_shows(tops, active, fallback, layout, out)
    return out


# -- under plugins that decide what a show is and what beats what ------------------------------
# The hooks are pure, so each is asked once per question: a run of numbers is classified once
# and kept as a node of a trie (a show's every prefix is a show, so a sweep walks it card by card
# and stops at the first that is no show), and a pair of nodes is compared once. The trie is ints:
# the sweeps below do no call into Python once a hand's shows have been asked about.

ROOT: Final = 0  # the node of no cards: what a show on an empty table must beat (any show does)
UNKNOWN: Final = 0  # a child not asked about yet (the root is nobody's child)
NO_SHOW: Final = -1  # the child is no show, so neither is anything longer
BEATS: Final = 1  # a verdict kept: the show beats the active set
LOSES: Final = 2  # a verdict kept: it does not


class ShowTrie:
    """The shows of one rules object's plugins, as far as they have been asked about.

    `classify(values)` is the hooks' kind of a run of top numbers ("set", "run", another
    kind a plugin invents, or None for no show); `compare(show, active)` (each a node's
    numbers and kind) whether the one beats the other. Node n holds `values[n]`,
    `kinds[n]`, and its children at `children[n * span + number]`.
    """

    def __init__(self, span: int, classify: Any, compare: Any) -> None:
        self.span: i64 = span  # the numbers on the cards are 0..span - 1
        self.classify = classify
        self.compare = compare
        self.children = vec[i64]([UNKNOWN] * span)
        self.values: list[tuple[int, ...]] = [()]
        self.kinds: list[str] = ["set"]  # the root's: never asked, an empty table is beaten by anything
        # verdicts[active node][show node]: BEATS, LOSES or UNKNOWN; rows of C ints, read with no boxed key
        self.verdicts: list[vec[i64]] = []
        self.loose: dict[tuple[int, ...], int] = {}  # active sets that are no show -> their node (active_node)

    def child(self, node: i64, number: i64) -> i64:
        """The node of `node`'s numbers and then `number`, or NO_SHOW when they are no show."""
        found: i64 = self.children[node * self.span + number]
        return found if found != UNKNOWN else self._learn(node, number)

    def _learn(self, node: i64, number: i64) -> i64:
        values = self.values[node] + (number,)
        kind = self.classify(values)
        found: i64 = NO_SHOW
        if kind is not None:
            found = len(self.values)
            self.values.append(values)
            self.kinds.append(kind)
            self.children = extend(self.children, [UNKNOWN] * self.span)
        self.children[node * self.span + number] = found
        return found

    def node(self, values: tuple[int, ...] | list[int]) -> i64:
        """The node of these numbers (ROOT for none), or NO_SHOW when they are no show."""
        found: i64 = ROOT
        for number in values:
            found = self.child(found, number)
            if found == NO_SHOW:
                break
        return found

    def active_node(self, values: tuple[int, ...] | list[int]) -> i64:
        """The node of an active set's numbers. What a scout leaves of a show may be no show under some
        plugins: it gets a node all the same, of kind "invalid" and outside the trie, for the hooks to compare with."""
        found = self.node(values)
        if found == NO_SHOW:
            key = tuple(values)
            found = self.loose.get(key, NO_SHOW)
            if found == NO_SHOW:
                found = self.loose[key] = len(self.values)
                self.values.append(key)
                self.kinds.append("invalid")
                self.children = extend(self.children, [UNKNOWN] * self.span)  # a row no walk reaches
        return found

    def beats(self, show: i64, active: i64) -> bool:
        """Whether the show of node `show` beats the active set of node `active` (anything beats ROOT)."""
        if active == ROOT:
            return True
        if active < len(self.verdicts):
            row = self.verdicts[active]
            if show < len(row):
                verdict: i64 = row[show]
                if verdict != UNKNOWN:
                    return verdict == BEATS
        return self._judge(show, active)

    def _judge(self, show: i64, active: i64) -> bool:
        """Ask the hooks whether `show` beats `active`, and keep the answer."""
        stronger: bool = self.compare(self.values[show], self.kinds[show], self.values[active], self.kinds[active])
        # the row is fetched after the hook returns, so another thread's verdicts kept meanwhile stay
        while len(self.verdicts) <= active:
            self.verdicts.append(vec[i64]())
        row = self.verdicts[active]
        if len(row) <= show:
            row = extend(row, [UNKNOWN] * (len(self.values) - len(row)))  # room for every node known so far
            self.verdicts[active] = row
        row[show] = BEATS if stronger else LOSES
        return stronger

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Copied and pickled with all it has learnt: a game state's `beat` is one of its node numbers."""
        return _restored_trie, (self.span, self.classify, self.compare, self.values, self.kinds, list(self.children),
                                [list(row) for row in self.verdicts], self.loose)


def _restored_trie(span: int, classify: Any, compare: Any, values: list[tuple[int, ...]], kinds: list[str],
                   children: list[int], verdicts: list[list[int]], loose: dict[tuple[int, ...], int]) -> ShowTrie:
    """A ShowTrie as `ShowTrie.__reduce__` saw it (a compiled class has no __dict__ to copy)."""
    trie = ShowTrie(span, classify, compare)
    trie.values, trie.kinds, trie.children = list(values), list(kinds), vec[i64](children)
    trie.verdicts, trie.loose = [vec[i64](row) for row in verdicts], dict(loose)
    return trie


def append_trie_shows(tops: list[int], beat: i64, trie: ShowTrie, base: i64, width: i64, out: list[Any]) -> None:
    """`append_shows` under plugins: the code of every show in `tops` that beats the node `beat`."""
    n: i64 = len(tops)
    i: i64 = 0
    while i < n:
        row = base + i * width
        node: i64 = ROOT
        j: i64 = i
        while j < n:
            node = trie.child(node, tops[j])
            if node == NO_SHOW:
                break  # every prefix of a show is a show, so nothing longer can be one
            if trie.beats(node, beat):
                out.append(row + j - i)
            j += 1
        i += 1


def append_trie_scout_shows(tops: list[int], value: i64, beat: i64, trie: ShowTrie, first: i64, stride: i64,
                            width: i64, fallback: i64, out: list[Any]) -> None:
    """Scout & Show under plugins, for one scouted card of top number `value`: for each gap in turn, every
    show of the new hand that beats the node `beat`, as `append_trie_shows` lists them in that hand (codes
    from `first + gap * stride`), then `fallback` if no show was found and it is not -1.

    A show that avoids the new card is one of the hand's own (one place further on, right of the
    card), so the hand is read once, and gap by gap only the shows through the new card are walked.
    """
    n: i64 = len(tops)
    # reach[s]: how many cards the show from card s runs to (each shorter one from there is a show too);
    # own[s]: the lengths of those that beat `beat`, shortest first
    reach: list[int] = []
    own: list[list[int]] = []
    s: i64 = 0
    while s < n:
        node: i64 = ROOT
        lengths: list[int] = []
        j: i64 = s
        while j < n:
            node = trie.child(node, tops[j])
            if node == NO_SHOW:
                break
            if trie.beats(node, beat):
                lengths.append(j - s + 1)
            j += 1
        reach.append(j - s)
        own.append(lengths)
        s += 1
    gap: i64 = 0
    while gap <= n:
        base = first + gap * stride
        before = len(out)
        s = 0
        while s < gap:  # starting left of the new card: the own shows that end before it, then through it
            row = base + s * width
            for length in own[s]:
                if s + length > gap:
                    break
                out.append(row + length - 1)
            if gap - s <= reach[s]:  # tops[s:gap] is a show: walk on from its node
                node = ROOT
                j = s
                while j < gap:
                    node = trie.child(node, tops[j])
                    j += 1
                _through(tops, node, value, gap, gap - s, beat, trie, row, out)
            s += 1
        _through(tops, ROOT, value, gap, 0, beat, trie, base + gap * width, out)  # starting with the new card
        s = gap
        while s < n:  # right of the new card: the own shows, one place further on
            row = base + (s + 1) * width
            for length in own[s]:
                out.append(row + length - 1)
            s += 1
        if fallback >= 0 and len(out) == before:
            out.append(fallback + gap * stride)
        gap += 1


def _through(tops: list[int], node: i64, value: i64, gap: i64, length: i64, beat: i64, trie: ShowTrie, row: i64,
             out: list[Any]) -> None:
    """The shows that go on from `node` (of `length` cards, ending at the gap) through the new card `value`."""
    n: i64 = len(tops)
    j: i64 = gap - 1  # the new card first, then tops[gap:]
    while j < n:
        node = trie.child(node, value if j == gap - 1 else tops[j])
        if node == NO_SHOW:
            return
        length += 1
        if trie.beats(node, beat):
            out.append(row + length - 1)
        j += 1
