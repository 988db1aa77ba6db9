"""Build step: compile the hot loops, `core/scoutlab/engine/legal.py`, `turns.py` and `core/scoutlab/bots/weighing.py`, with mypyc when it can.

All the metadata is in pyproject.toml; this file adds the packages found under the folders its package-dir
names and the optional compiled modules.
Copies of legal.py and turns.py are compiled as `scoutlab.engine._legal_native` and
`_turns_native`, and of the skilled bot's move scoring as `scoutlab.bots._weighing_native`,
each stamped with the SHA-256 of its source so that `scoutlab.engine.native` can tell
whether it still matches. Without a C compiler, or
with SCOUTLAB_PURE=1 set, the package installs as pure Python and plays the same rules
more slowly.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import sys

from setuptools import find_namespace_packages, setup
from setuptools.command.build_ext import build_ext

HERE = pathlib.Path(__file__).resolve().parent
STAGE = HERE / "build" / "mypyc-src" / "scoutlab"
# (folder of core/scoutlab/, source, compiled module): the legal-action listing, the loop that deals, applies and
# scores, and the skilled bot's move scoring (the search bot's rollouts).
MODULES = [("engine", "legal.py", "_legal_native"), ("engine", "turns.py", "_turns_native"),
           ("bots", "weighing.py", "_weighing_native")]


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
    staged = []
    for folder, source_name, native_name in MODULES:
        for package in (STAGE, STAGE / folder):  # so mypyc names the copies scoutlab.engine._legal_native, ...
            package.mkdir(parents=True, exist_ok=True)
            (package / "__init__.py").write_text("")
        source = (HERE / "core" / "scoutlab" / folder / source_name).read_bytes()
        # The loop and the scoring call the compiled listing directly (one C call), not the source they import.
        text = source.replace(b"from scoutlab.engine.legal import", b"from scoutlab.engine._legal_native import")
        text = text.replace(b"from scoutlab.engine.turns import", b"from scoutlab.engine._turns_native import")
        stamp = f'\nSOURCE_SHA256: str = "{hashlib.sha256(source).hexdigest()}"\n'
        (STAGE / folder / f"{native_name}.py").write_bytes(text + stamp.encode())
        staged.append(str(STAGE / folder / f"{native_name}.py"))
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


def packages() -> list[str]:
    """Every folder of core/scoutlab (data-only ones like web/static too: they ship as package data), the shipped
    plugins, and the two folders of data the design keeps at the top (pyproject.toml's package-dir maps them)."""
    found = find_namespace_packages(where=str(HERE / "core"), include=["scoutlab", "scoutlab.*"], exclude=["*.__pycache__"])
    return [*found, "scoutlab_plugins", "scoutlab.variants", "scoutlab.schemas"]


setup(packages=packages(), ext_modules=compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
