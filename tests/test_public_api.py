"""Every name docs/api.md promises imports from the module it names, and from the old path where one is given."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

API = Path(__file__).resolve().parent.parent / "docs" / "api.md"


def rows() -> list[tuple[str, list[str], str | None]]:
    found = []
    for line in API.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`scoutlab"):
            continue
        old = re.fullmatch(r"`(scoutlab[\w.]*)`", cells[2])
        found.append((cells[0].strip("`"), re.findall(r"`(\w+)`", cells[1]), old.group(1) if old else None))
    return found


ROWS = rows()


def test_the_api_table_is_read():
    assert len(ROWS) >= 20 and any(module == "scoutlab.rules" for module, _, _ in ROWS)


@pytest.mark.parametrize(("module", "names", "old"), ROWS, ids=[row[0] for row in ROWS])
def test_every_public_name_imports(module, names, old):
    home = importlib.import_module(module)
    missing = [name for name in names if not hasattr(home, name)]
    assert missing == [], f"{module} lacks {missing}"
    if old is not None:
        former = importlib.import_module(old)
        assert all(getattr(former, name) is getattr(home, name) for name in names)


def test_an_old_path_is_the_same_module_object():
    import scoutlab.hookspecs
    import scoutlab.host.hookspecs

    assert scoutlab.hookspecs is scoutlab.host.hookspecs
    assert scoutlab.host.hookspecs.__spec__.name == "scoutlab.host.hookspecs"  # the alias leaves the real spec


def test_from_old_path_import_works_in_a_fresh_interpreter():
    import subprocess
    import sys

    code = "from scoutlab.state import GameState; from scoutlab.plugin_host import installed_plugins; print(GameState.__module__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "scoutlab.engine.state"
