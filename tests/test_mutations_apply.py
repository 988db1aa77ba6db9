"""scripts/mutate_rules.py's mutations still fit the source: each one's text is found exactly once in the package.

A mutation whose text the engine no longer holds would be reported as a failure only when someone runs
the (long) mutation run; this catches it at the change that moved the text.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("mutate_rules", ROOT / "scripts" / "mutate_rules.py")
assert _spec is not None and _spec.loader is not None
mutate_rules = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mutate_rules)


@pytest.mark.parametrize("mutation", mutate_rules.MUTATIONS, ids=[m.name for m in mutate_rules.MUTATIONS])
def test_each_mutation_applies_once_to_a_copy(tmp_path, mutation):
    site = mutate_rules.copy_tree(tmp_path)
    changed = mutate_rules.apply(site, mutation)  # raises LookupError unless the text is found exactly once
    assert mutation.new in changed.read_text(encoding="utf-8") or mutation.new == ""
