"""Issue 8, item 10: security headers on every response, pages a strict CSP can serve (no
inline script, no event handler or style attribute), the Secure session cookie setting and
the production gunicorn config."""
from __future__ import annotations

import re
import runpy

import pytest

from app.security import CSP_PAGE
from tests.conftest import REPO, load_record, make_app

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)
STYLE_ATTR = re.compile(r"<[^>]+\sstyle\s*=", re.I)


def _pages(gid: int, done: int) -> list[str]:
    return ["/", "/players", "/players/1", "/games/new", "/games/import", "/exports", "/scorer",
            "/account", "/rules", "/rules/fiestas", "/seasons", f"/games/{gid}", f"/games/{gid}/hands/new",
            f"/games/{gid}/hands/new?mode=captures", f"/games/{gid}/hands/tricks",
            f"/games/{gid}/hands/1", f"/games/{gid}/hands/1/edit", f"/games/{gid}/hands/1/tricks",
            f"/games/{gid}/audit", f"/games/{gid}/live", f"/games/{done}", "/nowhere",
            f"/games/{gid}/hands/new?auction=0:pass,1:pass,2:pass,3:pass"]


def test_every_page_has_the_headers_and_nothing_inline(client, make_game):
    record = load_record("fiestas_complete.json")
    done = make_game(record=record)
    record["hands"] = record["hands"][:6]
    gid = make_game(record=record)
    for path in _pages(gid, done):
        r = client.get(path)
        assert r.status_code < 500, path
        assert r.headers["X-Content-Type-Options"] == "nosniff", path
        assert r.headers["Referrer-Policy"] == "same-origin"
        assert r.headers["X-Frame-Options"] == "DENY"
        assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
        if r.mimetype == "text/html":
            assert r.headers["Content-Security-Policy"] == CSP_PAGE
            html = r.get_data(as_text=True)
            assert not INLINE_SCRIPT.search(html), (path, INLINE_SCRIPT.search(html))
            assert not HANDLER.search(html), (path, HANDLER.search(html))
            assert not STYLE_ATTR.search(html), (path, STYLE_ATTR.search(html))
    for path in (f"/games/{gid}/record.json", f"/api/v1/games/{gid}", f"/games/{gid}/sheet.csv",
                 "/static/css/app.css", "/qr.svg?path=/"):
        with client.get(path) as r:
            assert r.headers["X-Content-Type-Options"] == "nosniff", path
            assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"], path
    r = client.post("/api/v1/score", data=b"[", content_type="application/json")
    assert r.status_code == 400 and r.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize(("value", "secure"), [("1", True), ("true", True), ("0", False), ("", False)])
def test_session_cookie_secure_is_a_setting(monkeypatch, tmp_path, value, secure):
    monkeypatch.setenv("SESSION_COOKIE_SECURE", value)
    app = make_app(f"sqlite:///{tmp_path / 'k.sqlite'}")
    assert app.config["SESSION_COOKIE_SECURE"] is secure
    client = app.test_client(user=None)
    r = client.get("/lang/en?next=/")                 # a page that writes the session cookie
    assert r.status_code == 302
    cookie = r.headers["Set-Cookie"]
    assert ("Secure" in cookie) is secure
    assert "HttpOnly" in cookie


def test_the_production_config_is_gthread_with_timeouts():
    from gunicorn.config import Config

    settings = runpy.run_path(str(REPO / "deploy" / "gunicorn.conf.py"))
    config = Config()
    for key, value in settings.items():
        if key in config.settings:
            config.set(key, value)
    assert config.worker_class_str == "gthread"
    assert config.threads >= 2 and config.timeout <= 60 and config.keepalive <= 10
    assert config.wsgi_app == "app:create_app()"
    readme = (REPO / "README.md").read_text()
    assert "deploy/gunicorn.conf.py" in readme and "docs/deploy.md" in readme
    assert "SESSION_COOKIE_SECURE" in (REPO / "docs" / "deploy.md").read_text()
