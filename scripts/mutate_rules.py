"""Mutation testing of the rules: does the suite notice a plausible rule bug?

Each mutation below is one bug a careful engineer could write (the section of docs/rules.md
it breaks in its note). For each, alone, the script copies the package (core/scoutlab/, plugins/, variants/,
schemas/) and the tests into a temporary directory, applies the edit to the copy, and
runs the rules tests against the copy with the pure-Python source (SCOUTLAB_PURE=1, so an
edit to legal.py takes effect). A mutation the tests fail on is killed; one they pass is
a survivor: a rule no test guards. The working tree is never touched.

    python scripts/mutate_rules.py                  # every mutation (a few minutes)
    python scripts/mutate_rules.py --list           # the mutations, without running anything
    python scripts/mutate_rules.py --only opponent-stuck-after-show-only --verbose
    python scripts/mutate_rules.py --tests tests/test_scenarios.py   # another set of tests

A mutation names the exact source text it replaces, not a file: the text must occur
exactly once in the package (scoutlab.testing, the checks themselves, is left out), wherever it lives, so moving files keeps the list valid,
and an edit of that code makes the script say the mutation no longer applies (exit 2).
Exit status: 0 when every mutation is killed, 1 when one survives.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
# The import tree the build makes (pyproject.toml's package-dir): (folder, where it lands on the import path).
PACKAGE = [("core/scoutlab", "scoutlab"), ("plugins/scoutlab_plugins", "scoutlab_plugins"),
           ("variants", "scoutlab/variants"), ("schemas", "scoutlab/schemas")]
RULES_TESTS = [
    "tests/test_scenarios.py", "tests/test_properties.py", "tests/test_playthroughs.py",
    "tests/test_show_enumeration.py", "tests/test_actions.py", "tests/test_records.py",
    "tests/test_position.py", "tests/test_summary.py", "tests/test_explain.py",
]
TIMEOUT = 900  # seconds per mutant: a mutant that hangs the tests counts as killed, and says so


class Mutation(NamedTuple):
    name: str
    rule: str  # which rule it breaks: its section of docs/rules.md
    old: str  # exact source text, found once in the package
    new: str


MUTATIONS = [
    # -- round end (docs/rules.md §4, §7) --------------------------------------------------------
    Mutation("opponent-stuck-after-show-only", "7(ii): stuck on the extra turn after a scout also ends the round",
             "    return not state.legal_actions()",
             '    return state.last_kind != "scout" and not state.legal_actions()'),
    Mutation("everyone-scouted-after-one-scout", "4(ii): every other player must have scouted",
             'return state.last_kind == "scout" and state.to_act == state.last_shower',
             'return state.last_kind == "scout"'),
    Mutation("hand-emptied-checks-the-next-seat", "4(i): the hand emptied is the shower's",
             "not state.hands[state.last_seat]", "not state.hands[state.to_act]"),
    Mutation("scout-and-show-not-a-show-for-round-end", "3C, 4(i): a Scout & Show counts as a Show",
             'kind = SCOUT_AND_SHOW', 'kind = SCOUT'),
    Mutation("turn-cap-one-late", "4 safety cap: the round ends at the cap",
             'if t.turn >= t.max_turns:', 'if t.turn > t.max_turns:'),
    # The same three round ends as the compiled loop checks them (core/scoutlab/engine/turns.py); the ones
    # above are the Python checks that run where a plugin takes part.
    Mutation("opponent-stuck-after-show-only-in-the-loop", "7(ii): stuck on the extra turn after a scout also ends the round",
             "ended = not _has_action(t)", "ended = t.last_kind != SCOUT and not _has_action(t)"),
    Mutation("everyone-scouted-after-one-scout-in-the-loop", "4(ii): every other player must have scouted",
             "ended = t.last_kind == SCOUT and t.to_act == t.last_shower", "ended = t.last_kind == SCOUT"),
    Mutation("hand-emptied-checks-the-next-seat-in-the-loop", "4(i): the hand emptied is the shower's",
             "not t.hands[t.last_seat]", "not t.hands[t.to_act]"),
    # -- scoring (docs/rules.md §5, §7, §10.1) ---------------------------------------------------
    Mutation("no-exemption", "5, 10.1: the owner of the last show loses nothing for their hand",
             '+ (0 if i == exempt else in_hand[i] * t.points_in_hand)', '+ in_hand[i] * t.points_in_hand'),
    Mutation("exempt-the-active-set-owner", "10.2: exempt when the last scout emptied the set too",
             'exempt = t.last_shower if t.end_exempts[i] and t.last_shower >= 0 else -1', 'exempt = t.active_owner if t.end_exempts[i] and t.active_owner >= 0 else -1'),
    Mutation("unspent-chips-score-nothing", "7 scoring: each unspent Scout chip +1",
             '+ t.chips_held[i] * t.points_unspent', '+ 0'),
    Mutation("ties-have-one-winner", "6: tied players share the victory",
             "return [i for i, t in enumerate(self.totals) if t == best]", "return [self.totals.index(best)]"),
    # -- show and scout (docs/rules.md §3A, §3B, §7) ---------------------------------------------
    Mutation("owner-keeps-the-beaten-set", "3A: the shower captures the beaten set",
             't.captured[seat].extend(t.active)', 't.captured[t.active_owner].extend(t.active)'),
    Mutation("scout-chip-to-the-scout", "3B: the owner of the active set receives the Scout chip",
             't.chips_received[t.active_owner] += 1', 't.chips_received[seat] += 1'),
    Mutation("emptied-set-keeps-its-owner", "3B, 10.2: an emptied active set has no owner",
             '        t.active_owner = -1  # nothing to beat and nothing to capture', '        pass'),
    Mutation("scout-from-own-set", "3B: a player never scouts from their own active set",
             'return len(t.active) > 0 and t.active_owner != seat and', 'return len(t.active) > 0 and'),
    Mutation("scout-without-a-chip", "7: with no Scout chip left you cannot scout",
             't.chips_held[seat] > 0)', 't.chips_held[seat] >= 0)'),
    Mutation("extra-turn-after-a-show-too", "7: the extra turn follows a scout only",
             'stays = t.extra_turn and kind == SCOUT', 'stays = t.extra_turn'),
    # -- strength (docs/rules.md §3A, §10.4, §10.8) ----------------------------------------------
    Mutation("equal-single-beats", "3A.4, 10.8: equal strength never beats",
             "if SINGLE_KEY + v > beat_key:", "if SINGLE_KEY + v >= beat_key:"),
    Mutation("equal-set-beats", "3A.4, 10.8: equal strength never beats",
             "if ((((j - i) << 1) | 1) << SHIFT) + v > beat_key:", "if ((((j - i) << 1) | 1) << SHIFT) + v >= beat_key:"),
    Mutation("set-no-stronger-than-run", "3A.2: with equal counts a set beats a run",
             "return (((count << 1) | 1) << SHIFT) | value", "return ((count << 1) << SHIFT) | value"),
    Mutation("run-ranked-by-first-card", "3A.3: a run ranks by its lowest number, falling runs too",
             "return run_key(len(cards), min(first, cards[-1] >> SHIFT))", "return run_key(len(cards), first)"),
    Mutation("falling-run-ranked-by-first-card", "3A.3: a run ranks by its lowest number, falling runs too",
             "lowest = v if step == 1 else prev", "lowest = v"),
    Mutation("runs-with-gaps", "3A, 10.4: runs go in steps of exactly 1",
             "elif step == 1 or step == -1:", "elif step != 0 and -2 <= step <= 2:"),
    Mutation("zig-zag-runs", "3A, 10.4: a run never changes direction",
             "while j < n and tops[j] - prev == step:", "while j < n and abs(tops[j] - prev) == 1:"),
    # -- Scout & Show (docs/rules.md §3C, §10.3) -------------------------------------------------
    Mutation("scout-and-show-beats-the-set-before-the-scout", "3C, 10.3: the show beats the set as it is after the scout",
             "beat: i64 = active_set_key(active[:-1] if end else active[1:])", "beat: i64 = active_set_key(active)"),
    Mutation("scout-and-show-chip-not-spent", "3C: Scout & Show once per player per round",
             '        t.scout_show_chips[seat] -= 1\n', ''),
    Mutation("scout-and-show-without-a-chip", "3C, 7: no Scout & Show without its chip",
             '_may_scout(t, seat), scout_shows and t.scout_show_chips[seat] > 0,', '_may_scout(t, seat), scout_shows,'),
    # -- deck, deal, hand flip, rounds (docs/rules.md §1, §2, §6, §10.5-§10.7) -------------------
    Mutation("removal-misses-bottom-numbers", "1, 10.6: every card with a removed number leaves the deck",
             "if c >> SHIFT == n or c & MASK == n", "if c >> SHIFT == n"),
    Mutation("no-random-orientation", "1, 10.5: shuffling randomises orientation",
             '    if t.rules.random_orientation:\n', '    if False:\n'),
    Mutation("round-two-redeals-round-one", "7, 10.7: round 2 deals the 22 cards set aside",
             'start, stop = index * n * size, (index + 1) * n * size', 'start, stop = 0, n * size'),
    Mutation("flip-never-reverses", "2 knob: a flip also reverses the order where the spec says so",
             '        if t.flip_reverses:\n            hand = hand[::-1]\n', ''),
    Mutation("starting-player-never-moves", "6: the starting player moves one seat each round",
             "seat = (self.first_starting_seat + round_index * self.rotate_start) % players",
             "seat = self.first_starting_seat % players"),
    Mutation("lowest-total-never-starts", "6: a house rule may let the lowest total start each round",
             "if self.lowest_total_starts:", "if False:"),
    Mutation("lowest-total-ties-pass-over-the-rotation-seat", "6: between equal lowest totals the rotation's seat starts",
             "for k in range(players) if totals[(seat + k) % players] == lowest",
             "for k in range(1, players + 1) if totals[(seat + k) % players] == lowest"),
    Mutation("lowest-total-ties-go-right", "6: between equal lowest totals, the first of them to the left",
             "seat = next((seat + k) % players for k in range(players) if totals[(seat + k) % players] == lowest)",
             "seat = next((seat - k) % players for k in range(players) if totals[(seat - k) % players] == lowest)"),
    Mutation("scout-chips-carry-over", "6: all chips return each round",
             't.chips_held = [int(rules.scout_chips)] * n', 't.chips_held = getattr(t, "chips_held", None) or [int(rules.scout_chips)] * n'),
]


def copy_tree(work: Path) -> Path:
    """The package and tests, copied under `work`: returns the directory to put on PYTHONPATH."""
    site = work / "site"
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.pyc")
    for folder, name in PACKAGE:
        shutil.copytree(ROOT / folder, site / name, ignore=ignore)
    shutil.copytree(ROOT / "tests", work / "tests", ignore=ignore)
    return site


def apply(site: Path, mutation: Mutation) -> Path:
    """Edit the one file of the copy that holds `mutation.old` (exactly once); returns it."""
    sources = [p for p in sorted(site.rglob("*.py")) if "testing" not in p.relative_to(site).parts]  # the checks stay whole
    holders = [(p, p.read_text(encoding="utf-8").count(mutation.old)) for p in sources]
    holders = [(p, k) for p, k in holders if k]
    if len(holders) != 1 or holders[0][1] != 1:
        found = ", ".join(f"{p.relative_to(site)} ({k}x)" for p, k in holders) or "nowhere"
        raise LookupError(f"mutation {mutation.name!r} no longer applies: its text is found {found}, not once")
    path = holders[0][0]
    path.write_text(path.read_text(encoding="utf-8").replace(mutation.old, mutation.new), encoding="utf-8")
    return path


def run_tests(work: Path, site: Path, tests: list[str], stop_early: bool) -> tuple[bool, str, float]:
    """(passed, the last lines of pytest's output, seconds) for the copy under `work`."""
    env = {**os.environ, "PYTHONPATH": str(site), "SCOUTLAB_PURE": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:warnings", *tests]
    if stop_early:
        command.insert(4, "-x")
    start = time.perf_counter()
    try:
        done = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, f"timed out after {TIMEOUT} s", time.perf_counter() - start
    lines = (done.stdout + done.stderr).strip().splitlines()
    failed = [line for line in lines if line.startswith(("FAILED", "ERROR"))]
    return done.returncode == 0, "\n".join(failed[:3] or lines[-3:]), time.perf_counter() - start


def check_imports_the_copy(work: Path, site: Path) -> None:
    """The tests must import the copy, or every mutant would survive: say so and stop if not."""
    env = {**os.environ, "PYTHONPATH": str(site), "SCOUTLAB_PURE": "1"}
    probe = "import scoutlab, scoutlab_plugins, scoutlab.engine.native as n; print(scoutlab.__file__, n.BUILD)"
    out = subprocess.run([sys.executable, "-c", probe], cwd=work, env=env, capture_output=True, text=True)
    if out.returncode or not out.stdout.startswith(str(site)):
        sys.exit(f"the copy is not what gets imported ({out.stdout.strip() or out.stderr.strip()[-300:]})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="list the mutations and exit")
    parser.add_argument("--only", action="append", metavar="NAME", help="run only this mutation (repeatable)")
    parser.add_argument("--tests", nargs="+", default=RULES_TESTS, help="test files to run (default: the rules tests)")
    parser.add_argument("--verbose", action="store_true", help="show what failed for each killed mutant")
    args = parser.parse_args()
    chosen = [m for m in MUTATIONS if not args.only or m.name in args.only]
    unknown = sorted(set(args.only or []) - {m.name for m in MUTATIONS})
    if unknown:
        sys.exit(f"no mutation named {', '.join(unknown)} (see --list)")
    if args.list:
        for m in MUTATIONS:
            print(f"{m.name:<48} {m.rule}")
        return 0
    tests = [str(Path(t)) for t in args.tests]
    with tempfile.TemporaryDirectory(prefix="scoutlab-mutants-") as tmp:
        pristine = Path(tmp) / "pristine"
        site = copy_tree(pristine)
        check_imports_the_copy(pristine, site)
        for m in chosen:  # every mutation must apply before any runs: a stale list is an error, not a survivor
            scratch = Path(tmp) / "probe"
            shutil.copytree(site, scratch)
            try:
                apply(scratch, m)
            except LookupError as exc:
                print(exc, file=sys.stderr)
                return 2
            finally:
                shutil.rmtree(scratch)
        passed, detail, seconds = run_tests(pristine, site, tests, stop_early=True)
        if not passed:
            print(f"the tests fail without any mutation, so nothing can be learnt:\n{detail}", file=sys.stderr)
            return 2
        print(f"unmutated: the {len(tests)} test files pass ({seconds:.0f} s); {len(chosen)} mutations, each alone:")
        survivors = []
        for index, m in enumerate(chosen, 1):
            work = Path(tmp) / f"mutant-{index}"
            shutil.copytree(pristine, work)
            path = apply(work / "site", m)
            passed, detail, seconds = run_tests(work, work / "site", tests, stop_early=not args.verbose)
            verdict = "SURVIVED" if passed else "killed"
            print(f"{index:>3}. {verdict:<9}{m.name:<48} {path.relative_to(work / 'site')}  ({seconds:.0f} s)", flush=True)
            if passed:
                survivors.append(m)
                print(f"       no test guards this rule of docs/rules.md: {m.rule}")
            elif args.verbose:
                print("       " + detail.replace("\n", "\n       "))
            shutil.rmtree(work)
    killed = len(chosen) - len(survivors)
    print(f"\nkilled {killed} of {len(chosen)}; survived {len(survivors)}"
          + (": " + ", ".join(m.name for m in survivors) if survivors else ""))
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
