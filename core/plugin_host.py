"""Finding plugins (the `scoutlab` entry-point group) and building a plugin manager for one spec.

The built-in rules are always registered first, under the name `builtin`; a spec's
plugins come after, each made with its own config. SCOUTLAB_BLOCK_PLUGINS (names,
comma-separated) switches plugins off, so a broken one can be set aside without
uninstalling it.
"""

from __future__ import annotations

import difflib
import os
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import pluggy

from . import builtin, hookspecs

GROUP = "scoutlab"


class PluginError(Exception):
    """A plugin that cannot be found, loaded or configured."""


def available_plugins() -> dict[str, EntryPoint]:
    """Every installed plugin by name, minus those blocked by SCOUTLAB_BLOCK_PLUGINS."""
    blocked = blocked_plugins()
    return {ep.name: ep for ep in entry_points(group=GROUP) if ep.name not in blocked}


def blocked_plugins() -> set[str]:
    return {n.strip() for n in os.environ.get("SCOUTLAB_BLOCK_PLUGINS", "").split(",") if n.strip()}


def plugin_ref(item: str | dict) -> tuple[str, dict[str, Any]]:
    """A spec's plugin entry (a name, or {name, config}) as (name, config)."""
    if isinstance(item, str):
        return item, {}
    return item["name"], dict(item.get("config") or {})


def unknown_plugin_message(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown plugin {name!r}{hint} (installed: {', '.join(sorted(known)) or 'none'})"


def load_plugin(name: str, config: dict[str, Any]) -> object:
    """Load a plugin by name and apply its config through its `make_plugin(config)` factory, if any."""
    found = available_plugins()
    if name not in found:
        raise PluginError(unknown_plugin_message(name, list(found)))
    try:
        obj = found[name].load()
    except Exception as exc:  # a broken plugin must not take the program down with a traceback
        raise PluginError(f"plugin {name!r} failed to load: {exc}") from exc
    factory = getattr(obj, "make_plugin", None)
    if factory is not None:
        try:
            return factory(config)
        except Exception as exc:
            raise PluginError(f"plugin {name!r} rejected its config {config!r}: {exc}") from exc
    if config:
        raise PluginError(f"plugin {name!r} takes no config, but the spec gives {config!r}")
    return obj


def make_manager(plugins: list[str | dict]) -> pluggy.PluginManager:
    """A plugin manager with the built-in rules and the spec's plugins, in the spec's order."""
    pm = pluggy.PluginManager(GROUP)
    pm.add_hookspecs(hookspecs)
    pm.register(builtin, name="builtin")
    for item in plugins:
        name, config = plugin_ref(item)
        if name == "builtin":
            continue
        pm.register(load_plugin(name, config), name=name)
    return pm


def implementers(pm: pluggy.PluginManager, hook_name: str) -> list[str]:
    """Names of the plugins implementing a hook, the built-in rules included."""
    return [impl.plugin_name for impl in getattr(pm.hook, hook_name).get_hookimpls()]


def bot_factories() -> dict[str, object]:
    """Bots offered by installed plugins through the scoutlab_bots hook."""
    pm = pluggy.PluginManager(GROUP)
    pm.add_hookspecs(hookspecs)
    for name, ep in available_plugins().items():
        if name == "builtin":
            continue
        try:
            pm.register(ep.load(), name=name)
        except Exception:
            continue  # a plugin that fails to load offers no bots; the rules path reports it
    found: dict[str, object] = {}
    for offered in pm.hook.scoutlab_bots():
        found.update(offered or {})
    return found
