"""Build a mypyc-compiled copy of a scoutlab module for the tests, whatever the installed build.

The installed package may be pure Python (SCOUTLAB_PURE=1, no compiler at install time),
so the tests that compare a compiled module with its source compile their own copy: the
source as installed, stamped with its SHA-256 as setup.py stamps it, under a module name of
its own (`scoutlab_test_<stem>`) so it never shadows the installed one. Builds are kept in
pytest's cache directory, keyed by the source, the mypy version and the Python ABI, so only
the first run after an edit pays the few seconds of mypyc and gcc.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from importlib import resources
from pathlib import Path
from types import ModuleType

# The build script, run in a subprocess so that setuptools' output and state stay out of pytest.
BUILD = """
import sys
from setuptools import setup
from mypyc.build import mypycify
# As setup.py builds: no config file (the project's would be found above the cache), and what the module
# imports from scoutlab runs as Python.
setup(name=sys.argv[1], ext_modules=mypycify(["--config-file=", "--ignore-missing-imports", sys.argv[1] + ".py"],
                                             opt_level="3"),
      script_args=["build_ext", "--inplace", "--quiet"])
"""


class CannotCompile(RuntimeError):
    """No C compiler, no mypyc, or the build failed: the message says which."""


def missing_tools() -> str | None:
    """What this machine lacks to compile a module (None when mypyc, a C compiler and Python's headers are there)."""
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed (pip install -e '.[test]' brings it)"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler!r} is not on PATH)"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "Python's C headers (Python.h) are missing"
    return None


def compiled_copy(package: str, stem: str, cache: Path) -> ModuleType:
    """`<stem>.py` of `package` (e.g. scoutlab.engine) as installed, compiled with mypyc and imported; raises CannotCompile."""
    lacking = missing_tools()
    if lacking:
        raise CannotCompile(lacking)
    import mypy.version

    source = resources.files(package).joinpath(f"{stem}.py").read_bytes()
    digest = hashlib.sha256(source).hexdigest()
    key = hashlib.sha256(f"{package} {digest} {mypy.version.__version__} {sysconfig.get_config_var('SOABI')}".encode())
    where = cache / f"{stem}-{key.hexdigest()[:16]}"
    name = f"scoutlab_test_{stem}"
    built = where / f"{name}{sysconfig.get_config_var('EXT_SUFFIX')}"
    if not built.exists():
        # Built in a folder of its own, then moved into place whole: the tests' parallel workers may race to build it.
        cache.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f"{where.name}.", dir=cache))
        stamp = f'\nSOURCE_SHA256: str = "{digest}"\n'
        (staging / f"{name}.py").write_bytes(source + stamp.encode())
        env = {**os.environ, "MYPY_CACHE_DIR": str(staging / ".mypy_cache")}
        done = subprocess.run(
            [sys.executable, "-c", BUILD, name], cwd=staging, env=env, capture_output=True, text=True, timeout=600
        )
        if done.returncode or not (staging / built.name).exists():
            shutil.rmtree(staging, ignore_errors=True)
            tail = (done.stdout + done.stderr).strip().splitlines()[-15:]
            raise CannotCompile(f"mypyc could not build {stem}.py:\n" + "\n".join(tail))
        if not built.exists():
            shutil.rmtree(where, ignore_errors=True)  # what a run stopped mid-build left
            with contextlib.suppress(OSError):  # another worker's build got there first: use it
                staging.rename(where)
        shutil.rmtree(staging, ignore_errors=True)
    spec = importlib.util.spec_from_file_location(name, built)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MUST_CHECK = ("SCOUTLAB_CHECK_COMPILED", "SCOUTLAB_EXPECT_COMPILED", "CI")


def compiled_for_fixture(request, tmp_path_factory, package: str, stem: str) -> ModuleType:
    """`compiled_copy` for a test fixture, kept in pytest's cache. Where it cannot be built the test skips,
    saying why, except in CI (MUST_CHECK), where it fails: the two builds are never silently left unchecked."""
    import pytest

    cache = getattr(request.config, "cache", None)
    where = cache.mkdir("compiled-build") if cache else tmp_path_factory.mktemp("compiled-build")
    try:
        return compiled_copy(package, stem, where)
    except CannotCompile as exc:
        required = [name for name in MUST_CHECK if os.environ.get(name)]
        if required:
            pytest.fail(f"the compiled and source builds of {stem}.py must be compared here ({', '.join(required)} "
                        f"is set), but it cannot be compiled: {exc}", pytrace=False)
        pytest.skip(f"{stem}.py cannot be compiled here, so the builds are not compared: {exc}")
