"""List the installed plugins (entry-point group `scoutlab`): the distribution and version that
provides each, whether it is on, and the hooks it implements.

SCOUTLAB_BLOCK_PLUGINS (names, separated by commas or spaces) switches plugins off; SCOUTLAB_PLUGINS, when
set, leaves only the plugins it names on (`builtin`, the official rules, is always on).
Switched-off plugins are listed but not loaded. Exit code 1 when an enabled plugin fails to
load, implements a hook that does not exist, or offers bots through a hook that fails.
"""

from __future__ import annotations

import argparse
import difflib
import types

import pluggy

from scoutlab.base.limits import excerpt
from scoutlab.host import hookspecs, manager as plugin_host

help = "list installed plugins, their versions, hooks, and which are blocked"

PREFIX = "scoutlab_"
# "on" read as "in force"; a plugin is in force only where a spec lists it, so say what is true.
ALWAYS, ALLOWED = "always", "allowed"
LEGEND = """\
always: the official rules, in force in every spec.
allowed: a spec may put it in force by listing it under `plugins`.
blocked, not selected: switched off by SCOUTLAB_BLOCK_PLUGINS, or left out of SCOUTLAB_PLUGINS."""
HOOK_ORDER = [name for name in vars(hookspecs) if name.startswith(PREFIX)]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def plugin_hooks(plugin: object) -> list[str]:
    """The hooks a plugin implements, short names in hookspec order; misspelt ones keep their full name.

    A plugin made by `make_plugin(config)` is asked with an empty config; if that config is
    refused, the hook methods of the classes its module defines are listed instead.
    """
    candidates = [plugin]
    factory = getattr(plugin, "make_plugin", None)
    if factory is not None:
        try:
            candidates.append(factory({}))
        except Exception:
            module = plugin if isinstance(plugin, types.ModuleType) else None
            candidates += [v for v in vars(module).values() if isinstance(v, type)] if module else []
    marker = pluggy.PluginManager(plugin_host.GROUP)
    found = {name for c in candidates for name in dir(c) if marker.parse_hookimpl_opts(c, name) is not None}
    known = [name[len(PREFIX):] for name in HOOK_ORDER if name in found]
    return known + sorted(name for name in found if name not in HOOK_ORDER)


def describe(name: str, entry_point, bots_failure: str | None = None) -> tuple[str, str, str, bool]:
    """(provided by, status, hooks, healthy) for one installed plugin; `bots_failure`: why its bots are not offered."""
    dist = getattr(entry_point, "dist", None)
    provider = f"{dist.name} {dist.version}" if dist is not None else "(not installed)"
    if plugin_host.switched_off(name):
        status = "blocked" if name in plugin_host.blocked_plugins() else "not selected"
        return provider, status, "-", True
    try:
        hooks = plugin_hooks(entry_point.load())
    except Exception as exc:  # the listing is where a broken plugin should show up, not crash
        return provider, ALLOWED, f"failed to load: {type(exc).__name__}: {exc}", False
    unknown = [hook for hook in hooks if hook.startswith(PREFIX)]
    text = ", ".join(hooks) or "(no hooks)"
    if unknown:
        text += f"  (not scoutlab hooks: {', '.join(unknown)})"
    if bots_failure:  # every command that makes a bot goes on without its bots: this is where it shows
        text += f"  (offers no bots: {bots_failure})"
    return provider, ALWAYS if name == "builtin" else ALLOWED, text, not unknown and not bots_failure


def run(args: argparse.Namespace) -> int:
    bots_failures = plugin_host.plugin_bots().failures
    described = {name: describe(name, ep, bots_failures.get(name)) for name, ep in sorted(plugin_host.installed_plugins().items())}
    rows = [("plugin", "provided by", "status", "hooks")] + [(name, *found[:3]) for name, found in described.items()]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[3])
    print(f"\n{LEGEND}")
    for variable, name in plugin_host.unknown_names():  # a misspelt name switches nothing off, and said nothing
        hint = difflib.get_close_matches(name.lower(), list(described), n=1, cutoff=0.5)
        print(f"{variable} names {excerpt(name)}, which is no installed plugin"
              + (f"; did you mean {hint[0]!r}?" if hint else ""))
    return 0 if all(healthy for *_, healthy in described.values()) else 1
