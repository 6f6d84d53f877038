"""Who may change what (issue 9), over the app's URL map: every route that accepts a
state-changing method is refused to an anonymous visitor and to a scorer of another game,
and the database is left exactly as it was. A new route is checked the day it is added:
the only way out is an explicit entry in one of the lists below, with its reason."""
from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from tests.conftest import base_record, make_app

SAFE = {"GET", "HEAD", "OPTIONS"}

#: Open to anyone: they store nothing, or are how one gets an account.
OPEN_TO_ANONYMOUS = {
    "api.score": "scores a posted record; stores nothing",
    "api_analysis.analyse_post": "analyses a play of a posted record; stores nothing",
    "auth.login": "how one logs in",
    "auth.logout": "logging out changes nothing stored",
    "auth.setup": "creates the first director, only while no user exists (tested apart)",
}
#: Not tied to one game: any logged-in scorer may use them (a player may not: tested apart).
OPEN_TO_ANY_SCORER = {
    "games.new": "a scorer starts their own games",
    "games.import_record": "a scorer imports their own games",
    "api.new_game": "a scorer starts their own games (the API's games.new)",
    "pdf.exports": "a bulk PDF of games reads, it changes nothing",
    "events.event_pdf": "an event's PDF (a bulk export job) reads, it changes nothing",
    "table.handover": "a one-time link adds its holder to a game's scorers (tested apart)",
}
#: The user's own things, for any role: a stranger's request changes only their own.
OPEN_TO_ANY_USER = {
    "account.new_token": "a user makes their own API token (tests/web/test_account.py)",
    "account.revoke": "a user revokes only their own tokens: another's is 404 (tested apart)",
}
#: The user's own seat: checked by the view (a player confirms only their seat).
SELF_CHECKED = {"table.confirm_sheet", "api.confirm_seat",
                # a seat's own player calls the director (tests/web/test_calls.py)
                "calls.call", "api_calls.open_call"}

#: One payload with every field some form of the app asks for: a refusal is then never a
#: validation error in disguise (test_the_payload_is_accepted_from_the_right_user).
PAYLOAD = {
    "version": "1", "profile": "ru32", "player_0": "Wa", "player_1": "Xe", "player_2": "Yi",
    "player_3": "Zo", "first_seat": "0", "contract": "no-tricks", "mode": "counts",
    "tricks_0": "2", "tricks_1": "3", "tricks_2": "1", "tricks_3": "2", "ruling_kind": "as-played",
    "kind": "replay", "reason": "misdeal", "name": "Liga", "starts_on": "2026-01-01",
    "ends_on": "2026-12-31", "date_from": "2026-01-01", "player": "0", "orientation": "auto",
    "seat": "0", "pin": "1234", "username": "intruder", "password": "intruder-password",
    "confirm": "intruder-password", "correction": "because",
}


def _write_rules() -> list[tuple[str, str, str]]:
    """(endpoint, rule, method) of every state-changing method of the URL map."""
    app = make_app("sqlite://", AUTO_MIGRATE=False)
    found = []
    for rule in app.url_map.iter_rules():
        for method in sorted((rule.methods or set()) - SAFE):
            found.append((rule.endpoint, rule.rule, method))
    return sorted(found)


WRITE_RULES = _write_rules()


def snapshot(app: Any) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table."""
    from app.db import get_db
    from app.models import Base

    out = {}
    with get_db(app).engine.connect() as conn:
        for table in Base.metadata.sorted_tables:
            rows = conn.execute(select(table)).all()
            out[table.name] = sorted((tuple(r) for r in rows), key=repr)
    return out


@pytest.fixture
def two_games(app: Any) -> dict[str, Any]:
    """Game 1 kept by scorer ana_s, game 2 by beto_s, a season, a share link of game 1."""
    from app.db import get_session
    from app.games import games as games_service
    from app.games import links
    from app.stats import seasons as seasons_service
    from tests.conftest import ensure_user

    ana = ensure_user(app, "ana_s", "scorer")
    beto = ensure_user(app, "beto_s", "scorer")
    ensure_user(app, "directora")
    with app.app_context():
        s = get_session()
        g1 = games_service.import_game(s, base_record("ru32", hands=[{"contract": "no-tricks",
                                                                       "counts": {"tricks": [2, 3, 1, 2]}}]),
                                       who="ana_s", scorer_id=ana).id
        g2 = games_service.import_game(s, base_record("ru32"), who="beto_s", scorer_id=beto).id
        season = seasons_service.save_season(s, name="Invierno", starts_on=_day("2026-01-01"),
                                             ends_on=_day("2026-03-31")).id
        token = links.share_link(s, g1, created_by=ana).token
    return {"game": g1, "other_game": g2, "season": season, "token": token}


def _day(text: str) -> Any:
    from datetime import date

    return date.fromisoformat(text)


def url_for_rule(app: Any, endpoint: str, ids: dict[str, Any]) -> str:
    from flask import url_for

    values = {"game_id": ids["game"], "row": 1, "n": 1, "seat": 0, "season_id": ids["season"], "job_id": "x",
              "player_id": 1, "user_id": 1, "token_id": 1, "token": ids["token"], "code": "es",
              "profile_id": "ru32", "event_id": 1, "call_id": 1}
    with app.test_request_context():
        rule = next(r for r in app.url_map.iter_rules() if r.endpoint == endpoint)
        return url_for(endpoint, **{k: v for k, v in values.items() if k in rule.arguments})


@pytest.mark.parametrize(("endpoint", "rule", "method"), WRITE_RULES,
                         ids=[f"{m} {r}" for _e, r, m in WRITE_RULES])
def test_every_state_changing_route_is_refused_to_strangers(app, two_games, endpoint, rule, method):
    url = url_for_rule(app, endpoint, two_games)
    before = snapshot(app)

    if endpoint not in OPEN_TO_ANONYMOUS:
        anonymous = app.test_client(user=None)
        r = anonymous.open(url, method=method, data=PAYLOAD)
        if url.startswith("/api/"):
            assert r.status_code == 401 and r.get_json()["error"]["code"] == "login-required"
        else:
            assert r.status_code == 303, (endpoint, r.status_code)
            assert r.headers["Location"].startswith("/login?next=")
        assert snapshot(app) == before, endpoint

    if endpoint not in {**OPEN_TO_ANONYMOUS, **OPEN_TO_ANY_SCORER, **OPEN_TO_ANY_USER}:
        other = app.test_client(user="beto_s", role="scorer")
        r = other.open(url, method=method, data=PAYLOAD)
        assert r.status_code == 403, (endpoint, r.status_code)
        assert snapshot(app) == before, endpoint


def test_the_lists_name_only_routes_that_exist():
    endpoints = {e for e, _r, _m in WRITE_RULES}
    for listed in (OPEN_TO_ANONYMOUS, OPEN_TO_ANY_SCORER, OPEN_TO_ANY_USER, SELF_CHECKED):
        assert set(listed) <= endpoints, set(listed) - endpoints


def test_the_payload_is_accepted_from_the_right_user(app, two_games):
    """The control: the same request from the game's own scorer changes the game."""
    ana = app.test_client(user="ana_s", role="scorer")
    gid = two_games["game"]
    assert ana.post(f"/games/{gid}/hands/last/delete", data={"version": "1"}).status_code == 302
    assert ana.post(f"/games/{gid}/hands/new", data={**PAYLOAD, "version": "2"}).status_code == 302
    r = app.test_client(user="directora").post(f"/games/{two_games['other_game']}/hands/new",
                                               data=PAYLOAD)
    assert r.status_code == 302   # a director changes every game


def test_a_player_account_may_not_start_or_change_games(app, two_games):
    player = app.test_client(user="pia", role="player")
    before = snapshot(app)
    assert player.post("/games/new", data=PAYLOAD).status_code == 403
    assert player.post(f"/games/{two_games['game']}/hands/new", data=PAYLOAD).status_code == 403
    assert player.post("/seasons", data=PAYLOAD).status_code == 403
    assert snapshot(app) == before


def test_seasons_are_defined_only_by_a_director(app, two_games):
    scorer = app.test_client(user="ana_s", role="scorer")
    sid = two_games["season"]
    page = scorer.get("/seasons")
    assert page.status_code == 200 and 'id="new-season"' not in page.get_data(as_text=True)
    assert f"/seasons/{sid}/edit" not in scorer.get(f"/seasons/{sid}").get_data(as_text=True)
    assert scorer.get(f"/seasons/{sid}/edit").status_code == 403
    assert scorer.post("/seasons", data=PAYLOAD).status_code == 403
    director = app.test_client()
    assert director.post("/seasons", data={**PAYLOAD, "name": "Verano"}).status_code == 302


def test_anonymous_pages_redirect_to_login_with_next(app, two_games):
    anonymous = app.test_client(user=None)
    gid = two_games["game"]
    for path in ("/", f"/games/{gid}", f"/games/{gid}/sheet.pdf", "/players", "/games/new"):
        r = anonymous.get(path)
        assert r.status_code == 303 and r.headers["Location"] == f"/login?next={path}", path
    r = anonymous.get(f"/api/v1/games/{gid}")
    assert r.status_code == 401 and r.get_json()["error"]["code"] == "login-required"
    assert anonymous.post("/api/v1/score", json=base_record("ru32")).status_code == 200
    for path in ("/rules", "/login", "/manifest.webmanifest"):
        assert anonymous.get(path).status_code == 200, path


def test_the_game_forms_are_for_its_scorers(app, two_games):
    other = app.test_client(user="beto_s", role="scorer")
    gid = two_games["game"]
    assert other.get(f"/games/{gid}").status_code == 200            # reading is for everyone
    assert other.get(f"/games/{gid}/hands/new").status_code == 403   # the entry form is not
    assert other.get(f"/games/{gid}/hands/tricks").status_code == 403


# --- rights follow the role (issue 23.1) ----------------------------------------------------

def set_role(app: Any, username: str, role: str) -> None:
    """Changes a user's role as a director does on /users."""
    from app.accounts import accounts
    from app.db import get_session

    with app.app_context():
        s = get_session()
        found = accounts.find_user(s, username)
        assert found is not None
        accounts.change_user(s, found.id, role, None)


GAME_WRITES = [(e, r, m) for e, r, m in WRITE_RULES if "<int:game_id>" in r]


@pytest.mark.parametrize(("endpoint", "rule", "method"), GAME_WRITES,
                         ids=[f"{m} {r}" for _e, r, m in GAME_WRITES])
def test_a_scorer_demoted_to_player_keeps_nothing_of_their_games(app, two_games, endpoint, rule, method):
    """ana_s created game 1; once a player, every write of it is refused (seat PINs, share
    and handover links included) and nothing changes."""
    set_role(app, "ana_s", "player")
    ana = app.test_client(user="ana_s")                  # logged in again, as a player
    url = url_for_rule(app, endpoint, two_games)
    before = snapshot(app)
    r = ana.open(url, method=method, data=PAYLOAD)
    assert r.status_code == 403, (endpoint, r.status_code)
    assert snapshot(app) == before, endpoint


def test_a_demoted_scorer_sees_no_scorer_form_and_their_token_is_refused(app, two_games):
    from tests.api.test_api import bearer, token_for

    gid = two_games["game"]
    token = token_for(app, "ana_s", "scorer")
    hand = {"contract": "no-tricks", "counts": {"tricks": [2, 3, 1, 2]}}
    set_role(app, "ana_s", "player")
    ana = app.test_client(user="ana_s")                  # logged in again, as a player
    before = snapshot(app)
    sheet = ana.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="make-share"' not in sheet
    assert ana.get(f"/games/{gid}/hands/new").status_code == 403
    api = app.test_client(user=None)
    r = api.post(f"/api/v1/games/{gid}/hands", json=hand, headers=bearer(token, **{"If-Match": '"v1"'}))
    assert r.status_code == 403 and r.get_json()["error"]["code"] == "forbidden"
    r = api.post(f"/api/v1/games/{gid}/confirmations", json={"seat": 0, "pin": "1234"},
                 headers=bearer(token))
    assert r.status_code == 403
    assert api.get(f"/api/v1/games/{gid}", headers=bearer(token)).status_code == 200   # reads
    after = snapshot(app)
    after.pop("api_token"), before.pop("api_token")      # (the token's last use is kept)
    assert after == before
    set_role(app, "ana_s", "scorer")                     # promoted again: the game is theirs
    hand = {"contract": "no-boys", "counts": {"kings": [1, 1, 1, 1]}}
    r = api.post(f"/api/v1/games/{gid}/hands", json=hand, headers=bearer(token, **{"If-Match": '"v1"'}))
    assert r.status_code == 201, r.get_json()


def test_a_player_who_opens_a_handover_link_does_not_become_a_scorer(app, two_games):
    from app.db import get_session
    from app.games import links
    from app.models import GameLink

    gid = two_games["game"]
    with app.app_context():
        token = links.handover_link(get_session(), gid, created_by=None).token
    pia = app.test_client(user="pia", role="player")
    pia.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    before = snapshot(app)
    page = pia.get(f"/h/{token}")
    assert page.status_code == 403
    html = page.get_data(as_text=True)
    assert "A player account does not keep score" in html and 'id="take-over-submit"' not in html
    r = pia.post(f"/h/{token}", data=PAYLOAD)
    assert r.status_code == 403 and "A player account does not keep score" in r.get_data(as_text=True)
    assert pia.post(f"/games/{gid}/hands/new", data=PAYLOAD).status_code == 403
    assert snapshot(app) == before                       # the link is still unspent
    es = app.test_client(user="pia", role="player")
    es.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    assert "A player account" not in es.get(f"/h/{token}").get_data(as_text=True)
    eli = app.test_client(user="eli", role="scorer")     # a scorer's phone may still use it
    assert eli.post(f"/h/{token}").status_code == 303
    with app.app_context():
        link = get_session().scalars(select(GameLink).where(GameLink.token == token)).one()
        assert link.ended_at is not None


# --- sessions end (issue 23.2) --------------------------------------------------------------

def _log_in(client: Any, username: str, password: str) -> Any:
    from tests.web.helpers import csrf_from

    page = client.get("/login").get_data(as_text=True)
    r = client.post("/login", data={"username": username, "password": password, "next": "/",
                                    "csrf_token": csrf_from(page)})
    assert r.status_code == 303, r.status_code
    return client


def _copy(app: Any, client: Any) -> Any:
    """Another browser holding a copy of `client`'s session cookie."""
    twin = app.test_client(user=None)
    twin.set_cookie("session", client.get_cookie("session").value)
    return twin


def _logged_in(client: Any) -> bool:
    return client.get("/").status_code == 200


def _csrf(client: Any) -> str:
    from tests.web.helpers import csrf_from

    return csrf_from(client.get("/").get_data(as_text=True))


def test_a_cookie_copied_before_logout_is_logged_out_with_it(csrf_app):
    from tests.conftest import TEST_PASSWORD, ensure_user

    ensure_user(csrf_app, "eva", "scorer")
    eva = _log_in(csrf_app.test_client(user=None), "eva", TEST_PASSWORD)
    copy = _copy(csrf_app, eva)
    assert _logged_in(copy)
    assert eva.post("/logout", data={"csrf_token": _csrf(eva)}).status_code == 303
    assert not _logged_in(eva) and not _logged_in(copy)
    before = snapshot(csrf_app)
    from tests.web.helpers import csrf_from

    token = csrf_from(copy.get("/login").get_data(as_text=True))
    r = copy.post("/games/new", data={**PAYLOAD, "csrf_token": token})
    assert r.status_code == 303 and r.headers["Location"].startswith("/login")
    assert snapshot(csrf_app) == before
    assert _logged_in(_log_in(csrf_app.test_client(user=None), "eva", TEST_PASSWORD))   # again


def test_a_new_password_on_the_accounts_page_ends_the_users_other_sessions(csrf_app):
    from tests.conftest import TEST_PASSWORD, ensure_user

    eva_id = ensure_user(csrf_app, "eva", "scorer")
    ensure_user(csrf_app, "directora")
    phone = _log_in(csrf_app.test_client(user=None), "eva", TEST_PASSWORD)
    copy = _copy(csrf_app, phone)
    director = _log_in(csrf_app.test_client(user=None), "directora", TEST_PASSWORD)
    r = director.post(f"/users/{eva_id}", data={"role": "scorer", "password": "evas-new-secret",
                                                "csrf_token": _csrf(director)})
    assert r.status_code == 303
    assert not _logged_in(phone) and not _logged_in(copy)
    assert _logged_in(director)                              # the director's own stays
    assert _logged_in(_log_in(csrf_app.test_client(user=None), "eva", "evas-new-secret"))


def test_a_role_change_ends_the_users_sessions(app):
    eva = app.test_client(user="eva", role="scorer")
    copy = _copy(app, eva)
    set_role(app, "eva", "player")
    assert not _logged_in(eva) and not _logged_in(copy)
    set_role(app, "eva", "player")                           # no change: nothing ends
    again = app.test_client(user="eva", role="player")
    set_role(app, "eva", "player")
    assert _logged_in(again)


def test_a_director_changing_their_own_password_keeps_this_session_only(csrf_app):
    from tests.conftest import TEST_PASSWORD, ensure_user

    me = ensure_user(csrf_app, "directora")
    director = _log_in(csrf_app.test_client(user=None), "directora", TEST_PASSWORD)
    other_phone = _copy(csrf_app, director)
    r = director.post(f"/users/{me}", data={"role": "director", "password": "a-new-secret",
                                            "csrf_token": _csrf(director)})
    assert r.status_code == 303
    assert _logged_in(director) and not _logged_in(other_phone)


def test_user_passwd_ends_every_session_and_revokes_the_api_tokens(app, runner):
    from tests.api.test_api import bearer, token_for

    token = token_for(app, "eva", "scorer")
    eva = app.test_client(user="eva", role="scorer")
    copy = _copy(app, eva)
    r = runner.invoke(args=["user", "passwd", "eva"], input="evas-new-secret\n")
    assert r.exit_code == 0, r.output
    assert not _logged_in(eva) and not _logged_in(copy)
    # whoever knew the old password may have made a token (issue 41, docs/decisions.md)
    assert app.test_client(user=None).get("/api/v1/games", headers=bearer(token)).status_code == 401


def test_a_cookie_from_before_session_generations_logs_in_nobody(app):
    from tests.conftest import ensure_user

    old = app.test_client(user=None)
    with old.session_transaction() as s:
        s["_user_id"] = str(ensure_user(app, "eva", "scorer"))   # the id alone, as before
    assert not _logged_in(old)


def test_the_csrf_token_changes_at_login(csrf_app):
    from tests.conftest import TEST_PASSWORD, ensure_user
    from tests.web.helpers import csrf_from

    ensure_user(csrf_app, "eva", "scorer")
    browser = csrf_app.test_client(user=None)
    anonymous_token = csrf_from(browser.get("/login").get_data(as_text=True))
    r = browser.post("/login", data={"username": "eva", "password": TEST_PASSWORD, "next": "/",
                                     "csrf_token": anonymous_token})
    assert r.status_code == 303
    assert _csrf(browser) != anonymous_token
    r = browser.post("/games/new", data={**PAYLOAD, "csrf_token": anonymous_token})
    assert r.status_code == 400                              # the page's token before login
    r = browser.post("/logout", data={"csrf_token": anonymous_token})
    assert _logged_in(browser)


def test_a_page_answered_late_never_writes_back_an_older_session(csrf_app):
    """The service worker fetches a game's pages in the background (the sheet, the entry
    pages it keeps for no network). Their answers may arrive after the player switched the
    language or logged in again: an answer that sent the session cookie it was asked with
    would put the old session back (the page fell back to Spanish). So a page that changes
    nothing in the session sends no cookie, even for a kept ("permanent") login."""
    from app.db import get_session
    from app.games.games import import_game
    from tests.conftest import TEST_PASSWORD, ensure_user

    eva_id = ensure_user(csrf_app, "eva", "scorer")
    with csrf_app.app_context():
        gid = int(import_game(get_session(), base_record("ru32"), who="eva", scorer_id=eva_id).id)
    eva = _log_in(csrf_app.test_client(user=None), "eva", TEST_PASSWORD)
    assert eva.get(f"/games/{gid}").status_code == 200       # the CSRF token is in the session
    stale = _copy(csrf_app, eva)                             # a request sent before the switch
    assert eva.get(f"/lang/ru?next=/games/{gid}").status_code == 302
    for url in (f"/games/{gid}", f"/games/{gid}/hands/offline.json", "/", "/rules/ru32",
                f"/games/{gid}/hands/new?row=1&mode=counts&contract=no-tricks"):
        r = stale.get(url)
        assert r.status_code in (200, 302), (url, r.status_code)
        assert "Set-Cookie" not in r.headers, url
    assert 'lang="ru"' in eva.get(f"/games/{gid}").get_data(as_text=True)


def test_a_kept_login_is_renewed_on_its_first_page_of_the_day(csrf_app):
    from tests.conftest import TEST_PASSWORD, ensure_user

    ensure_user(csrf_app, "eva", "scorer")
    eva = _log_in(csrf_app.test_client(user=None), "eva", TEST_PASSWORD)
    assert "Set-Cookie" not in eva.get("/").headers        # renewed at login today
    with eva.session_transaction() as s:
        s["_renewed"] = "2026-01-01"                         # last seen on an older day
    first = eva.get("/")
    assert "Expires=" in first.headers["Set-Cookie"]       # a new week from today
    assert "Set-Cookie" not in eva.get("/").headers        # then not again today


def test_an_empty_game_list_tells_each_role_only_what_it_may_do(app):
    """Issue 27.9: a player (no scoring rights) is not told to press a "New game" they do
    not have; a scorer is."""
    player = app.test_client(user="pia", role="player")
    page = player.get("/", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert 'id="new-game"' not in page and "Nueva partida" not in page
    assert "Aquí aparecerán las que empiecen los anotadores del club." in page
    scorer = app.test_client(user="sol", role="scorer")
    page = scorer.get("/", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert 'id="new-game"' in page and "Nueva partida" in page
