"""Issue 28: a bulk export's parts are joined one part at a time (app/printing/join.py,
through pypdf's writer): the joined PDF has every page of every part in order with its own
text, one outline item per game on its page, the title in its metadata, and opens in
poppler, in pypdf's strict mode and in qpdf (when installed); what the join holds does not
grow with the parts."""
from __future__ import annotations

import io
import logging
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import weasyprint
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject

from app.printing.join import join_pdfs

#: (font, the text of each page) of each document rendered by WeasyPrint
DOCS = [
    ("DejaVu Serif", ["Primera partida de Ana y Beto"]),
    ("DejaVu Sans Mono", ["Segunda partida, hoja uno", "Segunda partida, hoja dos"]),
    ("Liberation Sans", ["Üçüncü oyun: Rıfkı"]),
    ("DejaVu Sans", ["Четвёртая игра"]),
]
TITLE = "Partidas — Liga de otoño · Ümit"
BOOKMARKS = [("Game 1", 0), ("Liga de otoño · Ümit", 1), ("Üçüncü", 3), ("Четвёртая игра", 4)]


def poppler(tool: str, *args: str) -> str:
    path = shutil.which(tool)
    assert path, f"{tool} (poppler-utils) is needed: make system-deps"
    done = subprocess.run([path, *args], check=True, capture_output=True, text=True)
    assert "Error" not in done.stderr, done.stderr
    return done.stdout


def page_text(pdf: Path, page: int) -> str:
    """Page ``page`` (from 0) as pdftotext reads it."""
    return poppler("pdftotext", "-enc", "UTF-8", "-f", str(page + 1), "-l", str(page + 1), str(pdf), "-")


def texts(pdf: Path) -> list[str]:
    return [page_text(pdf, k) for k in range(len(PdfReader(pdf).pages))]


def render(font: str, pages: list[str], anchor: str) -> bytes:
    """A document of one page per text; its first page is named ``anchor`` and its last
    links back to it."""
    body = "".join(f'<p style="break-before: page">{text}</p>' for text in pages[1:])
    return weasyprint.HTML(string=(
        f'<html><body style="font-family: {font}"><p id="{anchor}">{pages[0]}</p>{body}'
        f'<a href="#{anchor}">top</a></body></html>')).write_pdf()


def well_formed(pdf: Path, caplog: pytest.LogCaptureFixture) -> PdfReader:
    """qpdf --check passes (when qpdf is installed); pypdf opens it strictly, saying nothing."""
    qpdf = shutil.which("qpdf")
    if qpdf:
        subprocess.run([qpdf, "--check", str(pdf)], check=True, capture_output=True)
    with caplog.at_level(logging.WARNING, logger="pypdf"):
        reader = PdfReader(pdf, strict=True)
        for page in reader.pages:
            page.extract_text()
        assert reader.outline is not None and reader.named_destinations is not None
    assert [r.getMessage() for r in caplog.records if r.name.startswith("pypdf")] == []
    return reader


@pytest.fixture(scope="module")
def parts(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Three parts: the first two documents appended as the export appends its games
    (pypdf's PdfWriter), then the last two as WeasyPrint wrote them (object streams and a
    compressed cross-reference table)."""
    root = tmp_path_factory.mktemp("join")
    docs = [render(font, pages, f"doc-{k}") for k, (font, pages) in enumerate(DOCS)]
    writer = PdfWriter()
    for data in docs[:2]:
        writer.append(io.BytesIO(data), import_outline=False)
    first = root / "p0.pdf"
    with open(first, "wb") as fh:
        writer.write(fh)
    paths = [first]
    for k, data in enumerate(docs[2:], start=1):
        paths.append(root / f"p{k}.pdf")
        paths[-1].write_bytes(data)
    return paths


@pytest.fixture(scope="module")
def joined(parts: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("joined") / "export.pdf"
    assert join_pdfs(parts, target, title=TITLE, bookmarks=BOOKMARKS) == 5
    return target


def test_the_joined_pages_are_the_parts_pages_in_order(parts, joined):
    expected = [text for part in parts for text in texts(part)]
    assert len(expected) == len(PdfReader(joined).pages) == 5
    assert texts(joined) == expected
    for k, line in enumerate(line for _, pages in DOCS for line in pages):
        assert line in expected[k]


def test_one_outline_item_per_bookmark_on_its_page_and_the_title(joined, caplog):
    reader = well_formed(joined, caplog)
    assert [(str(item.title), reader.get_destination_page_number(item))
            for item in reader.outline] == BOOKMARKS
    assert reader.page_mode == "/UseOutlines"
    assert reader.metadata is not None and reader.metadata.title == TITLE
    assert reader.metadata.producer == "kingsheet"
    assert f"Title:           {TITLE}" in poppler("pdfinfo", "-enc", "UTF-8", str(joined))
    # each document's own anchor still names its first page
    assert {name: reader.get_destination_page_number(dest)
            for name, dest in reader.named_destinations.items()} == {
        "doc-0": 0, "doc-1": 1, "doc-2": 3, "doc-3": 4}


def test_the_joined_file_is_written_aside_then_moved(parts, tmp_path):
    target = tmp_path / "export.pdf"
    target.write_bytes(b"an older export")
    with pytest.raises(IndexError):          # a bookmark past the last page
        join_pdfs(parts, target, title=None, bookmarks=[("Game 9", 9)])
    assert target.read_bytes() == b"an older export"
    assert [p.name for p in tmp_path.iterdir()] == ["export.pdf"]
    assert join_pdfs(parts, target, title=None) == 5
    reader = PdfReader(target)
    assert reader.outline == [] and reader.page_mode is None
    assert reader.metadata is not None and reader.metadata.title is None


def handmade() -> bytes:
    """Two pages taking /Resources, /MediaBox and /Rotate from their page tree node (the
    second has its own /MediaBox), a content stream whose /Length is an object of its own,
    a link on page 1 whose /P and /Dest name pages 1 and 2, and an object no page uses."""
    first = b"BT /F1 18 Tf 20 100 Td (Handmade first) Tj ET"
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /MediaBox [0 0 300 200] /Rotate 90"
           b" /Resources << /Font << /F1 5 0 R >> >> >>",
        3: b"<< /Type /Page /Parent 2 0 R /Contents 6 0 R /Annots [8 0 R] >>",
        4: b"<< /Type /Page /Parent 2 0 R /Contents 9 0 R /MediaBox [0 0 400 400] >>",
        5: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        6: b"<< /Length 7 0 R >>\nstream\n" + first + b"\nendstream",
        7: b"%d" % len(first),
        8: b"<< /Type /Annot /Subtype /Link /Rect [20 90 120 120] /P 3 0 R /Dest [4 0 R /Fit] >>",
        9: b"<< /Length 46 >>\nstream\nBT /F1 18 Tf 20 100 Td (Handmade second) Tj ET\nendstream",
        10: b"<< /Unused (NOBODY-POINTS-HERE) >>",
    }
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in sorted(objects.items()):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f\r\n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n\r\n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def test_inherited_attributes_links_and_indirect_lengths(parts, tmp_path, caplog):
    made = tmp_path / "handmade.pdf"
    made.write_bytes(handmade())
    assert "Handmade first" in page_text(made, 0)
    target = tmp_path / "export.pdf"
    sources = [parts[2], made, made]
    assert join_pdfs(sources, target, title="t", bookmarks=[("a", 0), ("b", 1), ("c", 3)]) == 5
    assert b"NOBODY-POINTS-HERE" not in target.read_bytes()
    assert texts(target) == [text for source in sources for text in texts(source)]
    reader = well_formed(target, caplog)
    pages = reader.pages
    assert [(list(map(float, p.mediabox)), p.rotation) for p in pages[1:]] == [
        ([0, 0, 300, 200], 90), ([0, 0, 400, 400], 90)] * 2
    for first in (1, 3):           # each copy's link points at its own pages
        page = pages[first]
        assert "/Font" in page["/Resources"]
        (annot,) = [a.get_object() for a in page["/Annots"]]
        assert isinstance(annot, DictionaryObject)
        assert annot.raw_get("/P") == page.indirect_reference
        dest = annot["/Dest"]
        assert isinstance(dest, ArrayObject) and isinstance(dest[0], IndirectObject)
        assert dest[0] == pages[first + 1].indirect_reference


def test_what_the_join_holds_does_not_grow_with_the_parts(parts, tmp_path):
    """Measured in a process of its own: tracemalloc counts every thread's allocations, and
    an export runner left by an earlier test of this worker allocates as it polls."""
    program = textwrap.dedent("""
        import sys, tracemalloc
        from pathlib import Path
        from app.printing import exports

        part, out = sys.argv[1], Path(sys.argv[2])

        def peak(copies):
            bookmarks = [(f"Game {k}", 3 * k) for k in range(copies)]
            tracemalloc.start()
            try:
                assert exports._join([part] * copies, out / f"{copies}.pdf", "t", bookmarks) == 3 * copies
                return tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()

        peak(2)                       # first use: whatever pypdf sets up once
        print(peak(10), peak(40))
    """)
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", program, str(parts[0]), str(tmp_path)], cwd=root,
                          capture_output=True, text=True, check=True, timeout=300)
    small, big = map(int, done.stdout.split())
    assert big < 1.5 * small, (small, big)
