"""Where chunks run: in this process, in a local process pool, or on a Ray cluster.

Each backend yields results in task order, keeping at most a small window of tasks
in flight (so a million games never queue a million results), and checks
`should_stop` while it waits, so Ctrl-C is answered within a fraction of a second.
"""

from __future__ import annotations

import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any

POLL = 0.2  # seconds between checks for Ctrl-C while waiting on a result
WINDOW_PER_WORKER = 3  # tasks in flight per worker: enough to keep every worker busy


def available_cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class InlineBackend:
    """Runs every task in this process: one worker, nothing to start."""

    name = "inline"
    workers = 1

    def map_ordered(self, fn: Callable, tasks: Iterable[tuple], should_stop: Callable[[], bool]) -> Iterator[Any]:
        for task in tasks:
            if should_stop():
                return
            yield fn(*task)

    def close(self, abort: bool = False) -> None:
        pass


def _ignore_interrupt() -> None:
    # Ctrl-C reaches the whole process group; only the parent decides what to do with it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class PoolBackend:
    """A local pool of worker processes (the default): needs no service."""

    name = "pool"

    def __init__(self, workers: int):
        import multiprocessing

        self.workers = workers
        self._pool = multiprocessing.get_context().Pool(workers, initializer=_ignore_interrupt)

    def map_ordered(self, fn: Callable, tasks: Iterable[tuple], should_stop: Callable[[], bool]) -> Iterator[Any]:
        tasks = iter(tasks)
        pending = deque(self._pool.apply_async(fn, task) for task in islice(tasks, self.workers * WINDOW_PER_WORKER))
        while pending:
            oldest = pending[0]
            while not oldest.ready():
                if should_stop():
                    return
                oldest.wait(POLL)
            pending.popleft()
            for task in islice(tasks, 1):
                pending.append(self._pool.apply_async(fn, task))
            yield oldest.get()  # re-raises a worker's exception here

    def close(self, abort: bool = False) -> None:
        if abort:
            self._pool.terminate()
        else:
            self._pool.close()
        self._pool.join()


class RayBackend:
    """Tasks on a Ray cluster (`address`), or on a local Ray instance started for this run."""

    name = "ray"

    def __init__(self, workers: int, address: str | None = None):
        try:
            import ray
        except ImportError:
            raise ValueError("the ray backend needs Ray: pip install 'scoutlab[ray]'") from None
        self._ray = ray
        self._started = not ray.is_initialized()
        if self._started:
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                       "configure_logging": False}
            if address:
                ray.init(address=address, **options)
            else:
                ray.init(num_cpus=workers, **options)
        cluster_cpus = int(ray.cluster_resources().get("CPU", workers))
        self.workers = cluster_cpus if address else workers
        self._pending: deque = deque()

    def map_ordered(self, fn: Callable, tasks: Iterable[tuple], should_stop: Callable[[], bool]) -> Iterator[Any]:
        ray = self._ray
        remote = ray.remote(fn)
        tasks = iter(tasks)
        self._pending = pending = deque(
            remote.remote(*task) for task in islice(tasks, self.workers * WINDOW_PER_WORKER)
        )
        while pending:
            oldest = pending[0]
            while not ray.wait([oldest], timeout=POLL)[0]:
                if should_stop():
                    return
            pending.popleft()
            for task in islice(tasks, 1):
                pending.append(remote.remote(*task))
            yield ray.get(oldest)

    def close(self, abort: bool = False) -> None:
        ray = self._ray
        if abort:
            for ref in self._pending:
                ray.cancel(ref, force=True)
        if self._started:
            ray.shutdown()


def make_backend(kind: str, workers: int, address: str | None = None, tasks: int | None = None):
    """The backend for `--backend` and `--workers`; a single worker runs inline, with no pool at all."""
    if kind == "ray":
        return RayBackend(workers, address)
    if kind != "pool":
        raise ValueError(f"unknown backend {kind!r} (choose pool or ray)")
    if address:
        raise ValueError("--address is for the ray backend (add --backend ray)")
    workers = min(workers, tasks) if tasks else workers  # no idle processes for a short run
    return InlineBackend() if workers <= 1 else PoolBackend(workers)
