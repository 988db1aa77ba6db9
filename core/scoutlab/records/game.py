"""Game records: one finished game as versioned JSON, and replaying it to prove it is what it says.

A record holds the RESOLVED variant (so it replays even after the variant file
changes), the seed, each round's deal, every action in notation and the results.
The same variant, seed and actions always give the same bytes: keys are sorted,
separators fixed, and nothing time-dependent is stored.

`replay_record` rebuilds the rules from the embedded variant, replays the actions
from the seed and reports the FIRST place where the record and the replay part
ways, as a JSON path into the record plus a sentence.

Run `python -m scoutlab.records regenerate-playthroughs [DIR]` to rewrite the
playthrough files the tests diff (tests/playthroughs/).
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jsonschema

from scoutlab import __version__
from scoutlab.base import files
from scoutlab.base.limits import (
    MAX_RECORD_BYTES,
    MAX_SPEC_BYTES,
    InputTooLarge,
    excerpt,
    first_unshowable,
    json_mistake,
    loads_json,
    on_one_line,
    read_capped,
    unreadable,
)
from scoutlab.engine.actions import NotationError, parse_action
from scoutlab.engine.cards import format_hand
from scoutlab.engine.state import IllegalAction
from scoutlab.match import make_bots, play_game
from scoutlab.rules import Rules, load_rules
from scoutlab.spec import schema_words
from scoutlab.spec.source import JsonPath, render_path
from scoutlab.spec.variant import SpecError, load_spec_text, shipped_variants
from scoutlab.text.log import game_log, replay_steps

if TYPE_CHECKING:
    from scoutlab.engine.state import GameState, RoundEnd
    from scoutlab.rules import Rules

RECORD_VERSION = 1
RECORD_SCHEMA_ID = f"https://scoutlab.dev/schemas/record/{RECORD_VERSION}.json"
# RoundEnd fields kept in a record and compared on replay, in the order a reader would check them.
END_FIELDS = ("reason", "exempt", "scores", "captured", "chips_received", "chips_held", "cards_in_hand", "turns")
MAX_PROBLEMS = 10  # a badly broken file lists this many problems, then a count
MAX_HAND_TEXT = 120  # characters of a recorded hand quoted in a message; a dealt hand of 12 cards takes under 60
# What a record may hold, checked before anything reads it item by item: the most any variant can play
# (100 rounds, 8 seats, a turn cap of 10,000 plus each seat's keep-or-flip, a deck of 30 numbers: 465
# cards), so a 10 MB file of a million actions or cards is refused in milliseconds, not checked for a minute.
MAX_RECORD_ROUNDS = 100
MAX_RECORD_SEATS = 8
MAX_ROUND_ACTIONS = 10_000 + MAX_RECORD_SEATS
MAX_HAND_CARDS = 465
_SCHEMA_ERRORS_READ = 1000  # past this many schema errors the rest are counted as "more", not built


class RecordError(ValueError):
    """A record that cannot be read or replayed at all; the message says where and why."""


@dataclass(frozen=True)
class Divergence:
    """The first place where a record and its replay differ: a JSON path into the record and why."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


@dataclass(frozen=True)
class ReplayResult:
    """The replayed game (up to the divergence, if any) and the first divergence, or None."""

    state: GameState
    divergence: Divergence | None

    @property
    def ok(self) -> bool:
        return self.divergence is None


# --------------------------------------------------------------------------- writing


def game_record(state: GameState, bot_names: Sequence[str] = ()) -> dict[str, Any]:
    """The record of a finished game; `bot_names` says who played each seat (may be empty)."""
    if not state.is_over:
        raise ValueError(f"only a finished game has a record; this one is in round {state.round + 1} of {state.rounds}")
    format_code = state.format
    rounds = []
    for index, end in enumerate(state.round_ends):
        rounds.append({
            "deal": [format_hand(hand).split() for hand in state.deals[index]],
            "actions": [
                {"seat": seat, "action": format_code(code), "code": code}
                for round_index, seat, code in state.history
                if round_index == index
            ],
            "end": _end_fields(end),
        })
    return {
        "record_version": RECORD_VERSION,
        "scoutlab_version": __version__,
        "variant": copy.deepcopy(state.rules.spec.doc),  # the record must not share the live spec
        "players": state.players,
        "seed": state.seed,
        "bots": list(bot_names),
        "rounds": rounds,
        "totals": list(state.totals),
        "winners": state.winners(),
    }


def _end_fields(end: RoundEnd) -> dict[str, Any]:
    fields = {name: getattr(end, name) for name in END_FIELDS}
    return {name: list(value) if isinstance(value, tuple) else value for name, value in fields.items()}


def record_text(record: dict[str, Any]) -> str:
    """The canonical JSON text of a record: sorted keys, fixed separators, one trailing newline."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


def save_record(record: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """Write the record's canonical JSON to `path` (UTF-8); an OSError names the file."""
    try:
        files.write_whole(path, record_text(record))
    except OSError as exc:  # a full disk or a read-only place says nothing of which file on its own
        raise OSError(exc.errno, f"cannot write the record to {excerpt(os.fspath(path))}: {exc.strerror or exc}") from None


# --------------------------------------------------------------------------- reading


def load_record(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and check a record file; raises RecordError naming the file, the JSON path and the reason."""
    named = on_one_line(os.fspath(path))
    try:
        text = read_capped(os.fspath(path), MAX_RECORD_BYTES, "the record", encoding="utf-8-sig")  # a BOM some editors add is no reason to refuse
    except InputTooLarge as exc:
        raise RecordError(f"{named}: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{named}: {unreadable(exc, 'a record')}") from None
    return parse_record(text, os.fspath(path))


def parse_record(text: str, source: str = "<record>") -> dict[str, Any]:
    """Parse and check a record's JSON text (e.g. uploaded); raises RecordError."""
    source = on_one_line(source)
    try:
        record = loads_json(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{source}: not valid JSON: {json_mistake(exc)}") from None
    except ValueError as exc:  # too deep, or a number too long to read
        raise RecordError(f"{source}: $: {exc}") from None
    check_record(record, source)
    return record


def check_record(record: Any, source: str = "<record>") -> None:
    """Check the version and the shape against record.schema.json; raises RecordError listing the problems."""
    if isinstance(record, dict) and "record_version" in record and record["record_version"] != RECORD_VERSION:
        raise RecordError(
            f"{source}: $.record_version: this scoutlab reads record_version {RECORD_VERSION}; "
            f"the record says {excerpt(record['record_version'])}"
        )
    over = _over_bounds(record)
    if over is not None:
        raise RecordError(f"{source}: {over}")
    # The bulk (actions, dealt cards) is checked in Python; the schema reads the rest, and each doubted item alone.
    view, doubted = _schema_view(record)
    found: list[tuple[JsonPath, jsonschema.ValidationError]] = [
        ((), e) for e in islice(_validator().iter_errors(view), _SCHEMA_ERRORS_READ)]
    for prefix, item, kind in doubted:
        found += [(prefix, e) for e in _item_validator(kind).iter_errors(item)]
    # Worded as a spec's problems are (one error may name several places, e.g. each unknown key).
    said = [(prefix + path, why) for prefix, e in found for path, why in schema_words.explain(e, _record_words)]
    # In document order: array positions as numbers, so rounds[2] comes before rounds[10].
    said.sort(key=lambda pair: [(isinstance(p, str), p) for p in pair[0]])
    if said:
        problems = [f"{source}: {render_path(path)}: {why}" for path, why in said]
        raise RecordError(_listing(problems, more=len(found) >= _SCHEMA_ERRORS_READ))
    # Its names are printed: no control character may reach a terminal, no line break forge a line (its
    # variant is a spec, whose texts may run over lines as a spec file's may).
    unshown = first_unshowable({key: value for key, value in record.items() if key != "variant"}, one_line=True)
    if unshown is None and "variant" in record:
        inner = first_unshowable(record["variant"])
        unshown = None if inner is None else (("variant", *inner[0]), inner[1])
    if unshown is not None:
        where = render_path(unshown[0])
        raise RecordError(f"{source}: {where if len(where) <= 100 else where[:100] + '...'}: character {unshown[1]} "
                          "(a control character, a line break or a lone surrogate) is not allowed in a record")


def _over_bounds(record: Any) -> str | None:
    """`$.path: why` for a list longer than any game can make it (checked by length alone), else None."""
    if not isinstance(record, dict):
        return None  # the schema says what it should be
    lists: list[tuple[str, Any, int, str]] = [
        ("$.rounds", record.get("rounds"), MAX_RECORD_ROUNDS, "rounds (a variant plays at most 100)"),
        *((f"$.{key}", record.get(key), MAX_RECORD_SEATS, "entries (a game seats at most 8)") for key in ("bots", "totals", "winners")),
    ]
    rounds = record.get("rounds")
    for index, round_ in enumerate(rounds[:MAX_RECORD_ROUNDS] if isinstance(rounds, list) else []):
        if not isinstance(round_, dict):
            continue
        at = f"$.rounds[{index}]"
        lists.append((f"{at}.actions", round_.get("actions"), MAX_ROUND_ACTIONS,
                      "actions (a round ends at 10,000 turns, after each seat's keep or flip)"))
        deal = round_.get("deal")
        lists.append((f"{at}.deal", deal, MAX_RECORD_SEATS, "hands (a game seats at most 8)"))
        for seat, hand in enumerate(deal[:MAX_RECORD_SEATS] if isinstance(deal, list) else []):
            lists.append((f"{at}.deal[{seat}]", hand, MAX_HAND_CARDS, "cards (the largest deck has 465)"))
        end = round_.get("end")
        for key, value in (end.items() if isinstance(end, dict) else ()):
            lists.append((f"{at}.end.{excerpt(key)[1:-1]}", value, MAX_RECORD_SEATS, "entries (a game seats at most 8)"))
    for path, value, limit, what in lists:
        if isinstance(value, list) and len(value) > limit:
            return f"{path}: {len(value):,} {what.split(' (')[0]}, more than the limit of {limit:,} {what}"
    return None


_CARD = re.compile(r"[0-9]+/[0-9]+")


def _action_ok(action: Any) -> bool:
    """Whether an action entry is certainly what the schema asks (checked in Python: a hundred times faster)."""
    if not isinstance(action, dict) or not {"seat", "action"} <= action.keys() <= {"seat", "action", "code"}:
        return False
    seat, text, code = action["seat"], action["action"], action.get("code", 0)
    most_seat, most_code = _action_bounds()
    return (type(seat) is int and 0 <= seat <= most_seat and type(text) is str and text != ""
            and type(code) is int and 0 <= code <= most_code)


@functools.cache
def _action_bounds() -> tuple[int, int]:
    """The highest seat and action code the record schema allows: read from it, so the fast check never drifts."""
    defs = record_schema()["$defs"]
    return defs["seat"]["maximum"], defs["action"]["properties"]["code"]["maximum"]


def _schema_view(record: Any) -> tuple[Any, list[tuple[tuple[Any, ...], Any, str]]]:
    """The record as the schema needs to see it, and the items it must check one by one.

    Each round's actions and each dealt hand are checked in Python (the schema takes about 40 us an
    action: a minute for a 10 MB file); in the view they are empty lists, and the items the Python check
    doubts, at most _SCHEMA_ERRORS_READ of them, come back with their paths for the schema to word.
    """
    doubted: list[tuple[tuple[Any, ...], Any, str]] = []
    if not isinstance(record, dict) or not isinstance(record.get("rounds"), list):
        return record, doubted

    def sift(items: list[Any], at: tuple[Any, ...], ok: Callable[[Any], bool], kind: str) -> list[Any]:
        for index, item in enumerate(items):
            if len(doubted) >= _SCHEMA_ERRORS_READ:
                break
            if not ok(item):
                doubted.append(((*at, index), item, kind))
        return []

    rounds = []
    for number, round_ in enumerate(record["rounds"]):
        if isinstance(round_, dict):
            round_ = dict(round_)
            if isinstance(round_.get("actions"), list):
                round_["actions"] = sift(round_["actions"], ("rounds", number, "actions"), _action_ok, "action")
            if isinstance(round_.get("deal"), list):
                round_["deal"] = [sift(hand, ("rounds", number, "deal", seat), _card_ok, "card") if isinstance(hand, list) else hand
                                  for seat, hand in enumerate(round_["deal"])]
        rounds.append(round_)
    return {**record, "rounds": rounds}, doubted


@functools.cache
def _item_validator(kind: str) -> jsonschema.protocols.Validator:
    """A validator of one `$defs` entry of the record schema (an action, a card), its references resolved."""
    schema = record_schema()
    return schema_words.validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{kind}"})


def _card_ok(card: Any) -> bool:
    return type(card) is str and _CARD.fullmatch(card) is not None


def record_schema() -> dict[str, Any]:
    """The record JSON Schema (2020-12)."""
    return json.loads(resources.files("scoutlab.schemas").joinpath("record.schema.json").read_text("utf-8"))


@functools.cache
def _validator() -> jsonschema.protocols.Validator:
    return schema_words.validator(record_schema())  # 4.0 is no seat count: only a true int is an integer


def _record_words(error: jsonschema.ValidationError, path: JsonPath) -> list[schema_words.Finding] | None:
    """Where a record's problem is worded otherwise than a spec's: bounds with their thousands, and a value that fits
    none of a field's forms, by the field's description."""
    kind: Any = error.validator
    expected: Any = error.validator_value
    if kind in ("minimum", "maximum"):
        return [(path, f"must be at {'least' if kind == 'minimum' else 'most'} {expected:,}, got {excerpt(error.instance)}")]
    if kind == "anyOf" and isinstance(error.schema, dict):
        return [(path, f"{excerpt(error.instance)} is not allowed here ({error.schema.get('description', 'see the schema')})")]
    return None


def _listing(problems: list[str], more: bool = False) -> str:
    shown = problems[:MAX_PROBLEMS]
    if len(problems) > MAX_PROBLEMS:
        shown.append(f"... and {'at least ' if more else ''}{len(problems) - MAX_PROBLEMS} more problems")
    return "\n".join(shown)


# --------------------------------------------------------------------------- replaying


def rules_from_record(record: dict[str, Any], source: str = "<record>") -> Rules:
    """Compile the record's embedded variant; a variant this scoutlab cannot play raises RecordError."""

    variant_json = json.dumps(record["variant"], sort_keys=True)
    if len(variant_json) > MAX_SPEC_BYTES:  # refused before it is turned into YAML, which costs seconds a megabyte
        raise RecordError(f"{source}: $.variant: {len(variant_json):,} characters of JSON, more than a spec's limit of 1 MB")
    try:
        return _compiled(variant_json)
    except SpecError as exc:
        problems = [f"{source}: $.variant{p.path[1:]}: {p.message}" for p in exc.problems]
        raise RecordError(_listing(problems)) from None


@functools.lru_cache(maxsize=16)  # Rules are read-only, so games of one variant share them
def _compiled(variant_json: str) -> Rules:
    import yaml


    return Rules(load_spec_text(yaml.safe_dump(json.loads(variant_json)), filename="variant"))


def replay_record(record: dict[str, Any], source: str = "<record>") -> ReplayResult:
    """Replay a record from its seed and compare every deal, action and result.

    Raises RecordError when the record cannot be replayed at all (bad shape, unplayable
    variant or player count); otherwise returns the first divergence, if any.
    """
    check_record(record, source)
    rules = rules_from_record(record, source)
    players = record["players"]
    if players not in rules.players:
        allowed = ", ".join(map(str, rules.players))
        raise RecordError(f"{source}: $.players: variant {rules.name!r} is for {allowed} players, not {excerpt(players)}")
    state = rules.new_game(players, record["seed"])
    return ReplayResult(state, _first_divergence(state, record))


def _first_divergence(state: GameState, record: dict[str, Any]) -> Divergence | None:
    """Play the record's actions into `state`, stopping at the first difference."""
    for index, recorded in enumerate(record["rounds"]):
        at = f"$.rounds[{index}]"
        if state.is_over:
            return Divergence(at, f"the record has {len(record['rounds'])} rounds, but the game ended after {index}")
        found = _deal_divergence(state, recorded["deal"], at, index) or _actions_divergence(state, recorded["actions"], at, index)
        if found:
            return found
        end = state.round_ends[index]
        found = _end_divergence(end, recorded["end"], f"{at}.end", index)
        if found:
            return found
    if not state.is_over:
        return Divergence(
            "$.rounds",
            f"the record stops after round {len(record['rounds'])}, but the game has {state.rounds} rounds (missing rounds)",
        )
    if record["totals"] != state.totals:
        return Divergence("$.totals", f"final totals: the record has {_shown('totals', record['totals'])}, the replay {_shown('totals', state.totals)}")
    if record["winners"] != state.winners():
        return Divergence("$.winners", f"winners: the record has {_shown('winners', record['winners'])}, the replay {_shown('winners', state.winners())}")
    return None


def _hand_text(cards: list[str]) -> str:
    """A recorded hand for a message: as written when it is a hand's length, else an excerpt (a card may be any string)."""
    text = " ".join(cards)
    return text if len(text) <= MAX_HAND_TEXT else excerpt(text, MAX_HAND_TEXT)


def _deal_divergence(state: GameState, deal: list[list[str]], at: str, index: int) -> Divergence | None:
    dealt = state.deals[index]
    if len(deal) != len(dealt):
        return Divergence(f"{at}.deal", f"round {index + 1}: the record deals {len(deal)} hands, but there are {len(dealt)} seats")
    for seat, (recorded, hand) in enumerate(zip(deal, dealt)):
        replayed = format_hand(hand).split()
        if recorded != replayed:
            # Point at the first card that differs (or the hand, when only the length does).
            first = next((i for i, (a, b) in enumerate(zip(recorded, replayed)) if a != b), None)
            where = f"{at}.deal[{seat}]" if first is None else f"{at}.deal[{seat}][{first}]"
            return Divergence(
                where,
                f"round {index + 1}: P{seat + 1}'s hand as dealt differs: the record has {_hand_text(recorded)}, "
                f"seed {excerpt(state.seed)} deals {' '.join(replayed)}",
            )
    return None


def _actions_divergence(state: GameState, actions: list[dict[str, Any]], at: str, index: int) -> Divergence | None:

    for k, recorded in enumerate(actions):
        where = f"{at}.actions[{k}]"
        said = f"round {index + 1}, action {k + 1} (P{recorded['seat'] + 1} {excerpt(recorded['action'])})"
        if len(state.round_ends) > index:
            reason = state.round_ends[index].reason
            return Divergence(
                where,
                f"{said}: the round already ended after action {k} ({reason}); "
                f"the record has {len(actions) - k} extra action{'s' * (len(actions) - k != 1)}",
            )
        if recorded["seat"] != state.to_act:
            return Divergence(f"{where}.seat", f"{said}: it is P{state.to_act + 1}'s turn, not P{recorded['seat'] + 1}'s")
        try:
            code = state.rules.codec.encode(parse_action(recorded["action"]))
        except NotationError as exc:
            return Divergence(f"{where}.action", f"{said}: {exc}")
        if "code" in recorded and recorded["code"] != code:
            return Divergence(f"{where}.code", f"{said}: code {recorded['code']} is not this action, whose code is {code}")
        try:
            state.apply(code)
        except IllegalAction as exc:
            return Divergence(f"{where}.action", f"{said} is illegal here: {exc}")
    if len(state.round_ends) <= index:
        return Divergence(
            f"{at}.actions",
            f"round {index + 1}: the record's actions stop after {len(actions)}, but the round goes on "
            f"(P{state.to_act + 1} to act): missing actions",
        )
    return None


END_LABELS = {
    "reason": "end reason",
    "exempt": "seat spared the hand penalty",
    "scores": "scores",
    "captured": "captured cards",
    "chips_received": "Scout chips received",
    "chips_held": "Scout chips held",
    "cards_in_hand": "cards left in hand",
    "turns": "number of turns",
}


def _end_divergence(end: RoundEnd, recorded: dict[str, Any], at: str, index: int) -> Divergence | None:
    replayed = _end_fields(end)
    for name in END_FIELDS:
        if recorded[name] != replayed[name]:
            return Divergence(
                f"{at}.{name}",
                f"round {index + 1} {END_LABELS[name]}: the record has {_shown(name, recorded[name])}, "
                f"the replay {_shown(name, replayed[name])}",
            )
    return None


def _shown(name: str, value: Any) -> str:
    if name == "exempt":
        return "nobody" if value is None else f"P{value + 1}"
    if name == "winners":
        return " ".join(f"P{seat + 1}" for seat in value)
    return " ".join(map(str, value)) if isinstance(value, list) else str(value)


# --------------------------------------------------------------------------- playthroughs

PLAYTHROUGH_SEED = 2024
PLAYTHROUGH_DIR = Path("tests") / "playthroughs"
PLAYTHROUGH_ROW = 20  # legal-action counts per line


def playthrough_targets() -> list[tuple[str, int]]:
    """(variant, players) for every shipped variant and each player count it allows."""

    return [(name, n) for name, _ in shipped_variants() for n in load_rules(name).players]


def playthrough_name(variant: str, players: int) -> str:
    return f"{variant}-{players}p.txt"


def playthrough(variant: str, players: int, seed: int = PLAYTHROUGH_SEED) -> str:
    """A fixed game between random bots, action by action, then the legal-action count before each action.

    The counts are the perft of this project: a rule change that alters what is legal
    shows up here even where the random bots happen to choose the same moves.
    """

    rules = load_rules(variant)
    bots = make_bots(["random"], rules, players, seed)
    state = play_game(rules, players, bots, seed)
    lines = [
        f"# playthrough: variant {variant}, {players} players, seed {seed}, random bots",
        "# regenerate on purpose with: python -m scoutlab.records regenerate-playthroughs",
    ]
    lines += game_log(state, [bot.name for bot in bots])
    lines.append("Legal actions before each action, by round:")
    counts: dict[int, list[str]] = {}
    for before, _ in replay_steps(state):
        counts.setdefault(before.round, []).append(str(len(before.legal_actions())))
    for round_index, row in counts.items():
        for first in range(0, len(row), PLAYTHROUGH_ROW):  # short lines keep a diff small
            chunk = row[first:first + PLAYTHROUGH_ROW]
            lines.append(f"  round {round_index + 1}, actions {first + 1}-{first + len(chunk)}: {' '.join(chunk)}")
    return "\n".join(lines) + "\n"


def regenerate_playthroughs(directory: str | os.PathLike[str] = PLAYTHROUGH_DIR) -> tuple[list[Path], list[Path]]:
    """Rewrite every playthrough file in `directory` and delete those of variants no longer shipped.

    Returns (files written, files removed).
    """
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for variant, players in playthrough_targets():
        path = folder / playthrough_name(variant, players)
        path.write_text(playthrough(variant, players), encoding="utf-8")
        written.append(path)
    stale = [path for path in sorted(folder.glob("*p.txt")) if path not in written]
    for path in stale:
        path.unlink()
    return written, stale


def main(argv: Iterable[str] | None = None) -> int:
    """`python -m scoutlab.records regenerate-playthroughs [DIR]`."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] != "regenerate-playthroughs" or len(args) > 2:
        print("usage: python -m scoutlab.records regenerate-playthroughs [DIR]  (default DIR: tests/playthroughs)", file=sys.stderr)
        return 2
    if len(args) == 1 and not PLAYTHROUGH_DIR.is_dir():  # a typo'd cwd must not scatter files
        print(f"no {PLAYTHROUGH_DIR} here: run this from the repository root, or name the folder", file=sys.stderr)
        return 1
    written, removed = regenerate_playthroughs(args[1] if len(args) == 2 else PLAYTHROUGH_DIR)
    for path in written:
        print(f"wrote {path}")
    for path in removed:
        print(f"removed {path} (no such shipped variant and player count)")
    return 0

