"""A password reset revokes the account's API tokens, a director revokes any account's tokens
on its page, and ``flask --app app user revoke NAME`` does it from the command line (issue 41)."""
from __future__ import annotations

from typing import Any

from tests.api.test_api import bearer, token_for
from tests.conftest import ensure_user
from tests.web.helpers import csrf_from


def takes(app: Any, secret: str) -> bool:
    """Whether the API takes the token."""
    r = app.test_client(user=None).get("/api/v1/games", headers=bearer(secret))
    assert r.status_code in (200, 401), r.status_code
    return r.status_code == 200


def test_a_new_password_from_the_command_line_revokes_the_tokens(app, runner):
    secret = token_for(app, "dora", "scorer")
    other = token_for(app, "eli", "scorer")
    assert takes(app, secret)
    r = runner.invoke(args=["user", "passwd", "dora"], input="second-secret\n")
    assert r.exit_code == 0, r.output
    assert not takes(app, secret) and takes(app, other)


def test_a_directors_new_password_for_an_account_revokes_its_tokens(app):
    secret = token_for(app, "dora", "scorer")
    uid = ensure_user(app, "dora", "scorer")
    client = app.test_client()                               # the director
    r = client.post(f"/users/{uid}", data={"role": "scorer", "password": "brand-new-secret"})
    assert r.status_code == 303
    assert not takes(app, secret)
    kept = token_for(app, "dora", "scorer")                  # a role change alone keeps them
    assert client.post(f"/users/{uid}", data={"role": "player", "password": ""}).status_code == 303
    assert takes(app, kept)


def test_a_director_revokes_every_token_of_an_account_on_its_page(csrf_app):
    app = csrf_app
    secrets = [token_for(app, "dora", "scorer") for _ in range(2)]
    uid = ensure_user(app, "dora", "scorer")
    director = app.test_client()
    director.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    page = director.get(f"/users/{uid}").get_data(as_text=True)
    assert "In use: 2." in page and 'id="revoke-all"' in page
    assert director.post(f"/users/{uid}/tokens/revoke", data={}).status_code == 400   # no CSRF token
    assert all(takes(app, s) for s in secrets)
    r = director.post(f"/users/{uid}/tokens/revoke", data={"csrf_token": csrf_from(page)},
                      follow_redirects=True)
    text = r.get_data(as_text=True)
    assert "API tokens of dora revoked: 2." in text and "In use: 0." in text and 'id="revoke-all"' not in text
    assert not any(takes(app, s) for s in secrets)
    ensure_user(app, "sam", "scorer")
    scorer = app.test_client(user="sam", role="scorer")
    token = csrf_from(scorer.get("/").get_data(as_text=True))
    assert scorer.post(f"/users/{uid}/tokens/revoke", data={"csrf_token": token}).status_code == 403
    assert director.post("/users/999/tokens/revoke", data={"csrf_token": csrf_from(page)}).status_code == 404


def test_user_revoke_on_the_command_line(app, runner):
    secret = token_for(app, "dora", "scorer")
    r = runner.invoke(args=["user", "revoke", "dora"])
    assert r.exit_code == 0 and "1 API token(s) of dora revoked." in r.output
    assert not takes(app, secret)
    r = runner.invoke(args=["user", "revoke", "nobody"])
    assert r.exit_code == 1 and "There is no user nobody" in r.output
