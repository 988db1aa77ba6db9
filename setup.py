"""Build step: compile the engine's hot loop, `core/engine/legal.py` and `turns.py`, with mypyc when it can.

All the metadata is in pyproject.toml; this file only adds the optional compiled module.
Copies of legal.py and turns.py are compiled as `scoutlab.engine._legal_native` and
`_turns_native`, each stamped with the SHA-256 of its source so that
`scoutlab.engine.native` can tell whether it still matches. Without a C compiler, or
with SCOUTLAB_PURE=1 set, the package installs as pure Python and plays the same rules
more slowly.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = pathlib.Path(__file__).resolve().parent
STAGE = HERE / "build" / "mypyc-src" / "scoutlab" / "engine"
# (source in core/engine, compiled module): the legal-action listing, and the loop that deals, applies and scores.
MODULES = [("legal.py", "_legal_native"), ("turns.py", "_turns_native")]


def _skip(reason: str) -> None:
    print(f"scoutlab: installing pure Python, without the compiled hot loop: {reason}", file=sys.stderr)


def compiled_extensions() -> list:
    if os.environ.get("SCOUTLAB_PURE"):
        _skip("SCOUTLAB_PURE is set")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _skip("mypyc is not installed")
        return []
    STAGE.mkdir(parents=True, exist_ok=True)
    for package in (STAGE.parent, STAGE):  # so mypyc names the copies scoutlab.engine._legal_native, ...
        (package / "__init__.py").write_text("")
    staged = []
    for source_name, native_name in MODULES:
        source = (HERE / "core" / "engine" / source_name).read_bytes()
        # The loop calls the compiled listing directly (one C call), not the source it imports.
        text = source.replace(b"from scoutlab.engine.legal import", b"from scoutlab.engine._legal_native import")
        stamp = f'\nSOURCE_SHA256: Final = "{hashlib.sha256(source).hexdigest()}"\n'
        (STAGE / f"{native_name}.py").write_bytes(text + stamp.encode())
        staged.append(str(STAGE / f"{native_name}.py"))
    try:
        # No config file: pyproject.toml's mypy settings are for type-checking the package, and mypy 2.4
        # reports their unused sections as an error that stops the build.
        # The base layer it imports (errors, values) runs as Python: to mypyc those names are plain objects.
        return mypycify(["--config-file=", "--ignore-missing-imports", *staged], opt_level="3")
    except (Exception, SystemExit) as exc:  # mypyc exits on a type error
        _skip(f"mypyc failed ({exc})")
        return []


class OptionalBuildExt(build_ext):
    """Compiling is only an optimisation: when the C compiler fails, warn and install pure Python."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            _skip(f"the C build failed ({exc})")

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            _skip(f"the C build of {ext.name} failed ({exc})")


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
