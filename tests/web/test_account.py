"""The account page (issue 22): every logged-in user makes, lists and revokes their own API
tokens; a new token's text is shown once, in the answer to the form that made it; nobody
sees or revokes another's token, and a token never manages tokens. SQLite and PostgreSQL."""
from __future__ import annotations

import re
from typing import Any

import pytest

from tests.conftest import ensure_user
from tests.web.helpers import csrf_from
from tests.web.test_access import snapshot

TOKEN = re.compile(r"ks_[A-Za-z0-9_-]{43}")


def tc(app: Any, lang: str = "en", **kwargs: Any) -> Any:
    client = app.test_client(**kwargs)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    return client


def make_token(client: Any, label: str = "club laptop") -> tuple[str, Any]:
    """(the token's text, the answer) of the account page's form."""
    r = client.post("/account/tokens", data={"label": label})
    assert r.status_code == 201, r.get_data(as_text=True)
    found = set(TOKEN.findall(r.get_data(as_text=True)))
    assert len(found) == 1, found
    return found.pop(), r


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


@pytest.mark.parametrize("role", ["director", "scorer", "player"])
def test_every_role_has_an_account_page_linked_from_the_header(app, role):
    client = tc(app, user="eva", role=role)
    html = client.get("/players").get_data(as_text=True)
    assert re.search(r'<a class="who" href="/account" id="current-user"[^>]*>eva</a>', html)
    page = client.get("/account")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'id="new-token-form"' in html and 'id="no-tokens"' in html
    assert 'aria-current="page"' in html
    assert tc(app, user=None).get("/account").headers["Location"] == "/login?next=/account"


def test_a_new_token_is_shown_once_and_then_listed_by_its_prefix(app):
    client = tc(app, user="eva", role="player")
    secret, r = make_token(client)
    html = r.get_data(as_text=True)
    assert r.headers["Cache-Control"] == "no-store" and "Location" not in r.headers
    assert "it will not be shown again" in html
    assert f"Authorization: Bearer {secret}" in html
    with client.session_transaction() as s:                  # not kept for a later page
        assert secret not in repr(dict(s))
    assert 'id="token-secret"' in html
    assert re.search(r'<input[^>]*name="label"[^>]*value=""', html)         # the form is empty again
    # the API takes it, as this user with this role
    api = tc(app, user=None)
    assert api.get("/api/v1/games", headers=bearer(secret)).status_code == 200
    assert api.post("/api/v1/games", json={}, headers=bearer(secret)).status_code == 403
    # the next visit lists it (label, prefix, dates) and never shows it again
    page = client.get("/account").get_data(as_text=True)
    assert secret not in page and 'id="token-secret"' not in page
    row = re.search(r'<li id="token-(\d+)".*?</li>', page, re.S)
    assert row and "club laptop" in row.group(0) and f"{secret[:8]}…" in row.group(0)
    assert "last used" in row.group(0) and "never used" not in row.group(0)
    assert 'id="revoke-' in row.group(0)


def test_a_user_revokes_their_token_and_the_api_refuses_it(app):
    client = tc(app, user="eva", role="scorer")
    secret, _r = make_token(client, "results script")
    token_id = int(re.search(r'id="token-(\d+)"', client.get("/account").get_data(as_text=True)).group(1))
    r = client.post(f"/account/tokens/{token_id}/revoke")
    assert r.status_code == 303 and r.headers["Location"] == "/account"
    page = client.get("/account").get_data(as_text=True)
    assert "Token revoked" in page
    assert re.search(rf'<li id="token-{token_id}"[^>]*data-revoked', page)
    assert f'id="revoke-{token_id}"' not in page
    r = tc(app, user=None).get("/api/v1/games", headers=bearer(secret))
    assert r.status_code == 401 and r.get_json()["error"]["code"] == "token-invalid"


def test_nobody_sees_or_revokes_another_users_token(app):
    eva = tc(app, user="eva", role="director")
    secret, _r = make_token(eva, "eva's script")
    eva_page = eva.get("/account").get_data(as_text=True)
    token_id = int(re.search(r'id="token-(\d+)"', eva_page).group(1))
    sam = tc(app, user="sam", role="scorer")
    page = sam.get("/account").get_data(as_text=True)
    assert "eva&#39;s script" not in page and secret[:8] not in page and 'id="no-tokens"' in page
    before = snapshot(app)
    assert sam.post(f"/account/tokens/{token_id}/revoke").status_code == 404
    assert sam.post("/account/tokens/999999/revoke").status_code == 404
    assert snapshot(app) == before
    assert tc(app, user=None).get("/api/v1/games", headers=bearer(secret)).status_code == 200


def test_a_token_never_makes_or_revokes_tokens(app):
    eva = tc(app, user="eva", role="director")
    secret, _r = make_token(eva)
    token_id = int(re.search(r'id="token-(\d+)"', eva.get("/account").get_data(as_text=True)).group(1))
    api = tc(app, user=None)
    for method, path in (("GET", "/account"), ("POST", "/account/tokens"),
                         ("POST", f"/account/tokens/{token_id}/revoke")):
        r = api.open(path, method=method, data={"label": "more"}, headers=bearer(secret))
        assert r.status_code == 401, (method, path, r.status_code)   # a token opens /api/ only
        assert secret not in r.get_data(as_text=True)
    with app.app_context():
        from app.accounts.tokens import list_tokens
        from app.db import get_session

        found = list_tokens(get_session(), ensure_user(app, "eva"))
        assert [(t.id, t.revoked_at) for t in found] == [(token_id, None)]   # only its last use


@pytest.mark.parametrize(("label", "says"), [("", "This field is required."),
                                             ("   ", "This field is required."),
                                             ("x" * 61, "longer than 60 characters")])
def test_a_token_needs_a_label_that_fits(app, label, says):
    client = tc(app, user="eva", role="player")
    before = snapshot(app)
    r = client.post("/account/tokens", data={"label": label})
    assert r.status_code == 400 and says in r.get_data(as_text=True)
    assert not TOKEN.search(r.get_data(as_text=True))
    assert snapshot(app) == before


def test_the_forms_need_their_csrf_token(csrf_app):
    client = tc(csrf_app, user="eva", role="scorer")
    before = snapshot(csrf_app)
    assert client.post("/account/tokens", data={"label": "x"}).status_code == 400
    assert snapshot(csrf_app) == before
    page = client.get("/account").get_data(as_text=True)
    r = client.post("/account/tokens", data={"label": "x", "csrf_token": csrf_from(page)})
    assert r.status_code == 201
    html = r.get_data(as_text=True)
    token_id = int(re.search(r'id="token-(\d+)"', html).group(1))
    assert client.post(f"/account/tokens/{token_id}/revoke").status_code == 400
    r = client.post(f"/account/tokens/{token_id}/revoke", data={"csrf_token": csrf_from(html)})
    assert r.status_code == 303


def test_the_account_page_in_spanish(app):
    client = tc(app, "es", user="ana", role="director")
    page = client.get("/account").get_data(as_text=True)
    assert "Tu cuenta" in page and "Tokens de API" in page and "No tienes ningún token de API." in page
    _secret, r = make_token(client)
    html = r.get_data(as_text=True)
    assert "Cópialo ahora: no se volverá a mostrar." in html and "Authorization: Bearer ks_" in html
    assert "Revocar" in html and "nunca usado" in html
