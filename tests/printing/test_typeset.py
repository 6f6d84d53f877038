"""The printed sheets are typeset, not dumped: checked with poppler's own tools.

Each profile's sheet (in Spanish, with long full names) is rendered through the app;
``pdffonts`` must list only named DejaVu faces and no monospaced one, ``pdftotext`` must
find every full name, the notes in Spanish, the localized date, the fingerprint and the
game's link. A season's standings (the whole season and one profile) are checked the same
way. Page 1 of every sheet, hand record, blank sheet and standings is kept as a PNG under
test-artifacts/pdf/ (ignored by git; ``$KINGSHEET_ARTIFACTS/pdf`` when that is set) for a
reviewer to look at.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from babel.dates import format_date

from app.rules import fingerprint
from tests.conftest import load_record, make_app
from tests.web.test_referee import REVOKE, finish_without_deal

PROFILES = ("ru32", "fiestas", "subastas", "rifki")
NAMES = ["María José Fernández de la Vega", "Bartolomé Esteban Murillo", "Ana",
         "Juan Carlos Rodríguez Zapatero"]
ARTIFACTS = Path(os.environ.get("KINGSHEET_ARTIFACTS")
                 or Path(__file__).resolve().parents[2] / "test-artifacts") / "pdf"


def poppler(tool: str, *args: str) -> str:
    path = shutil.which(tool)
    assert path, f"{tool} (poppler-utils) is needed: make system-deps"
    return subprocess.run([path, *args], check=True, capture_output=True, text=True).stdout


def flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def es_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from app.db import get_db

    application = make_app(f"sqlite:///{tmp_path_factory.mktemp('typeset') / 'k.sqlite'}")
    yield application
    get_db(application).dispose()


@pytest.fixture(scope="module")
def pdfs(es_app: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """profile -> {"id", "record", "sheet", "hand", "blank": Path of the PDF}. The ru32
    game opens with a proven revoke and carries a ruling on hand 2."""
    from app.db import get_session
    from app.games.games import import_game

    out_dir = tmp_path_factory.mktemp("typeset-pdfs")
    client = es_app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    out: dict[str, Any] = {}
    for profile in PROFILES:
        record = load_record(f"{profile}_complete.json")
        record["players"] = list(NAMES)
        if profile == "ru32":
            plays = finish_without_deal(REVOKE)
            record["hands"][0] = {"contract": "no-tricks",
                                  "tricks": [plays[k:k + 4] for k in range(0, 32, 4)]}
            record["hands"][1]["ruling"] = {"kind": "adjusted", "points": [-2, -4, -6, -4],
                                            "reason": "cartas mostradas", "by": "Árbitro"}
        with es_app.app_context():
            game = import_game(get_session(), record, who="test")
            gid, stored = game.id, game.record
        files = {}
        for kind, url in (("sheet", f"/games/{gid}/sheet.pdf"), ("hand", f"/games/{gid}/hands/3.pdf"),
                          ("blank", f"/games/{gid}/blank.pdf")):
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            path = out_dir / f"{profile}-{kind}.pdf"
            path.write_bytes(response.data)
            files[kind] = path
            screenshot(path, f"{profile}-{kind}")
        out[profile] = {"id": gid, "record": stored, **files}
    return out


def screenshot(pdf: Path, name: str) -> Path:
    """Page 1 of ``pdf`` as ARTIFACTS/<name>.png, put in place whole (made beside it, then
    renamed): another test process making the same picture meanwhile (CI: a worker read
    subastas-blank.png at 0 bytes while one rewrote it) sees the old file or the new one."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=ARTIFACTS) as work:
        poppler("pdftoppm", "-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile", str(pdf),
                str(Path(work) / name))
        os.replace(Path(work) / f"{name}.png", ARTIFACTS / f"{name}.png")
    return ARTIFACTS / f"{name}.png"


def fonts_of(path: Path) -> list[str]:
    """The font names pdffonts lists (subset prefixes removed)."""
    lines = poppler("pdffonts", str(path)).splitlines()[2:]
    return [line.split()[0].split("+")[-1] for line in lines if line.strip()]


@pytest.mark.parametrize("kind", ["sheet", "hand", "blank"])
@pytest.mark.parametrize("profile", PROFILES)
def test_set_in_named_proportional_dejavu_faces(profile: str, kind: str, pdfs: dict[str, Any]) -> None:
    fonts = fonts_of(pdfs[profile][kind])
    assert fonts, "no font embedded"
    assert not [f for f in fonts if "mono" in f.lower()], fonts
    assert all(f.startswith("DejaVu-") for f in fonts), fonts
    assert "DejaVu-Sans-Semi-Condensed" in fonts  # the table's face, named in pdf.css


@pytest.mark.parametrize("profile", PROFILES)
def test_sheet_text_has_full_names_date_fingerprint_and_link(profile: str, pdfs: dict[str, Any]) -> None:
    game = pdfs[profile]
    text = poppler("pdftotext", "-enc", "UTF-8", str(game["sheet"]), "-")
    for name in NAMES:  # never cut: a long name wraps in its column
        assert flat(name) in flat(text), name
    assert "…" not in text
    assert format_date(date.today(), format="long", locale="es") in text
    assert "Huella del registro" in text and fingerprint(game["record"]) in text
    assert f"/games/{game['id']}" in flat(text)  # the address the QR code holds
    assert "Hoja de puntuación".upper() in text.upper() and "Totales" in text
    assert "Gana" in text or "Ganan" in text


def test_notes_are_in_the_sheets_language(pdfs: dict[str, Any]) -> None:
    text = poppler("pdftotext", "-enc", "UTF-8", str(pdfs["ru32"]["sheet"]), "-")
    assert "Decisiones e infracciones" in text
    assert "Asistir al palo" in text and "baza 1" in text           # the revoke
    assert "puntos ajustados" in text and "cartas mostradas" in text  # the ruling
    assert "por Árbitro" in text
    for english in ("note", "Note", "follow suit", "trick 1", "adjusted points", " by "):
        assert english not in text, english


def suit_words(pdf: Path) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every word of page 1 that holds a suit symbol, with its box in points (top-left origin)."""
    xml = poppler("pdftotext", "-bbox", "-f", "1", "-l", "1", "-enc", "UTF-8", str(pdf), "-")
    number = r'"([\d.]+)"'
    words = re.findall(rf"<word xMin={number} yMin={number} xMax={number} yMax={number}>([^<]*)</word>", xml)
    return [(w, (float(a), float(b), float(c), float(d))) for a, b, c, d, w in words
            if any(s in w for s in "♠♥♦♣")]


def red_pixels(image: Any, box: tuple[float, float, float, float], dpi: int) -> int:
    """How many clearly red pixels (the sheet's #c0262d, anti-aliased) lie in ``box``."""
    x0, y0, x1, y1 = (round(v * dpi / 72) for v in box)
    data = image.crop((x0, y0, x1 + 1, y1 + 1)).tobytes()   # RGB, 3 bytes a pixel
    pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
    return sum(1 for r, g, b in pixels if r > 140 and g < 110 and b < 110 and r - g > 60)


@pytest.mark.parametrize("profile", PROFILES)
def test_red_suits_print_red_black_suits_black(profile: str, pdfs: dict[str, Any], tmp_path: Path) -> None:
    """♥ and ♦ print red wherever page 1 of the sheet names them: a trump in the contract
    column (whose second line is styled apart), a card in the header's sentences ("who
    holds the 2♦", "the K♥"); ♠ and ♣ print black."""
    from PIL import Image

    dpi = 150
    pdf = pdfs[profile]["sheet"]
    poppler("pdftoppm", "-png", "-r", str(dpi), "-f", "1", "-l", "1", "-singlefile", str(pdf),
            str(tmp_path / "page"))
    image = Image.open(tmp_path / "page.png").convert("RGB")
    words = suit_words(pdf)
    red = [(w, box) for w, box in words if "♥" in w or "♦" in w]
    black = [(w, box) for w, box in words if w.strip("♠♣") != w and "♥" not in w and "♦" not in w]
    assert red or black, "no suit on page 1"
    # a trump ends its contract's first line: who chose it is on the next one, not glued on
    assert not [w for w, _box in words if re.search(r"[♠♥♦♣][^\W\d_]", w)], words
    if profile in ("fiestas", "rifki"):   # hearts or diamonds trumps in the contract column
        assert [w for w, _box in red if w in "♥♦"], red
    for word, box in red:
        assert red_pixels(image, box, dpi) >= 3, f"{word!r} at {box} is not printed red"
    for word, box in black:
        assert red_pixels(image, box, dpi) == 0, f"{word!r} at {box} is printed red"


def pages_of_classes(html: str) -> dict[str, set[int]]:
    """Lay ``html`` out as render_pdf does; for each class name, the pages (from 0) that
    hold a box of an element with that class."""
    from app.printing.render import render_document

    document = render_document(html)
    found: dict[str, set[int]] = {}
    for number, page in enumerate(document.pages):
        for box in page._page_box.descendants():
            element = getattr(box, "element", None)
            for name in (element.get("class") or "").split() if element is not None else ():
                found.setdefault(name, set()).add(number)
    return found


def test_the_chart_and_the_signatures_are_never_split(es_app: Any, pdfs: dict[str, Any]) -> None:
    """A sheet long enough to run onto a second page (rifki, 20 hands, long names and a ruling
    on every other hand): the chart's title, plot and legend stay on one page (the legend used
    to land alone on page 2, under the signatures), the verdict stays with the table, the four
    signatures stay together."""
    import copy

    from flask import render_template

    from app.db import get_session
    from app.games.games import import_game
    from app.printing.docs import game_sheet_doc
    from app.rules import score_record

    record = copy.deepcopy(pdfs["rifki"]["record"])
    for i in range(0, 20, 2):
        points = score_record(copy.deepcopy(record))["hands"][i]["points"]
        record["hands"][i]["ruling"] = {"kind": "adjusted", "points": points[1:] + points[:1],
                                        "reason": "cartas mostradas antes de tiempo", "by": "Árbitro"}
    with es_app.test_request_context("/", headers={"Accept-Language": "es"}):
        gid = import_game(get_session(), record, who="test").id
        doc = game_sheet_doc(get_session(), gid, "es")
        pages = pages_of_classes(render_template("pdf/sheet.html", docs=[doc], orientation="auto"))
    assert max(pages["page-foot"]) == 1, "this sheet was meant to need two pages"
    assert len(pages["chart"] | pages["legend"]) == 1, pages
    assert pages["verdict"] == pages["chart"] == {0}, pages   # the result on the table's page
    assert len(pages["signatures"]) == 1, pages


def test_qr_code_holds_the_game_link(es_app: Any, pdfs: dict[str, Any]) -> None:
    import segno

    from app.printing.views import game_link, pdf_qr

    gid = pdfs["fiestas"]["id"]
    with es_app.test_request_context("/"):
        link = game_link(gid)
        svg = str(pdf_qr(link))
    assert link.endswith(f"/games/{gid}")
    assert svg.startswith('<svg class="qr"') and "<path" in svg and "http" not in svg
    expected = segno.make(link, error="m").svg_inline(scale=1, border=0, omitsize=True, dark="#16181b")
    assert svg.split(">", 1)[1] == expected.split(">", 1)[1]  # the same code, nothing fetched


def test_screenshots_of_every_profile_are_kept(pdfs: dict[str, Any]) -> None:
    """Each PDF of this run has its page 1 kept as a PNG under ARTIFACTS: made from it
    (not left by an earlier run), as wide and high as that page at 80 dpi, not blank."""
    import struct

    from pypdf import PdfReader

    for profile in PROFILES:
        for kind in ("sheet", "hand", "blank"):
            pdf, png = pdfs[profile][kind], ARTIFACTS / f"{profile}-{kind}.png"
            assert png.exists() and png.stat().st_size > 10_000, png
            assert png.stat().st_mtime >= pdf.stat().st_mtime, f"{png} is older than its PDF"
            data = png.read_bytes()
            assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", png
            width, height = struct.unpack(">II", data[16:24])
            box = PdfReader(pdf).pages[0].mediabox
            expected = (float(box.width) * 80 / 72, float(box.height) * 80 / 72)
            assert abs(width - expected[0]) <= 2 and abs(height - expected[1]) <= 2, (png, width, height)


# --- a season's standings ------------------------------------------------------------------

CLUB = NAMES + ["Eva", "Francisco Javier de Goya y Lucientes", "Gloria", "Héctor"]


@pytest.fixture(scope="module")
def standings_pdfs(es_app: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A season with finished games of three profiles among eight players (two of them
    with very long names), one game before it; its standings PDF for the whole season and
    for fiestas only."""
    from app.db import get_session
    from app.games.imports import check_one, write_chunk
    from app.stats.seasons import save_season

    out_dir = tmp_path_factory.mktemp("standings-pdfs")
    with es_app.app_context():
        session = get_session()
        for k, profile in enumerate(("fiestas", "ru32", "rifki", "fiestas", "ru32", "fiestas")):
            for table in range(2):
                record = load_record(f"{profile}_complete.json")
                record["players"] = [CLUB[(k + table * 4 + s) % len(CLUB)] for s in range(4)]
                when = datetime(2026, 1, 5 + k, 20, 0, tzinfo=UTC)
                write_chunk(session, [check_one(record)], who="test", played_at=when, players={})
        before = load_record("fiestas_complete.json")
        before["players"] = ["Ana", "Eva", "Gloria", "Héctor"]
        write_chunk(session, [check_one(before)], who="test",
                    played_at=datetime(2025, 12, 30, tzinfo=UTC), players={})
        season_id = save_season(session, name="Liga de invierno 2026", starts_on=date(2026, 1, 1),
                                ends_on=date(2026, 3, 31)).id
    client = es_app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    out = {"id": season_id}
    for kind, query in (("season", ""), ("fiestas", "?profile=fiestas")):
        response = client.get(f"/seasons/{season_id}/standings.pdf{query}")
        assert response.status_code == 200 and response.mimetype == "application/pdf"
        path = out_dir / f"standings-{kind}.pdf"
        path.write_bytes(response.data)
        screenshot(path, f"standings-{kind}")
        out[kind] = path
    return out


@pytest.mark.parametrize("kind", ["season", "fiestas"])
def test_standings_are_typeset_like_the_sheets(kind: str, standings_pdfs: dict[str, Any]) -> None:
    fonts = fonts_of(standings_pdfs[kind])
    assert fonts and not [f for f in fonts if "mono" in f.lower()], fonts
    assert "DejaVu-Sans-Semi-Condensed" in fonts and "DejaVu-Serif-Bold" in fonts, fonts
    text = poppler("pdftotext", "-enc", "UTF-8", str(standings_pdfs[kind]), "-")
    assert "Liga de invierno 2026" in text and "CLASIFICACIÓN" in text.upper()
    assert "1 de enero de 2026 – 31 de marzo de 2026" in text   # the days, written in Spanish
    for name in CLUB:  # every player, full names wrapped, never cut
        assert flat(name) in flat(text), name
    words = text.split()
    for label in ("Partidas jugadas", "Victorias", "Compartidas", "Puntos", "Media", "Kings hechos",
                  "Infracciones"):
        assert all(w in words for w in label.split()), label   # headers whole, not broken in a word
    assert "Reyes" not in words                                 # the cards, not Kings made
    assert f"/seasons/{standings_pdfs['id']}" in flat(text)   # the address the QR code holds
    assert "Impreso el " + format_date(date.today(), format="long", locale="es") in text
    assert "…" not in text


def test_season_standings_show_the_leaderboard_then_every_profile(standings_pdfs: dict[str, Any]) -> None:
    text = poppler("pdftotext", "-enc", "UTF-8", str(standings_pdfs["season"]), "-")
    assert "12 partidas terminadas" in text and "8 jugadores" in text
    board = text.index("todos los juegos")
    order = [text.index(p, board) for p in ("King ruso", "King con fiestas", "King turco (Rıfkı)")]
    assert board < min(order), order
    assert "6 partidas terminadas" in text     # fiestas: 3 days x 2 tables
    only = poppler("pdftotext", "-enc", "UTF-8", str(standings_pdfs["fiestas"]), "-")
    assert "6 partidas terminadas" in only and "todos los juegos" not in only
    assert "King ruso" not in only


def test_standings_screenshots_are_kept(standings_pdfs: dict[str, Any]) -> None:
    for kind in ("season", "fiestas"):
        png = ARTIFACTS / f"standings-{kind}.png"
        assert png.exists() and png.stat().st_size > 10_000, png
