"""The lab's variant: its YAML checked by the spec layer, its common knobs read and written, its differences.

The YAML text is the variant; the form is a view of it. `check` loads the text exactly as
`scoutlab validate` does (the spec layer, then compiling, which checks end conditions and
plugins) and says each problem as `LINE: $.path: message`, the command line's words without
the file name (a problem in another file keeps its file). `set_knob` writes one knob into
the text, in place where it can (lab_yaml.py: the key's own line, its comment kept), else by
writing the whole document again (comments lost, which the page says), so the form and the
text never disagree.
"""

from __future__ import annotations

import copy
import re
import warnings
from dataclasses import dataclass
from functools import cache
from typing import Any

import yaml

from scoutlab.base.errors import Problem, SpecWarning
from scoutlab.host.manager import available_plugins, make_manager, plugin_summary
from scoutlab.rules import Rules
from scoutlab.spec.diff import diff_specs, show_value
from scoutlab.spec.source import parse
from scoutlab.spec.variant import SpecError, load_spec, load_spec_text, shipped_variants
from scoutlab.text.i18n import N_, Gettext
from scoutlab.text.spec_messages import translate_message
from scoutlab.web.inputs import sent
from scoutlab.web.lab_yaml import set_in_place
from scoutlab.web.new_match import MAX_SPEC_BYTES  # the lab reads what the start page's Advanced box reads

#: The file name problems in the user's text carry (left out of what the page shows).
FILENAME = "variant.yaml"
#: The engine's own end conditions, always offered by the form.
BUILTIN_END_CONDITIONS = ("hand_emptied", "everyone_scouted", "opponent_stuck")
#: Plugins the form offers: installed and switched on, the engine's own rules and the do-nothing example left out
#: (docs/plugins.md: `builtin` is always in force; `noop` only measures the cost of the hooks).
_NOT_OFFERED = {"builtin", "noop"}
#: The shipped plugins in a designer's words (another plugin is shown by its own summary, in English).
PLUGIN_LABELS = {
    "runs-beat-sets": N_("With equal counts, a run beats a set"),
    "wrap-runs": N_("Runs may wrap around from the highest number to the lowest"),
}
#: The spec layer's hint after an unknown plugin: the installed plugin it may have meant, or the list of them.
_HINT = re.compile(r"^(unknown plugin .*?)(?:; did you mean '(?P<meant>[^']*)'\?| \(available: [^()]*\))$", re.S)


@dataclass(frozen=True)
class Knob:
    """One of the form's fields: a spec path, what kind of value, its label (a message id) and bounds."""

    path: str
    kind: str  # "int", "bool", "rounds", "counts", "conditions", "plugins", "text"
    label: str
    low: int = 0
    high: int = 0


#: The knobs house rules and docs/house-rules.md change most, in the form's order.
KNOBS = (
    Knob("name", "text", N_("Name")),
    Knob("players", "counts", N_("Player counts")),
    Knob("rounds.count", "rounds", N_("Rounds")),
    Knob("rounds.lowest_total_starts", "bool", N_("The player with the lowest total starts each round after the first")),
    Knob("scoring.captured_card", "int", N_("Points per captured card"), -5, 5),
    Knob("scoring.chip_received", "int", N_("Points per Scout chip received"), -5, 5),
    Knob("scoring.unspent_chip", "int", N_("Points per Scout chip still held at the end of a round"), -5, 5),
    Knob("scoring.unspent_scout_show_chip", "int", N_("Points per Scout & Show chip still held at the end of a round"), -5, 5),
    Knob("scoring.card_in_hand", "int", N_("Points per card left in hand"), -5, 5),
    Knob("scoring.exempt_last_show_owner", "bool", N_("The owner of the last show loses no points for their hand")),
    Knob("scout_and_show.chips_per_round", "int", N_("Scout & Show chips per round"), 0, 5),
    Knob("scout_chips_per_round", "int", N_("Scout chips each player takes at the start of a round"), 0, 10),
    Knob("end_conditions", "conditions", N_("A round ends when")),
    Knob("plugins", "plugins", N_("Plugins")),
)
#: The knobs a sweep may vary: the whole numbers.
SWEEPABLE = tuple(k for k in KNOBS if k.kind == "int")
ROUNDS_HIGH = 10


class TooDeep(ValueError):
    """A text nested too deeply for the YAML reader."""


class KnobRefused(ValueError):
    """A form value the lab will not write: `message` is an English message id, `fields` fill it in."""

    def __init__(self, message: str, **fields: Any):
        super().__init__(message.format(**fields))
        self.message = message
        self.fields = fields


def knob(path: str) -> Knob | None:
    return next((k for k in KNOBS if k.path == path), None)


def starter(variant: str) -> str:
    """A house rule of the shipped `variant`: the lines a designer starts from."""
    return f"schema_version: 1\nextends: {variant}\nname: my-{variant}\nkind: house\n"


def shipped_names() -> list[str]:
    return [name for name, _description in shipped_variants()]


def problem_line(problem: Problem, _: Gettext) -> str:
    """`LINE: $.path: message` as `scoutlab validate` says it, in the page's language; another file keeps its name."""
    where = problem.file if problem.file != FILENAME else ""
    if problem.line is not None:
        where = f"{where}:{problem.line}" if where else str(problem.line)
    message = translate_message(offered_only(problem.message), _)
    return f"{where}: {problem.path}: {message}" if where else f"{problem.path}: {message}"


def offered_only(message: str) -> str:
    """An unknown plugin's message pointing at the plugins the form offers, never at the engine's own rules or its
    test plugin; any other message as it is."""
    found = _HINT.match(message)
    if found is None or (found["meant"] is not None and found["meant"] not in _NOT_OFFERED):
        return message
    return f"{found.group(1)} (available: {', '.join(offered_plugins()) or 'none'})"


@cache
def _condition_descriptions() -> dict[str, str]:
    """The engine's own end conditions' descriptions (message ids in the catalogs), by name."""
    found: dict[str, str] = {}
    for conditions in make_manager([]).hook.scoutlab_end_conditions():
        found.update({name: condition.description for name, condition in (conditions or {}).items()})
    return found


def condition_label(name: str, _: Gettext) -> str | None:
    """An end condition in the page's language ("a player's hand became empty through a show"); None if not the engine's."""
    description = _condition_descriptions().get(name)
    return _(description) if description else None


def plugin_label(name: str, _: Gettext) -> tuple[str, bool]:
    """(a plugin's label, whether it is in the page's language): a shipped plugin's words, else its own English summary."""
    if name in PLUGIN_LABELS:
        return _(PLUGIN_LABELS[name]), True
    return plugin_summary(None, name) or name, False


def load(text: str) -> tuple[Rules | None, list[Problem], list[Problem]]:
    """(rules, problems, warnings) of the text, as `scoutlab validate` finds them; rules None when there are problems."""
    try:
        spec = load_spec_text(text, FILENAME)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SpecWarning)  # said with the problems instead
            rules = Rules(spec)
    except SpecError as exc:
        return None, list(exc.problems), []
    except RecursionError:  # the YAML reader recurses once per level of nesting
        raise TooDeep from None
    return rules, [], list(rules.warnings)


def knob_values(rules: Rules) -> dict[str, Any]:
    """The merged value of every knob: what the variant plays, whether the text sets it or its parent does."""
    doc = rules.spec.doc
    values: dict[str, Any] = {}
    for k in KNOBS:
        node: Any = doc
        for step in k.path.split("."):
            node = node.get(step) if isinstance(node, dict) else None
        values[k.path] = node
    conditions = values["end_conditions"] or []
    values["end_conditions"] = [c if isinstance(c, str) else c.get("name") for c in conditions]
    plugins = values["plugins"] or []
    values["plugins"] = [p if isinstance(p, str) else p.get("name") for p in plugins]
    return values


def offered_plugins() -> list[str]:
    return sorted(name for name in available_plugins() if name not in _NOT_OFFERED)


def set_knob(text: str, path: str, value: Any) -> str:
    """The text with one knob set; KnobRefused for a value the form does not offer or a text that is not a mapping."""
    found = knob(path)
    if found is None:
        raise KnobRefused(N_("There is no field called {name}."), name=sent(path))
    checked = _checked(found, value)
    if len(text.encode("utf-8", "replace")) > MAX_SPEC_BYTES:
        raise KnobRefused(N_("A variant spec may be at most {size} KB."), size=MAX_SPEC_BYTES // 1024)
    # Read first as the spec layer reads it, which stops an alias bomb: PyYAML's own load shares aliased
    # values, cheaply, but comparing two such documents below would walk every copy. A problem the reading
    # finds (a key given twice) is refused too: PyYAML's load keeps the last of two keys, and the rewrite
    # would drop the first without a word.
    source = parse(text) if text.strip() else None
    if source is not None and (source.data is None or source.findings):
        raise KnobRefused(N_("Fix the YAML first: the form can change only a text it can read."))
    try:
        doc = yaml.safe_load(text) if text.strip() else {}
    except (yaml.YAMLError, RecursionError):
        raise KnobRefused(N_("Fix the YAML first: the form can change only a text it can read.")) from None
    if not isinstance(doc, dict):
        raise KnobRefused(N_("Fix the YAML first: the form can change only a text it can read."))
    original = copy.deepcopy(doc)  # the document as written, to tell whether the value changes it
    node = doc
    steps = path.split(".")
    for step in steps[:-1]:
        if not isinstance(node.get(step), dict):
            node[step] = {}
        node = node[step]
    node[steps[-1]] = checked
    if doc != original:  # the value changes: its line is rewritten in place where that reads back right
        edited = set_in_place(text, steps, checked, doc)
        if edited is not None:
            return edited
    elif text.strip():
        return text  # nothing to change: the text stays as it was
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)


def _checked(found: Knob, value: Any) -> Any:
    """The value as the spec writes it, if it is one the field offers."""
    bad = KnobRefused(N_("That value is not one the field {name} offers."), name=found.path)
    if found.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int) or not found.low <= value <= found.high:
            raise bad
        return value
    if found.kind == "bool":
        if not isinstance(value, bool):
            raise bad
        return value
    if found.kind == "rounds":
        if value == "per_player" or (isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= ROUNDS_HIGH):
            return value
        raise bad
    if found.kind == "text":
        if not isinstance(value, str) or not 0 < len(value) <= 60 or "\n" in value:
            raise bad
        return value
    if not isinstance(value, list) or len(value) > 10 or not all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
        raise bad
    if found.kind == "counts":
        if not value or not all(isinstance(v, int) and 2 <= v <= 5 for v in value):
            raise bad
        return sorted(set(value))
    if not all(isinstance(v, str) and 0 < len(v) <= 40 for v in value):
        raise bad
    return list(dict.fromkeys(value))


def parent_of(rules: Rules, text: str) -> str:
    """The shipped variant the text extends (its diff is said against it), else the official rules."""
    try:
        doc = yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError):
        doc = None
    parent = doc.get("extends") if isinstance(doc, dict) else None
    return parent if isinstance(parent, str) and parent in shipped_names() else "official"


def differences(rules: Rules, parent: str, _: Gettext) -> list[dict[str, Any]]:
    """[{path, rule, parent, value, worded}] of every rule the variant plays differently from `parent`: a form field's
    label and values in the page's words (`worded`), any other rule by its path and values as the spec writes them."""
    rows = []
    for d in diff_specs(load_spec(parent), rules.spec):
        found = knob(d.path.removeprefix("$."))
        if found is None:
            rows.append({"path": d.path, "rule": "", "parent": _shown(d.a), "value": _shown(d.b), "worded": False})
        else:
            rows.append({"path": d.path, "rule": _(found.label), "parent": worded(found, d.a, _),
                         "value": worded(found, d.b, _), "worded": True})
    return rows


def worded(found: Knob, value: Any, _: Gettext) -> str:
    """A form field's value as the form says it: yes or no, one per player, end conditions or plugins by their labels, one a line."""
    if value is None:
        return "—"
    if found.kind == "bool" and isinstance(value, bool):
        return _("yes") if value else _("no")
    if found.kind == "rounds" and value == "per_player":
        return _("one per player")
    if found.kind in ("conditions", "plugins") and isinstance(value, list):
        names = [item if isinstance(item, str) else item.get("name") if isinstance(item, dict) else None for item in value]
        if not names:
            return "—"
        if found.kind == "conditions":
            return "\n".join(condition_label(n, _) or show_value(n) if isinstance(n, str) else show_value(n) for n in names)
        return "\n".join(_(PLUGIN_LABELS[n]) if n in PLUGIN_LABELS else show_value(n) for n in names)
    if found.kind == "counts" and isinstance(value, list):
        return ", ".join(map(show_value, value))
    return show_value(value)


def _shown(value: Any) -> str:
    return "—" if value is None else show_value(value)  # no English word for a key one side has not
