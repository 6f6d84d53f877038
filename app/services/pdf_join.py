"""Joins PDF files into one while holding only one of them in memory (issue 28).

Each file is read in turn (pypdf's PdfReader) and every object reachable from its pages is
written to the output at once, under a new number; what stays in memory between files is
the byte offset of each object written (for the cross-reference table), the new numbers of
the pages and of the named destinations. The page tree (flat), the outline (one item per
bookmark), the catalog, the info dictionary and the cross-reference table are written at
the end. Objects are serialized by pypdf's own classes; streams keep their encoded data.

What a file holds beyond its pages is left out (its outline, its info, objects nothing on
a page refers to), except its named destinations (``/Names /Dests``; the first file to
name one wins, as with pypdf's PdfWriter.append).
"""
from __future__ import annotations

import hashlib
import os
from array import array
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

from pypdf import PdfReader
from pypdf.generic import (
    ArrayObject,
    ByteStringObject,
    DecodedStreamObject,
    DictionaryObject,
    EncodedStreamObject,
    IndirectObject,
    NameObject,
    NullObject,
    NumberObject,
    PdfObject,
    StreamObject,
    TextStringObject,
    create_string_object,
)

#: Page attributes a page takes from its page tree node when it has none of its own.
INHERITED = ("/Resources", "/MediaBox", "/CropBox", "/Rotate")

_Key = tuple[int, int]   # (object number, generation) in the file being read


def _ref(number: int) -> IndirectObject:
    return IndirectObject(number, 0, None)


def _name(key: str) -> NameObject:
    return NameObject(key)


def _entry(node: DictionaryObject, key: str) -> PdfObject | None:
    """``node[key]`` resolved, or None (``node.get`` gives the reference itself)."""
    value = node.get(key)
    return value.get_object() if isinstance(value, PdfObject) else None


class _Output:
    """The joined file as it is written: remembers only where each object starts."""

    def __init__(self, fh: BinaryIO) -> None:
        self.fh = fh
        self.offsets = array("Q", [0])     # by object number; 0 is the free head

    def reserve(self) -> int:
        self.offsets.append(0)
        return len(self.offsets) - 1

    def write(self, number: int, obj: PdfObject) -> None:
        self.offsets[number] = self.fh.tell()
        self.fh.write(b"%d 0 obj\n" % number)
        obj.write_to_stream(self.fh)
        self.fh.write(b"\nendobj\n")

    def add(self, obj: PdfObject) -> int:
        number = self.reserve()
        self.write(number, obj)
        return number


def _page_tree(reader: PdfReader) -> tuple[list[tuple[IndirectObject, dict[str, PdfObject]]], set[_Key]]:
    """The pages of ``reader`` in order, each with the attributes it inherits and lacks,
    and the keys of the page tree's nodes."""
    pages: list[tuple[IndirectObject, dict[str, PdfObject]]] = []
    nodes: set[_Key] = set()
    seen: set[_Key] = set()
    catalog = reader.trailer["/Root"]
    top = catalog.raw_get("/Pages") if isinstance(catalog, DictionaryObject) else None
    stack: list[tuple[PdfObject | None, dict[str, PdfObject]]] = [(top, {})]
    while stack:
        ref, inherited = stack.pop()
        if not isinstance(ref, IndirectObject) or (ref.idnum, ref.generation) in seen:
            continue                           # kids are references; a cycle is read once
        key = (ref.idnum, ref.generation)
        seen.add(key)
        node = ref.get_object()
        if not isinstance(node, DictionaryObject):
            continue
        if "/Kids" in node:
            nodes.add(key)
            here = {**inherited, **{a: node.raw_get(a) for a in INHERITED if a in node}}
            kids = node["/Kids"]
            if isinstance(kids, ArrayObject):
                stack.extend((kid, here) for kid in reversed(kids))
        else:
            pages.append((ref, {a: v for a, v in inherited.items() if a not in node}))
    return pages, nodes


def _name_tree(ref: PdfObject, depth: int = 0) -> Iterator[tuple[PdfObject, PdfObject]]:
    """The (key, value) pairs of a name tree, values unresolved."""
    node = ref.get_object()
    if not isinstance(node, DictionaryObject) or depth > 32:
        return
    names = _entry(node, "/Names")
    if isinstance(names, ArrayObject):
        for k in range(0, len(names) - 1, 2):
            yield names[k].get_object(), names[k + 1]
    kids = _entry(node, "/Kids")
    if isinstance(kids, ArrayObject):
        for kid in kids:
            yield from _name_tree(kid, depth + 1)


class _Part:
    """One file being copied: its object numbers mapped to the output's."""

    def __init__(self, out: _Output, reader: PdfReader, tree_root: int) -> None:
        self.out = out
        self.reader = reader
        self.tree_root = tree_root
        self.numbers: dict[_Key, int] = {}
        self.todo: deque[IndirectObject] = deque()
        self.inherited: dict[_Key, dict[str, PdfObject]] = {}
        catalog = reader.trailer.raw_get("/Root")
        self.catalog: _Key | None = ((catalog.idnum, catalog.generation)
                                     if isinstance(catalog, IndirectObject) else None)
        self.nodes: set[_Key] = set()

    def copy_pages(self) -> list[int]:
        """Numbers the pages (in order) and queues them; returns their new numbers."""
        pages, self.nodes = _page_tree(self.reader)
        for ref, inherited in pages:
            self.inherited[(ref.idnum, ref.generation)] = inherited
        return [self.number(ref) for ref, _ in pages]

    def copy_dests(self, known: dict[bytes, int]) -> None:
        """Writes the file's named destinations not named before into ``known`` (by the
        name's bytes)."""
        catalog = self.reader.trailer["/Root"]
        names = _entry(catalog, "/Names") if isinstance(catalog, DictionaryObject) else None
        if not isinstance(names, DictionaryObject) or "/Dests" not in names:
            return
        for key, value in _name_tree(names.raw_get("/Dests")):
            name = (key.original_bytes if isinstance(key, (TextStringObject, ByteStringObject))
                    else str(key).encode())
            if name not in known:
                found = value.get_object()
                known[name] = self.out.add(self.copy(NullObject() if found is None else found))

    def number(self, ref: IndirectObject) -> int:
        """The output's number of an object of the file (queued to be written)."""
        key = (ref.idnum, ref.generation)
        number = self.numbers.get(key)
        if number is None:
            number = self.numbers[key] = self.out.reserve()
            self.todo.append(ref)
        return number

    def map(self, ref: IndirectObject) -> PdfObject:
        """The output's reference for a reference of the file: a page tree node is the
        output's page tree, the file's catalog is nobody's."""
        key = (ref.idnum, ref.generation)
        if key in self.nodes:
            return _ref(self.tree_root)
        if key == self.catalog:
            return NullObject()
        return _ref(self.number(ref))

    def copy(self, obj: PdfObject) -> PdfObject:
        """``obj`` with every reference mapped to the output's (streams keep their data)."""
        if isinstance(obj, IndirectObject):
            return self.map(obj)
        if isinstance(obj, StreamObject):
            stream: StreamObject = EncodedStreamObject() if "/Filter" in obj else DecodedStreamObject()
            stream._data = obj._data                    # as encoded in the file
            for key, value in obj.items():
                if key != "/Length":                    # written from the data
                    stream[_name(key)] = self.copy(value)
            return stream
        if isinstance(obj, DictionaryObject):
            return DictionaryObject({_name(k): self.copy(v) for k, v in obj.items()})
        if isinstance(obj, ArrayObject):
            return ArrayObject(self.copy(v) for v in obj)
        return obj                                      # numbers, names, strings: immutable

    def drain(self) -> None:
        """Writes every object queued, and those they refer to."""
        while self.todo:
            ref = self.todo.popleft()
            key = (ref.idnum, ref.generation)
            found = ref.get_object()
            obj = NullObject() if found is None else found
            if key in self.inherited and isinstance(obj, DictionaryObject):
                page = DictionaryObject({_name(k): self.copy(v) for k, v in obj.items()
                                         if k != "/Parent"})
                for attr, value in self.inherited.pop(key).items():
                    page[_name(attr)] = self.copy(value)
                page[_name("/Parent")] = _ref(self.tree_root)
                self.out.write(self.numbers[key], page)
            else:
                self.out.write(self.numbers[key], self.copy(obj))


def _version(header: str) -> tuple[int, int]:
    try:
        major, minor = header.removeprefix("%PDF-").split(".")[:2]
        return int(major), int(minor)
    except ValueError:
        return 1, 7


def _outline(out: _Output, root: int, pages: Sequence[int],
             bookmarks: Sequence[tuple[str, int]]) -> DictionaryObject:
    """Writes one outline item per bookmark; returns the outline dictionary."""
    outline = DictionaryObject({_name("/Type"): _name("/Outlines"),
                                _name("/Count"): NumberObject(len(bookmarks))})
    if not bookmarks:
        return outline
    first = len(out.offsets)
    numbers = [out.reserve() for _ in bookmarks]
    for k, (label, page) in enumerate(bookmarks):
        item = DictionaryObject({
            _name("/Title"): create_string_object(label),
            _name("/Parent"): _ref(root),
            _name("/Dest"): ArrayObject([_ref(pages[page]), _name("/Fit")]),
        })
        if k > 0:
            item[_name("/Prev")] = _ref(numbers[k - 1])
        if k + 1 < len(numbers):
            item[_name("/Next")] = _ref(numbers[k + 1])
        out.write(numbers[k], item)
    outline[_name("/First")] = _ref(first)
    outline[_name("/Last")] = _ref(numbers[-1])
    return outline


def _write(fh: BinaryIO, parts: Iterable[Path], title: str | None,
           bookmarks: Sequence[tuple[str, int]]) -> int:
    fh.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    out = _Output(fh)
    tree_root, catalog, outline_root, info = (out.reserve() for _ in range(4))
    pages = array("Q")
    dests: dict[bytes, int] = {}
    version = (1, 7)
    for path in parts:
        with PdfReader(path) as reader:            # closing it drops its objects
            version = max(version, _version(reader.pdf_header))
            part = _Part(out, reader, tree_root)
            pages.extend(part.copy_pages())
            part.copy_dests(dests)
            part.drain()
            del part
    out.write(tree_root, DictionaryObject({
        _name("/Type"): _name("/Pages"),
        _name("/Kids"): ArrayObject(_ref(n) for n in pages),
        _name("/Count"): NumberObject(len(pages))}))
    out.write(outline_root, _outline(out, outline_root, pages, bookmarks))
    root = DictionaryObject({_name("/Type"): _name("/Catalog"), _name("/Pages"): _ref(tree_root),
                             _name("/Outlines"): _ref(outline_root)})
    if bookmarks:
        root[_name("/PageMode")] = _name("/UseOutlines")
    if dests:
        tree = ArrayObject()
        for name in sorted(dests):                  # a name tree is sorted by bytes
            tree.extend((ByteStringObject(name), _ref(dests[name])))
        root[_name("/Names")] = DictionaryObject({
            _name("/Dests"): DictionaryObject({_name("/Names"): tree})})
    if version > (1, 7):
        root[_name("/Version")] = _name(f"/{version[0]}.{version[1]}")
    out.write(catalog, root)
    metadata = {"/Producer": "kingsheet", **({"/Title": title} if title else {})}
    out.write(info, DictionaryObject({_name(k): create_string_object(v) for k, v in metadata.items()}))
    return _finish(out, catalog, info, len(pages))


def _finish(out: _Output, catalog: int, info: int, pages: int) -> int:
    """Writes the cross-reference table and the trailer."""
    fh = out.fh
    if 0 in out.offsets[1:]:
        raise RuntimeError("an object was numbered but never written")
    start = fh.tell()
    fh.write(b"xref\n0 %d\n0000000000 65535 f\r\n" % len(out.offsets))
    for offset in out.offsets[1:]:
        fh.write(b"%010d 00000 n\r\n" % offset)
    digest = ByteStringObject(hashlib.md5(out.offsets.tobytes(), usedforsecurity=False).digest())
    trailer = DictionaryObject({
        _name("/Size"): NumberObject(len(out.offsets)),
        _name("/Root"): _ref(catalog),
        _name("/Info"): _ref(info),
        _name("/ID"): ArrayObject([digest, digest]),
    })
    fh.write(b"trailer\n")
    trailer.write_to_stream(fh)
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
            pages = _write(fh, parts, title, bookmarks)
        os.replace(aside, target)
    except BaseException:
        aside.unlink(missing_ok=True)
        raise
    return pages


__all__ = ["INHERITED", "join_pdfs"]
