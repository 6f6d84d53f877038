"""Issue 8, item 3: bulk exports are jobs in the database, their files under the exports
folder; any worker answers for any job, a requester runs one job at a time, the site's
renders and waiting list are bounded and taken in turn by requester (issue 23.8), jobs are
claimed once, rendered in chunks, interrupted jobs are reported
and old files cleaned up."""
from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from tests.conftest import load_record, make_app

pytestmark = pytest.mark.every_database

POST = {"date_from": "2000-01-01", "date_to": "2999-12-31", "player": "0", "orientation": "auto"}


@pytest.fixture
def no_runner(monkeypatch: pytest.MonkeyPatch) -> None:
    """Jobs stay queued (nobody renders them) unless a test runs them."""
    from app.printing.runner import ExportRunner

    monkeypatch.setattr(ExportRunner, "notify", lambda self: None)


def score_free(record: dict[str, Any]) -> dict[str, Any]:
    """The record as stored (canonical, every option named), whose fingerprint the PDF
    footer prints."""
    from app.games.records import new_game_record

    return new_game_record(record)[0]


def _job_id(response: Any) -> str:
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return str(response.headers["Location"].rsplit("/", 1)[-1])


def _games(make_game: Any, n: int) -> list[int]:
    record = load_record("ru32_complete.json")
    return [make_game(record=record) for _ in range(n)]


def test_any_worker_answers_for_any_job(app, client, make_game, database_url, monkeypatch):
    from app.printing import exports
    from app.printing.runner import wait_for_job

    monkeypatch.setattr(exports, "CHUNK", 2)      # 3 games: two parts, joined
    from app.rules import fingerprint

    records = [load_record(f"{p}_complete.json") for p in ("ru32", "fiestas", "rifki")]
    gids = [make_game(record=record) for record in records]
    job_id = _job_id(client.post("/exports", data=POST))
    job = wait_for_job(app, job_id)
    assert job.state == "done" and job.total == job.progress == 3
    # another worker: its own app (own memory, own runner) on the same database and folder
    other = make_app(database_url, EXPORTS_DIR=app.config["EXPORTS_DIR"])
    c2 = other.test_client()
    status = c2.get(f"/exports/{job_id}.json").get_json()
    assert status["state"] == "done" and status["percent"] == 100
    assert c2.get(f"/exports/{job_id}").status_code == 200
    with c2.get(status["pdf_url"]) as r:
        assert r.status_code == 200 and r.mimetype == "application/pdf"
        reader = PdfReader(__import__("io").BytesIO(r.data))
        assert len(reader.pages) == status["pages"] >= 3
        text = "".join(page.extract_text() for page in reader.pages)
        for record in records:       # every game's sheet, in the joined file
            assert fingerprint(score_free(record)) in text
        # one bookmark per game, on its first page
        marks = [(str(item.title), reader.get_destination_page_number(item))
                 for item in reader.outline]
        assert [m[0] for m in marks] == [f"Game {gid}" for gid in gids]
        starts, page = [], 0
        for gid in gids:
            starts.append(page)
            with c2.get(f"/games/{gid}/sheet.pdf") as single:
                page += len(PdfReader(__import__("io").BytesIO(single.data)).pages)
        assert [m[1] for m in marks] == starts and page == len(reader.pages)
    folder = Path(app.config["EXPORTS_DIR"])
    assert sorted(p.name for p in folder.iterdir()) == [f"{job_id}.pdf"]   # no part left
    from app.db import get_db

    get_db(other).dispose()


def test_a_requester_with_a_running_job_is_told_to_wait(client, make_game, no_runner):
    _games(make_game, 1)
    first = _job_id(client.post("/exports", data=POST))
    r = client.post("/exports", data=POST)
    assert _job_id(r) == first
    page = client.get(f"/exports/{first}").get_data(as_text=True)
    assert "Your previous export is still being prepared" in page
    # somebody else may queue theirs
    other = client.application.test_client(user="otra", role="scorer")
    assert _job_id(other.post("/exports", data=POST)) != first
    from app.db import get_db
    from app.models import ExportJob

    with get_db(client.application).sessionmaker() as s:
        owners = sorted(str(j.owner) for j in s.query(ExportJob))
    assert len(owners) == 2 and all(o.startswith("user:") for o in owners)


def test_an_anonymous_requester_is_this_browser(client, make_game, no_runner):
    """Without a signed-in user (should a deployment open the page) the browser's session
    names the requester."""
    from app.printing.views import _requester

    app = client.application
    with app.test_request_context("/exports"):
        first = _requester()
        assert not first.startswith("user:") and _requester() == first


def _set(app: Any, job_id: str, **values: Any) -> None:
    from sqlalchemy import update

    from app.db import get_db
    from app.models import ExportJob

    with get_db(app).sessionmaker() as s:
        s.execute(update(ExportJob).where(ExportJob.id == job_id).values(**values))
        s.commit()


def test_eight_accounts_do_not_lock_out_a_ninth(app, make_game, no_runner):
    """Issue 23.8: eight accounts, each with a job rendering, fill the site's renders; a
    ninth account's job is still accepted, waits, and runs when a render is free."""
    from app.db import get_db, utcnow
    from app.printing import exports
    from app.printing.runner import runner

    assert exports.RUNNING_MAX == 8
    _games(make_game, 1)
    eight = [_job_id(app.test_client(user=f"u{k}", role="scorer").post("/exports", data=POST))
             for k in range(8)]
    db = get_db(app)
    with db.sessionmaker() as s:
        for k in range(8):
            assert exports.claim_next(s, f"host:{k}") is not None
    ninth = _job_id(app.test_client(user="u8", role="scorer").post("/exports", data=POST))
    with db.sessionmaker() as s:
        assert exports.claim_next(s, "host:9") is None        # eight rendering: it waits
    _set(app, eight[0], state="done", finished_at=utcnow())   # one render is free
    assert runner(app).run_one() is True
    with db.sessionmaker() as s:
        job = s.get(exports.ExportJob, ninth)
        assert job is not None and (job.state, job.total) == ("done", 1)


def test_the_next_job_is_the_least_recently_served_requesters(app, make_game, no_runner):
    """Round-robin by requester: one never served goes first, then the one whose last job
    ended longest ago, whatever the order they asked in."""
    from app.db import get_db, utcnow
    from app.printing import exports

    _games(make_game, 1)
    clients = {name: app.test_client(user=name, role="scorer") for name in ("ana", "bo", "cy")}
    for name, ago in (("ana", 1), ("bo", 2)):              # both served before: ana lately
        old = _job_id(clients[name].post("/exports", data=POST))
        _set(app, old, state="done", finished_at=utcnow() - timedelta(hours=ago))
    queued = {name: _job_id(c.post("/exports", data=POST)) for name, c in clients.items()}
    db = get_db(app)
    with db.sessionmaker() as s:
        assert exports.pick_order(s) == [queued["cy"], queued["bo"], queued["ana"]]
        claimed = [exports.claim_next(s, "host:1") for _ in range(3)]
    assert [j.id for j in claimed if j is not None] == [queued["cy"], queued["bo"],
                                                         queued["ana"]]


@pytest.mark.parametrize(("language", "message"), [
    ("en", "Many exports are being prepared right now. Try again in a few minutes."),
    ("es", "Ahora mismo se están preparando muchas exportaciones."),
])
def test_the_waiting_list_is_bounded(app, make_game, no_runner, monkeypatch, language, message):
    """Truly full (every waiting place taken, by that many accounts) a request is refused in
    the page's language; rendering jobs do not take waiting places."""
    from app.db import get_db
    from app.printing import exports

    monkeypatch.setattr(exports, "WAITING_MAX", 2)
    _games(make_game, 1)
    for k in range(2):
        _job_id(app.test_client(user=f"u{k}", role="scorer").post("/exports", data=POST))
    late = app.test_client(user="u2", role="scorer")
    r = late.post("/exports", data=POST, headers={"Accept-Language": language})
    assert r.status_code == 503
    assert message in r.get_data(as_text=True)
    with get_db(app).sessionmaker() as s:
        assert exports.claim_next(s, "host:1") is not None    # one leaves the waiting list
    _job_id(late.post("/exports", data=POST))


def test_a_job_is_claimed_by_one_worker_only(app, client, make_game, no_runner):
    from app.db import get_db
    from app.printing import exports

    _games(make_game, 1)
    a = _job_id(client.post("/exports", data=POST))
    b = _job_id(app.test_client(user="otra", role="scorer").post("/exports", data=POST))
    db = get_db(app)
    with db.sessionmaker() as s1, db.sessionmaker() as s2:
        first = exports.claim_next(s1, "host:1")
        second = exports.claim_next(s2, "host:2")
        third = exports.claim_next(s1, "host:1")
        assert first is not None and second is not None and third is None
        assert {first.id, second.id} == {a, b}
        assert (first.state, first.worker, second.worker) == ("running", "host:1", "host:2")


def test_an_interrupted_job_is_reported_and_frees_its_requester(app, client, make_game,
                                                                no_runner):
    from sqlalchemy import update

    from app.db import get_db, utcnow
    from app.models import ExportJob
    from app.printing import exports

    _games(make_game, 1)
    job_id = _job_id(client.post("/exports", data=POST))
    db = get_db(app)
    with db.sessionmaker() as s:
        assert exports.claim_next(s, "dead-host:1") is not None
        s.execute(update(ExportJob).values(updated_at=utcnow() - timedelta(minutes=5)))
        s.commit()
    r = client.post("/exports", data=POST)      # expires the stale one, queues a new job
    assert _job_id(r) != job_id
    status = client.get(f"/exports/{job_id}.json").get_json()
    assert status["state"] == "error"
    assert "interrupted" in status["error"]


def test_old_jobs_and_files_are_cleaned_up(app, client, make_game):
    import os

    from sqlalchemy import update

    from app.db import get_db, utcnow
    from app.models import ExportJob
    from app.printing import exports
    from app.printing.runner import wait_for_job

    _games(make_game, 1)
    job_id = _job_id(client.post("/exports", data=POST))
    assert wait_for_job(app, job_id).state == "done"
    folder = Path(app.config["EXPORTS_DIR"])
    stray = folder / "leftover.part0000.pdf"
    stray.write_bytes(b"%PDF")
    old = (utcnow() - timedelta(days=2)).timestamp()
    os.utime(stray, (old, old))
    db = get_db(app)
    # (the app's runner thread may clean up at the same moment: what is left is asserted,
    # not who removed it -- both run this same cleanup)
    with db.sessionmaker() as s:
        job_file = folder / s.get(ExportJob, job_id).file_path
        exports.cleanup(s, folder)
        assert not stray.exists() and job_file.exists()   # only the stray part: the job is new
        s.execute(update(ExportJob).values(finished_at=utcnow() - timedelta(days=2)))
        s.commit()
        exports.cleanup(s, folder)                        # the job's file
        s.expire_all()
        assert s.get(ExportJob, job_id) is None
    assert list(folder.iterdir()) == []
    assert client.get(f"/exports/{job_id}.json").status_code == 404


def test_job_ids_are_not_guessable_and_junk_ids_are_404(client):
    for junk in ("x", "1", "../../etc/passwd", "a" * 200, "%00"):
        assert client.get(f"/exports/{junk}.json").status_code == 404
        assert client.get(f"/exports/{junk}.pdf").status_code == 404


def test_a_pdf_not_ready_yet_leads_to_its_progress_page_in_the_pages_language(app, client, make_game,
                                                                               no_runner):
    """An event's or an export's PDF opened before it is ready (a shared link, the button
    pressed twice) shows the job's progress page, not a bare 409 (issue 38); any other 409
    page speaks the page's language."""
    _games(make_game, 1)
    job_id = _job_id(client.post("/exports", data=POST))
    early = client.get(f"/exports/{job_id}.pdf")
    assert early.status_code == 303 and early.headers["Location"] == f"/exports/{job_id}"
    page = client.get(early.headers["Location"]).get_data(as_text=True)
    assert 'id="export-download"' in page and 'id="export-progress"' in page
    spanish = app.test_client()
    spanish.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    gid = make_game()
    moved = spanish.get(f"/games/{gid}/hands/new?row=9&ahead=1")   # a kept page the game left behind
    assert moved.status_code == 409
    assert "Esta página cambió mientras tanto o aún no está lista" in moved.get_data(as_text=True)
