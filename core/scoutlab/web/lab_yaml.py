"""One key of a YAML text set in place, so the lines around it and their comments stay as the designer wrote them.

`set_in_place(text, steps, value, wanted)` rewrites only the key's own line (its comment kept), or adds
the key (and its missing parents) in block style at the end of its block; the result is used only when
it reads back as `wanted`, the document the form asks for. Anything it cannot do that way (a key in
flow style, `scoring: {chip_received: 2}`; anchors; odd indentation) gives None, and the caller
writes the whole document again.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

INDENT = "  "


def scalar(value: Any) -> str:
    """A value as one line of YAML flow: `2`, `true`, `per_player`, `[3, 4]`, `'yes'` for a string YAML would misread."""
    return yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10_000).split("\n...")[0].strip()


def set_in_place(text: str, steps: list[str], value: Any, wanted: Any) -> str | None:
    """The text with the key at `steps` set to `value`, lines and comments kept; None when that cannot be done safely."""
    lines = text.split("\n")
    start, end, indent = 0, len(lines), ""  # the block searched: lines [start, end) at this indentation
    for depth, step in enumerate(steps):
        at = _find(lines, start, end, indent, step)
        last = depth == len(steps) - 1
        if at is None:
            lines[_block_end(lines, start, end):_block_end(lines, start, end)] = _new_lines(steps[depth:], value, indent)
            break
        key, rest = _split(lines[at], indent, step)
        if last:
            _value, comment = _value_and_comment(rest)
            lines[at] = f"{key}{scalar(value)}{comment}"
            break
        if _value_and_comment(rest)[0].strip():
            return None  # the parent holds a value on its own line (flow style): not edited in place
        start, end = at + 1, _block_end(lines, at + 1, end, deeper_than=indent)
        child = _child_indent(lines, start, end)
        indent = child if child is not None else indent + INDENT
    edited = "\n".join(lines)
    try:
        return edited if yaml.safe_load(edited) == wanted else None
    except (yaml.YAMLError, RecursionError):
        return None


def _find(lines: list[str], start: int, end: int, indent: str, step: str) -> int | None:
    pattern = re.compile(rf"^{re.escape(indent)}{re.escape(step)}\s*:(\s|$)")
    return next((i for i in range(start, end) if pattern.match(lines[i])), None)


def _split(line: str, indent: str, step: str) -> tuple[str, str]:
    """(`indent key: `, the rest of the line)."""
    match = re.match(rf"^({re.escape(indent)}{re.escape(step)}\s*:\s*)(.*)$", line)
    assert match is not None
    return match.group(1) if match.group(1).endswith(" ") else match.group(1) + " ", match.group(2)


def _value_and_comment(rest: str) -> tuple[str, str]:
    """A line's value and its comment (` # ...`, kept with the spaces before it)."""
    match = re.match(r"^(.*?)(\s+#.*)?$", rest)
    assert match is not None
    return match.group(1), match.group(2) or ""


def _indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _meaningful(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def _block_end(lines: list[str], start: int, end: int, deeper_than: str | None = None) -> int:
    """Where a block ends: the line after its last meaningful line (nested ones: lines indented past `deeper_than`)."""
    last = start
    for i in range(start, end):
        if not _meaningful(lines[i]):
            continue
        if deeper_than is not None and _indent_of(lines[i]) <= len(deeper_than):
            break
        last = i + 1
    return last


def _child_indent(lines: list[str], start: int, end: int) -> str | None:
    first = next((line for line in lines[start:end] if _meaningful(line)), None)
    return None if first is None else " " * _indent_of(first)


def _new_lines(steps: list[str], value: Any, indent: str) -> list[str]:
    """`key:` lines for the missing steps, each one level deeper, the last with the value."""
    out = [f"{indent}{INDENT * depth}{step}:" for depth, step in enumerate(steps[:-1])]
    out.append(f"{indent}{INDENT * (len(steps) - 1)}{steps[-1]}: {scalar(value)}")
    return out
