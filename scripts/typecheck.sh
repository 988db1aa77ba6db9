#!/usr/bin/env bash
# mypy over the package (core/scoutlab) and the shipped plugins (plugins/scoutlab_plugins): each folder is its
# import name, so mypy finds both on its search path. Then the layers below the rules compiler (base, engine,
# host, spec) again with --strict: errors only in those (follow-imports=silent: the modules they import for
# types are checked by the first pass), jsonschema's validators.extend, which has no annotations, may be called,
# and pyproject's overrides for libraries these layers never import are not reported as unused.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-.venv/bin/python}"
MYPYPATH=core:plugins "$python" -m mypy -p scoutlab -p scoutlab_plugins "$@"
MYPYPATH=core "$python" -m mypy --strict --no-warn-unused-configs --follow-imports=silent --untyped-calls-exclude=jsonschema \
    -p scoutlab.base -p scoutlab.engine -p scoutlab.host -p scoutlab.spec "$@"
