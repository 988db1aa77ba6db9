"""Trying a plugin before it is installed: register an object as if an entry point named it,
and compile a spec that extends a shipped variant and lists it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import yaml

from scoutlab.host import manager as plugin_host
from scoutlab.rules import Rules
from scoutlab.spec.variant import load_spec_text


class LocalEntryPoint:
    """Looks like an `importlib.metadata.EntryPoint` of the `scoutlab` group, but holds the object itself."""

    group = plugin_host.GROUP
    dist = None  # not installed: no distribution, no version

    def __init__(self, name: str, plugin: object):
        self.name = name
        self.value = f"<object {plugin!r}>"
        self._plugin = plugin

    def load(self) -> object:
        return self._plugin


@contextmanager
def installed_plugin(name: str, plugin: object) -> Iterator[object]:
    """While the block runs, `plugin` (a module, an object with hook methods, or anything with
    `make_plugin(config)`) is found under `name` exactly as an installed plugin would be:
    specs may list it, SCOUTLAB_PLUGINS and SCOUTLAB_BLOCK_PLUGINS apply, `scoutlab plugins` lists it.
    """
    real = plugin_host.installed_plugins

    def with_local() -> dict[str, Any]:
        return {**real(), name: LocalEntryPoint(name, plugin)}

    plugin_host.installed_plugins = with_local
    try:
        yield plugin
    finally:
        plugin_host.installed_plugins = real


def rules_with(base: str = "official", plugins: list[str | dict] | None = None, **changes: Any) -> Rules:
    """Compile `base` (a shipped name or a spec path) with these plugins and top-level spec changes.

    `rules_with("official", ["my-plugin"], end_conditions=["hand_emptied", "my_end"])` is the
    spec `{extends: official, plugins: [my-plugin], end_conditions: [...]}`; raises SpecError.
    """
    listed = list(plugins or [])
    names = [item if isinstance(item, str) else item["name"] for item in listed]
    doc = {"extends": base, "name": changes.pop("name", "+".join([base, *names])), **changes}
    if plugins is not None:
        doc["plugins"] = listed
    return Rules(load_spec_text(yaml.safe_dump(doc, sort_keys=False), f"<{doc['name']}>", "."))
