"""Issue 28, item 2: a bulk export renders its games on every core (a pool of processes,
app/printing/pool.py) and the PDF is the one the serial export makes: the same pages in
the same order, the same bookmarks."""
from __future__ import annotations

import io
from typing import Any

import pytest
from pypdf import PdfReader

from tests.conftest import load_record, make_app

pytestmark = pytest.mark.every_database

POST = {"date_from": "2000-01-01", "date_to": "2999-12-31", "player": "0", "orientation": "auto"}


def export(app: Any) -> PdfReader:
    """The app's bulk export of every game, run here (not by the runner's thread)."""
    from app.db import get_db
    from app.models import ExportJob
    from app.printing.runner import ExportRunner

    client = app.test_client()
    r = client.post("/exports", data=POST)
    assert r.status_code == 303
    assert ExportRunner(app).run_one()
    with get_db(app).sessionmaker() as session:
        job = session.get(ExportJob, r.headers["Location"].rsplit("/", 1)[-1])
        assert job is not None and job.state == "done", job and job.error
    with client.get(f"/exports/{job.id}.pdf") as response:
        return PdfReader(io.BytesIO(response.data))


def pages(reader: PdfReader) -> list[tuple[Any, ...]]:
    return [(page.extract_text(), tuple(round(float(x)) for x in page.mediabox)) for page in reader.pages]


def marks(reader: PdfReader) -> list[tuple[str, int]]:
    return [(str(m.title), reader.get_destination_page_number(m)) for m in reader.outline]


def test_the_parallel_export_makes_the_serial_ones_pages(app, make_game, database_url, monkeypatch):
    from app.db import get_db
    from app.printing import pool, responses
    from app.printing.runner import ExportRunner

    monkeypatch.setattr(ExportRunner, "notify", lambda self: None)

    monkeypatch.setattr(pool, "POOL_FROM", 2)
    for profile in ("ru32", "fiestas", "subastas", "rifki", "ru32"):
        make_game(record=load_record(f"{profile}_complete.json"))
    rendered_here: list[str] = []
    real = responses.render_pdf
    monkeypatch.setattr(responses, "render_pdf",
                        lambda html, *a, **k: rendered_here.append(html) or real(html, *a, **k))
    readers = {}
    for processes in (1, 2):       # nothing kept: each export renders every game
        other = make_app(database_url, EXPORTS_DIR=app.config["EXPORTS_DIR"], PDF_CACHE_MB=0,
                         EXPORT_PROCESSES=processes)
        rendered_here.clear()
        readers[processes] = export(other)
        get_db(other).dispose()
        assert len(rendered_here) == (5 if processes == 1 else 0)   # the pool rendered them
    serial, parallel = readers[1], readers[2]
    assert len(serial.pages) >= 5
    assert pages(parallel) == pages(serial)
    assert marks(parallel) == marks(serial)


@pytest.mark.parametrize("games, expected", [(3, None), (20, 2)])
def test_small_jobs_render_in_the_runner(app, games, expected, monkeypatch):
    """A pool costs process starts: a job of fewer than POOL_FROM games renders in the
    runner's own process."""
    from app.printing import pool

    app.config["EXPORT_PROCESSES"] = 2
    started: list[int] = []

    class FakePool:
        def __init__(self, n: int, **_kw: Any) -> None:
            started.append(n)

        def __enter__(self) -> Any:
            return self

        def __exit__(self, *a: Any) -> None:
            return None

        def imap(self, fn: Any, ids: Any, chunksize: int = 1) -> Any:
            return iter(())

    class FakeContext:
        Pool = FakePool

    monkeypatch.setattr(pool.multiprocessing, "get_context", lambda method: FakeContext())
    with pool.pool_renders(app, list(range(games)), "es", "auto", None) as rendered:
        assert (rendered is None) == (expected is None)
    assert started == ([] if expected is None else [expected])
