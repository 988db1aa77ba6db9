"""scoutlab's pytest plugin (entry point `pytest11`): fixtures for plugin and variant authors.

Loaded by pytest wherever scoutlab is installed, so it imports nothing heavy until a fixture is used.

    def test_my_rule(scoutlab_install_plugin, scoutlab_rules):
        scoutlab_install_plugin("my-rule", my_rule_module)
        rules = scoutlab_rules("official", ["my-rule"])
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack

import pytest


@pytest.fixture
def scoutlab_install_plugin() -> Iterator[Callable[[str, object], object]]:
    """`install(name, plugin)`: the plugin is found under `name` as if installed, until the test ends."""
    # imported when a fixture is used: every pytest run where scoutlab is installed loads this plugin
    from scoutlab.testing.plugins import installed_plugin

    with ExitStack() as stack:
        yield lambda name, plugin: stack.enter_context(installed_plugin(name, plugin))


@pytest.fixture
def scoutlab_rules() -> Callable:
    """`rules_with(base, plugins, **spec_changes)`: compiled rules of a spec extending `base`."""
    # imported when a fixture is used: every pytest run where scoutlab is installed loads this plugin
    from scoutlab.testing.plugins import rules_with

    return rules_with


@pytest.fixture
def scoutlab_position() -> Callable:
    """`load_position(path_or_text)`: a GameState set up from a position (docs/positions.md)."""
    # imported when a fixture is used: every pytest run where scoutlab is installed loads this plugin
    from scoutlab.records.position import load_position

    return load_position
