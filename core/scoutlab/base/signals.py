"""What must not outlive the process when SIGTERM or SIGHUP ends it: part files, external bots' programs.

Python's default for those signals ends the process at once, skipping `finally` blocks and atexit,
so a cleanup registered here runs first and the process then dies of the signal as it would have
(the same exit status, nothing printed). SIGINT needs none of this: it raises KeyboardInterrupt,
which unwinds through `finally` to atexit. Only a signal left at its default is taken over, and only
from the main thread (where Python runs handlers).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable
from types import FrameType

_cleanups: list[tuple[int, Callable[[], None]]] = []  # (pid that registered it, cleanup)
_hooked = False


def on_termination(cleanup: Callable[[], None]) -> None:
    """Call `cleanup` if SIGTERM or SIGHUP ends this process; once however often it is registered."""
    entry = (os.getpid(), cleanup)
    if entry not in _cleanups:
        _cleanups.append(entry)
    _hook()


def _hook() -> None:
    global _hooked
    if _hooked or threading.current_thread() is not threading.main_thread():
        return
    _hooked = True
    for signum in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if signum is not None and signal.getsignal(signum) == signal.SIG_DFL:
            signal.signal(signum, _clean_up_and_die)


def _clean_up_and_die(signum: int, _frame: FrameType | None) -> None:
    for pid, cleanup in _cleanups:
        if pid == os.getpid():  # one registered before a fork is the parent's
            with contextlib.suppress(Exception):
                cleanup()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _unhook_in_child() -> None:
    """A forked child (a simulator's pool worker) has nothing of its own to clean up yet, and must die of SIGTERM at
    once, as the pool's terminate() expects, even where a Python handler would wait (a lock inherited held)."""
    global _hooked
    _hooked = False
    for signum in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if signum is not None and signal.getsignal(signum) is _clean_up_and_die:
            signal.signal(signum, signal.SIG_DFL)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_unhook_in_child)
