"""Which build of the engine's loop runs: the mypyc-compiled one when it is there and up to date.

setup.py compiles copies of legal.py (the legal-action listing) and turns.py (dealing,
applying actions, round ends and scoring) into `scoutlab.engine._legal_native` and
`scoutlab.engine._turns_native`, each stamped with the SHA-256 of the source it was built
from. A stamp that no longer matches its source (an editable install whose source was
edited since) makes both fall back to the source, with a warning, so an edit always
takes effect. SCOUTLAB_PURE=1 forces the source, for debugging. `pick` makes the same
choice for any compiled module (the skilled bot's scoring, bots/weighing.py, uses it too).
"""

from __future__ import annotations

import hashlib
import importlib
import os
import warnings
from importlib import resources
from types import ModuleType

from scoutlab.engine import legal as reference, turns as reference_turns

SOURCES = {"_legal_native": "legal.py", "_turns_native": "turns.py"}


def pick(package: str, native_name: str, source_name: str) -> tuple[ModuleType | None, str]:
    """The compiled build of `package.source_name` and how it was chosen; None where the source must run."""
    if os.environ.get("SCOUTLAB_PURE"):
        return None, "pure Python (SCOUTLAB_PURE is set)"
    try:
        compiled = importlib.import_module(f"{package}.{native_name}")
    except ImportError:
        return None, "pure Python (not compiled)"
    source = resources.files(package).joinpath(source_name).read_bytes()
    if hashlib.sha256(source).hexdigest() != compiled.SOURCE_SHA256:
        warnings.warn(
            f"scoutlab: the compiled {source_name} is older than its source, so the source runs (slower); "
            "rebuild with ./setup.sh or pip install -e .",
            stacklevel=3,
        )
        return None, "pure Python (the compiled module is out of date)"
    return compiled, "compiled with mypyc"


def _choose() -> tuple[ModuleType, str]:
    """The legal-action module to run and how it was built; the loop module follows it (`_loop`)."""
    for name, source_name in SOURCES.items():
        compiled, build = pick(__package__, name, source_name)
        if compiled is None:
            return reference, build
    return importlib.import_module(f"{__package__}._legal_native"), "compiled with mypyc"


def _loop(chosen: ModuleType) -> ModuleType:
    """The compiled loop goes with the compiled listing (it calls it directly), the source with the source."""
    return reference_turns if chosen is reference else importlib.import_module(f"{__package__}._turns_native")


legal, BUILD = _choose()
turns = _loop(legal)

__all__ = ["BUILD", "legal", "pick", "reference", "reference_turns", "turns"]
