"""Printable PDFs: sheets of every profile, hand records, blank sheets, bulk exports, and a
renderer that reaches nothing but static/. Each PDF is rendered once per module."""
from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from app.rules import fingerprint, score_record
from app.web.words import signed
from tests.conftest import PLAYERS, load_record, make_app

PROFILES = ("ru32", "fiestas", "subastas", "rifki")
EVIL = '<b>Ana</b><img src="file:///etc/passwd">'
A4 = (595, 842)


def read(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


def text_of(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in read(data).pages)


def flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def page_size(page: Any) -> tuple[int, int]:
    box = page.mediabox
    return round(float(box.width)), round(float(box.height))


@pytest.fixture(scope="module")
def pdf_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from app.db import get_db

    path = tmp_path_factory.mktemp("pdf") / "kingsheet.sqlite"
    application = make_app(f"sqlite:///{path}")
    yield application
    get_db(application).dispose()


@pytest.fixture(scope="module")
def games(pdf_app: Any) -> dict[str, Any]:
    """profile -> (game id, record, report); plus "evil" (a player named with HTML) and
    "short" (a game in progress)."""
    from app.db import get_session
    from app.games.games import import_game

    out: dict[str, Any] = {}
    with pdf_app.app_context():
        session = get_session()
        for profile in PROFILES:
            record = load_record(f"{profile}_complete.json")
            game = import_game(session, record, who="test")
            out[profile] = (game.id, game.record, score_record(game.record))
        evil = load_record("fiestas_complete.json")
        evil["players"] = [EVIL] + PLAYERS[1:]
        game = import_game(session, evil, who="test")
        out["evil"] = (game.id, game.record, score_record(game.record))
        short = load_record("rifki_complete.json")
        short["hands"] = short["hands"][:5]
        game = import_game(session, short, who="test")
        out["short"] = (game.id, game.record, score_record(game.record))
    return out


@pytest.fixture(scope="module")
def client(pdf_app: Any) -> Any:
    c = pdf_app.test_client()
    c.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    return c


@pytest.fixture(scope="module")
def sheets(client: Any, games: dict[str, Any]) -> dict[str, Any]:
    """Every game's sheet PDF (the response), rendered once."""
    return {key: client.get(f"/games/{gid}/sheet.pdf") for key, (gid, _r, _s) in games.items()}


# --- the score sheet -------------------------------------------------------------------

@pytest.mark.parametrize("profile", PROFILES)
def test_sheet_pdf_holds_names_points_and_totals(profile: str, sheets: dict[str, Any],
                                                 games: dict[str, Any]) -> None:
    response = sheets[profile]
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF-")
    reader = read(response.data)
    assert 1 <= len(reader.pages) <= 2
    # the auction profiles (two more columns) print across the page unless asked otherwise
    size = A4 if profile in ("ru32", "rifki") else (A4[1], A4[0])
    assert all(page_size(p) == size for p in reader.pages)
    text = text_of(response.data)
    _gid, record, report = games[profile]
    for name in record["players"]:
        assert name in text
    words = set(text.split())
    for hand in report["hands"]:
        for value in hand["points"]:
            assert (signed(value) or "0") in words, (hand["number"], value)
    for total in report["totals"]:
        assert (signed(total) or "0") in words
    assert fingerprint(record) in text
    assert "Winner" in text
    assert "1 / " in text  # page numbers in the footer


def test_sheet_pdf_in_progress(sheets: dict[str, Any], games: dict[str, Any]) -> None:
    text = text_of(sheets["short"].data)
    _gid, record, report = games["short"]
    assert "In progress" in text
    for total in report["totals"]:
        assert (signed(total) or "0") in text.split()


def test_sheet_pdf_landscape(client: Any, games: dict[str, Any]) -> None:
    gid = games["rifki"][0]
    response = client.get(f"/games/{gid}/sheet.pdf?orientation=landscape")
    assert response.status_code == 200
    reader = read(response.data)
    assert all(page_size(p) == (A4[1], A4[0]) for p in reader.pages)
    assert client.get(f"/games/{gid}/sheet.pdf?orientation=sideways").status_code == 400
    portrait = client.get(f"/games/{games['fiestas'][0]}/sheet.pdf?orientation=portrait")
    assert all(page_size(p) == A4 for p in read(portrait.data).pages)


def test_rulings_and_violations_are_numbered_notes(pdf_app: Any) -> None:
    from app.printing.docs import RecordGame, sheet_doc

    record = load_record("ru32_complete.json")
    record["hands"][0]["ruling"] = {"kind": "adjusted", "points": [-2, -4, -6, -4],
                                    "reason": "cards exposed", "by": "Referee"}
    with pdf_app.test_request_context(headers={"Accept-Language": "en"}):
        doc = sheet_doc(RecordGame(record, id=99), "en")
        assert doc["notes"][0]["type"] == "ruling" and doc["hands"][0]["notes"] == [1]
        from app.printing.responses import export_sheet_pdf

        text = text_of(export_sheet_pdf(doc))
    assert "Rulings and violations" in text and "cards exposed" in text and "Referee" in text


# --- the hand record ---------------------------------------------------------------------

def _row_with(record: dict[str, Any], key: str) -> int:
    return next(i + 1 for i, h in enumerate(record["hands"]) if key in h)


@pytest.mark.parametrize("profile", PROFILES)
def test_hand_pdf_shows_tricks_and_deal(profile: str, client: Any, games: dict[str, Any]) -> None:
    gid, record, report = games[profile]
    row = _row_with(record, "tricks")
    response = client.get(f"/games/{gid}/hands/{row}.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert [page_size(p) for p in read(response.data).pages][0] == A4
    text = text_of(response.data)
    hand = report["hands"][row - 1]
    assert "Tricks" in text and "Winner" in text
    for value in hand["points"]:
        assert (signed(value) or "0") in text.split()
    for name in PLAYERS:
        assert name in text
    if "deal" in record["hands"][row - 1]:
        assert "The deal" in text
    first_trick = record["hands"][row - 1]["tricks"][0]
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    for card in first_trick:
        rank = "10" if card[0] == "T" else card[0]
        assert rank + symbols[card[1]] in text


def test_hand_pdf_of_counts(client: Any, games: dict[str, Any]) -> None:
    gid, record, report = games["rifki"]
    row = _row_with(record, "counts")
    text = text_of(client.get(f"/games/{gid}/hands/{row}.pdf").data)
    assert "Points" in text
    for value in report["hands"][row - 1]["points"]:
        assert (signed(value) or "0") in text.split()


# --- the blank sheet ---------------------------------------------------------------------

def test_blank_sheet_ru32_lists_the_schedule(client: Any, games: dict[str, Any]) -> None:
    from app.rules import get_profile

    response = client.get(f"/games/{games['ru32'][0]}/blank.pdf")
    assert response.status_code == 200
    text = text_of(response.data)
    for contract in get_profile("ru32").contracts.values():
        assert contract.name("en") in text
    assert "deals" in text and all(name in text for name in PLAYERS)


def test_blank_sheet_rifki_has_the_choice_grid(client: Any, games: dict[str, Any]) -> None:
    response = client.get(f"/games/{games['rifki'][0]}/blank.pdf")
    text = text_of(response.data)
    assert "Limitpergame" in flat(text)
    assert flat(text).count("3penalties+2koz") == 4 + 1  # each seat, and the options line
    assert "Koz" in text and "8" in text.split()
    assert len(read(response.data).pages) <= 2


# --- safety: names print literally, the renderer fetches nothing -------------------------

def test_html_name_prints_literally(sheets: dict[str, Any]) -> None:
    response = sheets["evil"]
    assert response.status_code == 200
    assert flat(EVIL) in flat(text_of(response.data))


def test_html_name_fetches_nothing(pdf_app: Any, games: dict[str, Any],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import app.printing.render as pdf_module

    spies: list[Any] = []
    real = pdf_module.make_fetcher

    def spy(*args: Any, **kwargs: Any) -> Any:
        spies.append(real(*args, **kwargs))
        return spies[-1]

    monkeypatch.setattr(pdf_module, "make_fetcher", spy)
    client = pdf_app.test_client()
    gid = games["evil"][0]
    assert client.get(f"/games/{gid}/hands/1.pdf").status_code == 200
    assert spies and all(f.requested == [] for f in spies)


def test_locked_fetcher_refuses_everything_but_static() -> None:
    from app.printing.render import STATIC_DIR, FetchRefused, make_fetcher

    fetcher = make_fetcher()
    for url in ("file:///etc/passwd", "http://example.com/x.png", "https://example.com/",
                "data:text/plain,hi", "ftp://example.com/x",
                (STATIC_DIR / "css" / "..").as_uri() + "/../app/printing/render.py",
                (STATIC_DIR / "no-such-file.css").as_uri()):
        with pytest.raises(FetchRefused):
            fetcher.fetch(url)
    assert len(fetcher.refused) == 7
    response = fetcher.fetch((STATIC_DIR / "css" / "pdf.css").as_uri())
    assert b"@page" in response.read()
    response.close()


def test_injected_image_is_refused_by_the_render(pdf_app: Any) -> None:
    """Even raw HTML (not from our templates) reaches nothing outside static/."""
    from app.printing.render import make_fetcher, render_pdf

    fetcher = make_fetcher()
    data = render_pdf('<p>x<img src="file:///etc/passwd"><img src="http://127.0.0.1:9/x.png">'
                      '<link rel="stylesheet" href="/etc/passwd"></p>', fetcher=fetcher)
    assert data.startswith(b"%PDF-")
    assert fetcher.refused and set(fetcher.refused) == set(fetcher.requested)
    assert any("etc/passwd" in u for u in fetcher.refused)


def test_renders_share_one_font_configuration(pdf_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh FontConfiguration reloads fontconfig and a Pango font map: made once per process."""
    import weasyprint.text.fonts

    from app.printing import render as pdf

    made = []
    original = weasyprint.text.fonts.FontConfiguration
    monkeypatch.setattr(weasyprint.text.fonts, "FontConfiguration",
                        lambda: made.append(1) or original())
    monkeypatch.setattr(pdf, "_font_config", None)
    for _ in range(3):
        assert pdf.render_pdf("<!doctype html><p>x</p>").startswith(b"%PDF-")
    assert made == [1] and pdf.font_config() is pdf.font_config()


def test_the_collector_is_paused_during_a_render_only(pdf_app: Any) -> None:
    import gc

    from app.printing.render import render_pdf

    seen = []
    assert gc.isenabled()
    render_pdf("<!doctype html><p>x</p>", progress=lambda stage, pages: seen.append(gc.isenabled()))
    assert seen == [False, False] and gc.isenabled()
    gc.disable()
    try:  # a caller that had it off keeps it off
        render_pdf("<!doctype html><p>x</p>")
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(ZeroDivisionError):  # a failed render gives the collector back too
        render_pdf("<!doctype html><p>x</p>", progress=lambda stage, pages: 1 / 0)
    assert gc.isenabled()


def test_text_is_selectable_with_suit_glyphs(sheets: dict[str, Any]) -> None:
    text = text_of(sheets["rifki"].data)
    assert any(s in text for s in "♠♥♦♣")
    fonts = {str(font.get_object()["/BaseFont"]).split("+")[-1]
             for page in read(sheets["rifki"].data).pages
             for font in page["/Resources"]["/Font"].values()}
    # text and tables in DejaVu Sans Condensed, titles in DejaVu Serif: named fonts,
    # never a fallback, never the monospaced family
    assert fonts <= {"DejaVu-Sans-Semi-Condensed", "DejaVu-Sans-Bold-Semi-Condensed",
                     "DejaVu-Serif", "DejaVu-Serif-Bold"}, fonts


# --- bulk exports ------------------------------------------------------------------------

def test_bulk_pdf_has_the_pages_of_every_sheet(pdf_app: Any, games: dict[str, Any],
                                               sheets: dict[str, Any]) -> None:
    from app.db import get_session
    from app.printing.docs import game_sheet_doc
    from app.printing.responses import export_bulk_pdf

    keys = list(PROFILES) + ["short"]
    with pdf_app.test_request_context(headers={"Accept-Language": "en"}):
        docs = [game_sheet_doc(get_session(), games[k][0], "en") for k in keys]
        data = export_bulk_pdf(docs)
    expected = sum(len(read(sheets[k].data).pages) for k in keys)
    assert len(read(data).pages) == expected
    text = text_of(data)
    for k in keys:
        assert fingerprint(games[k][1]) in text


def test_exports_page_builds_one_pdf_with_progress(client: Any, pdf_app: Any,
                                                   games: dict[str, Any],
                                                   sheets: dict[str, Any]) -> None:
    from app.db import get_session
    from app.models import Player
    from app.printing.runner import wait_for_job

    page = client.get("/exports")
    assert page.status_code == 200 and b'name="date_from"' in page.data
    assert client.post("/exports", data={"player": "0"}).status_code == 400  # nothing picked
    with pdf_app.app_context():
        evil_id = get_session().query(Player).filter_by(name=EVIL).one().id
    response = client.post("/exports", data={"player": str(evil_id), "orientation": "auto"})
    assert response.status_code == 303
    job_url = response.headers["Location"]
    job_id = job_url.rstrip("/").rsplit("/", 1)[-1]
    wait_for_job(pdf_app, job_id)
    status = client.get(f"/exports/{job_id}.json").get_json()
    assert status["state"] == "done", status
    assert status["percent"] == 100 and status["done"] == status["total"] == 1
    html = client.get(job_url).data.decode()
    assert 'id="export-progress"' in html and status["pdf_url"] in html
    with client.get(status["pdf_url"]) as data:
        assert data.status_code == 200 and data.mimetype == "application/pdf"
        assert len(read(data.data).pages) == len(read(sheets["evil"].data).pages) == status["pages"]


def test_exports_by_date_range(client: Any, pdf_app: Any, games: dict[str, Any]) -> None:
    from datetime import date

    from app.printing.runner import wait_for_job

    today = date.today().isoformat()
    response = client.post("/exports", data={"date_from": "2000-01-01", "date_to": "2999-12-31",
                                             "player": "0", "orientation": "landscape"})
    assert response.status_code == 303, today
    job = wait_for_job(pdf_app, response.headers["Location"].rsplit("/", 1)[-1])
    assert job.state == "done" and job.total == len(games)
    with client.get(f"/exports/{job.id}.pdf") as response:
        reader = read(response.data)
    assert all(page_size(p) == (A4[1], A4[0]) for p in reader.pages)
    assert len(reader.pages) >= len(games)
    empty = client.post("/exports", data={"date_from": "2000-01-01", "date_to": "2000-01-02", "player": "0"})
    job = wait_for_job(pdf_app, empty.headers["Location"].rsplit("/", 1)[-1])
    assert job.state == "error" and client.get(f"/exports/{job.id}.pdf").status_code == 404
    assert client.get(f"/exports/{job.id}.json").get_json()["error"] == "No games match."


def test_export_form_needs_csrf(tmp_path: Path) -> None:
    from app.db import get_db

    application = make_app(f"sqlite:///{tmp_path / 'k.sqlite'}", WTF_CSRF_ENABLED=True)
    try:
        c = application.test_client()
        assert b'name="csrf_token"' in c.get("/exports").data
        assert c.post("/exports", data={"date_from": "2000-01-01"}).status_code == 400
    finally:
        get_db(application).dispose()


# --- routes, links, 404s --------------------------------------------------------------------

def test_unknown_games_hands_and_jobs_are_404(client: Any, games: dict[str, Any]) -> None:
    gid, record, _report = games["ru32"]
    for url in ("/games/9999/sheet.pdf", "/games/9999/blank.pdf", "/games/9999/hands/1.pdf",
                f"/games/{gid}/hands/0.pdf", f"/games/{gid}/hands/{len(record['hands']) + 1}.pdf",
                "/exports/nope", "/exports/nope.json", "/exports/nope.pdf"):
        assert client.get(url).status_code == 404, url


def test_sheet_page_links_every_pdf_and_shows_the_fingerprint(client: Any, games: dict[str, Any]) -> None:
    gid, record, _report = games["fiestas"]
    html = client.get(f"/games/{gid}").data.decode()
    assert f'href="/games/{gid}/sheet.pdf"' in html
    assert f'href="/games/{gid}/sheet.pdf?orientation=landscape"' in html
    assert f'href="/games/{gid}/blank.pdf"' in html
    for row in range(1, len(record["hands"]) + 1):
        assert f'href="/games/{gid}/hands/{row}.pdf"' in html
    assert fingerprint(record) in html
    assert "Print the sheet (PDF)" in html
    entry = client.get(f"/games/{gid}/hands/2/edit").data.decode()
    assert f'href="/games/{gid}/hands/2.pdf"' in entry


def test_links_in_the_page_language(pdf_app: Any, games: dict[str, Any]) -> None:
    c = pdf_app.test_client()
    c.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    gid = games["ru32"][0]
    html = c.get(f"/games/{gid}").data.decode()
    assert "Imprimir la hoja (PDF)" in html and "Hoja en blanco (PDF)" in html
    assert "Huella del registro" in html and "Exportar" in html
    text = text_of(c.get(f"/games/{gid}/sheet.pdf").data)
    assert "Totales" in text and "firma" in text


def test_the_spanish_hand_pdf_says_why_it_ended_early_in_spanish(pdf_app: Any,
                                                                 games: dict[str, Any]) -> None:
    """The engine explains an early end as a template and params; the page writes it in
    its language (no English sentence in a Spanish record)."""
    from app.rules import load

    gid, record, _report = games["fiestas"]
    hand = next(h for h in load(record).hands if h.ended_early)
    client = pdf_app.test_client()
    es = flat(text_of(client.get(f"/games/{gid}/hands/{hand.index + 1}.pdf",
                                 headers={"Accept-Language": "es"}).data))
    assert flat("terminó antes: se han llevado todas las cartas que puntúan") in es
    assert flat(f"en la baza {len(hand.trick_cards)})") in es
    assert "every" not in es and "taken" not in es
    en = flat(text_of(client.get(f"/games/{gid}/hands/{hand.index + 1}.pdf",
                                 headers={"Accept-Language": "en"}).data))
    assert flat(f"ended early: {hand.early_end_reason}") in en


def test_the_hand_pdf_says_how_a_sale_was_settled(pdf_app: Any, games: dict[str, Any]) -> None:
    """Hand 10 of the subastas game: Ana buys at -2 and the owner (Dani) takes 1 trick; the
    default settlement pays 75 (RULES.md 1.3), and the printed hand says why."""
    gid, _record, report = games["subastas"]
    assert report["hands"][9]["payments"] == [-75, 0, 0, 75]
    client = pdf_app.test_client()
    es = flat(text_of(client.get(f"/games/{gid}/hands/10.pdf", headers={"Accept-Language": "es"}).data))
    assert flat("Pago: Ana compró a −2: 75 por cada baza que tomó Dani (1), hasta 150; "
                "Ana paga 75 a Dani") in es
