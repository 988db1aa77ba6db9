"""What a variant's compiled rules cost in memory and CPU as its deck grows: the figures behind the budget.

The spec layer refuses a deck whose action tables would hold more than
`MAX_COMPILED_CODES` codes (docs/spec-reference.md, "Limits"). This compiles the official
rules with wider decks, past the budget too (the spec check is bypassed here on purpose),
and prints the memory the compiled Rules hold (tracemalloc) per action code:

    python benchmarks/compiled_size.py                    # highest 10, 15, 18, 19, 20, 25, 30
    python benchmarks/compiled_size.py --highest 12 18
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import time
import tracemalloc


def compile_with_highest(highest: int) -> tuple[int, int, float]:
    """(deck size, bytes held by the compiled Rules, CPU seconds to compile) for official, 3 players, numbers 1..highest."""
    from scoutlab.rules import Rules
    from scoutlab.spec.variant import load_spec

    official = load_spec("official")
    doc = copy.deepcopy(official.doc)
    doc["players"], doc["deck"]["highest"] = [3], highest
    doc["deck"]["remove"] = {}
    doc["deal"]["hand_size"] = {"3": 12}
    spec = dataclasses.replace(official, doc=doc)  # past the budget on purpose: no validation
    tracemalloc.start()
    began = time.process_time()
    rules = Rules(spec)
    seconds = time.process_time() - began
    held, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return rules.codec.width, held, seconds


def main() -> None:
    from scoutlab.base.limits import MAX_COMPILED_CODES, compiled_codes

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--highest", type=int, nargs="+", default=[10, 15, 18, 19, 20, 25, 30])
    args = parser.parse_args()
    print(f"budget: {MAX_COMPILED_CODES:,} action codes")
    print(f"{'highest':>7} {'cards':>6} {'codes':>9} {'MB held':>8} {'bytes/code':>10} {'compile s':>9}  within budget")
    for highest in args.highest:
        cards, held, seconds = compile_with_highest(highest)
        codes = compiled_codes(cards)
        print(f"{highest:>7} {cards:>6} {codes:>9,} {held / 1e6:>8.1f} {held / codes:>10.1f} {seconds:>9.3f}  "
              f"{'yes' if codes <= MAX_COMPILED_CODES else 'no: refused by the spec layer'}")


if __name__ == "__main__":
    main()
