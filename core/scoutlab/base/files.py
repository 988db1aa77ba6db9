"""Writing the files a command makes: checked before the work, written whole or not at all.

A regular file is written beside its place and moved there only once all of it is written, so a
full disk or an interrupted write leaves the old file (or none), never half of one. A named pipe
is written as it is, but only when a program is reading it: opening one that nobody reads would
wait for ever. Devices (/dev/null) and links (/dev/stdout) are written through, as they are.

The part written beside (`.NAME.XXXXXXXX.part`) is removed when the write fails, when Ctrl-C
(SIGINT), SIGTERM or SIGHUP ends the process, and at its exit; only SIGKILL (or a crash of Python
itself) can leave one, which is then safe to delete.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from scoutlab.base.limits import on_one_line
from scoutlab.base.signals import on_termination


class NoReader(OSError):
    """A named pipe that no program reads."""


def check_output(option: str, path: str, reads: Iterable[str] = ()) -> None:
    """Refuse, before any work, an output that could not be written or would overwrite a file the command reads.

    Raises ValueError with one line naming the option and the path; `-` (standard output) always passes.
    """
    if path == "-":
        return
    named = f"{option} {on_one_line(path)}"  # as given: the command line escapes what a terminal would obey
    target = Path(path)
    if target.is_dir():
        raise ValueError(f"cannot write {named}: it is a folder; give a file name")
    folder = target.absolute().parent
    if not folder.is_dir():
        raise ValueError(f"cannot write {named}: there is no folder {on_one_line(str(folder))}")
    for source in reads:
        if target.exists() and Path(source).exists() and os.path.samefile(target, source):
            raise ValueError(f"cannot write {named}: the command reads that file; give another name")
    if target.exists() and (not target.is_file() or target.is_symlink()):
        return  # a pipe, a device or a link (/dev/stdout): written through, nothing is made beside it
    try:
        probe_folder(folder)
    except OSError as exc:
        raise ValueError(f"cannot write {named}: no file can be made in {on_one_line(str(folder))} ({exc.strerror or exc})") from None


@contextmanager
def naming(path: str) -> Iterator[None]:
    """An OSError inside said as `cannot write PATH: reason`, in the system's words without `[Errno 28]` (pyarrow's
    own wording included)."""
    try:
        yield
    except OSError as exc:
        said = str(exc.strerror or exc).split("Detail: ")[-1]  # pyarrow: "Error writing bytes to file. Detail: [errno 28] ..."
        reason = _ERRNO.sub("", said).strip() or type(exc).__name__
        raise OSError(exc.errno, f"cannot write {on_one_line(path)}: {reason}") from None


_ERRNO = re.compile(r"\[errno \d+\]\s*", re.IGNORECASE)


def probe_folder(folder: str | os.PathLike[str]) -> None:
    """The system's OSError if no file can be made in `folder`: the one sure test (a read-only disk, /proc, no
    permission; a root user passes os.access everywhere)."""
    with tempfile.TemporaryFile(dir=folder):
        pass


def check_outputs(named: Iterable[tuple[str, str]], reads: Iterable[str] = ()) -> None:
    """check_output for each (option, path), and no two options naming the same file."""
    reads = list(reads)
    seen: dict[str, str] = {}
    for option, path in named:
        check_output(option, path, reads)
        if path == "-":
            continue
        key = os.path.realpath(path)
        if key in seen:
            raise ValueError(f"{seen[key]} and {option} both name {on_one_line(path)}: each output needs a file of its own")
        seen[key] = option


def write_whole(path: str | os.PathLike[str], text: str) -> None:
    """Write `text` (UTF-8) to `path`: all of it or, on any error, nothing in place of what was there."""
    try:
        with opened_for_writing(path) as out:
            out.write(text)
    except OSError as exc:
        if exc.filename is not None or not exc.strerror:
            raise
        raise OSError(exc.errno, exc.strerror, os.fspath(path)) from None  # a full /dev/full names no file of its own


def write_all(outputs: Iterable[tuple[str, str]]) -> None:
    """Write each (path, text) as write_whole does, and the set as a whole: every file is written beside its place
    first, and moved into place only once all are, so a run that cannot write one output replaces none (a pipe, a
    device or a link is written through, before any is moved)."""
    staged: list[tuple[str, str]] = []  # (part, path)
    try:
        for path, text in outputs:
            if not _replaceable(path):
                write_whole(path, text)
                continue
            part = _part_beside(path)
            staged.append((part, path))
            try:
                with open(part, "w", encoding="utf-8") as out:
                    out.write(text)
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, path) from None  # named by its place, not its part
        for part, path in staged:
            os.chmod(part, _mode_for(path))
        for part, path in staged:
            _move(part, path)
    except BaseException:
        for part, _ in staged:
            _discard(part)  # or moved into place already
        raise


def _replaceable(path: str) -> bool:
    """Whether `path` is a regular file or none, which a finished file is moved onto; a pipe, a device or a link is
    written through (a file moved into a link's place would replace the link, and /dev/stdout is one)."""
    if os.path.islink(path):
        return False
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return True


_parts: dict[str, int] = {}  # each part file being written -> the process writing it


def _part_beside(path: str) -> str:
    folder, name = os.path.split(os.path.abspath(path))
    on_termination(_remove_parts)
    fd, part = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".part")
    _parts[part] = os.getpid()
    os.close(fd)
    return part


def _move(part: str, path: str) -> None:
    os.replace(part, path)
    _parts.pop(part, None)


def _discard(part: str) -> None:
    """Remove a part file, if it is still there (the process's end may have removed it first)."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(part)
    _parts.pop(part, None)


@atexit.register
def _remove_parts() -> None:
    """Every part file this process is still writing: when a signal or the process's end cuts the writing short."""
    for part, pid in list(_parts.items()):
        if pid == os.getpid():  # a forked worker inherits the list, not the files
            _discard(part)


@contextmanager
def written_beside(path: str) -> Iterator[str]:
    """The name to write `path` under, for a writer that opens files by name (pyarrow): a part beside it for a regular
    file or none, moved onto `path` once the block ends without an error and removed otherwise; `path` itself for a
    pipe, a device or a link, which are written through."""
    if not _replaceable(path):
        yield path
        return
    with _staged(path) as part:
        yield part


@contextmanager
def _staged(path: str) -> Iterator[str]:
    part = _part_beside(path)
    try:
        yield part
        os.chmod(part, _mode_for(path))
        _move(part, path)
    except BaseException:
        _discard(part)
        raise


@contextmanager
def opened_for_writing(path: str | os.PathLike[str], newline: str | None = None) -> Iterator[TextIO]:
    """A UTF-8 text file to write `path` through, in place once the block ends without an error (see the module)."""
    path = os.fspath(path)
    if _replaceable(path):
        with _staged(path) as part, open(part, "w", encoding="utf-8", newline=newline) as out:
            yield out
    elif is_pipe(path):
        with _open_pipe(path, newline) as out:
            yield out
    else:  # a device, or a link: a shell's `> out.txt` behind /dev/stdout would keep the old file open
        with open(path, "w", encoding="utf-8", newline=newline) as out:
            yield out


def is_pipe(path: str) -> bool:
    """Whether `path` is (or links to) a named pipe."""
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except FileNotFoundError:  # a link to nothing yet: written through, which makes its target
        return False


@contextmanager
def _open_pipe(path: str, newline: str | None) -> Iterator[TextIO]:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise NoReader(errno.ENXIO, "a named pipe that no program reads, so writing it would wait for ever", path) from None
        raise
    os.set_blocking(fd, True)  # non-blocking only to open it: a full pipe should wait for its reader
    with open(fd, "w", encoding="utf-8", newline=newline) as out:
        yield out


def _mode_for(path: str) -> int:
    """The permissions a file at `path` keeps, or those a new file gets (mkstemp makes its own 0600)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
