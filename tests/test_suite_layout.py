"""The test suite's own layout: pytest imports test files by their base name (no __init__.py), so two
test files with one name in different folders stop the whole run at collection."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_no_two_test_files_share_a_name():
    names = Counter(path.name for path in TESTS.rglob("test_*.py") if "node_modules" not in path.parts)
    assert [name for name, count in names.items() if count > 1] == []
