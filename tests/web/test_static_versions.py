"""A page names each static file with its content's version, and the browser keeps a file
asked for by its current version (app/web/site.py): before, every page made the browser ask
again for each of its eight scripts and stylesheets."""
from __future__ import annotations

import hashlib
import re

import pytest

from tests.conftest import REPO, pooled_app

STATIC = re.compile(r'(?:src|href)="(/static/[^"?]+)(?:\?v=([0-9a-f]+))?"')


@pytest.fixture
def app(request, database_url):
    yield from pooled_app(request, database_url)


def version(path: str) -> str:
    return hashlib.sha256((REPO / path.lstrip("/")).read_bytes()).hexdigest()[:10]


def test_every_static_file_of_a_page_carries_its_content_s_version(app):
    client = app.test_client(user=None)
    html = client.get("/setup").get_data(as_text=True)     # a new site: the first director
    named = STATIC.findall(html)
    assert {"/static/css/app.css", "/static/js/offline.js"} <= {path for path, _ in named}
    assert all(v == version(path) for path, v in named), named


def test_the_current_version_is_kept_a_year_any_other_address_is_checked(app):
    client = app.test_client(user=None)
    current = version("/static/css/app.css")
    with client.get(f"/static/css/app.css?v={current}") as r:
        assert r.status_code == 200
        assert r.cache_control.max_age == 365 * 24 * 3600 and r.cache_control.immutable
        assert r.cache_control.public and not r.cache_control.no_cache
    # the service worker's own list names files without a version; an old page an old one
    for path in ("/static/css/app.css", "/static/css/app.css?v=0123456789"):
        with client.get(path) as r:
            assert r.status_code == 200
            assert r.cache_control.no_cache and not r.cache_control.immutable, path


def test_a_changed_file_gets_a_new_version(app, tmp_path):
    folder = tmp_path / "static"
    (folder / "js").mkdir(parents=True)
    script = folder / "js" / "x.js"
    script.write_text("one")
    kept, app.static_folder = app.static_folder, str(folder)
    try:
        with app.test_request_context():
            from flask import url_for

            first = url_for("static", filename="js/x.js")
            script.write_text("a second")
            second = url_for("static", filename="js/x.js")
            missing = url_for("static", filename="js/none.js")
    finally:
        app.static_folder = kept
    assert first == f"/static/js/x.js?v={hashlib.sha256(b'one').hexdigest()[:10]}"
    assert second == f"/static/js/x.js?v={hashlib.sha256(b'a second').hexdigest()[:10]}"
    assert missing == "/static/js/none.js"
