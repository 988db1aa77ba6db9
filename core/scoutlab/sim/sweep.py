"""`scoutlab sweep`: play a grid of settings of one variant's knobs and measure each point.

    from scoutlab.sim.sweep import sweep
    report = sweep("official", ["scout_and_show.chips_per_round=0,1,2,3"], players=4, games=1000)

Each `--set PATH=V1,V2,...` names a key of the variant spec (dots between steps, as
`scoutlab diff` prints them without the `$.`) and the values to try; the grid is every
combination. A point is the variant with those values laid over it, exactly as a
child spec with `extends` would be, so the spec layer checks it and a bad path gets
its message (the path, and "did you mean"). Every point plays the same game seeds;
points that deal the same cards share deals, and differences from the first point
are then paired game by game.
"""

from __future__ import annotations

import difflib
import itertools
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from scoutlab.base.limits import excerpt, on_one_line
from scoutlab.rules import Rules
from scoutlab.sim import ADVANTAGE_CAP, Entry, check_counts, run_entries
from scoutlab.sim.findings import findings
from scoutlab.sim.metrics import catalogue
from scoutlab.sim.observe import end_reasons
from scoutlab.sim.results import Report
from scoutlab.sim.runner import check_players
from scoutlab.sim.trend import trends
from scoutlab.spec import SpecError, load_spec, load_spec_text
from scoutlab.spec.source import first_reference, parse

MAX_SETTINGS = 4  # --set options in one sweep
MAX_VALUES = 20  # values of one --set
MAX_POINTS = 64  # points in the whole grid: each plays every game
MAX_TEXT = 500  # characters of one --set option
DEFAULT_METRICS = ("turns_per_round", "score_round", "end.hand_emptied", "end.rule_ii", "scouts",
                   "first_player", "starter_edge", "lead_changes_round")
SKILL_METRICS = ("skill_depth", "luck")


@dataclass(frozen=True)
class Setting:
    """One `--set`: a spec path and the values it takes in turn."""

    path: str  # as given: scout_and_show.chips_per_round
    steps: tuple[str, ...]
    values: tuple[Any, ...]
    texts: tuple[str, ...]  # each value as typed, for labels

    @property
    def short(self) -> str:
        """The path's last step, or last two when the last is a player count (`hand_size.2`)."""
        tail = self.steps[-2:] if self.steps[-1].isdigit() and len(self.steps) > 1 else self.steps[-1:]
        return ".".join(tail)


def parse_setting(text: str) -> Setting:
    """`PATH=V1,V2,...` -> a Setting; values are read as YAML (`2` a number, `true` a flag, `[a, b]` a list)."""
    if len(text) > MAX_TEXT:
        raise ValueError(f"--set is {len(text)} characters long; at most {MAX_TEXT}")
    path, equals, values = text.partition("=")
    path = path.strip().removeprefix("$.")
    if not equals or not path or not values.strip():
        raise ValueError(f"--set {text!r}: expected PATH=V1,V2,... e.g. scout_and_show.chips_per_round=0,1,2")
    steps = tuple(path.split("."))
    if any(not step for step in steps):
        raise ValueError(f"--set {text!r}: the path {path!r} has an empty step")
    texts = tuple(part.strip() for part in _split_top_level(values))
    if any(not t for t in texts):
        raise ValueError(f"--set {text!r}: an empty value between commas")
    if len(texts) > MAX_VALUES:
        raise ValueError(f"--set {path}: {len(texts)} values; at most {MAX_VALUES}")
    if len(set(texts)) != len(texts):
        raise ValueError(f"--set {path}: a value is given twice")
    parsed = []
    for t in texts:
        _check_written_out(path, t)
        source = parse(t)  # as a spec is read: bounded
        if source.findings:
            raise ValueError(f"--set {path}: cannot read the value {excerpt(t)} (a number, true/false, a word or a [list])")
        parsed.append(source.data)
    return Setting(path, steps, tuple(parsed), texts)


def _check_written_out(path: str, text: str) -> None:
    """Refuse a value that is not all there as typed: it labels its point, so `&a 2` would be a point named `&a 2`.
    A spec file may use anchors, aliases and tags; one value on the command line has nothing to share them with."""
    found = first_reference(text)
    if found is not None:
        kind, written = found
        shown = written if len(written) <= 20 else excerpt(written, 20)  # YAML allows no space or quote in one
        raise ValueError(f"--set {path}: the value {excerpt(text)} has a YAML {kind}, {shown}; write the value itself "
                         "(anchors, aliases and tags are for spec files)")


def _split_top_level(text: str) -> list[str]:
    """Split on commas outside brackets, so a list value like [hand_emptied, opponent_stuck] stays whole."""
    parts, depth, current = [], 0, ""
    for char in text:
        if char in "[{":
            depth += 1
        elif char in "]}":
            depth = max(depth - 1, 0)
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return parts


def grid(settings: Sequence[Setting]) -> list[tuple[Any, ...]]:
    """Every combination of the settings' values, the first setting varying slowest."""
    if not settings:
        raise ValueError("sweep needs at least one --set PATH=V1,V2,...")
    if len(settings) > MAX_SETTINGS:
        raise ValueError(f"{len(settings)} --set options; at most {MAX_SETTINGS}")
    paths = [s.path for s in settings]
    if len(set(paths)) != len(paths):
        raise ValueError("the same path is set twice; give all its values in one --set")
    size = 1
    for s in settings:
        size *= len(s.values)
    if size > MAX_POINTS:
        raise ValueError(f"the grid has {size} points; at most {MAX_POINTS} (each point plays every game)")
    return list(itertools.product(*(range(len(s.values)) for s in settings)))


def point_rules(base: str, settings: Sequence[Setting], choice: Sequence[int]) -> Rules:
    """The variant `base` with each setting's chosen value laid over it, checked by the spec layer."""
    parent = load_spec(base)  # an unknown variant is reported as itself, not as a problem of the point
    overlay: dict[str, Any] = {}
    for setting, index in zip(settings, choice):
        node = overlay
        for step in setting.steps[:-1]:
            node = node.setdefault(step, {})
            if not isinstance(node, dict):
                raise ValueError(f"--set {setting.path}: another --set gives {step!r} a whole value")
        node[setting.steps[-1]] = setting.values[index]
    label = ", ".join(f"{s.short}={s.texts[i]}" for s, i in zip(settings, choice))
    for key in ("extends", "name"):
        if key in overlay:
            raise ValueError(f"--set {key}: a sweep point always extends {base!r} and is named by its settings")
    shipped = not (os.sep in base or "/" in base or base.endswith((".yaml", ".yml")))
    extends = base if shipped else os.path.abspath(base)
    doc = {"extends": extends, "name": f"{parent.name} {label}", **overlay}
    try:
        spec = load_spec_text(json.dumps(doc), filename="--set",
                              base_dir=None if shipped else os.path.dirname(os.path.abspath(base)))
    except SpecError as exc:
        given = on_one_line(", ".join(f"{s.path}={s.texts[i]}" for s, i in zip(settings, choice)))
        raise ValueError("; ".join(f"--set {given}: {p.path}: {p.message}" for p in exc.problems)) from None
    return Rules(spec)


def check_metrics(names: Sequence[str], known: Sequence[str], option: str = "--metrics") -> list[str]:
    """The metric keys asked for, each checked against the catalogue (with a 'did you mean'); errors name `option`."""
    out = []
    for name in names:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f" (known: {', '.join(known)})"
            raise ValueError(f"{option}: unknown metric {excerpt(name)}{hint}")
        out.append(name)
    return list(dict.fromkeys(out))


MAX_TARGET = 1e9  # no metric comes near: a larger value is a slip, and 1e308 printed as 309 digits


def parse_target(text: str, known: Mapping[str, str]) -> tuple[str, float]:
    """`METRIC=VALUE` -> (metric, value); a share (`known` maps each metric to its unit) may be given as 0.5 or 50%."""
    if len(text) > MAX_TEXT:
        raise ValueError(f"--target is {len(text):,} characters long; at most {MAX_TEXT}")
    key, equals, value = text.partition("=")
    key, value = key.strip(), value.strip()
    if not equals or not key or not value:
        raise ValueError(f"--target {text[:40]!r}: expected METRIC=VALUE, e.g. first_player=0 or turns_per_round=30")
    (key,) = check_metrics([key], list(known), "--target")
    share = known[key] == "share"
    if value.endswith("%") and not share:
        raise ValueError(f"--target {key}: {value[:40]!r}: a percentage is for a share; {key} is not one")
    try:
        number = float(value[:-1]) / 100 if value.endswith("%") else float(value)
    except ValueError:
        raise ValueError(f"--target {key}: {value[:40]!r} is not a number") from None
    if not abs(number) <= (1 if share else MAX_TARGET):  # and not NaN
        span = "-1 to 1 (or -100% to 100%), as a share is" if share else f"-{MAX_TARGET:,.0f} to {MAX_TARGET:,.0f}"
        raise ValueError(f"--target {key}: {value[:40]!r}: a target runs from {span}")
    return key, number


def sweep(base: str, sets: Sequence[str], players: int | None = None, games: int = 1000,
          metrics: Sequence[str] | None = None, strong: str | None = "auto", targets: Sequence[str] = (),
          **options) -> Report:
    """Play every point of the grid on the same seeds; each later point is compared with the first.

    `targets` (`METRIC=VALUE`) ask which point comes closest to a value; the edges aim at 0 when chosen.
    """
    check_counts(games, options.get("workers"), options.get("advantage_games"))
    settings = [parse_setting(text) for text in sets]
    choices = grid(settings)
    rules = [point_rules(base, settings, choice) for choice in choices]
    count = players if players is not None else rules[0].players[0]
    check_players(rules[0], count)  # before the metrics, whose fair shares divide by it
    units = {m.key: m.unit for m in catalogue(count, end_reasons(rules[0]), ("strong", "weak"))}
    known = list(units)
    chosen = check_metrics(metrics or DEFAULT_METRICS, known) if metrics else [
        m for m in DEFAULT_METRICS if m in known]
    aims = dict(parse_target(t, units) for t in targets)
    chosen += [key for key in aims if key not in chosen]  # a target's metric is shown and tested too
    if strong == "auto" and not set(chosen) & set(SKILL_METRICS):
        strong = None  # skill games are slow: only when a skill metric is asked for
    why = "as asked" if players is not None else f"the smallest count {base} allows (--players chooses another)"
    entries = [Entry(base, r, count, why) for r in rules]
    points = [{s.path: s.values[i] for s, i in zip(settings, choice)} for choice in choices]
    labels = [", ".join(f"{s.short}={s.texts[i]}" for s, i in zip(settings, choice)) for choice in choices]
    info = {"base": base, "settings": [{"path": s.path, "values": list(s.values)} for s in settings],
            "points": points, "labels": labels, "metrics": chosen, "targets": aims}
    options.setdefault("advantage_games", min(games // 2, ADVANTAGE_CAP))
    report = run_entries("sweep", entries, games, tuple((0, k) for k in range(1, len(entries))),
                         strong=strong, sweep=info, **options)
    found = trends(report)
    info["trends"] = [{**asdict(t), "model": t.model} for t in found]
    report.findings = findings(report, found)
    return report
