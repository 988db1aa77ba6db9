"""The front door: every name docs/api.md promises imports from `scoutlab` and from its one home module."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import scoutlab

API = Path(__file__).resolve().parent.parent / "docs" / "api.md"


def table(heading: str) -> list[tuple[str, list[str]]]:
    """(module, names) for each row of the table under `heading` in docs/api.md."""
    text = API.read_text(encoding="utf-8").split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    found = []
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0].startswith("`scoutlab"):
            found.append((cells[0].strip("`"), re.findall(r"`(\w+)`", cells[1])))
    return found


FRONT = table("The front door: `from scoutlab import ...`")
MODULES = table("Modules with their own API")


def test_the_tables_are_read():
    assert len(FRONT) >= 15 and ("scoutlab.rules", ["Rules", "load_rules"]) in FRONT
    assert len(MODULES) >= 10 and any(module == "scoutlab.sim" for module, _ in MODULES)


def test_the_front_door_is_the_documented_one():
    assert {module: tuple(names) for module, names in FRONT} == scoutlab.HOMES
    assert sorted(scoutlab.__all__) == sorted(name for _, names in FRONT for name in names)


def test_every_name_has_one_home():
    names = [name for _, row in FRONT + MODULES for name in row if name[0].isalpha()]
    twice = sorted({name for name in names if names.count(name) > 1})
    assert twice == []


@pytest.mark.parametrize(("module", "names"), FRONT, ids=[row[0] for row in FRONT])
def test_every_front_door_name_is_its_homes_object(module, names):
    home = importlib.import_module(module)
    assert [name for name in names if getattr(scoutlab, name) is not getattr(home, name)] == []


@pytest.mark.parametrize(("module", "names"), MODULES, ids=[row[0] for row in MODULES])
def test_every_module_name_imports(module, names):
    home = importlib.import_module(module)
    assert [name for name in names if not hasattr(home, name)] == []


def test_type_checkers_see_the_same_names():
    # The TYPE_CHECKING imports are what mypy and editors read; the HOMES table is what runs.
    tree = ast.parse(Path(scoutlab.__file__).read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test))
    imported = {alias.name: node.module for node in block.body if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert imported == {name: module for module, names in scoutlab.HOMES.items() for name in names}


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'hookspecs'"):
        scoutlab.hookspecs  # noqa: B018 (an old path, removed: docs/api.md says where its names went)


def test_importing_scoutlab_imports_no_layer():
    code = "import sys, scoutlab; print(sorted(m for m in sys.modules if m.startswith('scoutlab.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"
    code = "from scoutlab import GameState, hookimpl; print(GameState.__module__)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == (
        "scoutlab.engine.state")
