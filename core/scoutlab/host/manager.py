"""Finding plugins (the `scoutlab` entry-point group) and building a plugin manager for one spec.

The built-in rules are always registered first, under the name `builtin`; a spec's
plugins come after, each made with its own config. SCOUTLAB_BLOCK_PLUGINS (names,
separated by commas or spaces) switches plugins off, so a broken one can be set aside without
uninstalling it; SCOUTLAB_PLUGINS (names, likewise), when set, allows only those.
Every plugin but `builtin` is guarded (hookguard.py): a hook that raises or answers
with the wrong kind of value is reported by plugin name.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import os
import types
from importlib.metadata import EntryPoint, entry_points
from typing import Any, NamedTuple

import pluggy

from scoutlab.base.errors import PLUGIN_FAILURES, HookError, PluginError
from scoutlab.base.limits import cut, excerpt, on_one_line
from scoutlab.host import builtin, hookspecs
from scoutlab.host.guard import guard

GROUP = "scoutlab"


def installed_plugins() -> dict[str, EntryPoint]:
    """Every installed plugin by name, switched off or not."""
    return dict(_entry_points())


@functools.lru_cache(maxsize=1)
def _entry_points() -> tuple[tuple[str, EntryPoint], ...]:
    # Reading every distribution's metadata takes milliseconds, and bots and rules ask often:
    # read it once per process (`refresh()` reads it again, e.g. after installing a plugin).
    return tuple((ep.name, ep) for ep in entry_points(group=GROUP))


def refresh() -> None:
    """Forget what was read of the installed plugins, so the next question reads it again."""
    _entry_points.cache_clear()


def available_plugins() -> dict[str, EntryPoint]:
    """Every installed plugin by name that SCOUTLAB_BLOCK_PLUGINS and SCOUTLAB_PLUGINS leave on."""
    return {name: ep for name, ep in installed_plugins().items() if switched_off(name) is None}


def _names(variable: str) -> set[str]:
    """The names a variable lists, separated by commas or white space (a list written one name a line too)."""
    return set(os.environ.get(variable, "").replace(",", " ").split())


def unknown_names() -> list[tuple[str, str]]:
    """(variable, name) for each name SCOUTLAB_BLOCK_PLUGINS or SCOUTLAB_PLUGINS gives that no installed plugin has."""
    installed = set(installed_plugins())
    return [(variable, name) for variable in ("SCOUTLAB_BLOCK_PLUGINS", "SCOUTLAB_PLUGINS")
            for name in sorted(_names(variable)) if name not in installed]


def blocked_plugins() -> set[str]:
    return _names("SCOUTLAB_BLOCK_PLUGINS")


def selected_plugins() -> set[str] | None:
    """The names in SCOUTLAB_PLUGINS, or None when it is unset or empty: then any plugin may be used."""
    return _names("SCOUTLAB_PLUGINS") or None


def switched_off(name: str) -> str | None:
    """Why the environment switches this plugin off, or None when it is on. `builtin` is always on."""
    if name == "builtin":
        return None
    if name in blocked_plugins():
        return "blocked by SCOUTLAB_BLOCK_PLUGINS"
    selected = selected_plugins()
    if selected is not None and name not in selected:
        return "not in SCOUTLAB_PLUGINS"
    return None


def plugin_ref(item: str | dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A spec's plugin entry (a name, or {name, config}) as (name, config)."""
    if isinstance(item, str):
        return item, {}
    return item["name"], dict(item.get("config") or {})


def unknown_plugin_message(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown plugin {name!r}{hint} (installed: {', '.join(sorted(known)) or 'none'})"


def _why(exc: BaseException) -> str:
    return f"it called sys.exit({excerpt(exc.code)})" if isinstance(exc, SystemExit) else str(exc)


def _named(exc: BaseException) -> str:
    """_why, after the exception's type where that says something (`ImportError: No module named 'x'`)."""
    return _why(exc) if isinstance(exc, SystemExit) else f"{type(exc).__name__}: {exc}"


def load_plugin(name: str, config: dict[str, Any]) -> object:
    """Load a plugin by name and apply its config through its `make_plugin(config)` factory, if any."""
    found = available_plugins()
    if name not in found:
        off = switched_off(name) if name in installed_plugins() else None
        if off:
            raise PluginError(f"plugin {name!r} is switched off: {off}")
        raise PluginError(unknown_plugin_message(name, list(found)))
    try:
        obj = found[name].load()
    except PLUGIN_FAILURES as exc:  # a broken plugin must not take the program down with a traceback
        raise PluginError(f"plugin {name!r} failed to load: {_why(exc)}") from exc
    factory = getattr(obj, "make_plugin", None)
    if factory is not None:
        try:
            return factory(config)
        except PLUGIN_FAILURES as exc:
            raise PluginError(f"plugin {name!r} rejected its config {config!r}: {_why(exc)}") from exc
    if config:
        raise PluginError(f"plugin {name!r} takes no config, but the spec gives {config!r}")
    return obj


def make_manager(plugins: list[str | dict[str, Any]]) -> pluggy.PluginManager:
    """A plugin manager with the built-in rules and the spec's plugins, in the spec's order."""
    pm = pluggy.PluginManager(GROUP)
    pm.add_hookspecs(hookspecs)
    pm.register(builtin, name="builtin")
    for item in plugins:
        name, config = plugin_ref(item)
        if name == "builtin":
            continue
        try:
            pm.register(load_plugin(name, config), name=name)
        except pluggy.PluginValidationError as exc:  # e.g. a hook argument the spec does not have
            raise PluginError(f"plugin {name!r} does not fit the scoutlab hooks: {_misfit(exc)}") from None
    for plugin, hook in unknown_hooks(pm):  # a misspelt hook name would otherwise never be called
        raise PluginError(f"plugin {plugin!r} implements {hook}, which is not a scoutlab hook")
    return guard(pm)


def _misfit(exc: pluggy.PluginValidationError) -> str:
    """pluggy's reason in one line, without its first line, which names the plugin again."""
    return "; ".join(str(exc).splitlines()[1:]) or str(exc)


def unknown_hooks(pm: pluggy.PluginManager) -> list[tuple[str, str]]:
    """(plugin, hook) for every implementation of a hook that has no hookspec."""
    return [
        (impl.plugin_name, name)
        for name, caller in vars(pm.hook).items()
        if isinstance(caller, pluggy.HookCaller) and caller.spec is None
        for impl in caller.get_hookimpls()
    ]


def implementers(pm: pluggy.PluginManager, hook_name: str) -> list[str]:
    """Names of the plugins implementing a hook, the built-in rules included."""
    return [impl.plugin_name for impl in getattr(pm.hook, hook_name).get_hookimpls()]


def offered_end_conditions(plugin: object) -> list[str]:
    """The names of the end conditions one plugin object offers (its own `scoutlab_end_conditions`), or []."""
    hook = getattr(plugin, "scoutlab_end_conditions", None)
    if hook is None or not callable(hook):
        return []
    try:
        offered = hook()
    except PLUGIN_FAILURES:  # a plugin that fails here is reported where the hook is called for the rules
        return []
    return [name for name in offered if isinstance(name, str)] if isinstance(offered, dict) else []


def plugins_offering(condition: str, listed: set[str]) -> list[str]:
    """Available plugins, not in `listed`, that offer the end condition `condition` (made with an empty config)."""
    found = []
    for name, ep in sorted(available_plugins().items()):
        if name == "builtin" or name in listed:
            continue
        try:
            obj = ep.load()
            factory = getattr(obj, "make_plugin", None)
            candidates = [obj] + ([factory({})] if factory is not None else [])
        except PLUGIN_FAILURES:  # a broken or config-hungry plugin offers nothing here; `scoutlab plugins` says why
            continue
        if any(condition in offered_end_conditions(c) for c in candidates):
            found.append(name)
    return found


def plugin_summary(plugin: object, name: str) -> str | None:
    """What a plugin says it does: the `summary` of the object registered, else of the module its entry point
    names (so a summary survives `make_plugin` returning an object), else the first line of a docstring."""
    sources: list[object] = [plugin]
    ep = installed_plugins().get(name)
    if ep is not None:
        try:
            module = ep.load()
        except PLUGIN_FAILURES:  # registered, so it loaded once; a second failure leaves only the object
            module = None
        if module is not None and module is not plugin:
            sources.append(module)
    for source in sources:
        summary = getattr(source, "summary", None)
        if isinstance(summary, str) and summary.strip():
            return summary.strip()
    for source in sorted(sources, key=lambda s: not isinstance(s, types.ModuleType)):  # a module's doc says what it does
        doc = inspect.getdoc(source)
        if doc:
            return doc.splitlines()[0].rstrip(".")
    return None


class PluginBots(NamedTuple):
    """What the installed plugins offer through the scoutlab_bots hook, and why any offers nothing."""

    factories: dict[str, object]  # bot name -> factory(rules, rng, options)
    failures: dict[str, str]  # plugin name -> why its bots are not offered, in one line


def plugin_bots() -> PluginBots:
    """Bots offered by installed plugins through the scoutlab_bots hook, each plugin asked on its own: one that
    fails to load, raises or answers the wrong kind offers no bots, and the others' bots stay usable."""
    pm = pluggy.PluginManager(GROUP)
    pm.add_hookspecs(hookspecs)
    failures: dict[str, str] = {}
    for name, ep in available_plugins().items():
        if name == "builtin":
            continue
        try:
            pm.register(ep.load(), name=name)
        except pluggy.PluginValidationError as exc:  # e.g. a hook argument the hookspec does not have
            failures[name] = f"it does not fit the scoutlab hooks: {_misfit(exc)}"
        except PLUGIN_FAILURES as exc:  # `scoutlab plugins` and a spec listing it say so too
            failures[name] = f"it failed to load: {_named(exc)}"
    guard(pm)
    found: dict[str, object] = {}
    registered = pm.get_plugins()
    for name, plugin in reversed(pm.list_name_plugin()):  # pluggy's own order: the last registered is asked first
        alone = pm.subset_hook_caller("scoutlab_bots", remove_plugins=registered - {plugin})
        try:
            for offered in alone():
                found.update(offered)
        except HookError as exc:  # guarded: it raised, or answered something other than a dict of name -> factory
            failures[name] = f"its {exc.hook} {exc.problem}"
    return PluginBots(found, {name: _one_line(why) for name, why in sorted(failures.items())})


def _one_line(why: str, limit: int = 200) -> str:
    """A plugin's reason as a message quotes it: on one line, and cut where a plugin's long text would drown it."""
    return cut(on_one_line(why), limit)
