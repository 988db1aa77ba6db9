"""Test helpers for plugin and variant authors: the guarantees the shipped variants get, for yours.

    from scoutlab.testing import check_invariants, installed_plugin, rules_with

    def test_my_variant_keeps_the_invariants():
        check_invariants("my-variant.yaml", games=5)

Also a pytest plugin (entry point `pytest11`), so once scoutlab is installed these fixtures
exist in every test: `scoutlab_rules`, `scoutlab_install_plugin`, `scoutlab_position`.
"""

from .invariants import InvariantReport, check_invariants, check_step, fingerprint, random_game
from .plugins import LocalEntryPoint, installed_plugin, rules_with

__all__ = [
    "InvariantReport",
    "LocalEntryPoint",
    "check_invariants",
    "check_step",
    "fingerprint",
    "installed_plugin",
    "random_game",
    "rules_with",
]
