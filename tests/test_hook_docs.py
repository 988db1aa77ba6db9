"""Every hook is documented and tested, as datasette requires of its own hooks.

Fails when a hookspec in core/scoutlab/host/hookspecs.py has no section in docs/plugins.md, when a
section's signature or "first result wins" line disagrees with the hookspec, when a
section's example does not run, or when no test under tests/ is named for the hook
(`test_hook_<name without the scoutlab_ prefix>...`) and mentions it.
"""

from __future__ import annotations

import ast
import functools
import inspect
import re
from pathlib import Path

import pytest

from scoutlab.host import hookspecs

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "plugins.md"
TESTS = ROOT / "tests"
PREFIX = "scoutlab_"

HOOKS = sorted(name for name, value in vars(hookspecs).items() if name.startswith(PREFIX) and callable(value))


def sections() -> dict[str, str]:
    """The text under each `### scoutlab_...` heading of docs/plugins.md, by hook name."""
    parts = re.split(r"^### (scoutlab_\w+)\s*$", DOCS.read_text(encoding="utf-8"), flags=re.M)
    return {parts[i]: parts[i + 1].split("\n## ")[0] for i in range(1, len(parts), 2)}


SECTIONS = sections()


def test_the_hook_list_is_read_from_the_hookspecs():
    assert len(HOOKS) >= 6 and "scoutlab_classify_show" in HOOKS


def test_every_documented_hook_exists():
    assert not set(SECTIONS) - set(HOOKS), f"docs/plugins.md documents hooks that do not exist: {sorted(set(SECTIONS) - set(HOOKS))}"


@pytest.mark.parametrize("hook", HOOKS)
def test_hook_is_documented(hook):
    assert hook in SECTIONS, f"docs/plugins.md has no `### {hook}` section"
    text = SECTIONS[hook]
    spec = getattr(hookspecs, hook)
    signature = re.search(rf"^Signature: `{hook}\((.*)\) ->", text, flags=re.M)
    assert signature, f"the {hook} section has no `Signature: {hook}(...)` line"
    parsed = ast.parse(f"def {hook}({signature.group(1)}): pass").body[0]
    documented = [arg.arg for arg in parsed.args.args]
    assert documented == list(inspect.signature(spec).parameters), f"{hook}: the documented arguments differ"
    first = re.search(r"^First result wins: (yes|no)\b", text, flags=re.M)
    assert first, f"the {hook} section does not say whether the first result wins"
    firstresult = spec.scoutlab_spec["firstresult"]
    assert (first.group(1) == "yes") == firstresult, f"{hook}: the hookspec says firstresult={firstresult}"
    for needed in ("Called", "Returns:"):
        assert needed in text, f"the {hook} section does not say {needed!r}"
    assert examples(hook), f"the {hook} section has no ```python example"


def examples(hook: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", SECTIONS.get(hook, ""), flags=re.S)


@pytest.mark.parametrize("hook", HOOKS)
def test_hook_example_runs(hook):
    for code in examples(hook):
        assert hook in code, f"the {hook} example does not implement {hook}"
        exec(compile(code, f"docs/plugins.md ({hook})", "exec"), {"__name__": f"docs_example_{hook}"})


@functools.cache
def suite_files() -> list[tuple[str, str, frozenset[str]]]:
    """(name, text, function names) of each test file under tests/ but this one."""
    found = []
    for path in sorted(TESTS.rglob("test_*.py")):
        if path.name != Path(__file__).name:
            text = path.read_text(encoding="utf-8")
            names = frozenset(node.name for node in ast.walk(ast.parse(text)) if isinstance(node, ast.FunctionDef))
            found.append((path.name, text, names))
    return found


@pytest.mark.parametrize("hook", HOOKS)
def test_hook_has_a_test(hook):
    short = hook[len(PREFIX):]
    named = [
        name for name, text, functions in suite_files()
        if hook in text and any(function.startswith(f"test_hook_{short}") for function in functions)
    ]
    assert named, f"no test under tests/ is named test_hook_{short}... in a file that exercises {hook}"


def test_the_checks_can_fail(tmp_path, monkeypatch):
    """A hookspec without docs or tests is caught: pretend one was added."""
    def scoutlab_new_hook(state):
        """A hook nobody documented."""

    scoutlab_new_hook.scoutlab_spec = {"firstresult": False}
    monkeypatch.setattr(hookspecs, "scoutlab_new_hook", scoutlab_new_hook, raising=False)
    with pytest.raises(AssertionError, match="no `### scoutlab_new_hook` section"):
        test_hook_is_documented("scoutlab_new_hook")
    with pytest.raises(AssertionError, match="no test under tests/ is named test_hook_new_hook"):
        test_hook_has_a_test("scoutlab_new_hook")
