"""Finished PDF renders kept on disk, so that an unchanged game's PDF is rendered once.

A render is kept under a key naming everything its bytes depend on (the caller builds it:
the record's digest, the language, the orientation, the address printed in the footer ...)
plus :func:`layout_version`, a hash of what turns those into pages: the PDF templates,
``static/css/pdf.css``, the message catalogs, the app's code and WeasyPrint's version. A
change to any of them is a new key, so a kept file is never stale; old keys age out.

The folder (``instance/pdf-cache`` by default) may be shared by every worker and every app
server that mounts it:

- a file is written under a temporary name in the same folder and then renamed into place
  (``os.replace``, atomic on one file system): a reader sees no file or a whole one;
- each file starts with a line holding the SHA-256 and length of the PDF after it, checked
  on every read: a truncated or damaged file is removed and rendered again, never served;
- the folder's total size is bounded: after each write the oldest files (by modification
  time; a read refreshes it at most once per :data:`TOUCH_AFTER`) are removed until the rest
  fit. Two processes trimming at once at worst remove a file both chose (that is allowed).

Standard library only: no Flask (the web layer owns the keys, :mod:`app.printing.responses`).
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import threading
import time
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Bump to drop every kept render (a change of the file format or of what a key means).
CACHE_FORMAT = 1
#: The first line of a kept file: this, the PDF's SHA-256 (hex) and length, a newline.
MAGIC = b"%kingsheet-pdf-cache-1 "
_HEADER_LEN = len(MAGIC) + 64 + 1 + 12 + 1
#: A read refreshes a file's time (so that files in use are evicted last) when it is older.
TOUCH_AFTER = 3600.0
#: A temporary file this old was left by a process that died while writing.
STALE_TMP = 600.0
_TMP_PREFIX = ".tmp-"


class PdfCache:
    """PDF bytes by key in the folder ``root``, at most ``max_bytes`` in all."""

    def __init__(self, root: Path | str, max_bytes: int) -> None:
        self.root = Path(root)
        self.max_bytes = max_bytes
        self.root.mkdir(parents=True, exist_ok=True)

    def path(self, key: str) -> Path:
        return self.root / (hashlib.sha256(key.encode("utf-8")).hexdigest() + ".pdf")

    def get(self, key: str) -> bytes | None:
        """The PDF kept under ``key``; None when there is none or it does not check out
        (then the file is removed)."""
        path = self.path(key)
        try:
            with open(path, "rb") as fh:
                blob = fh.read()
                mtime = os.fstat(fh.fileno()).st_mtime
        except OSError:
            return None
        data = _unpack(blob)
        if data is None:
            path.unlink(missing_ok=True)
            return None
        if time.time() - mtime > TOUCH_AFTER:
            with contextlib.suppress(OSError):
                os.utime(path)
        return data

    def put(self, key: str, data: bytes) -> None:
        """Keeps ``data`` under ``key`` (written aside, then renamed into place), then
        trims the folder to its bound. A PDF larger than the bound is not kept."""
        if len(data) + _HEADER_LEN > self.max_bytes:
            return
        path = self.path(key)
        tmp = self.root / f"{_TMP_PREFIX}{os.getpid()}-{threading.get_ident()}-{secrets.token_hex(4)}"
        try:
            with open(tmp, "wb") as fh:
                fh.write(_header(data))
                fh.write(data)
            os.replace(tmp, path)
        except OSError:
            tmp.unlink(missing_ok=True)
            return
        self.trim()

    def trim(self) -> int:
        """Removes the oldest files until the folder holds at most ``max_bytes`` (and
        temporary files left by a dead writer). Returns the bytes kept."""
        now = time.time()
        files: list[tuple[float, int, str]] = []
        total = 0
        try:
            entries = list(os.scandir(self.root))
        except OSError:
            return 0
        for entry in entries:
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue          # removed meanwhile by another process
            if entry.name.startswith(_TMP_PREFIX):
                if now - st.st_mtime > STALE_TMP:
                    _unlink(entry.path)
                continue          # being written: counted once it is renamed
            if not entry.is_file(follow_symlinks=False):
                continue
            files.append((st.st_mtime, st.st_size, entry.path))
            total += st.st_size
        if total > self.max_bytes:
            for _mtime, size, path in sorted(files):
                _unlink(path)
                total -= size
                if total <= self.max_bytes:
                    break
        return total

    def size(self) -> int:
        """The bytes of the kept files (what the bound limits)."""
        return sum(p.stat().st_size for p in self.root.glob("*.pdf"))


def _unlink(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def _header(data: bytes) -> bytes:
    return MAGIC + hashlib.sha256(data).hexdigest().encode() + b" " + b"%012d" % len(data) + b"\n"


def _unpack(blob: bytes) -> bytes | None:
    """The PDF of a kept file, if its header says so and its bytes match it."""
    if len(blob) < _HEADER_LEN or not blob.startswith(MAGIC):
        return None
    head = blob[:_HEADER_LEN]
    data = blob[_HEADER_LEN:]
    try:
        length = int(head[len(MAGIC) + 65:-1])
    except ValueError:
        return None
    if length != len(data) or hashlib.sha256(data).hexdigest().encode() != head[len(MAGIC):len(MAGIC) + 64]:
        return None
    return data


# --- the layout version ---------------------------------------------------------------

#: What turns a game into pages, besides the code: read for every key (a stat each), hashed
#: again when one changes (app.printing.render reads the PDF stylesheet again when it changes).
LAYOUT_GLOBS = ("templates/pdf/*.html", "static/css/pdf.css",
                "translations/*/LC_MESSAGES/messages.po")

_layout_lock = threading.Lock()
_layout: tuple[tuple[tuple[str, int, int], ...], str] | None = None
_code: str | None = None
_files: list[Path] | None = None


def _hash_files(paths: Iterable[Path], h: hashlib._Hash) -> None:
    for path in paths:
        h.update(str(path.relative_to(ROOT)).encode() + b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")


def _code_version() -> str:
    """The app's code (the engine, the words, the doc builders, this module ...) and the
    renderer's version: hashed once per process (code changes need a restart)."""
    global _code
    if _code is None:
        import weasyprint

        h = hashlib.sha256(f"{CACHE_FORMAT} weasyprint {weasyprint.__version__}\0".encode())
        _hash_files(sorted((ROOT / "app").rglob("*.py")), h)
        _code = h.hexdigest()
    return _code


def _layout_files() -> list[Path]:
    """The files of :data:`LAYOUT_GLOBS` (listed once per process: a new template is
    included by one that changes)."""
    global _files
    if _files is None:
        _files = sorted(p for pattern in LAYOUT_GLOBS for p in ROOT.glob(pattern))
    return _files


def layout_version() -> str:
    """A hash of everything besides a key's own values that a kept PDF's bytes depend on."""
    global _layout
    stamps = []
    for path in _layout_files():
        try:
            st = path.stat()
        except OSError:
            continue
        stamps.append((str(path), st.st_mtime_ns, st.st_size))
    seen = tuple(stamps)
    with _layout_lock:
        if _layout is not None and _layout[0] == seen:
            return _layout[1]
    h = hashlib.sha256(_code_version().encode())
    _hash_files((Path(p) for p, _m, _s in seen), h)
    version = h.hexdigest()[:32]
    with _layout_lock:
        _layout = (seen, version)
    return version
