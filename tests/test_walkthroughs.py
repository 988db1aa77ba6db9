"""The README's walkthroughs, executed: if a command they show stops working, this fails.

Each walkthrough is a README section. Its fenced blocks are taken in order:
- ```LANG title=PATH   a file: written to PATH in a fresh temporary directory;
- ```sh                commands: run there with bash (any failing command fails the test);
- ```text output       an excerpt: each of its lines must appear in what the sh block before it printed.
Any other block in these sections fails the test, so nothing shown goes unchecked.

The plugin walkthrough pip-installs a tiny package into this environment and
uninstalls it again, also when the test fails.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import tomllib

README = Path(__file__).resolve().parent.parent / "README.md"
FENCE = re.compile(r"^```(?P<lang>\w+)(?P<info>[^\n]*)\n(?P<body>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Block:
    lang: str
    info: str  # what follows the language: "title=PATH", "output" or nothing
    body: str

    @property
    def title(self) -> str | None:
        match = re.fullmatch(r"title=(\S+)", self.info)
        return match[1] if match else None


def section(name: str) -> str:
    """The text of one README section, from its marker to the next."""
    text = README.read_text(encoding="utf-8")
    marker = f"<!-- section: {name} -->"
    assert marker in text, f"README.md has no section {name!r}"
    start = text.index(marker) + len(marker)
    end = text.find("<!-- section:", start)
    return text[start : end if end >= 0 else len(text)]


def blocks(name: str) -> list[Block]:
    return [Block(m["lang"], m["info"].strip(), m["body"]) for m in FENCE.finditer(section(name))]


def environment() -> dict[str, str]:
    """This interpreter's `python`, `pip` and `scoutlab` first on PATH; no settings from the outer pytest."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    return env


def run(commands: str, cwd: Path) -> str:
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", commands],
        cwd=cwd, env=environment(), capture_output=True, text=True, timeout=300,
    )
    output = done.stdout + done.stderr
    if done.returncode:
        pytest.fail(f"README commands failed (exit {done.returncode}):\n{commands}\n--- output ---\n{output}")
    return output


def play(walkthrough: list[Block], cwd: Path) -> int:
    """Write the files and run the commands of a walkthrough; returns how many sh blocks ran."""
    printed: str | None = None
    ran = 0
    for block in walkthrough:
        if block.title:
            path = cwd / block.title
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(block.body, encoding="utf-8")
        elif block.lang == "sh" and not block.info:
            printed = run(block.body, cwd)
            ran += 1
        elif block.lang == "text" and block.info == "output":
            assert printed is not None, "an output block must follow a sh block"
            for line in filter(None, (line.strip() for line in block.body.splitlines())):
                assert line in printed, f"README shows {line!r}, but the commands printed:\n{printed}"
        else:
            pytest.fail(f"README block ```{block.lang} {block.info} is neither a file, commands nor output")
    return ran


def test_house_rule_walkthrough(tmp_path):
    assert play(blocks("house-rule"), tmp_path) >= 2


def packages_in(walkthrough: list[Block]) -> list[str]:
    """The names of the packages the walkthrough's pyproject.toml files declare."""
    return [
        tomllib.loads(block.body)["project"]["name"]
        for block in walkthrough
        if block.title and block.title.endswith("pyproject.toml")
    ]


def uninstall(names: list[str]) -> None:
    if names:
        subprocess.run([sys.executable, "-m", "pip", "uninstall", "--quiet", "--yes", *names], capture_output=True, timeout=120)


def test_plugin_walkthrough(tmp_path):
    if importlib.util.find_spec("wheel") is None:
        pytest.fail("the plugin walkthrough builds with the installed setuptools and wheel: pip install -e '.[plugin-dev]'")
    walkthrough = blocks("plugin")
    names = packages_in(walkthrough)
    assert names, "the plugin walkthrough declares no package"
    uninstall(names)  # a leftover from an interrupted run would hide a broken install step
    try:
        assert play(walkthrough, tmp_path) >= 3
    finally:
        uninstall(names)
    listed = subprocess.run([sys.executable, "-m", "pip", "list"], capture_output=True, text=True).stdout
    assert not any(name in listed for name in names), "the walkthrough must uninstall what it installed"


def test_the_walkthroughs_have_what_they_promise():
    # The harness fails on an unknown block; this checks it finds the blocks it should.
    house = blocks("house-rule")
    assert any(b.title and b.title.endswith(".yaml") for b in house)
    assert sum(b.lang == "sh" for b in house) >= 2 and any(b.info == "output" for b in house)
    titles = [b.title or "" for b in blocks("plugin")]
    for wanted in (r"/\w+\.py", r"/pyproject\.toml", r"^[\w-]+\.yaml", r"^test_\w+\.py"):
        assert any(re.search(wanted, t) for t in titles), wanted
