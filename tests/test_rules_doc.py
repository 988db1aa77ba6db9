"""docs/rules.md is the rules reference the repository cites: every "docs/rules.md §N" in code,
tests, scenarios, variants and docs names a section that is a heading there.

Also: no citation points at the rules digest the project once kept outside the repository,
every section a rules scenario names in its `rule:` exists, and the reference names its
sources in words, never by a number.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"

# A section: 4, 3A, 3A.2, 10.9. A citation: "docs/rules.md §4", "docs/rules.md §3A, §3B and §7",
# "docs/rules.md §10.5-§10.7", "docs/rules.md §7(ii)"; one line, each section with its §.
SECTION = r"\d+[A-Z]?(?:\.\d+)?"
CITATION = re.compile(
    rf"docs/rules\.md\s§{SECTION}(?:\([ivx]+\))?(?:(?:,\s|\sand\s|\sor\s|-|–)§{SECTION}(?:\([ivx]+\))?)*"
)
CITED = re.compile(rf"§({SECTION})")
HEADING = re.compile(rf"^#{{2,4}} ({SECTION})\.?\s", re.MULTILINE)
SOURCE_NUMBER = re.compile(r"\bseeds?\b\W{0,3}\d", re.IGNORECASE)
# The old digest's name, spelled so this file does not cite it.
OLD = "RULES" + ".md"
MISFORMED = [
    (re.compile(r"docs/rules\.md\s+(?:\d|sections?\b)"), "write the section as §N"),
    (re.compile(r"docs/rules\.md\s*\n\W*§"), "keep a citation on one line"),
    (re.compile(r"(?<!docs/)\brules\.md\s§"), "cite as docs/rules.md §N"),
]
# Files that still cite the old digest, each with why it waits. The test fails once one no longer does,
# so the entry goes when the file is changed.
PENDING: dict[str, int] = {}  # files allowed old citations for now, with how many and why (none left)
SKIP_DIRS = {".git", ".venv", "build", "dist", "node_modules", "__pycache__", ".pytest_cache", ".mypy_cache",
             ".ruff_cache", ".hypothesis"}


def _repository_files() -> list[Path]:
    """Every file of the repository: tracked or new, not ignored (all files, without git)."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, capture_output=True, check=True,
        ).stdout.decode()
        paths = [ROOT / name for name in out.split("\0") if name]
    except (OSError, subprocess.CalledProcessError):
        paths = [p for p in ROOT.rglob("*")
                 if not SKIP_DIRS.intersection(p.relative_to(ROOT).parts)
                 and not any(part.endswith(".egg-info") for part in p.parts)]
    return [p for p in paths if p.is_file()]


def _texts() -> list[tuple[Path, str]]:
    texts = []
    for path in _repository_files():
        try:
            texts.append((path, path.read_text(encoding="utf-8")))
        except (UnicodeDecodeError, OSError):
            continue  # binary, or gone since git listed it
    return texts


def _line(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def sections() -> set[str]:
    return set(HEADING.findall(RULES.read_text(encoding="utf-8")))


def citations(text: str) -> list[tuple[int, str]]:
    """(line, section) of every section a text cites as docs/rules.md §N."""
    return [(_line(text, m.start()), section) for m in CITATION.finditer(text) for section in CITED.findall(m[0])]


def test_the_headings_are_numbered_like_the_sections_cited() -> None:
    headings = HEADING.findall(RULES.read_text(encoding="utf-8"))
    assert len(headings) == len(set(headings)), "a section number is used twice"
    expected = {str(n) for n in range(1, 12)} | {"3A", "3B", "3C"} | {f"3A.{n}" for n in range(1, 5)}
    expected |= {f"10.{n}" for n in range(1, 10)}
    assert expected <= set(headings), sorted(expected - set(headings))


def test_every_citation_names_a_section_of_docs_rules_md() -> None:
    """Also every further §N of a file that cites it ("docs/rules.md §4 (...), §5 (...)" over lines)."""
    known = sections()
    missing, count = [], 0
    for path, text in _texts():
        count += len(citations(text))
        if "docs/rules.md" not in text and path != RULES:
            continue
        for m in CITED.finditer(text):
            if m[1] not in known:
                missing.append(f"{path.relative_to(ROOT)}:{_line(text, m.start())}: docs/rules.md has no section §{m[1]}")
    assert count > 40, f"only {count} citations found: the pattern no longer matches how they are written"
    assert missing == []


def test_the_reference_cites_its_own_sections() -> None:
    """Inside docs/rules.md a bare §N refers to its own sections."""
    text = RULES.read_text(encoding="utf-8")
    known = sections()
    unknown = [f"docs/rules.md:{_line(text, m.start())}: §{m[1]}" for m in CITED.finditer(text) if m[1] not in known]
    assert unknown == []


def test_no_citation_of_the_old_rules_digest_or_in_another_form() -> None:
    wrong = []
    for path, text in _texts():
        if path == Path(__file__).resolve():
            continue  # its examples of what is refused
        name = path.relative_to(ROOT)
        old = [f"{name}:{number}: cites {OLD}, not docs/rules.md: {line.strip()}"
               for number, line in enumerate(text.splitlines(), 1) if OLD in line]
        if name.as_posix() in PENDING:
            if len(old) != PENDING[name.as_posix()]:
                wrong.append(f"{name}: {len(old)} citations of {OLD} where PENDING says {PENDING[name.as_posix()]}")
        else:
            wrong += old
        for pattern, fix in MISFORMED:
            wrong += [f"{name}:{_line(text, m.start())}: {fix}: {m[0]!r}" for m in pattern.finditer(text)]
    assert wrong == []


def test_every_section_a_scenario_names_exists() -> None:
    """A scenario's `rule:` starts with the sections it checks ("3A.4, 10.8: ..."), all in docs/rules.md."""
    known = sections()
    missing = []
    for path in sorted((ROOT / "tests" / "scenarios").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        rules = [case.get("rule", "") for case in data.get("cases", [])] + [data.get("rule", "")]
        for rule in filter(None, rules):
            named = rule.split(":", 1)[0]
            missing += [f"{path.name}: {rule!r} names §{s}" for s in re.findall(rf"(?<![\w.])({SECTION})", named)
                        if s not in known]
    assert missing == []


def test_the_reference_names_no_source_by_number() -> None:
    text = RULES.read_text(encoding="utf-8")
    found = [f"docs/rules.md:{_line(text, m.start())}: {m[0]!r}" for m in SOURCE_NUMBER.finditer(text)]
    assert found == []


def test_the_patterns_read_citations_as_they_are_written() -> None:
    assert citations("see docs/rules.md §4") == [(1, "4")]
    assert [s for _, s in citations("(docs/rules.md §3A, §3B and §7(ii))")] == ["3A", "3B", "7"]
    assert [s for _, s in citations("# docs/rules.md §1, §2, §6, §10.5-§10.7\n")] == ["1", "2", "6", "10.5", "10.7"]
    assert [s for _, s in citations("docs/rules.md §3A.2: sets first")] == ["3A.2"]
    assert citations("docs/rules.md, the reference") == []
    for text, fix in (("docs/rules.md 4", "§N"), ("docs/rules.md\n# §4", "one line"), ("see rules.md §4", "docs/")):
        assert any(pattern.search(text) and fix in message for pattern, message in MISFORMED), text
    assert SOURCE_NUMBER.search("as seed 002 says") and SOURCE_NUMBER.search("Seeds 001 and 003")
    assert not SOURCE_NUMBER.search("a game's seed is any integer")
