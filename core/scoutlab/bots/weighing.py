"""Weighing moves as the skilled bot does: plain functions of ints and floats, compiled with mypyc.

The skilled bot (skilled.py) scores every candidate move by what it does now and by the
hand it leaves; this module is that scoring, written so that mypyc can compile it:
setup.py builds a copy as `scoutlab.bots._weighing_native` beside the engine's loop, and
skilled.py takes it (`scoutlab.engine.native.pick`) while its source stamp matches, else
this source, which is the reference (tests/test_weighing_native.py compares the two). The search bot's
rollouts play thousands of skilled moves a decision, so this is its hot loop too.

Under the built-in shows every question about a show is an integer key from the engine's
listing (`legal.append_shows`, `legal.active_set_key`), called directly; where a plugin
changes what a show is, the rules' trie of classified shows (`legal.ShowTrie`, a table of
ints) answers them, through its own sweep (`legal.append_trie_shows`) and `active_node`.

Both builds do the same float arithmetic in the same order, so a move's value is the same
float in each and ties break the same way (the lower code).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from librt.vecs import vec  # compiled, an array of unboxed C ints; to Python a list-like object
from mypy_extensions import i64  # compiled, a C int64 with no tag checks (as in legal.py); to Python an int

from scoutlab.engine.legal import MASK, NO_SHOW, ROOT, SHIFT, SHOW_BASE, ShowTrie, active_set_key, append_shows, append_trie_shows
from scoutlab.engine.turns import apply_in_rollout, scout_and_show_open, shows_and_scouts

if TYPE_CHECKING:  # compiled, the rollout reads the compiled table's fields directly (setup.py)
    from scoutlab.engine.turns import Table


def runs(k: i64) -> i64:
    """The lengths of the shows of 2+ adjacent cards inside a run of k cards, summed: sum of (k - j + 1) * j, j >= 2."""
    return k * (k + 1) * (k + 2) // 6 - k


def _grown(k: i64) -> i64:
    """runs(k) - runs(k - 1): what a run gains when it grows to k cards (k >= 1; a lone card gains nothing)."""
    return k * (k + 1) // 2 - 1 if k > 1 else i64(0)  # i64(0): a bare 0 would box both branches (legal.py)


class Weights:
    """One family's weights (skilled_weights.json, and a user's options) as floats, ready for the loop."""

    def __init__(self, weights: dict[str, Any]) -> None:
        self.structure = float(weights["structure"])
        self.set_bonus = float(weights["set_bonus"])
        self.card = float(weights["card"])
        self.urgency = float(weights["urgency"])
        self.capture = float(weights["capture"])
        self.scout = float(weights["scout"])
        self.scout_show = float(weights["scout_show"])
        self.empty = float(weights["empty"])
        self.shown = float(weights["shown"])
        self.plan = float(weights.get("plan", 0.0))  # per show the hand left needs to empty (0: not read)
        self.height = float(weights.get("height", 0.0))  # per show, its highest number from 0 (lowest) to 1 (highest)
        self.sns_scouts = int(weights["sns_scouts"])
        self.given = dict(weights)  # what it was made from, for copies

    def __reduce__(self) -> tuple[type, tuple[dict[str, Any]]]:
        """Copied and pickled as the weights it was made from (a compiled class has no __dict__ to copy)."""
        return Weights, (self.given,)


# A hand's structure under the built-in shows is a sum over its maximal sets and runs (a lone card is
# both, of length 1, and counts nothing): runs(k) for each, plus the set bonus for each of a set's
# k(k-1)/2 shows of 2+ cards. So it is two ints, the runs part and the count of set shows, and a
# float at the end: structure = runs + set_bonus * pairs. Kept as ints, the parts of a hand's
# prefixes and suffixes add up exactly, which is what lets a move be weighed without laying out the
# hand it leaves (Weigher._read).


def builtin_structure(tops: list[int], set_bonus: float) -> float:
    """Every show of 2+ adjacent cards under the built-in shows, counting its length, a set `set_bonus` more."""
    total = pairs = 0
    same = up = down = 0
    last = -9
    for number in tops:
        step = number - last
        same = same + 1 if step == 0 else 1
        up = up + 1 if step == 1 else 1
        down = down + 1 if step == -1 else 1
        # each run that grew from k - 1 to k cards now counts runs(k) instead of runs(k - 1)
        total += _grown(same) + _grown(up) + _grown(down)
        pairs += same - 1
        last = number
    return total + set_bonus * pairs


class Weigher:
    """The skilled bot's move scoring under one rules object's action layout.

    A hand is read once per decision into tables (`_read`), and every show or scout is then
    weighed in a few steps from them: under the built-in shows, the structure of each prefix
    and suffix; under plugins (`trie` given), how far the show from each card reaches.
    """

    def __init__(self, width: int, scout_base: int, sns_base: int, sns_stride: int, rules: Any,
                 trie: ShowTrie | None) -> None:
        self.width = width
        self.scout_base = scout_base
        self.sns_base = sns_base
        self.sns_stride = sns_stride
        self.builtin = trie is None  # the built-in shows: integer keys, no call into Python
        self.prune = self.builtin  # weigh a scout only where it can join a neighbour, and at the ends (see _scouts)
        self.rules = rules  # what a copy is made from (see __reduce__)
        self.trie = trie  # under plugins: which runs of numbers are shows (the rules' own)
        # Which kind earns the set bonus under plugins: the one that wins between a set and a run of as
        # many cards (sets under the official order; a plugin may rank runs first).
        self.sets_first = trie is None or rules.beats((rules.lowest, rules.lowest), (rules.lowest, rules.lowest + 1))
        self.lowest: i64 = rules.lowest
        self.span = float(max(rules.highest - rules.lowest, 1))
        # The hand read by _read: for i in 0..n, the structure parts of tops[:i] and of tops[i:]; for each
        # card, the lengths of the set, rising run and falling run that end at it and that start at it.
        # vecs, not lists: compiled, an entry is a C int written and read in place, never a boxed int.
        self.head_runs = self.head_pairs = self.tail_runs = self.tail_pairs = vec[i64]()
        self.end_same = self.end_up = self.end_down = vec[i64]()
        self.start_same = self.start_up = self.start_down = vec[i64]()
        # for i in 0..n, the fewest shows that empty tops[:i] and tops[i:] (the plan of each prefix and suffix)
        self.head_plan = self.tail_plan = vec[i64]()
        # The hand read by _read under plugins: for each card, how many cards the longest show that starts
        # at it holds (every shorter one from there is a show too); for i in 0..n, the structure parts of
        # the shows that start left of card i (their lengths, and how many earn the set bonus).
        self.reach = self.before_lengths = self.before_bonus = vec[i64]()
        # The moves weighed by _weigh, (values[i], codes[i]) for i < its count: scratch space, kept across calls
        # so that a rollout's thousands of weighings allocate nothing.
        self.values = vec[float]([0.0] * 64)
        self.codes = vec[i64]([0] * 64)

    def __reduce__(self) -> tuple[type, tuple[int, int, int, int, Any, ShowTrie | None]]:
        """Copied and pickled as what it was made from: its tables are only scratch space."""
        return Weigher, (self.width, self.scout_base, self.sns_base, self.sns_stride, self.rules, self.trie)

    def structure(self, w: Weights, tops: list[int]) -> float:
        """Every show of 2+ adjacent cards in the hand, counting its length, one kind a little more (sets,
        unless a plugin ranks runs first)."""
        if self.builtin:
            return builtin_structure(tops, w.set_bonus)
        self._read(tops)
        n: i64 = len(tops)
        return float(self.before_lengths[n]) + w.set_bonus * float(self.before_bonus[n])

    def hand_value(self, w: Weights, tops: list[int]) -> float:
        """Points a hand is worth as it stands: its structure, less its cards and the shows it needs."""
        value = w.structure * self.structure(w, tops) - w.card * len(tops)
        if w.plan:
            value -= w.plan * float(self.plan(tops))
        return value

    def plan(self, tops: list[int]) -> i64:
        """The fewest shows of adjacent cards that empty the hand (as `hand.HandReader.plan` counts them)."""
        if not self.builtin:
            return self._trie_plan(tops)
        self._read(tops)
        return self.head_plan[len(tops)]

    # -- reading a hand once, then every move from it (built-in shows) ----------------------------------

    def _read(self, tops: list[int]) -> None:
        """Fill the tables of this hand (see __init__)."""
        if not self.builtin:
            self._read_shows(tops)
            return
        n = len(tops)
        if len(self.head_runs) < n + 1:
            zeros = [0] * (n + 8)
            self.head_runs, self.head_pairs = vec[i64](zeros), vec[i64](zeros)
            self.tail_runs, self.tail_pairs = vec[i64](zeros), vec[i64](zeros)
            self.end_same, self.end_up, self.end_down = vec[i64](zeros), vec[i64](zeros), vec[i64](zeros)
            self.start_same, self.start_up, self.start_down = vec[i64](zeros), vec[i64](zeros), vec[i64](zeros)
            self.head_plan, self.tail_plan = vec[i64](zeros), vec[i64](zeros)
        self._walk(tops, 1, self.head_runs, self.head_pairs, self.end_same, self.end_up, self.end_down, self.head_plan)
        self._walk(tops, -1, self.tail_runs, self.tail_pairs, self.start_same, self.start_up, self.start_down,
                   self.tail_plan)

    def _walk(self, tops: list[int], direction: i64, totals: vec[i64], pairs_at: vec[i64], same_at: vec[i64],
              up_at: vec[i64], down_at: vec[i64], plan_at: vec[i64]) -> None:
        """Read the hand from its left end (direction 1) or its right end (-1): the structure parts and the plan
        of every prefix (suffix), and the lengths of the set and runs that end (start) at each card."""
        n: i64 = len(tops)
        edge: i64 = i64(0) if direction == 1 else n  # the empty prefix (suffix)
        totals[edge] = 0
        pairs_at[edge] = 0
        plan_at[edge] = 0
        total: i64 = 0
        pairs: i64 = 0
        same: i64 = 0
        up: i64 = 0
        down: i64 = 0
        # _grown of each run's length, kept as it grows: _grown(k) - _grown(k - 1) = k for k >= 2
        grown_same: i64 = 0
        grown_up: i64 = 0
        grown_down: i64 = 0
        last: i64 = -9
        k: i64 = 0
        while k < n:
            i: i64 = k if direction == 1 else n - 1 - k
            k += 1
            number: i64 = tops[i]
            step = (number - last) * direction  # always the step left to right, between this card and the last read
            if step == 0:
                same += 1
                grown_same += same
            else:
                same, grown_same = 1, 0
            if step == 1:
                up += 1
                grown_up += up
            else:
                up, grown_up = 1, 0
            if step == -1:
                down += 1
                grown_down += down
            else:
                down, grown_down = 1, 0
            total += grown_same + grown_up + grown_down
            pairs += same - 1
            same_at[i] = same
            up_at[i] = up
            down_at[i] = down
            at: i64 = i + 1 if direction == 1 else i  # the prefix that ends with this card, or the suffix that starts with it
            totals[at] = total
            pairs_at[at] = pairs
            # the last show of a plan of this prefix (first, of a suffix) is a set or run that ends (starts) at
            # this card; a prefix's plan never grows shorter as it grows, so the longest of each kind is best
            step_back: i64 = direction
            fewest: i64 = plan_at[at - step_back * same]
            fewest = min(fewest, plan_at[at - step_back * up])
            fewest = min(fewest, plan_at[at - step_back * down])
            plan_at[at] = fewest + 1
            last = number

    def _without(self, w: Weights, tops: list[int], start: i64, stop: i64) -> float:
        """The structure of the hand read by _read without tops[start:stop]: its two sides, joined."""
        total: i64 = self.head_runs[start] + self.tail_runs[stop]
        pairs: i64 = self.head_pairs[start] + self.tail_pairs[stop]
        a: i64
        b: i64
        if start > 0 and stop < len(tops):
            step: i64 = tops[stop] - tops[start - 1]
            if step == 0:
                a, b = self.end_same[start - 1], self.start_same[stop]
                total += runs(a + b) - runs(a) - runs(b)
                pairs += a * b  # (a + b)(a + b - 1)/2 - a(a - 1)/2 - b(b - 1)/2
            elif step == 1:
                a, b = self.end_up[start - 1], self.start_up[stop]
                total += runs(a + b) - runs(a) - runs(b)
            elif step == -1:
                a, b = self.end_down[start - 1], self.start_down[stop]
                total += runs(a + b) - runs(a) - runs(b)
        return float(total) + w.set_bonus * float(pairs)

    def _plan_without(self, tops: list[int], start: i64, stop: i64) -> i64:
        """The fewest shows that empty the hand read by _read without tops[start:stop]: its two sides' plans, or
        one show across the join where the cards either side of it are one set or run."""
        if not self.builtin:
            return self._trie_plan(tops[:start] + tops[stop:])
        fewest: i64 = self.head_plan[start] + self.tail_plan[stop]
        if start > 0 and stop < len(tops):
            step: i64 = tops[stop] - tops[start - 1]
            a: i64 = self._ending(start - 1, step)
            if a:
                fewest = min(fewest, self.head_plan[start - a] + 1 + self.tail_plan[stop + self._starting(stop, step)])
        return fewest

    def _ending(self, i: i64, step: i64) -> i64:
        """How many cards the set (step 0) or rising (1) or falling (-1) run that ends at card i holds; 0 for
        another step, which joins nothing."""
        if step == 0:
            return self.end_same[i]
        if step == 1:
            return self.end_up[i]
        if step == -1:
            return self.end_down[i]
        return 0

    def _starting(self, i: i64, step: i64) -> i64:
        """`_ending` for the set or run that starts at card i."""
        if step == 0:
            return self.start_same[i]
        if step == 1:
            return self.start_up[i]
        if step == -1:
            return self.start_down[i]
        return 0

    def _plan_with(self, tops: list[int], gap: i64, number: i64) -> i64:
        """The fewest shows that empty the hand read by _read with `number` put in at `gap`: alone, or in a set
        or run with the cards left of it, right of it, or both."""
        if not self.builtin:
            return self._trie_plan(tops[:gap] + [number] + tops[gap:])
        n: i64 = len(tops)
        head: i64 = self.head_plan[gap]
        tail: i64 = self.tail_plan[gap]
        fewest: i64 = head + 1 + tail
        left: i64 = number - tops[gap - 1] if gap > 0 else i64(9)  # 9: no neighbour, no step
        right: i64 = tops[gap] - number if gap < n else i64(9)
        a: i64 = self._ending(gap - 1, left)
        b: i64 = self._starting(gap, right)
        if a:
            fewest = min(fewest, self.head_plan[gap - a] + 1 + tail)
        if b:
            fewest = min(fewest, head + 1 + self.tail_plan[gap + b])
        if a and b and left == right:
            fewest = min(fewest, self.head_plan[gap - a] + 1 + self.tail_plan[gap + b])
        return fewest

    def _with(self, w: Weights, tops: list[int], gap: i64, number: i64) -> float:
        """The structure of the hand read by _read with `number` put in at `gap`: it may join either side, or both."""
        n: i64 = len(tops)
        total: i64 = self.head_runs[gap] + self.tail_runs[gap]
        pairs: i64 = self.head_pairs[gap] + self.tail_pairs[gap]
        # literals as i64(...): a bare 9 or 0 would make mypyc box both branches (see legal.py)
        left: i64 = number - tops[gap - 1] if gap > 0 else i64(9)  # 9: no neighbour, no step
        right: i64 = tops[gap] - number if gap < n else i64(9)
        a: i64 = self.end_same[gap - 1] if left == 0 else i64(0)
        b: i64 = self.start_same[gap] if right == 0 else i64(0)
        if a or b:  # the new card joins a set (most often it joins nothing, and adds nothing)
            total += runs(a + 1 + b) - runs(a) - runs(b)
            pairs += a + b + a * b  # (a + 1 + b) choose 2, less a choose 2 and b choose 2
        a = self.end_up[gap - 1] if left == 1 else i64(0)
        b = self.start_up[gap] if right == 1 else i64(0)
        if a or b:
            total += runs(a + 1 + b) - runs(a) - runs(b)
        a = self.end_down[gap - 1] if left == -1 else i64(0)
        b = self.start_down[gap] if right == -1 else i64(0)
        if a or b:
            total += runs(a + 1 + b) - runs(a) - runs(b)
        return float(total) + w.set_bonus * float(pairs)

    # -- the same under plugins: the shows that start at each card ----------------------------------------
    # A show's every prefix is a show, so the shows that start at a card are those of 1..reach cards. A move
    # changes only the shows that start left of where it cuts or inserts and reach it: the rest are read
    # from the tables, and those few are walked on through the trie.

    def _read_shows(self, tops: list[int]) -> None:
        """Fill `reach`, `before_lengths` and `before_bonus` for this hand (see __init__)."""
        trie = self.trie
        assert trie is not None
        n: i64 = len(tops)
        if len(self.reach) < n + 1:
            zeros = [0] * (n + 8)
            self.reach, self.before_lengths, self.before_bonus = vec[i64](zeros), vec[i64](zeros), vec[i64](zeros)
        lengths: i64 = 0
        bonus: i64 = 0
        s: i64 = 0
        while s < n:
            self.before_lengths[s] = lengths
            self.before_bonus[s] = bonus
            node: i64 = ROOT
            reach: i64 = 0
            while s + reach < n:
                node = trie.child(node, tops[s + reach])
                if node == NO_SHOW:
                    break
                reach += 1
            self.reach[s] = reach
            if reach > 1:
                lengths += reach * (reach + 1) // 2 - 1  # the shows of 2..reach cards
                if (tops[s] == tops[s + 1]) == self.sets_first:
                    bonus += reach - 1
            s += 1
        self.before_lengths[n] = lengths
        self.before_bonus[n] = bonus

    def _shows_without(self, w: Weights, tops: list[int], start: i64, stop: i64) -> float:
        """`_without` under plugins: the structure of the hand read by _read_shows without tops[start:stop]."""
        n: i64 = len(tops)
        # the shows starting right of the cut are as they were; so are those left of it that stop short of it
        lengths: i64 = self.before_lengths[n] - self.before_lengths[stop] + self.before_lengths[start]
        bonus: i64 = self.before_bonus[n] - self.before_bonus[stop] + self.before_bonus[start]
        s: i64 = 0
        while s < start:
            if s + self.reach[s] >= start:  # it reaches the cut: walk it on past the cut
                lengths -= self.before_lengths[s + 1] - self.before_lengths[s]
                bonus -= self.before_bonus[s + 1] - self.before_bonus[s]
                reach: i64 = self._rewalk(tops, s, start, i64(-1), stop)
                if reach > 1:
                    second: i64 = tops[s + 1] if s + 1 < start else tops[stop]
                    lengths += reach * (reach + 1) // 2 - 1
                    if (tops[s] == second) == self.sets_first:
                        bonus += reach - 1
            s += 1
        return float(lengths) + w.set_bonus * float(bonus)

    def _shows_with(self, w: Weights, tops: list[int], gap: i64, number: i64) -> float:
        """`_with` under plugins: the structure of the hand read by _read_shows with `number` put in at `gap`."""
        n: i64 = len(tops)
        # the shows starting right of the gap are as they were; so are those left of it that stop short of it
        lengths: i64 = self.before_lengths[n]
        bonus: i64 = self.before_bonus[n]
        s: i64 = 0
        while s <= gap:
            if s == gap or s + self.reach[s] >= gap:  # it reaches the gap (the new card's own shows always do)
                if s < gap:
                    lengths -= self.before_lengths[s + 1] - self.before_lengths[s]
                    bonus -= self.before_bonus[s + 1] - self.before_bonus[s]
                reach: i64 = self._rewalk(tops, s, gap, number, gap)
                if reach > 1:
                    first: i64 = tops[s] if s < gap else number
                    second: i64 = number if s + 1 == gap else (tops[s + 1] if s < gap else tops[gap])
                    lengths += reach * (reach + 1) // 2 - 1
                    if (first == second) == self.sets_first:
                        bonus += reach - 1
            s += 1
        return float(lengths) + w.set_bonus * float(bonus)

    def _trie_plan(self, tops: list[int]) -> i64:
        """`plan` under plugins, laid out: each card's shows walked through the trie (n + 1 where no plan empties
        the hand, since a plugin may refuse a single card)."""
        trie = self.trie
        assert trie is not None
        n: i64 = len(tops)
        fewest = [n + 1] * (n + 1)  # fewest[i]: shows that empty tops[:i]
        fewest[0] = 0
        s: i64 = 0
        while s < n:
            node: i64 = ROOT
            i: i64 = s
            while i < n:
                node = trie.child(node, tops[i])
                if node == NO_SHOW:
                    break
                i += 1
                if fewest[s] + 1 < fewest[i]:
                    fewest[i] = fewest[s] + 1
            s += 1
        return fewest[n]

    def _rewalk(self, tops: list[int], s: i64, cut: i64, number: i64, resume: i64) -> i64:
        """How many cards the show from card s reaches in the hand a move leaves: tops[s:cut] (a show's prefix,
        which _read_shows found), then `number` (none if -1), then tops[resume:], as far as they are a show."""
        trie = self.trie
        assert trie is not None
        n: i64 = len(tops)
        node: i64 = ROOT
        i: i64 = s
        while i < cut:
            node = trie.child(node, tops[i])
            i += 1
        reach: i64 = cut - s
        if number >= 0:
            node = trie.child(node, number)
            if node == NO_SHOW:
                return reach
            reach += 1
        i = resume
        while i < n:
            node = trie.child(node, tops[i])
            if node == NO_SHOW:
                break
            reach += 1
            i += 1
        return reach

    def _show_structure(self, w: Weights, tops: list[int], start: int, stop: int) -> float:
        return self._without(w, tops, start, stop) if self.builtin else self._shows_without(w, tops, start, stop)

    def weigh(self, w: Weights, legal: list[int], sns: bool, hand: list[int], active: list[int],
              hand_sizes: list[int], seat: int, values: list[float], codes: list[int]) -> None:
        """Append (values[i], codes[i]) for every move weighed: the shows, the scouts worth weighing, some Scout & Shows.

        `legal` lists the shows, then the scouts (legal.play_codes's order); what follows them
        is not read, so a rollout passes only these (`Table.shows_and_scouts`). `sns`: whether
        a Scout & Show may be legal, which the shows found after the best scouts then settle.
        """
        count = self._weigh(w, legal, sns, hand, active, hand_sizes, seat)
        for i in range(count):
            values.append(self.values[i])
            codes.append(self.codes[i])

    def best(self, w: Weights, legal: list[int], sns: bool, hand: list[int], active: list[int],
             hand_sizes: list[int], seat: int) -> int:
        """The code of the move worth most (between equals, the lower code)."""
        count: i64 = self._weigh(w, legal, sns, hand, active, hand_sizes, seat)
        values, codes = self.values, self.codes
        chosen: i64 = 0
        best = values[0]
        i: i64 = 1
        while i < count:
            v = values[i]  # the order of skilled._order: this runs for every move of every rollout
            if v > best or (v == best and codes[i] < codes[chosen]):
                chosen, best = i, v
            i += 1
        return codes[chosen]

    def _put(self, at: i64, value: float, code: i64) -> i64:
        """Keep one weighed move at place `at` of the scratch tables (grown when full); the next place."""
        if at == len(self.codes):
            self.values = vec[float](list(self.values) + [0.0] * at)
            self.codes = vec[i64](list(self.codes) + [0] * at)
        self.values[at] = value
        self.codes[at] = code
        return at + 1

    def _weigh(self, w: Weights, legal: list[int], sns: bool, hand: list[int], active: list[int],
               hand_sizes: list[int], seat: int) -> i64:
        """Weigh the moves (see weigh) into the scratch tables; how many."""
        width: i64 = self.width
        scout_base: i64 = self.scout_base
        tops = [c >> SHIFT for c in hand]
        total = 0
        fewest = -1  # the fewest cards another seat holds: cards cost more as it nears an empty hand
        for other, size in enumerate(hand_sizes):
            total += size
            if other != seat and (fewest < 0 or size < fewest):
                fewest = size
        card = w.card + w.urgency / (1 + max(fewest, 0))
        others = total - len(tops)
        capture = w.capture * len(active)
        plan = w.plan != 0.0  # read only where weighed: a plugin's plans are laid out, move by move
        height = w.height != 0.0
        count: i64 = len(legal)
        self._read(tops)
        at: i64 = 0
        weighed: i64 = 0
        while at < count and legal[at] < scout_base:
            code: i64 = legal[at]
            rel = code - SHOW_BASE
            start, length = rel // width, rel % width + 1
            kept = len(tops) - length
            v = capture + w.shown * float(length) + (w.structure * self._show_structure(w, tops, start, start + length)
                                                     - card * float(kept))
            if plan:
                v -= w.plan * float(self._plan_without(tops, start, start + length))
            if height:
                v += w.height * self._height(tops, start, start + length)
            if not kept:
                v += w.empty * others
            weighed = self._put(weighed, v, code)
            at += 1
        if at < count:  # it may scout: every scout is legal (legal.append_scouts)
            first = weighed
            weighed = self._scouts(w, tops, active, card, weighed)
            if sns:
                weighed = self._scout_shows(w, tops, active, card, others, first, weighed)
        if not weighed:  # only Scout & Shows, and no show: the first
            weighed = self._put(weighed, 0.0, legal[0])
        return weighed

    def _height(self, tops: list[int], start: i64, stop: i64) -> float:
        """The highest number of tops[start:stop], from 0 (the deck's lowest) to 1 (its highest)."""
        top: i64 = tops[start]
        i: i64 = start + 1
        while i < stop:
            if tops[i] > top:
                top = tops[i]
            i += 1
        return float(top - self.lowest) / self.span

    def _scouts(self, w: Weights, tops: list[int], active: list[int], card: float, weighed: i64) -> i64:
        """Keep the scouts worth weighing from place `weighed` on; the next place.

        Under the built-in shows a card that joins no neighbour adds nothing wherever it goes,
        so besides the gaps beside a card within one of it, only the hand's two ends are weighed
        (they break no set or run). Under plugins every gap is weighed.
        """
        n: i64 = len(tops)
        stride: i64 = self.width + 1
        plan = w.plan != 0.0
        ends: i64 = 1 if len(active) == 1 else 2
        end: i64 = 0
        while end < ends:
            taken: i64 = active[-1] if end else active[0]
            flip: i64 = 0
            while flip < 2:
                number: i64 = (taken & MASK) if flip else (taken >> SHIFT)
                base: i64 = self.scout_base + (end * 2 + flip) * stride
                gap: i64 = 0
                while gap <= n:
                    if not self.prune or gap == 0 or gap == n or (
                            -1 <= tops[gap - 1] - number <= 1 or -1 <= tops[gap] - number <= 1):
                        held = self._with(w, tops, gap, number) if self.builtin else self._shows_with(w, tops, gap, number)
                        v = w.structure * held - card * float(n + 1) - w.scout
                        if plan:
                            v -= w.plan * float(self._plan_with(tops, gap, number))
                        weighed = self._put(weighed, v, base + gap)
                    gap += 1
                flip += 1
            end += 1
        return weighed

    def _scout_shows(self, w: Weights, tops: list[int], active: list[int], card: float, others: int, first: i64,
                     weighed: i64) -> i64:
        """Keep the Scout & Shows after the best few scouts (kept at first..weighed - 1, best value first, then
        the lower code) from place `weighed` on; the next place."""
        width, stride, trie = self.width, self.sns_stride, self.trie
        capture = w.capture * (len(active) - 1)
        cost = w.scout + w.scout_show
        plan = w.plan != 0.0
        height = w.height != 0.0
        beats: list[Any] = [None, None]  # what a show must beat after a scout from each end
        scouts = weighed - first
        chosen: list[int] = []
        picked = [False] * scouts
        while len(chosen) < min(w.sns_scouts, scouts):
            best: i64 = -1
            best_value = 0.0
            best_code: i64 = 0
            i: i64 = first
            while i < first + scouts:
                if not picked[i - first]:
                    v, code = self.values[i], self.codes[i]  # the order of skilled._order, each move read once
                    if best < 0 or v > best_value or (v == best_value and code < best_code):
                        best, best_value, best_code = i, v, code
                i += 1
            picked[best - first] = True
            chosen.append(best_code)
        for scout in chosen:
            index = scout - self.scout_base
            end, gap = index // (width + 1) // 2, index % (width + 1)
            taken = active[-1] if end else active[0]
            number = (taken & MASK) if (index // (width + 1)) % 2 else (taken >> SHIFT)
            hand = list(tops)
            hand.insert(gap, number)
            if beats[end] is None:
                rest = active[:-1] if end else active[1:]
                beats[end] = active_set_key(rest) if trie is None else trie.active_node([c >> SHIFT for c in rest])
            shows: list[int] = []
            if trie is None:
                append_shows(hand, beats[end], 0, width, shows)
            else:
                append_trie_shows(hand, beats[end], trie, 0, width, shows)
            if shows:  # often nothing beats what is left, and the tables are not needed
                self._read(hand)
            base = self.sns_base + index * stride
            for rel in shows:
                start, length = rel // width, rel % width + 1
                kept = len(hand) - length
                v = capture + w.shown * length + (w.structure * self._show_structure(w, hand, start, start + length)
                                                  - card * kept) - cost
                if plan:
                    v -= w.plan * float(self._plan_without(hand, start, start + length))
                if height:
                    v += w.height * self._height(hand, start, start + length)
                if not kept:
                    v += w.empty * others
                weighed = self._put(weighed, v, base + rel)
        return weighed

    def lists_scout_shows(self, legal: list[int]) -> bool:
        """Whether a full listing holds a Scout & Show: they come last (legal.play_codes). The `sns` of `weigh`."""
        return len(legal) > 0 and legal[-1] >= self.sns_base

    def play_out(self, w: Weights, state: Table, moves: int, ended: int) -> None:
        """Play this bot's move for every seat in turn, `moves` moves (-1: no limit), while `ended` rounds have
        ended (a search's rollout: to the end of the round it started in).

        The engine never lists the Scout & Shows here: the moves weighed come from
        `shows_and_scouts`, and the one chosen is legal by construction. `state` is the search's
        own copy: where plugin code raises mid-move it is left as the error found it (`apply_in_rollout`).
        """
        while moves and len(state.round_ends) == ended:
            seat = state.to_act
            hands = state.hands
            sizes = [len(hand) for hand in hands]
            legal = shows_and_scouts(state)  # functions, not methods: see turns.shows_and_scouts
            sns = scout_and_show_open(state)
            apply_in_rollout(state, self.best(w, legal, sns, hands[seat], state.active, sizes, seat))
            moves -= 1
