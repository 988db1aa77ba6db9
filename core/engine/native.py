"""Which build of `legal.py` the engine runs: the mypyc-compiled one when it is there and up to date.

setup.py compiles a copy of legal.py into `scoutlab._legal_native`, stamped with the
SHA-256 of the source it was built from. A stamp that no longer matches legal.py (an
editable install whose source was edited since) falls back to the source, with a warning,
so an edit always takes effect. SCOUTLAB_PURE=1 forces the source, for debugging.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import warnings
from importlib import resources
from types import ModuleType

from scoutlab.engine import legal as reference


def _choose() -> tuple[ModuleType, str]:
    if os.environ.get("SCOUTLAB_PURE"):
        return reference, "pure Python (SCOUTLAB_PURE is set)"
    try:
        compiled = importlib.import_module(f"{__package__}._legal_native")
    except ImportError:
        return reference, "pure Python (not compiled)"
    source = resources.files(__package__).joinpath("legal.py").read_bytes()
    if hashlib.sha256(source).hexdigest() != compiled.SOURCE_SHA256:
        warnings.warn(
            "scoutlab: the compiled legal.py is older than its source, so the source runs (slower); "
            "rebuild with ./setup.sh or pip install -e .",
            stacklevel=2,
        )
        return reference, "pure Python (the compiled module is out of date)"
    return compiled, "compiled with mypyc"


legal, BUILD = _choose()

__all__ = ["BUILD", "legal", "reference"]
