#!/usr/bin/env bash
# mypy over the whole package. The design keeps the package's source in core/ (imported as
# scoutlab) and its plugins in plugins/ (scoutlab.plugins); mypy finds modules by folder name,
# so this lays out a tree of links with those names in build/typecheck and checks it there.
set -euo pipefail
cd "$(dirname "$0")/.."
tree=build/typecheck
rm -rf "$tree" && mkdir -p "$tree/scoutlab"
for entry in core/*; do ln -s "../../../$entry" "$tree/scoutlab/$(basename "$entry")"; done
ln -s ../../../plugins "$tree/scoutlab/plugins"
MYPYPATH="$tree" exec "${PYTHON:-.venv/bin/python}" -m mypy -p scoutlab "$@"
