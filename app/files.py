"""Reading one input file without trusting it: bounded in size, never hanging.

Used by ``kingsheet score`` and ``flask games import``. A regular file over the limit is
refused from its size before it is read; anything else (a pipe, a FIFO, ``/dev/zero``,
standard input) is read up to one byte past the limit and refused there. A FIFO is opened
without waiting for a writer (no writer means an empty file). Standard library only.
"""
from __future__ import annotations

import os
import stat
import sys

from app.rules.limits import FILE_MAX


class FileProblem(Exception):
    """A file that cannot be read as a record file; ``str(e)`` says why (lower case)."""


def _too_large(limit: int) -> FileProblem:
    return FileProblem(f"larger than {limit // (1024 * 1024)} MB; a record file is far smaller")


def _read_fd(fd: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = os.read(fd, min(1 << 20, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > limit:
        raise _too_large(limit)
    return b"".join(chunks)


_OPEN_PROBLEMS: tuple[tuple[type[OSError], str], ...] = (
    (FileNotFoundError, "no such file"),
    (IsADirectoryError, "is a directory"),
    (PermissionError, "permission denied"),
)


def _read_stdin(limit: int) -> bytes:
    data = sys.stdin.buffer.read(limit + 1)
    if len(data) > limit:
        raise _too_large(limit)
    return data


def _open(path: str) -> int:
    """A descriptor of ``path`` opened without waiting (a FIFO with no writer)."""
    try:
        return os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        for kind, why in _OPEN_PROBLEMS:
            if isinstance(e, kind):
                raise FileProblem(why) from None
        raise FileProblem(f"cannot be read ({e.strerror})") from None


def _read_open(fd: int, limit: int) -> bytes:
    info = os.fstat(fd)
    if stat.S_ISDIR(info.st_mode):
        raise FileProblem("is a directory")
    if stat.S_ISREG(info.st_mode) and info.st_size > limit:
        raise _too_large(limit)
    os.set_blocking(fd, True)
    return _read_fd(fd, limit)


def read_limited(path: str, limit: int = FILE_MAX) -> bytes:
    """The bytes of ``path`` (``-``: standard input); FileProblem when it cannot be read or
    is larger than ``limit`` bytes."""
    if path == "-":
        return _read_stdin(limit)
    fd = _open(path)
    try:
        return _read_open(fd, limit)
    except OSError as e:
        raise FileProblem(f"cannot be read ({e.strerror})") from None
    finally:
        os.close(fd)
