"""Text a user reads never names a source text by its number ("seed 002"): it says what the source is.

Users read the README and docs, the variants (their titles, descriptions and comments),
the web templates, the message catalogs and the rules summary; none may say "seed N".
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE_NUMBER = re.compile(r"\bseeds? 0\d\d\b|\bseeds \d\d\d(?:,| and) \d\d\d\b", re.IGNORECASE)
READ_BY_USERS = [
    "README.md", "docs/*.md", "variants/*.yaml", "core/scoutlab/web/templates/*.html",
    "core/scoutlab/text/locale/scoutlab.pot", "core/scoutlab/text/locale/*/LC_MESSAGES/scoutlab.po", "core/scoutlab/text/summary.py",
    "core/scoutlab/web/rulespage.py",
]


def test_no_user_facing_text_names_a_source_by_number():
    found = []
    for pattern in READ_BY_USERS:
        assert list(ROOT.glob(pattern)), f"{pattern} matches no file: the list of what users read is out of date"
        for path in sorted(ROOT.glob(pattern)):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if SOURCE_NUMBER.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_the_pattern_catches_the_ways_it_was_written():
    for text in ("Seed 002's informal two-player game", "seeds 000 and 004", "(seeds 001, 003)"):
        assert SOURCE_NUMBER.search(text), text
    assert not SOURCE_NUMBER.search("game seeds 0-1999 for every row")
