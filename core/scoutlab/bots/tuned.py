"""Weights tuned for one variant and player count, found by the rules they were tuned on.

`scoutlab tune SPEC` fits the skilled bot's weights to a variant by self-play
(scoutlab.sim.tune) and keeps them here, under the digest of the compiled rules'
play (`play_digest`: everything in the merged spec that changes a game, so renaming a
variant or rewording its description keeps its tuning, and any change of a rule
drops it). Two places are read, the first that has the digest wins:

  - the user's cache, one JSON file per digest and player count, in
    `$SCOUTLAB_CACHE_DIR/tuned` (default `$XDG_CACHE_HOME/scoutlab/tuned`, or
    `~/.cache/scoutlab/tuned`);
  - the weights shipped with scoutlab for the shipped variants (tuned_weights.json).

The official game (3-5 players) and the official two-player game need no entry: the
default weights (skilled_weights.json) were tuned on them (skilled.tuning).
A cached file that cannot be read as tuned weights is passed over, as if absent.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import weakref
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scoutlab.base import files
from scoutlab.base.limits import on_one_line
from scoutlab.spec.variant import without_defaults

if TYPE_CHECKING:
    from scoutlab.rules import Rules

#: Bumped when the move scoring changes what a weight means: older tunings are then passed over.
FORMAT = 2
SHIPPED_FILE = "tuned_weights.json"
#: A tuned-weights file is a few hundred bytes; anything much larger is not one.
MAX_FILE_BYTES = 65_536
#: What a spec says that no game can see.
NOT_PLAYED = ("name", "title", "description", "kind", "extends", "schema_version")

_digests: weakref.WeakKeyDictionary[Rules, str] = weakref.WeakKeyDictionary()
_remembered: dict[tuple[str, int], Tuned] = {}


@dataclass(frozen=True)
class Tuned:
    """Weights fitted to one variant at one player count, and how."""

    variant: str  # the variant's name when it was tuned (for people; the digest is what matches)
    players: int
    digest: str
    weights: dict[str, float]
    method: str  # how it was tuned, in a line
    result: str  # what the tuned weights won against the untuned ones, in a line
    format: int = FORMAT


def play_digest(rules: Rules) -> str:
    """The SHA-256 of everything in the rules' merged spec that a game can see (cached per rules object).

    Values at their schema default are left out: a knob added later, at a default that keeps the old game,
    leaves every tuning's digest as it was."""
    found = _digests.get(rules)
    if found is None:
        played = {key: value for key, value in without_defaults(rules.spec.doc).items() if key not in NOT_PLAYED}
        text = json.dumps(played, sort_keys=True, separators=(",", ":"))
        found = _digests[rules] = hashlib.sha256(text.encode()).hexdigest()
    return found


def cache_dir() -> Path:
    """Where `scoutlab tune` keeps what it tuned."""
    root = os.environ.get("SCOUTLAB_CACHE_DIR")
    if root:
        return Path(root) / "tuned"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "scoutlab" / "tuned"


def cache_path(digest: str, players: int) -> Path:
    return cache_dir() / f"{digest}-{players}.json"


def find(rules: Rules, players: int, remembered: bool = True) -> Tuned | None:
    """The weights tuned for these rules at this player count: a run's (`remember`, unless `remembered` is False),
    the user's, else the shipped ones; None if none."""
    digest = play_digest(rules)
    key = (digest, players)
    if remembered and key in _remembered:
        return _remembered[key]
    cached = _read(cache_path(digest, players))
    if cached is not None and cached.digest == digest and cached.players == players:
        return cached
    return _shipped().get(key)


def remember(found: Tuned) -> None:
    """Play `found` in this process whatever the cache holds: a simulation's workers get the weights their parent
    found, so a run plays the same weights on every worker and machine (a Ray node has no cache of its own)."""
    _remembered[(found.digest, found.players)] = found


def forget(digest: str, players: int) -> None:
    """Drop what `remember` kept for these rules and count: a later run in the same process found none."""
    _remembered.pop((digest, players), None)



def save(tuned: Tuned) -> Path:
    """Keep `tuned` in the user's cache, replacing any earlier tuning of the same rules and count (atomically)."""
    path = cache_path(tuned.digest, tuned.players)
    path.parent.mkdir(parents=True, exist_ok=True)
    files.write_whole(path, json.dumps(asdict(tuned), indent=2) + "\n")
    return path


def check_cache(keys: Iterable[tuple[str, int]] = ()) -> None:
    """Refuse, before a tuning's minutes, a cache where what it finds could not be kept, folder or file (each of `keys`,
    a digest and a player count); ValueError in one line."""
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        files.probe_folder(folder)
    except OSError as exc:
        raise ValueError(f"cannot keep tunings in {on_one_line(str(folder))}: {exc.strerror or exc}; set "
                         "SCOUTLAB_CACHE_DIR to a folder that can hold files") from None
    for digest, players in keys:
        path = cache_path(digest, players)
        if path.exists() and not path.is_file():  # a folder or a pipe where the file goes
            raise ValueError(f"cannot keep the tuning in {on_one_line(str(path))}: something other than a file is "
                             "there; remove it or set SCOUTLAB_CACHE_DIR to another folder")


def parse(doc: Any) -> Tuned | None:
    """A Tuned from its JSON form, or None if it is not one of this format (bad types, non-finite weights)."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        return None
    weights = doc.get("weights")
    if not isinstance(weights, dict) or not all(
            isinstance(k, str) and isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
            for k, v in weights.items()):
        return None
    fields = {"variant": str, "digest": str, "method": str, "result": str, "players": int}
    if not all(isinstance(doc.get(key), kind) and not isinstance(doc.get(key), bool) for key, kind in fields.items()):
        return None
    return Tuned(doc["variant"], doc["players"], doc["digest"], {k: float(v) for k, v in weights.items()},
                 doc["method"], doc["result"])


def _read(path: Path) -> Tuned | None:
    try:
        if not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
            return None
        return parse(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return None


_shipped_entries: dict[tuple[str, int], Tuned] | None = None


def _shipped() -> dict[tuple[str, int], Tuned]:
    global _shipped_entries
    if _shipped_entries is None:
        doc = json.loads(resources.files(__package__).joinpath(SHIPPED_FILE).read_text(encoding="utf-8"))
        entries = [parse(entry) for entry in doc["tuned"]]
        _shipped_entries = {(t.digest, t.players): t for t in entries if t is not None}
    return _shipped_entries
