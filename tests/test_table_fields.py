"""The Table's fields are written four times in engine/turns.py, and these tests hold the four to one list.

FIELDS (what state.fields() and pickling copy), the class's annotations (what mypyc lays out),
`_copy_into` (what a clone gets) and `_knobs` (the rules' part, read once per game) must name
the same fields: a name missing from any one of them would copy, clone or compile a state
that silently lacks it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from scoutlab.engine import turns

SOURCE = Path(turns.__file__).with_suffix(".py").read_text(encoding="utf-8")


def _function(tree: ast.Module, name: str) -> ast.FunctionDef:
    return next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)


def _assigned(function: ast.FunctionDef, owner: str) -> list[tuple[str, ast.expr | None]]:
    """(field, value) for each `owner.field = value` in the function, tuples unpacked pairwise."""
    found: list[tuple[str, ast.expr | None]] = []
    for node in ast.walk(function):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            targets = target.elts if isinstance(target, ast.Tuple) else [target]
            values = node.value.elts if isinstance(node.value, ast.Tuple) and isinstance(target, ast.Tuple) else None
            for i, one in enumerate(targets):
                if isinstance(one, ast.Attribute) and isinstance(one.value, ast.Name) and one.value.id == owner:
                    found.append((one.attr, values[i] if values is not None else node.value))
    return found


def field_lists(source: str) -> dict[str, list[str]]:
    """Each of the four places, as the names it gives, in order."""
    tree = ast.parse(source)
    table = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Table")
    fields_node = next(n for n in tree.body if isinstance(n, ast.AnnAssign) and ast.unparse(n.target) == "FIELDS")
    return {
        "FIELDS": [ast.literal_eval(e) for e in fields_node.value.elts],  # type: ignore[union-attr]
        "annotations": [n.target.id for n in table.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)],
        "_copy_into": [name for name, _ in _assigned(_function(tree, "_copy_into"), "twin")],
        "_knobs": [name for name, _ in _assigned(_function(tree, "_knobs"), "self")],
    }


def mismatches(source: str) -> list[str]:
    """Every way the four places disagree, in words; empty when they agree."""
    lists = field_lists(source)
    fields = lists["FIELDS"]
    problems = [f"FIELDS names {name!r} twice" for name in set(fields) if fields.count(name) > 1]
    if lists["annotations"] != fields:
        problems.append(f"annotations differ from FIELDS: {sorted(set(lists['annotations']) ^ set(fields))} (or their order)")
    copied = lists["_copy_into"]
    problems += [f"_copy_into misses {name!r}" for name in fields if name not in copied]
    problems += [f"_copy_into sets {name!r}, no field" for name in copied if name not in fields]
    problems += [f"_copy_into sets {name!r} twice" for name in set(copied) if copied.count(name) > 1]
    # The rules' part of a table: every field before the game's own, which starts at the rng.
    knobs = fields[: fields.index("rng")]
    if sorted(lists["_knobs"]) != sorted(knobs):
        problems.append(f"_knobs sets {sorted(set(lists['_knobs']) ^ set(knobs))} against FIELDS' rules part")
    return problems


def test_the_four_lists_of_table_fields_agree():
    assert mismatches(SOURCE) == []


def test_a_clone_copies_each_field_from_its_own_name():
    # `twin.a, twin.b = t.b, t.a` would name every field and still swap two.
    tree = ast.parse(SOURCE)
    crossed = [
        name for name, value in _assigned(_function(tree, "_copy_into"), "twin")
        if value is None or not re.search(rf"\bt\.{name}\b", ast.unparse(value))
    ]
    assert crossed == []


def test_a_name_missing_from_any_one_place_is_caught():
    # Each place loses one name in turn: the check must say which.
    cases = {
        "FIELDS": ('"turn", "starting_seat",', '"starting_seat",'),
        "annotations": ("    turn: int\n", ""),
        "_copy_into": ("twin.turn, twin.starting_seat, twin.to_act = t.turn, t.starting_seat, t.to_act",
                       "twin.starting_seat, twin.to_act = t.starting_seat, t.to_act"),
        "_knobs": ("        self.max_turns = rules.max_turns\n", ""),
    }
    for place, (old, new) in cases.items():
        assert SOURCE.count(old) == 1, place
        assert mismatches(SOURCE.replace(old, new)) != [], place
