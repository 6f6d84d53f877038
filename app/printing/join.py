"""Joins PDF files into one while holding only one of them in memory (issue 28).

pypdf's own writer does the copying: each file is appended (``PdfWriter.append``: its
pages with everything they use, inherited attributes, links, named destinations) to a
writer of its own whose objects are numbered after those already written, and they go to
the output at once; that writer and the file's reader are then dropped. A last writer
makes the page tree, the outline (one item per bookmark), the name tree, the catalog and
the info. What stays in memory between files is the byte offset of each object written,
the numbers of the pages and the named destinations (and, at the end, the outline).

This thin wrapper rather than one ``PdfWriter`` for all the files (or qpdf through
pikepdf), because those hold every file's objects until the output is written: joining
the parts of 1,000 one-page games (29 MB) peaked at 346 MB with pypdf's writer and 294 MB
with pikepdf, 47 MB here (5,000 games: 60 MB; docs/decisions.md). How: every pypdf writer
starts with the same three objects (info, page tree, catalog: :data:`HEAD`, the output's
own), and a file's writer is given the number of objects before its own (its object list
filled up to there, pypdf's ``_objects``), so its pages' ``/Parent`` is the output's page
tree and every reference it writes is already the output's number.

What a file holds beyond its pages is left out (its outline, its info, objects nothing
on a page refers to), except its named destinations (``/Names /Dests``; the first file
to name one wins, as with pypdf's PdfWriter.append).
"""
from __future__ import annotations

import hashlib
import os
from array import array
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import BinaryIO, cast

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    ByteStringObject,
    DictionaryObject,
    IndirectObject,
    NameObject,
    NullObject,
    NumberObject,
    PdfObject,
    TextStringObject,
)

#: The objects every writer starts with (info, page tree, catalog): the output's own.
INFO, PAGES, CATALOG = 1, 2, 3
HEAD = 3


def _writer(before: int) -> PdfWriter:
    """A pypdf writer whose next object is number ``before + 1``."""
    writer = PdfWriter()
    objects: list[PdfObject | None] = writer._objects
    root = writer.root_object
    if (len(objects) != HEAD or root.raw_get("/Pages").idnum != PAGES
            or getattr(root.indirect_reference, "idnum", None) != CATALOG):
        raise RuntimeError("pypdf's writer no longer starts with info, page tree, catalog")
    objects.extend([None] * (before - HEAD))
    return writer


def _version(header: str) -> tuple[int, int]:
    try:
        major, minor = header.removeprefix("%PDF-").split(".")[:2]
        return int(major), int(minor)
    except ValueError:
        return 1, 7


def _rebound(value: PdfObject, writer: PdfWriter) -> PdfObject:
    """A destination's references as ``writer``'s: the file's writer can then go."""
    if isinstance(value, IndirectObject):
        return IndirectObject(value.idnum, value.generation, writer)
    if isinstance(value, ArrayObject):
        return ArrayObject(_rebound(v, writer) for v in value)
    return value


def _name_key(name: PdfObject) -> bytes:
    """A name tree's key as bytes (the tree is sorted by them)."""
    if isinstance(name, (TextStringObject, ByteStringObject)):
        return name.original_bytes
    return str(name).encode()


def _own(root: DictionaryObject) -> set[int]:
    """The numbers of a writer's own outline root and name tree: not a file's objects."""
    found = set()
    for key in ("/Outlines", "/Names"):
        ref = root.get(key)
        if isinstance(ref, IndirectObject):
            found.add(ref.idnum)
            inner = ref.get_object()
            dests = inner.get("/Dests") if isinstance(inner, DictionaryObject) else None
            if key == "/Names" and isinstance(dests, IndirectObject):
                found.add(dests.idnum)
    return found


class _Output:
    """The joined file as it is written: remembers only where each object starts."""

    def __init__(self, fh: BinaryIO) -> None:
        self.fh = fh
        self.offsets = array("Q", [0] * (HEAD + 1))     # by number; 0 is the free head
        self.pages = array("Q")
        self.dests: dict[bytes, tuple[PdfObject, PdfObject]] = {}
        self.version = (1, 7)
        self.end = PdfWriter()                           # the page tree, outline, catalog, info
        fh.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")

    def write(self, number: int, obj: PdfObject | None) -> None:
        self.offsets[number] = self.fh.tell()
        self.fh.write(b"%d 0 obj\n" % number)
        (NullObject() if obj is None else obj).write_to_stream(self.fh)
        self.fh.write(b"\nendobj\n")

    def append(self, path: Path) -> None:
        """Copies the file's pages and named destinations, then forgets them."""
        before = len(self.offsets) - 1
        writer = _writer(before)
        with PdfReader(path) as reader:
            writer.append(reader, import_outline=False)
        self.version = max(self.version, _version(writer.pdf_header))
        tree = writer.get_named_dest_root()     # (made, and so left out, when it has none)
        for k in range(0, len(tree) - 1, 2):
            key = _name_key(tree[k])
            if key not in self.dests:
                self.dests[key] = (tree[k], _rebound(tree[k + 1], self.end))
        root = writer.root_object
        own = _own(root)
        kids = cast(DictionaryObject, root["/Pages"])["/Kids"]
        self.pages.extend(ref.idnum for ref in cast(ArrayObject, kids))
        objects: list[PdfObject | None] = writer._objects
        self.offsets.extend([0] * (len(objects) - before))
        for number in range(before + 1, len(objects) + 1):
            self.write(number, None if number in own else objects[number - 1])

    def finish(self, title: str | None, bookmarks: Sequence[tuple[str, int]]) -> int:
        """The page tree, the outline, the named destinations, the catalog and the info,
        then the cross-reference table and the trailer."""
        end = self.end
        objects: list[PdfObject | None] = end._objects
        objects.extend([None] * (len(self.offsets) - 1 - HEAD))
        refs = [IndirectObject(n, 0, end) for n in self.pages]
        tree = cast(DictionaryObject, end.root_object["/Pages"])
        tree[NameObject("/Kids")] = ArrayObject(refs)
        tree[NameObject("/Count")] = NumberObject(len(refs))
        for label, page in bookmarks:
            end.add_outline_item(title=label, page_number=refs[page])
        if bookmarks:
            end.page_mode = "/UseOutlines"
        if self.dests:
            names = end.get_named_dest_root()
            for key in sorted(self.dests):           # a name tree is sorted by bytes
                names.extend(self.dests[key])
        if self.version > (1, 7):
            end.root_object[NameObject("/Version")] = NameObject(f"/{self.version[0]}.{self.version[1]}")
        end.add_metadata({"/Producer": "kingsheet", **({"/Title": title} if title else {})})
        first = len(self.offsets)
        self.offsets.extend([0] * (len(objects) + 1 - first))
        for number in (*range(1, HEAD + 1), *range(first, len(objects) + 1)):
            self.write(number, objects[number - 1])
        return self._xref(len(refs))

    def _xref(self, pages: int) -> int:
        fh = self.fh
        if 0 in self.offsets[1:]:
            raise RuntimeError("an object was numbered but never written")
        start = fh.tell()
        fh.write(b"xref\n0 %d\n0000000000 65535 f\r\n" % len(self.offsets))
        for offset in self.offsets[1:]:
            fh.write(b"%010d 00000 n\r\n" % offset)
        digest = ByteStringObject(hashlib.md5(self.offsets.tobytes(), usedforsecurity=False).digest())
        fh.write(b"trailer\n")
        DictionaryObject({
            NameObject("/Size"): NumberObject(len(self.offsets)),
            NameObject("/Root"): IndirectObject(CATALOG, 0, self.end),
            NameObject("/Info"): IndirectObject(INFO, 0, self.end),
            NameObject("/ID"): ArrayObject([digest, digest]),
        }).write_to_stream(fh)
        fh.write(b"\nstartxref\n%d\n%%%%EOF\n" % start)
        return pages


def join_pdfs(parts: Iterable[Path], target: Path, *, title: str | None = None,
              bookmarks: Sequence[tuple[str, int]] = ()) -> int:
    """The PDF files ``parts`` as one PDF at ``target`` (written aside, then moved there),
    with one outline item per ``(label, page index)`` of ``bookmarks`` and ``title`` in
    its metadata. Returns the number of pages."""
    aside = target.with_name(target.name + ".tmp")
    try:
        with open(aside, "wb", buffering=1 << 20) as fh:
            out = _Output(fh)
            for path in parts:
                out.append(path)
            pages = out.finish(title, bookmarks)
        os.replace(aside, target)
    except BaseException:
        aside.unlink(missing_ok=True)
        raise
    return pages


__all__ = ["join_pdfs"]
