#!/usr/bin/env bash
# mypy over the package (core/scoutlab) and the shipped plugins (plugins/scoutlab_plugins): each folder is its
# import name, so mypy finds both on its search path. The engine's layers are checked --strict on top.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-.venv/bin/python}"
MYPYPATH=core:plugins "$python" -m mypy -p scoutlab -p scoutlab_plugins "$@"
