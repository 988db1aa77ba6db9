"""Settings for the whole suite."""

from __future__ import annotations

import os

#: Parallel test workers at most: each may start its own web server and Chromium.
MAX_WORKERS = 4


def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto` (pytest-xdist, by hand: not the default, see pyproject.toml): a worker per core, up to MAX_WORKERS."""
    return max(1, min(MAX_WORKERS, os.cpu_count() or 1))
