#!/usr/bin/env bash
# Set up scoutlab on a fresh machine: a virtual environment in .venv with the project and
# every optional part (tests, simulator, web, browser tests, RL, Ray), plus the Debian
# packages the browser tests and the example bots use (Chromium, Node.js and npm, jq) and the C build
# of the engine's hot loop needs (gcc, Python's headers).
# Safe to run again: it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")"

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
command -v jq >/dev/null || missing+=(jq)
# A C compiler and Python's headers, for the compiled hot loop (setup.py; without them, pure Python).
command -v gcc >/dev/null || missing+=(gcc libc6-dev)
"${PYTHON:-python3}" -c 'import os, sysconfig; assert os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))' \
    2>/dev/null || missing+=(python3-dev)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "setup.sh: ${missing[*]} missing; the tests that need them will be skipped (apt-get install them as root)" >&2
    fi
fi

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
# setuptools warns at every editable install that a folder named like the package could shadow
# it; ours are core/scoutlab and plugins/scoutlab_plugins, never the working directory, so the warning says nothing here.
PYTHONWARNINGS="ignore:Editable installation" .venv/bin/python -m pip install --quiet -e ".[${SCOUTLAB_EXTRAS:-all}]"
.venv/bin/python -c 'from scoutlab.engine import native; print("setup.sh: the engine hot loop is", native.BUILD)'
# axe-core, the accessibility checker the browser tests inject into pages (tests/e2e/package.json: one exact version, no dependencies).
if command -v npm >/dev/null; then
    (cd tests/e2e && npm install --no-package-lock --no-audit --no-fund --loglevel=error >/dev/null) \
        || echo "setup.sh: npm could not install axe-core; the accessibility check in tests/e2e will be skipped" >&2
else
    echo "setup.sh: npm missing; the accessibility check in tests/e2e will be skipped" >&2
fi
