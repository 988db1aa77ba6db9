#!/usr/bin/env bash
# Set up scoutlab on a fresh machine: a virtual environment in .venv with the project
# and every optional part (tests, simulator, web, browser tests, RL, Ray) installed.
# Safe to run again: it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")"
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[${SCOUTLAB_EXTRAS:-all}]"
