"""The package's layers, read from its own imports: no circle at any depth, no import that runs back up.

Layers, bottom to top (docs/architecture.md): base < engine < host < spec < rules < text < the
clients. A module may import its own layer and the ones below, and that holds for type-only
imports (under TYPE_CHECKING) too: a layer's types may not name what sits above it (the engine
is typed against its own contract, engine/contract.py). The circle check reads the imports that
run, since only those can fail at import time. Function-level imports of the package are allowed
only with a comment line saying why, right above them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import scoutlab

CORE = Path(scoutlab.__file__).parent
LAYERS = ["base", "engine", "host", "spec", "rules", "text"]  # every other module is a client
CLIENT = len(LAYERS)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(CORE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["scoutlab", *parts])


MODULES = {module_name(p): p for p in sorted(CORE.rglob("*.py"))}


def layer(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1:
        return 0  # the front door imports its names only when asked for, never at import time
    return LAYERS.index(parts[1]) if parts[1] in LAYERS else CLIENT


def _type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def runtime_imports(path: Path, type_only: bool = False) -> list[tuple[str, ast.ImportFrom | ast.Import, bool]]:
    """(imported module, node, inside a function) for each runtime import of a scoutlab module, and with
    `type_only` each import under TYPE_CHECKING too."""
    found: list[tuple[str, ast.ImportFrom | ast.Import, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if _type_checking_block(child) and not type_only:
                continue
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, ast.ImportFrom) and (child.module or "").startswith("scoutlab"):
                for alias in child.names:
                    candidate = f"{child.module}.{alias.name}"
                    found.append((candidate if candidate in MODULES else child.module, child, in_function))
            elif isinstance(child, ast.Import):
                found.extend((a.name, child, in_function) for a in child.names if a.name.startswith("scoutlab"))
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


GRAPH = {name: sorted({m for m, _, _ in runtime_imports(path) if m in MODULES} - {name}) for name, path in MODULES.items()}
TYPED_GRAPH = {
    name: sorted({m for m, _, _ in runtime_imports(path, type_only=True) if m in MODULES} - {name})
    for name, path in MODULES.items()
}


def cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in graph:
        if node not in index:
            connect(node)
    return found


def test_the_package_has_no_import_circle():
    assert cycles(GRAPH) == []


def test_the_circle_finder_finds_a_circle():
    assert cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]


def upward_imports(graph: dict[str, list[str]]) -> list[str]:
    return [
        f"{name} (layer {layer(name)}) imports {target} (layer {layer(target)})"
        for name, targets in graph.items()
        for target in targets
        if layer(target) > layer(name)
    ]


def test_no_import_runs_back_up_a_layer():
    assert upward_imports(GRAPH) == []


def test_no_type_only_import_reaches_up_a_layer():
    # The front door names every public type for mypy (its TYPE_CHECKING re-exports): above every layer for types.
    layered = {name: targets for name, targets in TYPED_GRAPH.items() if name != "scoutlab"}
    assert upward_imports(layered) == []


def test_type_only_imports_are_read(tmp_path):
    # The check above would pass on a blind reader: an upward import under TYPE_CHECKING must be found.
    module = tmp_path / "m.py"
    module.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from scoutlab.rules import Rules\n")
    assert [m for m, _, _ in runtime_imports(module)] == []
    assert [m for m, _, _ in runtime_imports(module, type_only=True)] == ["scoutlab.rules"]
    assert upward_imports({"scoutlab.engine.m": ["scoutlab.rules"]}) == [
        "scoutlab.engine.m (layer 1) imports scoutlab.rules (layer 4)"]


def test_every_function_level_import_says_why():
    silent = []
    for path in MODULES.values():
        lines = path.read_text(encoding="utf-8").splitlines()
        for _, node, in_function in runtime_imports(path):
            if not in_function:
                continue
            above = node.lineno - 2
            while above >= 0 and lines[above].strip().startswith(("from scoutlab", "import scoutlab")):
                above -= 1  # the comment heads a group of imports
            if above < 0 or not lines[above].strip().startswith("#"):
                silent.append(f"{path.relative_to(CORE)}:{node.lineno}")
    assert silent == []


def test_nothing_inside_the_package_goes_through_the_front_door():
    # `from scoutlab import GameState` inside the package would hide a layer's real import behind the front door.
    through = [
        f"{path.relative_to(CORE)}:{node.lineno}"
        for path in MODULES.values()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module == "scoutlab"
        and any(f"scoutlab.{alias.name}" not in MODULES and alias.name != "__version__" for alias in node.names)
    ]
    assert through == []


def test_every_layer_folder_exists():
    for name in LAYERS:
        assert (name == "rules" and (CORE / "rules.py").is_file()) or (CORE / name / "__init__.py").is_file(), name
