"""Issue 28, item 1: a finished PDF is rendered once per content and kept on disk
(app/printing/cache.py): a repeat download renders nothing; another language, orientation,
record or footer address renders anew; the folder stays under its bound; a damaged or
half-written file is never served; the bulk export shares the kept sheets."""
from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from tests.conftest import load_record
from tests.web.helpers import sql_statements


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch, app: Any) -> list[str]:
    """The HTML of every PDF this test's app rendered (app.printing.responses's render_pdf,
    counted; its export runner renders in the app's context too). A render of another
    app in this process -- an earlier test's export runner finishing a job -- is not
    counted: the suite saw 3 renders for 2 and 4 for 2 under load."""
    from flask import current_app, has_app_context

    from app.printing import responses

    seen: list[str] = []
    real = responses.render_pdf

    def counting(html: str, *args: Any, **kwargs: Any) -> bytes:
        if has_app_context() and current_app._get_current_object() is app:  # type: ignore[attr-defined]
            seen.append(html)
        return real(html, *args, **kwargs)

    monkeypatch.setattr(responses, "render_pdf", counting)
    return seen


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def cache_files(app: Any) -> list[Path]:
    return sorted(Path(app.config["PDF_CACHE_DIR"]).glob("*.pdf"))


def get_pdf(client: Any, url: str, **kwargs: Any) -> bytes:
    r = client.get(url, **kwargs)
    assert r.status_code == 200 and r.mimetype == "application/pdf", r.status_code
    assert r.data.startswith(b"%PDF-")
    return bytes(r.data)


def test_a_second_download_renders_nothing(app, client, make_game, renders):
    gid = make_game(record=load_record("ru32_complete.json"))
    first = get_pdf(client, f"/games/{gid}/sheet.pdf")
    assert len(renders) == 1 and len(cache_files(app)) == 1
    again = get_pdf(client, f"/games/{gid}/sheet.pdf")
    assert again == first and len(renders) == 1
    # another user, another phone: the same file
    other = app.test_client(user="sam", role="player")
    other.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    assert get_pdf(other, f"/games/{gid}/sheet.pdf") == first and len(renders) == 1
    # the hand record and the blank sheet are kept the same way
    hand = get_pdf(client, f"/games/{gid}/hands/2.pdf")
    blank = get_pdf(client, f"/games/{gid}/blank.pdf")
    assert len(renders) == 3
    assert get_pdf(client, f"/games/{gid}/hands/2.pdf") == hand
    assert get_pdf(client, f"/games/{gid}/blank.pdf") == blank
    assert len(renders) == 3
    assert get_pdf(client, f"/games/{gid}/hands/3.pdf") != hand and len(renders) == 4


def test_a_phone_asking_again_gets_304(client, make_game, renders):
    gid = make_game(record=load_record("ru32_complete.json"))
    r = client.get(f"/games/{gid}/sheet.pdf")
    tag = r.headers["ETag"]
    again = client.get(f"/games/{gid}/sheet.pdf", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.data == b"" and len(renders) == 1


def test_language_orientation_record_and_footer_render_anew(app, client, make_game, renders):
    from app.db import get_session
    from app.games import hands as hands_service
    from app.games import links, queries

    record = load_record("ru32_complete.json")
    last = record["hands"].pop()
    gid = make_game(record=record)
    url = f"/games/{gid}/sheet.pdf"
    english = get_pdf(client, url)
    spanish = get_pdf(client, url, headers={"Accept-Language": "es"})
    assert len(renders) == 2 and "signature" in pdf_text(english)
    assert "firma" in pdf_text(spanish) and "signature" not in pdf_text(spanish)
    landscape = get_pdf(client, url + "?orientation=landscape")
    assert len(renders) == 3 and landscape != english
    assert get_pdf(client, url + "?orientation=landscape") == landscape and len(renders) == 3
    # the record changes: its new content renders anew, the old file is not served
    with app.app_context():
        session = get_session()
        game = queries.get_game(session, gid)
        hands_service.record_hand(session, game, last, expected_version=game.version)
    changed = get_pdf(client, url)
    assert len(renders) == 4 and changed != english
    assert f"{len(record['hands']) + 1}" in pdf_text(changed)
    # a share link changes the address the footer prints (and QR-codes): a new render,
    # which the share link's own PDF then finds kept
    with app.app_context():
        token = links.share_link(get_session(), gid).token
    shared = get_pdf(client, url)
    assert len(renders) == 5 and token in pdf_text(shared).replace("\n", "")
    anonymous = app.test_client(user=None)
    anonymous.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    assert get_pdf(anonymous, f"/s/{token}/sheet.pdf") == shared and len(renders) == 5
    assert get_pdf(anonymous, f"/s/{token}/hands/1.pdf") and len(renders) == 6
    assert get_pdf(client, f"/games/{gid}/hands/1.pdf") and len(renders) == 6


def test_a_damaged_or_half_written_file_is_never_served(app, client, make_game, renders):
    gid = make_game(record=load_record("ru32_complete.json"))
    url = f"/games/{gid}/sheet.pdf"
    good = get_pdf(client, url)
    (path,) = cache_files(app)
    whole = path.read_bytes()
    for damaged in (whole[: len(whole) // 2],                         # cut short
                    whole[:-100] + b"x" * 100,                         # changed bytes
                    whole[:200],                                       # header and a bit
                    b"",                                               # empty
                    good):                                             # a bare PDF, no header
        path.write_bytes(damaged)
        before = len(renders)
        assert get_pdf(client, url) == good
        assert len(renders) == before + 1              # rendered again, not served
        assert path.read_bytes() == whole              # and kept whole again
    assert get_pdf(client, url) == good and len(renders) == 6


def test_a_record_that_no_longer_replays_is_not_kept(app, client, make_game, renders):
    from sqlalchemy import update

    from app.db import get_session
    from app.models import Game

    gid = make_game(record=load_record("ru32_complete.json"))
    with app.app_context():
        session = get_session()
        record = dict(session.get(Game, gid).record)
        record["hands"] = [*record["hands"][:2], {**record["hands"][2], "contract": "bogus"}]
        session.execute(update(Game).where(Game.id == gid).values(record=record))
        session.commit()
    assert client.get(f"/games/{gid}/sheet.pdf").status_code == 422
    assert cache_files(app) == [] and renders == []


def test_the_folder_stays_under_its_bound_oldest_out_first(tmp_path):
    import os

    from app.printing.cache import PdfCache

    cache = PdfCache(tmp_path, max_bytes=10_000)
    blobs = {f"k{n}": b"%PDF-" + bytes([n]) * 3000 for n in range(8)}
    for n, (key, data) in enumerate(blobs.items()):
        cache.put(key, data)
        os.utime(cache.path(key), (1000 + n, 1000 + n))       # put in this order
        assert cache.size() <= 10_000
    kept = [key for key in blobs if cache.get(key) is not None]
    assert kept == ["k5", "k6", "k7"]                         # the newest that fit
    for key in kept:
        assert cache.get(key) == blobs[key]
    cache.put("huge", b"x" * 20_000)                          # larger than the bound: not kept
    assert cache.get("huge") is None and cache.size() <= 10_000


def test_a_read_keeps_a_file_in_use_from_eviction(tmp_path):
    import os

    from app.printing.cache import TOUCH_AFTER, PdfCache

    cache = PdfCache(tmp_path, max_bytes=10_000)
    cache.put("old", b"o" * 3000)
    cache.put("other", b"t" * 3000)
    os.utime(cache.path("old"), (1, 1))
    os.utime(cache.path("other"), (2 * TOUCH_AFTER, 2 * TOUCH_AFTER))
    assert cache.get("old") is not None                       # read: its time refreshed
    cache.put("new", b"n" * 3000)
    cache.put("newer", b"m" * 3000)
    assert cache.get("old") is not None and cache.get("other") is None


def test_writers_and_readers_sharing_the_folder_never_see_half_a_file(tmp_path):
    """Several processes (here threads, each its own PdfCache on one folder) writing and
    reading the same keys: a read is nothing or a whole PDF, never a part."""
    from app.printing.cache import PdfCache

    blobs = {f"k{n}": bytes([65 + n]) * (200_000 + n) for n in range(4)}
    bad: list[Any] = []

    def work(seed: int) -> None:
        cache = PdfCache(tmp_path, max_bytes=600_000)      # about three fit: evictions too
        for k in range(60):
            key = f"k{(seed + k) % 4}"
            if k % 2:
                cache.put(key, blobs[key])
            else:
                found = cache.get(key)
                if found is not None and found != blobs[key]:
                    bad.append((key, len(found)))

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert bad == []
    assert PdfCache(tmp_path, 600_000).size() <= 600_000
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".tmp-")]


def test_layout_version_follows_the_templates_and_stylesheet(monkeypatch, tmp_path):
    from app.printing import cache as pdf_cache

    css = tmp_path / "pdf.css"
    css.write_text("a { color: red }")
    monkeypatch.setattr(pdf_cache, "_files", [css])
    monkeypatch.setattr(pdf_cache, "_layout", None)
    monkeypatch.setattr(pdf_cache, "ROOT", tmp_path)
    first = pdf_cache.layout_version()
    assert pdf_cache.layout_version() == first
    css.write_text("a { color: blue }")
    assert pdf_cache.layout_version() != first


def test_a_bulk_export_shares_the_kept_sheets(app, client, make_game, renders):
    from app.printing.runner import wait_for_job

    gids = [make_game(record=load_record(f"{p}_complete.json")) for p in ("ru32", "fiestas")]
    single = get_pdf(client, f"/games/{gids[0]}/sheet.pdf")
    assert len(renders) == 1
    r = client.post("/exports", data={"date_from": "2000-01-01", "date_to": "2999-12-31",
                                      "player": "0", "orientation": "auto"})
    job = wait_for_job(app, r.headers["Location"].rsplit("/", 1)[-1])
    assert job.state == "done"
    assert len(renders) == 2                       # the first game's sheet was kept
    assert get_pdf(client, f"/games/{gids[1]}/sheet.pdf") and len(renders) == 2
    with client.get(f"/exports/{job.id}.pdf") as r:
        joined = r.data
    assert pdf_text(single) in pdf_text(joined)


def test_a_kept_pdf_reads_one_statement_besides_the_login(app, client, make_game, renders):
    """A download that finds its render kept reads the game's stamp (version, stored
    digest, share link) in one statement: not the record, no replay."""
    from app.games import links

    gid = make_game(record=load_record("ru32_complete.json"))
    with app.app_context():
        from app.db import get_session

        token = links.share_link(get_session(), gid).token
    anonymous = app.test_client(user=None)
    anonymous.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    first = get_pdf(anonymous, f"/s/{token}/sheet.pdf")
    assert get_pdf(client, f"/games/{gid}/sheet.pdf") == first    # (the site has users: kept)
    with sql_statements(app) as statements:
        assert get_pdf(anonymous, f"/s/{token}/sheet.pdf") == first
        assert len(statements) == 1 and "record_digest" in statements[0]
        statements.clear()
        assert get_pdf(client, f"/games/{gid}/sheet.pdf") == first
        assert len(statements) == 2                      # the logged-in user, the stamp
    assert len(renders) == 1


def test_a_folder_that_cannot_be_made_keeps_nothing_and_serves_anyway(app, client, make_game, renders,
                                                                    tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    app.config["PDF_CACHE_DIR"] = str(blocker / "pdf-cache")
    app.extensions.pop("pdf_cache", None)
    gid = make_game(record=load_record("ru32_complete.json"))
    assert get_pdf(client, f"/games/{gid}/sheet.pdf") == get_pdf(client, f"/games/{gid}/sheet.pdf")
    assert len(renders) == 2
