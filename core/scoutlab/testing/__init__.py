"""Test helpers for plugin and variant authors: the guarantees the shipped variants get, for yours.

    from scoutlab.testing import check_invariants, installed_plugin, rules_with, run_scenario_file

    def test_my_variant_keeps_the_invariants():
        check_invariants("my-variant.yaml", games=5)

    def test_my_rules_cases():
        assert run_scenario_file("scenarios/my-rule.yaml")

- `installed_plugin(name, plugin)`: use a plugin object under a name before it is installed.
- `rules_with(base, plugins, **changes)`: compile a spec extending a variant, from Python.
- `load_position(path_or_text)`: a game state from a position (docs/positions.md).
- `run_scenario_file(path)`: rules cases as data, the format of tests/scenarios/*.yaml.
- `check_invariants(spec, players, games)`: the engine's invariants over random games.

scoutlab.testing is also a pytest plugin (entry point `pytest11`): wherever scoutlab is
installed, tests can ask for the fixtures `scoutlab_install_plugin`, `scoutlab_rules` and
`scoutlab_position`.
"""

from importlib import import_module
from typing import Any

# Where each name lives. Imported on first use: pytest loads this package (for its fixtures)
# in every test run wherever scoutlab is installed, and should not pay for the engine there.
_HOMES = {
    "InvariantReport": "invariants",
    "check_invariants": "invariants",
    "check_step": "invariants",
    "fingerprint": "invariants",
    "random_game": "invariants",
    "LocalEntryPoint": "plugins",
    "installed_plugin": "plugins",
    "rules_with": "plugins",
    "load_scenario_file": "scenarios",
    "run_scenario_file": "scenarios",
    "load_position": "scoutlab.records.position",
}

__all__ = [  # noqa: RUF022 (grouped by home, as _HOMES)
    "InvariantReport", "check_invariants", "check_step", "fingerprint", "random_game",
    "LocalEntryPoint", "installed_plugin", "rules_with", "load_scenario_file", "run_scenario_file", "load_position",
]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'scoutlab.testing' has no attribute {name!r}")
    home = _HOMES[name]
    module = import_module(home if home.startswith("scoutlab.") else f"{__name__}.{home}")
    return getattr(module, name)
