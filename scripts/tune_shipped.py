"""Tune the skilled bot for every shipped variant that is not official, and write the shipped tunings file.

The shipped house rules and informal variants come with their tunings (core/scoutlab/bots/tuned_weights.json),
so `compare` and the browser play them without a user's `scoutlab tune`. After a change to the
move scoring or to the default weights, run this again: each variant and player count is tuned as
`scoutlab tune` tunes it (CMA-ES against the official weights, then a check on new games), and the
file is written anew.

    python scripts/tune_shipped.py                       # every variant and count: about 45 minutes on 2 cores
    python scripts/tune_shipped.py --only house-wrap:4   # one, kept beside the others already in the file
    python scripts/tune_shipped.py --only house-wrap:3 --generations 1 --games 4 --check-games 4 --out /tmp/t.json
    python scripts/tune_shipped.py --rekey               # same weights, each entry's digest as play_digest now makes it

`--rekey` is for a change that alters no game but changes digests (how the digest is made, a spec
field's spelling): it tunes nothing. After a change to what a game plays, tune again instead.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

from scoutlab.bots import skilled, tuned
from scoutlab.rules import load_rules
from scoutlab.sim.tune import budget_for, tune
from scoutlab.spec.variant import shipped_variants

SHIPPED = Path(tuned.__file__).with_name(tuned.SHIPPED_FILE)


def formats() -> list[tuple[str, int]]:
    """Every shipped variant and player count whose default weights were not tuned on it."""
    found = []
    for name, _ in shipped_variants():
        rules = load_rules(name)
        found += [(name, n) for n in rules.players if tuned.play_digest(rules) != tuned.play_digest(
            load_rules(skilled.reference_variant(n)))]
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", metavar="VARIANT:N", help="tune only these (repeatable)")
    parser.add_argument("--generations", type=int)
    parser.add_argument("--games", type=int)
    parser.add_argument("--check-games", type=int)
    parser.add_argument("--workers", type=int)
    parser.add_argument("--out", type=Path, default=SHIPPED, help="the tunings file to write (default: the package's)")
    parser.add_argument("--rekey", action="store_true", help="tune nothing: give each entry its variant's digest as made today")
    args = parser.parse_args(argv)
    if args.rekey:
        return rekey(args.out)
    budget = budget_for(False, args.generations, args.games, args.check_games)
    todo = [(name, int(n)) for name, _, n in (text.rpartition(":") for text in args.only)] if args.only else formats()
    kept: dict[tuple[str, int], dict] = {}
    if args.only and args.out.exists():  # a few tuned anew: the others already in the file stay
        kept = {(e["variant"], e["players"]): e for e in json.loads(args.out.read_text())["tuned"]}
    for name, players in todo:
        print(f"tuning {name} for {players} players: {budget.describe()}", file=sys.stderr, flush=True)
        found = tune(load_rules(name), players, budget, workers=args.workers,
                     report=lambda line: print(f"  {line}", file=sys.stderr, flush=True))
        print(f"{name}, {players} players: {found.result}")
        kept[(name, players)] = asdict(found)
    entries = [kept[key] for key in sorted(kept)]
    args.out.write_text(json.dumps({"format": tuned.FORMAT, "tuned": entries}, indent=2) + "\n")
    print(f"wrote {len(entries)} tunings to {args.out}")
    return 0


def rekey(path: Path) -> int:
    """Each entry of the tunings file gets its variant's play digest as play_digest makes it now; weights unchanged."""
    data = json.loads(path.read_text())
    for entry in data["tuned"]:
        entry["digest"] = tuned.play_digest(load_rules(entry["variant"]))
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    print(f"gave {len(data['tuned'])} tunings today's digests in {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
