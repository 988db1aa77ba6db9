"""Module paths from before the layers were folders, kept working for plugins, bots and scripts.

`import scoutlab.hookspecs` gives the very module `scoutlab.host.hookspecs`: the same object,
so classes and markers are identical whichever path imported them. New code uses the new
paths (docs/api.md lists the public ones); this table only grows when a module moves.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType

MOVED = {
    "scoutlab.actions": "scoutlab.engine.actions",
    "scoutlab.cards": "scoutlab.engine.cards",
    "scoutlab.events": "scoutlab.engine.events",
    "scoutlab.explain": "scoutlab.engine.explain",
    "scoutlab.legal": "scoutlab.engine.legal",
    "scoutlab.native": "scoutlab.engine.native",
    "scoutlab.shows": "scoutlab.engine.shows",
    "scoutlab.state": "scoutlab.engine.state",
    "scoutlab.builtin": "scoutlab.host.builtin",
    "scoutlab.hookguard": "scoutlab.host.guard",
    "scoutlab.hookspecs": "scoutlab.host.hookspecs",
    "scoutlab.plugin_host": "scoutlab.host.manager",
    "scoutlab.specdiff": "scoutlab.spec.diff",
    "scoutlab.yamlsrc": "scoutlab.spec.source",
    "scoutlab.i18n": "scoutlab.text.i18n",
    "scoutlab.i18n_tools": "scoutlab.text.i18n_tools",
    "scoutlab.log": "scoutlab.text.log",
    "scoutlab.summary": "scoutlab.text.summary",
    "scoutlab.position": "scoutlab.records.position",
    "scoutlab.engine_protocol": "scoutlab.protocol",
}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path and loads it as the module at its new path."""

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(MOVED[spec.name])
        spec.loader_state = module.__spec__  # kept with this import, so concurrent imports keep theirs
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system stamped the alias's spec on the module: give it back its own.
        alias = module.__spec__
        module.__spec__ = alias.loader_state if alias is not None else None


def install() -> None:
    """Put the finder on the import path once (importing scoutlab does this)."""
    if not any(isinstance(finder, _Alias) for finder in sys.meta_path):
        sys.meta_path.append(_Alias())
