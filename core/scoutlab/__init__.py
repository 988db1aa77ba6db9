"""scoutlab: the card game SCOUT with its rules as data.

The front door for plugin and bot authors: `from scoutlab import GameState, hookimpl, load_rules`.
Each name here has one home module (docs/api.md lists them); importing `scoutlab` loads none of
them until a name is asked for, so the engine's own imports stay cheap.

The package is in layers, each importing only the ones below it (docs/architecture.md):
base (shared values and errors) < engine (cards, actions, state) < host (plugins) < spec
(variant files) < rules (the compiler) < text (words for people) < the clients: records,
bots, match, protocol, play, web, sim, rl, testing, commands and cli.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# The front door's names by home module; tests/test_public_api.py checks this table against the imports
# under TYPE_CHECKING (what type checkers and editors read) and against docs/api.md.
HOMES: dict[str, tuple[str, ...]] = {
    "scoutlab.host.hookspecs": ("hookimpl", "hookspec"),
    "scoutlab.base.values": ("RoundEnd", "View", "ShowInfo", "EndCondition", "RoundFacts", "Move"),
    "scoutlab.base.errors": ("IllegalAction", "NotationError", "PluginError", "HookError", "SpecError", "SpecWarning",
                             "Problem", "BotError"),
    "scoutlab.rules": ("Rules", "load_rules"),
    "scoutlab.engine.state": ("GameState",),
    "scoutlab.engine.actions": ("Flip", "Show", "Scout", "ScoutShow", "Codec", "parse_action", "format_action"),
    "scoutlab.engine.cards": ("card", "top", "bottom", "flipped", "format_card", "parse_card", "format_hand", "parse_hand"),
    "scoutlab.engine.events": ("Event", "action_event", "game_event"),
    "scoutlab.engine.shows": ("builtin_kind", "builtin_key"),
    "scoutlab.engine.explain": ("why_illegal", "why_illegal_action", "reason", "describe_show", "end_reason"),
    "scoutlab.host.manager": ("installed_plugins", "available_plugins", "refresh", "make_manager", "plugin_summary"),
    "scoutlab.spec": ("load_spec", "load_spec_text", "Spec", "shipped_variants", "validate_paths"),
    "scoutlab.spec.diff": ("diff_specs", "Difference"),
    "scoutlab.records": ("game_record", "save_record", "load_record", "replay_record", "RecordError"),
    "scoutlab.records.position": ("load_position", "position_from_data", "dump_position", "PositionError"),
    "scoutlab.bots": ("Bot", "RandomBot", "make_bot", "known_bots", "split_bots"),
    "scoutlab.match": ("make_bots", "play_game", "bot_seed"),
}
_HOME_OF = {name: module for module, names in HOMES.items() for name in names}
__all__ = sorted(_HOME_OF)  # noqa: PLE0605 (from HOMES; type checkers read the re-exports below)

if TYPE_CHECKING:  # `X as X`: an explicit re-export, for mypy --strict and editors
    from scoutlab.base.errors import (
        BotError as BotError,
        HookError as HookError,
        IllegalAction as IllegalAction,
        NotationError as NotationError,
        PluginError as PluginError,
        Problem as Problem,
        SpecError as SpecError,
        SpecWarning as SpecWarning,
    )
    from scoutlab.base.values import (
        EndCondition as EndCondition,
        Move as Move,
        RoundEnd as RoundEnd,
        RoundFacts as RoundFacts,
        ShowInfo as ShowInfo,
        View as View,
    )
    from scoutlab.bots import (
        Bot as Bot,
        RandomBot as RandomBot,
        known_bots as known_bots,
        make_bot as make_bot,
        split_bots as split_bots,
    )
    from scoutlab.engine.actions import (
        Codec as Codec,
        Flip as Flip,
        Scout as Scout,
        ScoutShow as ScoutShow,
        Show as Show,
        format_action as format_action,
        parse_action as parse_action,
    )
    from scoutlab.engine.cards import (
        bottom as bottom,
        card as card,
        flipped as flipped,
        format_card as format_card,
        format_hand as format_hand,
        parse_card as parse_card,
        parse_hand as parse_hand,
        top as top,
    )
    from scoutlab.engine.events import Event as Event, action_event as action_event, game_event as game_event
    from scoutlab.engine.explain import (
        describe_show as describe_show,
        end_reason as end_reason,
        reason as reason,
        why_illegal as why_illegal,
        why_illegal_action as why_illegal_action,
    )
    from scoutlab.engine.shows import builtin_key as builtin_key, builtin_kind as builtin_kind
    from scoutlab.engine.state import GameState as GameState
    from scoutlab.host.hookspecs import hookimpl as hookimpl, hookspec as hookspec
    from scoutlab.host.manager import (
        available_plugins as available_plugins,
        installed_plugins as installed_plugins,
        make_manager as make_manager,
        plugin_summary as plugin_summary,
        refresh as refresh,
    )
    from scoutlab.match import bot_seed as bot_seed, make_bots as make_bots, play_game as play_game
    from scoutlab.records import (
        RecordError as RecordError,
        game_record as game_record,
        load_record as load_record,
        replay_record as replay_record,
        save_record as save_record,
    )
    from scoutlab.records.position import (
        PositionError as PositionError,
        dump_position as dump_position,
        load_position as load_position,
        position_from_data as position_from_data,
    )
    from scoutlab.rules import Rules as Rules, load_rules as load_rules
    from scoutlab.spec import (
        Spec as Spec,
        load_spec as load_spec,
        load_spec_text as load_spec_text,
        shipped_variants as shipped_variants,
        validate_paths as validate_paths,
    )
    from scoutlab.spec.diff import Difference as Difference, diff_specs as diff_specs


def __getattr__(name: str) -> Any:
    """Import a front-door name from its home on first use (PEP 562)."""
    home = _HOME_OF.get(name)
    if home is None:
        raise AttributeError(f"module 'scoutlab' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
