"""Accounts (issue 9): logging in and out, throttling, the first director, the user
commands, passwords never in clear; the table's confirmation and the locked sheet; the
share link and the one-time handover link. SQLite and PostgreSQL."""
from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select, text

from tests.conftest import TEST_PASSWORD, base_record, ensure_user, load_record
from tests.web.helpers import counts_form, csrf_from, record_of


def tc(app: Any, **kwargs: Any) -> Any:
    """A test client reading the pages in English."""
    client = app.test_client(**kwargs)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def current_user(html: str) -> str | None:
    m = re.search(r'id="current-user"[^>]*>([^<]*)<', html)
    return m.group(1) if m else None


def login(client: Any, username: str, password: str, next_url: str = "/") -> Any:
    page = client.get(f"/login?next={next_url}").get_data(as_text=True)
    return client.post("/login", data={"username": username, "password": password, "next": next_url,
                                       "csrf_token": csrf_from(page)})


def test_login_and_logout_with_csrf(csrf_app):
    ensure_user(csrf_app, "eva", "scorer")
    client = tc(csrf_app, user=None)
    assert client.get("/").status_code == 303
    assert client.post("/login", data={"username": "eva", "password": TEST_PASSWORD}).status_code == 400
    r = login(client, "eva", TEST_PASSWORD, "/players")
    assert r.status_code == 303 and r.headers["Location"] == "/players"
    html = client.get("/").get_data(as_text=True)
    assert current_user(html) == "eva"
    assert client.post("/logout").status_code == 400          # no CSRF token: refused
    assert client.get("/").status_code == 200
    r = client.post("/logout", data={"csrf_token": csrf_from(html)})
    assert r.status_code == 303 and client.get("/").status_code == 303


def test_a_failed_login_does_not_say_which_part_was_wrong(csrf_app):
    ensure_user(csrf_app, "eva", "scorer")
    client = tc(csrf_app, user=None)
    wrong_password = login(client, "eva", "not-the-password")
    wrong_name = login(client, "nobody", TEST_PASSWORD)
    assert wrong_password.status_code == wrong_name.status_code == 401
    for r in (wrong_password, wrong_name):
        assert 'id="login-error"' in r.get_data(as_text=True)
        assert "Wrong user name or password." in r.get_data(as_text=True)
    assert login(client, "eva", TEST_PASSWORD, "/login").status_code == 303


def test_login_is_never_redirected_to_another_site(app):
    ensure_user(app, "eva", "scorer")
    client = tc(app, user=None)
    r = client.post("/login", data={"username": "eva", "password": TEST_PASSWORD,
                                    "next": "https://evil.example/"})
    assert r.status_code == 303 and r.headers["Location"] == "/"


def test_ten_failures_a_minute_from_one_address_are_throttled(app):
    ensure_user(app, "eva", "scorer")
    client = tc(app, user=None)
    for _ in range(10):
        assert client.post("/login", data={"username": "eva", "password": "wrong-wrong"}).status_code == 401
    r = client.post("/login", data={"username": "eva", "password": TEST_PASSWORD})
    assert r.status_code == 429                               # even the right password, for now
    other = tc(app, user=None)
    r = other.post("/login", data={"username": "eva", "password": TEST_PASSWORD},
                   environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert r.status_code == 303                               # another address is not held back


def test_successful_logins_are_not_counted(app):
    ensure_user(app, "eva", "scorer")
    client = tc(app, user=None)
    for _ in range(12):
        assert client.post("/login", data={"username": "eva", "password": TEST_PASSWORD}).status_code == 303


def test_the_first_visit_creates_the_first_director_only_while_there_is_no_user(app):
    client = tc(app, user=None)
    r = client.get("/")
    assert r.status_code == 302 and r.headers["Location"] == "/setup"
    assert client.get("/login").headers["Location"] == "/setup"
    assert client.post("/setup", data={"username": "club", "password": "short",
                                       "confirm": "short"}).status_code == 400
    r = client.post("/setup", data={"username": "club", "password": "a-long-secret",
                                    "confirm": "a-long-secret"})
    assert r.status_code == 303
    assert current_user(client.get("/").get_data(as_text=True)) == "club"   # logged in
    other = tc(app, user=None)
    r = other.post("/setup", data={"username": "mallory", "password": "a-long-secret",
                                   "confirm": "a-long-secret"})
    assert r.status_code == 302 and r.headers["Location"] == "/login"
    with app.app_context():
        from app.db import get_session
        from app.models import User

        users = get_session().scalars(select(User)).all()
        assert [(u.username, u.role.value) for u in users] == [("club", "director")]


def test_passwords_and_pins_are_never_stored_in_clear(app, runner, monkeypatch):
    import ast
    import inspect

    from app.accounts import accounts
    from tests.conftest import TEST_PASSWORD_HASH

    # the password's cost as the app runs, as written in its module (the tests run at
    # TEST_PASSWORD_HASH): werkzeug's scrypt at its own cost
    production = next(n.value.value for n in ast.parse(inspect.getsource(accounts)).body
                      if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "PASSWORD_HASH")
    assert production == "scrypt" and accounts.PASSWORD_HASH == TEST_PASSWORD_HASH
    monkeypatch.setattr(accounts, "PASSWORD_HASH", production)
    r = runner.invoke(args=["user", "create", "marta", "--role", "scorer"], input="clear-text-secret\n")
    assert r.exit_code == 0, r.output
    client = tc(app, user="marta", role="scorer")
    client.post("/games/new", data={"profile": "ru32", "player_0": "A", "player_1": "B", "player_2": "C",
                                    "player_3": "D", "first_seat": "0", "pin_0": "4821", "pin_1": "9753"})
    from app.db import get_db

    with get_db(app).engine.connect() as conn:
        for table in ("user_account", "seat_pin"):
            for row in conn.execute(text(f"SELECT * FROM {table}")):
                for value in row:
                    assert "clear-text-secret" not in str(value)
                    # (a 4-digit PIN may turn up inside a random salt or digest by chance)
                    assert not {"4821", "9753"} & set(re.split(r"[$:]", str(value)))
        rows = conn.execute(text("SELECT username, password_hash FROM user_account")).all()
        hashes = [h for (_, h) in rows]
        pins = [h for (h,) in conn.execute(text("SELECT pin_hash FROM seat_pin ORDER BY seat"))]
    from werkzeug.security import check_password_hash

    assert len(pins) == 2 and all(h.startswith("scrypt:") for h in hashes + pins)
    # a PIN's hash costs little (the throttle guards its 10,000 values), a password's much more
    assert all(h.startswith("scrypt:2048:") for h in pins)
    assert all(not h.startswith("scrypt:2048:") for h in hashes)
    marta = [h for (name, h) in rows if name == "marta"]
    assert len(marta) == 1 and marta[0].startswith("scrypt:32768:8:1$")     # werkzeug's full cost
    assert check_password_hash(pins[0], "4821") and check_password_hash(pins[1], "9753")


def test_user_commands(app, runner):
    r = runner.invoke(args=["user", "create", "dora", "--role", "director"], input="first-secret\n")
    assert r.exit_code == 0 and "created dora (director)" in r.output
    r = runner.invoke(args=["user", "create", "dora", "--role", "scorer"], input="other-secret\n")
    assert r.exit_code == 1 and "There is already a user dora" in r.output
    r = runner.invoke(args=["user", "create", "empty", "--role", "scorer"], input="\n")
    assert r.exit_code == 1 and "password" in r.output and "empty" in r.output
    r = runner.invoke(args=["user", "create", "x", "--role", "king"], input="secret-secret\n")
    assert r.exit_code == 2
    r = runner.invoke(args=["user", "passwd", "dora"], input="second-secret\n")
    assert r.exit_code == 0
    r = runner.invoke(args=["user", "passwd", "nobody"], input="second-secret\n")
    assert r.exit_code == 1 and "There is no user nobody" in r.output
    client = tc(app, user=None)
    assert client.post("/login", data={"username": "dora", "password": "first-secret"}).status_code == 401
    assert client.post("/login", data={"username": "dora", "password": "second-secret"}).status_code == 303
    r = runner.invoke(args=["user", "list"])
    assert r.exit_code == 0 and "dora\tdirector" in r.output


def test_user_token_prints_a_new_token_once(app, runner):
    from app.accounts.tokens import list_tokens, user_for_token
    from app.db import get_session

    ensure_user(app, "dora", "scorer")
    r = runner.invoke(args=["user", "token", "dora", "--label", "club laptop"])
    assert r.exit_code == 0, r.output
    secret = r.stdout.strip()
    assert r.stdout == secret + "\n" and secret.startswith("ks_")     # only the token: it pipes
    assert "only once" in r.stderr and "Authorization: Bearer" in r.stderr
    assert secret not in r.stderr
    with app.app_context():
        session = get_session()
        found = user_for_token(session, secret)
        assert found is not None and found.username == "dora"
        (token,) = list_tokens(session, found.id)
        assert token.label == "club laptop" and secret.startswith(token.prefix)
        assert secret not in {token.token_hash, token.prefix}           # stored only hashed
    api = app.test_client(user=None)
    assert api.get("/api/v1/games", headers={"Authorization": f"Bearer {secret}"}).status_code == 200
    assert runner.invoke(args=["user", "token", "dora"]).stdout.strip() != secret


def test_a_token_and_its_user_are_read_in_one_statement(app, runner):
    """Every API request asks for both (a save of the 100-table evening ran one more)."""
    from app.accounts.tokens import user_for_token
    from app.db import get_session
    from tests.web.helpers import sql_statements

    ensure_user(app, "dora", "scorer")
    secret = runner.invoke(args=["user", "token", "dora"]).stdout.strip()
    with app.app_context():
        session = get_session()
        assert user_for_token(session, secret) is not None      # touches last_used_at once
        session.expire_all()
        with sql_statements(app) as seen:
            user = user_for_token(session, secret)
            assert user is not None and user.username == "dora"
        assert len(seen) == 1


def test_user_token_refuses_an_unknown_user_or_a_long_label(app, runner):
    r = runner.invoke(args=["user", "token", "nobody"])
    assert r.exit_code == 1 and r.stdout == ""
    assert "There is no user nobody" in r.stderr
    ensure_user(app, "dora", "scorer")
    r = runner.invoke(args=["user", "token", "dora", "--label", "x" * 61])
    assert r.exit_code == 1 and r.stdout == "" and "at most 60 characters" in r.stderr


def test_a_player_user_is_linked_to_a_roster_player(app, runner, make_game):
    make_game("ru32")
    r = runner.invoke(args=["user", "create", "ana", "--role", "player", "--player", "Ana"],
                      input="ana-secret-1\n")
    assert r.exit_code == 0, r.output
    r = runner.invoke(args=["user", "create", "ana2", "--role", "player", "--player", "Ana"],
                      input="ana-secret-1\n")
    assert r.exit_code == 1 and "already linked" in r.output
    assert "ana\tplayer  player: Ana" in runner.invoke(args=["user", "list"]).output


def test_the_readmes_example_works_on_a_fresh_club(app, runner):
    """`user create dani --role player --player Dani` before any game: Dani joins the roster
    (issue 27.9); a name the roster refuses is named."""
    r = runner.invoke(args=["user", "create", "dani", "--role", "player", "--player", "Dani"],
                      input="dani-secret-1\n")
    assert r.exit_code == 0, r.output
    assert "dani\tplayer  player: Dani" in runner.invoke(args=["user", "list"]).output
    from sqlalchemy import select

    from app.db import get_session
    from app.models import Player

    with app.app_context():
        assert get_session().scalars(select(Player.name)).all() == ["Dani"]
    r = runner.invoke(args=["user", "create", "eve", "--role", "player", "--player", "E\u200bve"],
                      input="eve-secret-1\n")
    assert r.exit_code == 1 and "player:" in r.output


def test_the_creator_of_a_game_is_its_scorer(app):
    ensure_user(app, "beto_s", "scorer")
    sam = tc(app, user="sam", role="scorer")
    r = sam.post("/games/new", data={"profile": "ru32", "player_0": "A", "player_1": "B", "player_2": "C",
                                     "player_3": "D", "first_seat": "0"})
    gid = int(r.headers["Location"].rsplit("/", 1)[1])
    hand = counts_form({"tricks": [2, 3, 1, 2]}, 1, contract="no-tricks", mode="counts")
    other = tc(app, user="beto_s", role="scorer")
    assert other.post(f"/games/{gid}/hands/new", data=hand).status_code == 403
    assert record_of(sam, gid)["hands"] == []
    assert sam.post(f"/games/{gid}/hands/new", data=hand).status_code == 302
    audit = sam.get(f"/games/{gid}/audit").get_data(as_text=True)
    assert audit.count("<strong>sam</strong>") == 2    # created, then the hand


# --- confirmation and the locked sheet ------------------------------------------------------

def complete_game(app: Any, scorer: str = "sam") -> int:
    """A complete ru32 game kept by `scorer`, with the PINs 1111, 2222, 3333 (seat 3: none;
    its player Dani has an account)."""
    from app.db import get_session
    from app.games.games import import_game
    from app.games.table import confirm
    from app.models import Game

    sam = ensure_user(app, scorer, "scorer")
    with app.app_context():
        s = get_session()
        gid = int(import_game(s, load_record("ru32_complete.json"), who=scorer, scorer_id=sam).id)
        confirm.set_pins(s, gid, ["1111", "2222", "3333", None])
        s.commit()
        dani = s.get(Game, gid).seats[3].player.name
    ensure_user(app, "dani", "player", player=dani)
    return gid


def seen_version(client: Any, gid: int) -> str:
    """The game's version as its confirmation page shows it (the one a confirmation names)."""
    html = client.get(f"/games/{gid}/confirm").get_data(as_text=True)
    found = re.search(r'name="version" value="(\d+)"', html)
    return found.group(1) if found else str(client.get(f"/api/v1/games/{gid}").get_json()["version"])


def by_pin(client: Any, gid: int, seat: int, pin: str) -> Any:
    return client.post(f"/games/{gid}/confirm", data={"seat": str(seat), "pin": pin,
                                                      "version": seen_version(client, gid)})


def by_account(client: Any, gid: int, seat: int) -> Any:
    return client.post(f"/games/{gid}/confirm", data={"seat": str(seat),
                                                      "version": seen_version(client, gid)})


def first_hand_form(client: Any, gid: int) -> dict[str, str]:
    """A correction of hand 1 (no tricks, entered as counts): one trick moved."""
    version = int(client.get(f"/api/v1/games/{gid}").get_json()["version"])
    return counts_form({"tricks": [2, 2, 2, 2]}, version, contract="no-tricks", mode="counts")


def test_confirm_lock_director_correction_and_confirm_again(app):
    gid = complete_game(app)
    sam = tc(app, user="sam", role="scorer")
    dani = tc(app, user="dani", role="player")
    director = tc(app)
    rows = len(record_of(sam, gid)["hands"])

    assert by_pin(sam, gid, 0, "9999").status_code == 422                  # wrong PIN: nothing
    assert "Wrong PIN." in by_pin(sam, gid, 0, "9999").get_data(as_text=True)
    assert by_pin(dani, gid, 0, "1111").status_code == 403                 # PINs: the scorer's phone
    assert by_account(dani, gid, 0).status_code == 403   # not her seat
    for seat, pin in ((0, "1111"), (1, "2222"), (2, "3333")):
        assert by_pin(sam, gid, seat, pin).status_code == 303
    sheet = sam.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="locked-badge"' not in sheet and sheet.count('data-current="1"') == 3
    assert by_account(dani, gid, 3).status_code == 303   # one tap
    sheet = sam.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="locked-badge"' in sheet and sheet.count('data-current="1"') == 4
    assert "from their account" in sheet and "with the seat's PIN" in sheet

    # locked: the scorer's correction is refused, nothing changes
    before = record_of(sam, gid)
    r = sam.post(f"/games/{gid}/hands/1/edit", data=first_hand_form(sam, gid))
    assert r.status_code == 409 and "locked" in r.get_data(as_text=True)
    assert sam.post(f"/games/{gid}/hands/last/delete", data={"version": "1"}).status_code == 409
    assert sam.post(f"/games/{gid}/hands/{rows}/ruling",
                    data={"version": "1", "kind": "replay", "reason": "x"}).status_code == 409
    r = sam.post(f"/games/{gid}/hands/1/edit", data={**first_hand_form(sam, gid), "correction": "x"})
    assert r.status_code == 409                               # a reason counts only from a director
    assert record_of(sam, gid) == before
    # ... and the director's too, without a reason
    assert director.post(f"/games/{gid}/hands/1/edit", data=first_hand_form(sam, gid)).status_code == 409
    page = director.get(f"/games/{gid}/hands/1/edit").get_data(as_text=True)
    assert 'id="correction"' in page                         # the director is asked for a reason
    assert 'id="correction"' not in sam.get(f"/games/{gid}/hands/1/edit").get_data(as_text=True)

    # the director corrects with a reason: logged with it, unlocked, asked again
    r = director.post(f"/games/{gid}/hands/{rows}/ruling",
                      data={"version": "1", "kind": "as-played", "reason": "checked the cards",
                            "correction": "Carla disputed the last hand"})
    assert r.status_code == 303
    audit = director.get(f"/games/{gid}/audit").get_data(as_text=True)
    assert "Carla disputed the last hand" in audit and "<strong>directora</strong>" in audit
    # the confirmations stay in the change log: four of version 1, by PIN on sam's phone and
    # from dani's account
    assert audit.count('data-version="1"') == 4 and "(sam)" in audit and "(dani)" in audit
    sheet = sam.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="locked-badge"' not in sheet and 'data-current="1"' not in sheet
    assert "the sheet changed since: asked again" in sheet
    # the table confirms again: locked again
    for seat, pin in ((0, "1111"), (1, "2222"), (2, "3333")):
        assert by_pin(sam, gid, seat, pin).status_code == 303
    assert by_account(dani, gid, 3).status_code == 303
    assert 'id="locked-badge"' in sam.get(f"/games/{gid}").get_data(as_text=True)
    assert sam.post(f"/games/{gid}/hands/last/delete", data={"version": "2"}).status_code == 409


def test_a_game_in_progress_never_locks(app, make_game):
    from app.db import get_session
    from app.games.table import confirm

    gid = make_game("ru32", hands=[{"contract": "no-tricks", "counts": {"tricks": [2, 3, 1, 2]}}])
    with app.app_context():
        s = get_session()
        confirm.set_pins(s, gid, ["1111", "2222", "3333", "4444"])
        s.commit()
    director = tc(app)
    for seat in range(4):
        assert by_pin(director, gid, seat, str(seat + 1) * 4).status_code == 303
    html = director.get(f"/games/{gid}/confirm").get_data(as_text=True)
    assert 'id="not-over"' in html and 'id="locked-badge"' not in html
    hand = counts_form({"tricks": [2, 2, 2, 2]}, 1, contract="no-tricks", mode="counts")
    assert director.post(f"/games/{gid}/hands/1/edit", data=hand).status_code == 302


def test_a_pin_is_four_digits(app):
    director = tc(app)
    r = director.post("/games/new", data={"profile": "ru32", "player_0": "A", "player_1": "B",
                                          "player_2": "C", "player_3": "D", "first_seat": "0",
                                          "pin_0": "12a4"})
    assert r.status_code == 400 and "A PIN is 4 digits." in r.get_data(as_text=True)


# --- the share link -------------------------------------------------------------------------

def make_share(client: Any, gid: int) -> str:
    r = client.post(f"/games/{gid}/share")
    assert r.status_code == 303
    html = client.get(f"/games/{gid}").get_data(as_text=True)
    return re.search(r'id="share-url">[^<]*/s/([\w-]+)<', html).group(1)  # type: ignore[union-attr]


def test_the_share_link_reads_but_cannot_write(app):
    gid = complete_game(app)
    sam = tc(app, user="sam", role="scorer")
    assert f"/qr.svg?path=/games/{gid}" in sam.get(f"/games/{gid}").get_data(as_text=True)
    token = make_share(sam, gid)
    assert len(token) >= 32
    assert f"/qr.svg?path=/s/{token}" in sam.get(f"/games/{gid}").get_data(as_text=True)
    anonymous = tc(app, user=None)
    sheet = anonymous.get(f"/s/{token}")
    html = sheet.get_data(as_text=True)
    assert sheet.status_code == 200 and 'id="sheet"' in html and f'href="/s/{token}/hands/1' in html
    assert "/edit" not in html and 'action="/games' not in html and 'id="enter-hand"' not in html
    assert f'data-live-url="/s/{token}/live"' in html
    assert anonymous.get(f"/s/{token}/live").status_code == 200
    assert anonymous.get(f"/s/{token}/live", headers={"If-None-Match": '"v1"'}).status_code == 304
    hand = anonymous.get(f"/s/{token}/hands/1")
    assert hand.status_code == 200 and 'id="ruling-form"' not in hand.get_data(as_text=True)
    pdf = anonymous.get(f"/s/{token}/sheet.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    assert anonymous.get(f"/s/{token}/hands/1.pdf").data.startswith(b"%PDF")
    assert anonymous.get(f"/s/{token}/hands/99").status_code == 404
    # nothing behind it writes; the game's own pages still need an account
    for method in ("post", "put", "delete"):
        assert getattr(anonymous, method)(f"/s/{token}").status_code == 405
        assert getattr(anonymous, method)(f"/s/{token}/hands/1").status_code == 405
    assert anonymous.get(f"/games/{gid}").status_code == 303
    assert anonymous.get("/s/not-a-token").status_code == 404
    # revoked: opens nothing
    assert sam.post(f"/games/{gid}/share/revoke").status_code == 303
    assert anonymous.get(f"/s/{token}").status_code == 404
    assert anonymous.get(f"/s/{token}/sheet.pdf").status_code == 404
    assert make_share(sam, gid) != token                     # a new link is a new token


def test_only_the_games_scorers_make_or_revoke_its_share_link(app):
    gid = complete_game(app)
    other = tc(app, user="beto_s", role="scorer")
    assert other.post(f"/games/{gid}/share").status_code == 403
    assert 'id="make-share"' not in other.get(f"/games/{gid}").get_data(as_text=True)


def test_a_handover_link_adds_one_scorer_once(app):
    gid = complete_game(app)
    sam = tc(app, user="sam", role="scorer")
    html = sam.post(f"/games/{gid}/handover").get_data(as_text=True)
    token = re.search(r'id="handover-url">[^<]*/h/([\w-]+)<', html).group(1)  # type: ignore[union-attr]
    assert 'id="qr-handover"' in html
    anonymous = tc(app, user=None)
    r = anonymous.get(f"/h/{token}")
    assert r.status_code == 303 and r.headers["Location"] == f"/login?next=/h/{token}"
    eli = tc(app, user="eli", role="scorer")
    assert eli.post(f"/games/{gid}/share").status_code == 403          # not yet a scorer
    assert 'id="take-over-submit"' in eli.get(f"/h/{token}").get_data(as_text=True)
    r = eli.post(f"/h/{token}")
    assert r.status_code == 303 and r.headers["Location"] == f"/games/{gid}"
    assert eli.post(f"/games/{gid}/share").status_code == 303           # now a scorer
    fay = tc(app, user="fay", role="scorer")
    assert fay.post(f"/h/{token}").status_code == 404                   # spent
    assert fay.post(f"/games/{gid}/share").status_code == 403


def test_games_from_before_accounts_belong_to_the_directors(app, make_game):
    gid = make_game("ru32")                                  # no scorer: as a migrated game
    hand = counts_form({"tricks": [2, 3, 1, 2]}, 1, contract="no-tricks", mode="counts")
    assert tc(app, user="sam", role="scorer").post(f"/games/{gid}/hands/new",
                                                           data=hand).status_code == 403
    assert tc(app).post(f"/games/{gid}/hands/new", data=hand).status_code == 302


def test_the_api_record_is_for_logged_in_users(app, make_game):
    gid = make_game("ru32")
    assert tc(app, user=None).get(f"/api/v1/games/{gid}").status_code == 401
    assert tc(app, user="pia", role="player").get(f"/api/v1/games/{gid}").status_code == 200
    assert base_record("ru32")


def test_the_pdf_footer_links_the_share_link_once_there_is_one(app):
    from tests.printing.test_pdf import flat, text_of

    gid = complete_game(app)
    sam = tc(app, user="sam", role="scorer")
    before = flat(text_of(sam.get(f"/games/{gid}/sheet.pdf").data))
    assert f"/games/{gid}" in before and "/s/" not in before
    token = make_share(sam, gid)
    after = flat(text_of(sam.get(f"/games/{gid}/sheet.pdf").data))
    assert f"/s/{token}" in after
    hand = flat(text_of(tc(app, user=None).get(f"/s/{token}/hands/1.pdf").data))
    assert f"/s/{token}" in hand


def test_a_director_creates_accounts_on_the_accounts_page(app, make_game):
    make_game("ru32")
    director = tc(app)
    assert 'id="users-link"' in director.get("/").get_data(as_text=True)
    r = director.post("/users", data={"username": "nora", "password": "nora-secret", "role": "player",
                                      "player": "Beto"})
    assert r.status_code == 303
    html = director.get("/users").get_data(as_text=True)
    assert 'data-user="nora"' in html and "Beto" in html
    r = director.post("/users", data={"username": "nora", "password": "nora-secret", "role": "scorer"})
    assert r.status_code == 400 and "There is already a user nora." in r.get_data(as_text=True)
    r = director.post("/users", data={"username": "zoe", "password": "zoe-secret", "role": "scorer",
                                      "player": "Nadie"})
    assert r.status_code == 303                       # Nadie joins the roster (issue 27.9)
    assert "Nadie" in director.get("/players").get_data(as_text=True)
    assert tc(app, user=None).post("/login", data={"username": "nora",
                                                   "password": "nora-secret"}).status_code == 303
    scorer = tc(app, user="sam", role="scorer")
    assert scorer.get("/users").status_code == 403
    assert 'id="users-link"' not in scorer.get("/").get_data(as_text=True)


def test_wrong_pins_make_the_seat_wait(app):
    """Per game seat (issue 23.3): after 5 wrong PINs the seat waits, whoever types."""
    gid = complete_game(app)
    sam = tc(app, user="sam", role="scorer")
    for _ in range(5):
        assert by_pin(sam, gid, 0, "0000").status_code == 422
    assert by_pin(sam, gid, 0, "1111").status_code == 429       # even the right one, for now
    assert 'data-current="1"' not in sam.get(f"/games/{gid}").get_data(as_text=True)


def test_the_live_check_changes_when_a_seat_confirms(app):
    gid = complete_game(app)
    sam = tc(app, user="sam", role="scorer")
    first = sam.get(f"/games/{gid}/live")
    assert first.headers["ETag"] == '"v1"' and first.get_json()["table"] == 0
    assert 'data-table="0"' in sam.get(f"/games/{gid}").get_data(as_text=True)
    assert by_pin(sam, gid, 0, "1111").status_code == 303
    assert sam.get(f"/games/{gid}/live", headers={"If-None-Match": '"v1"'}).status_code == 200
    again = sam.get(f"/games/{gid}/live")
    assert again.headers["ETag"] == '"v1c1"' and again.get_json() == {
        "version": 1, "updated_at": again.get_json()["updated_at"], "table": 1}
    assert sam.get(f"/games/{gid}/live", headers={"If-None-Match": '"v1c1"'}).status_code == 304
    assert 'data-table="1"' in sam.get(f"/games/{gid}").get_data(as_text=True)


def test_a_director_changes_a_role_and_resets_a_password(app):
    sam_id = ensure_user(app, "sam", "scorer")
    director = tc(app)
    assert 'id="edit-user"' in director.get(f"/users/{sam_id}").get_data(as_text=True)
    r = director.post(f"/users/{sam_id}", data={"role": "director", "password": "short"})
    assert r.status_code == 400                                 # too short: nothing changed
    r = director.post(f"/users/{sam_id}", data={"role": "director", "password": "sams-new-secret"})
    assert r.status_code == 303
    assert tc(app, user=None).post("/login", data={"username": "sam",
                                                   "password": "sams-new-secret"}).status_code == 303
    assert director.post(f"/users/{sam_id}", data={"role": "king"}).status_code == 400
    assert director.get("/users/999").status_code == 404
    scorer = tc(app, user="eli", role="scorer")
    assert scorer.post(f"/users/{sam_id}", data={"role": "player"}).status_code == 403
    sam = tc(app, user="sam", role="scorer")                    # now a director
    assert sam.get("/users").status_code == 200


def test_the_confirmation_refusals_are_in_the_pages_language(app):
    gid = complete_game(app)
    sam = tc(app, user="sam", role="scorer")
    r = sam.post(f"/games/{gid}/confirm", headers={"Accept-Language": "es"},
                 data={"seat": "0", "pin": "9999", "version": seen_version(sam, gid)})
    assert r.status_code == 422 and "PIN incorrecto." in r.get_data(as_text=True)
    assert "Wrong PIN." not in r.get_data(as_text=True)


def test_the_command_reads_a_bounded_password_line(app, runner):
    """A 5 MB line on standard input is refused without being held whole (issue 23.8)."""
    r = runner.invoke(args=["user", "create", "huge", "--role", "scorer"], input="x" * 5_000_000 + "\n")
    assert r.exit_code != 0 and "longer than 1024" in r.output
    from app.accounts.accounts import find_user
    from app.db import get_session

    with app.app_context():
        assert find_user(get_session(), "huge") is None


def test_a_handover_link_works_for_one_day(app):
    """Issue 23.8: a handover link older than 24 hours opens nothing, and the scorer's next
    hand-over makes a new one."""
    from datetime import timedelta

    from sqlalchemy import update

    from app.db import get_session
    from app.models import GameLink

    gid = complete_game(app)
    sam = tc(app, user="sam", role="scorer")
    html = sam.post(f"/games/{gid}/handover").get_data(as_text=True)
    token = re.search(r'id="handover-url">[^<]*/h/([\w-]+)<', html).group(1)  # type: ignore[union-attr]
    with app.app_context():
        s = get_session()
        link = s.scalars(select(GameLink).where(GameLink.token == token)).one()
        s.execute(update(GameLink).where(GameLink.id == link.id)
                  .values(created_at=link.created_at - timedelta(hours=25)))
        s.commit()
    eli = tc(app, user="eli", role="scorer")
    assert eli.post(f"/h/{token}").status_code == 404
    assert eli.post(f"/games/{gid}/share").status_code == 403            # not a scorer
    again = sam.post(f"/games/{gid}/handover").get_data(as_text=True)
    fresh = re.search(r'id="handover-url">[^<]*/h/([\w-]+)<', again).group(1)  # type: ignore[union-attr]
    assert fresh != token and eli.post(f"/h/{fresh}").status_code == 303


def test_the_last_director_cannot_demote_itself(app):
    """Issue 23.8: a club always has a director; with a second one, the first may step down."""
    director_id = ensure_user(app, "directora")
    director = tc(app)
    r = director.post(f"/users/{director_id}", data={"role": "scorer"})
    assert r.status_code == 400 and "last director" in r.get_data(as_text=True)
    assert 'id="users-link"' in director.get("/").get_data(as_text=True)      # still a director
    ensure_user(app, "otra")
    assert director.post(f"/users/{director_id}", data={"role": "scorer"}).status_code == 303

# --- a confirmation names what it confirms (issue 23.4) -------------------------------------

def _confirmed_versions(app: Any, gid: int) -> list[tuple[int, int]]:
    from app.db import get_session
    from app.models import Confirmation

    with app.app_context():
        rows = get_session().scalars(select(Confirmation).where(Confirmation.game_id == gid)
                                     .order_by(Confirmation.id)).all()
        return [(c.seat, c.version) for c in rows]


def test_a_confirmation_of_a_sheet_that_changed_is_refused_and_nothing_locks(app):
    gid = complete_game(app)
    sam = tc(app, user="sam", role="scorer")
    dani = tc(app, user="dani", role="player")
    for seat, pin in ((0, "1111"), (1, "2222"), (2, "3333")):
        assert by_pin(sam, gid, seat, pin).status_code == 303
    seen = seen_version(dani, gid)                         # dani looks at version 1 ...
    assert seen == "1"
    assert sam.post(f"/games/{gid}/hands/1/edit", data=first_hand_form(sam, gid)).status_code == 302
    r = dani.post(f"/games/{gid}/confirm", data={"seat": "3", "version": seen})   # ... and taps
    assert r.status_code == 409
    html = r.get_data(as_text=True)
    assert 'id="confirm-error"' in html and "The sheet changed: look again." in html
    assert 'name="version" value="2"' in html              # the page shows the sheet as it is
    assert dani.post(f"/games/{gid}/confirm", data={"seat": "3"}).status_code == 409  # saw none
    assert _confirmed_versions(app, gid) == [(0, 1), (1, 1), (2, 1)]
    assert 'id="locked-badge"' not in sam.get(f"/games/{gid}").get_data(as_text=True)
    r = sam.post(f"/games/{gid}/confirm", data={"seat": "0", "pin": "1111", "version": "1"},
                 headers={"Accept-Language": "es"})
    assert r.status_code == 409 and "La hoja ha cambiado: vuelve a mirarla." in r.get_data(as_text=True)
    # looking again: version 2 is confirmed, by all four, and locks
    assert by_account(dani, gid, 3).status_code == 303
    for seat, pin in ((0, "1111"), (1, "2222"), (2, "3333")):
        assert by_pin(sam, gid, seat, pin).status_code == 303
    assert 'id="locked-badge"' in sam.get(f"/games/{gid}").get_data(as_text=True)
    assert _confirmed_versions(app, gid)[3:] == [(3, 2), (0, 2), (1, 2), (2, 2)]


def test_the_api_confirmation_may_name_the_version_it_confirms(app):
    from tests.api.test_api import bearer, token_for

    gid = complete_game(app)
    token = token_for(app, "sam", "scorer")
    api = tc(app, user=None)
    sam = tc(app, user="sam", role="scorer")
    assert sam.post(f"/games/{gid}/hands/1/edit", data=first_hand_form(sam, gid)).status_code == 302
    r = api.post(f"/api/v1/games/{gid}/confirmations", json={"seat": 0, "pin": "1111", "version": 1},
                 headers=bearer(token))
    assert r.status_code == 409
    assert r.get_json()["error"] == {"code": "sheet-changed", "field": "version",
                                     "message": "The sheet changed: look again."}
    assert r.get_json()["version"] == 2
    assert _confirmed_versions(app, gid) == []
    r = api.post(f"/api/v1/games/{gid}/confirmations", json={"seat": 0, "pin": "1111", "version": 2},
                 headers=bearer(token))
    assert r.status_code == 201 and r.get_json()["version"] == 2
    r = api.post(f"/api/v1/games/{gid}/confirmations", json={"seat": 1, "pin": "2222"},
                 headers=bearer(token))
    assert r.status_code == 201                            # without one: the sheet as it is
    assert _confirmed_versions(app, gid) == [(0, 2), (1, 2)]


def test_every_entry_page_of_a_locked_sheet_says_so_before_anything_is_typed(app):
    """Issue 27.3: the counts page, the trick page and the hand's record (its ruling form)
    of a locked sheet tell a scorer, with no form to fill; a director gets the form with
    the reason field before the values."""
    gid = complete_game(app)
    sam = tc(app, user="sam", role="scorer")
    dani = tc(app, user="dani", role="player")
    for seat, pin in ((0, "1111"), (1, "2222"), (2, "3333")):
        assert by_pin(sam, gid, seat, pin).status_code == 303
    assert by_account(dani, gid, 3).status_code == 303
    director = tc(app)
    pages = {f"/games/{gid}/hands/1/edit": 'id="hand-form"',
             f"/games/{gid}/hands/1/tricks": 'id="save-form"',
             f"/games/{gid}/hands/1": 'id="ruling-form"'}
    for url, form in pages.items():
        told = sam.get(url).get_data(as_text=True)
        assert 'id="locked-notice"' in told and "Only a director can correct it" in told, url
        assert form not in told and 'id="correction"' not in told, url
        shown = director.get(url).get_data(as_text=True)
        assert 'id="locked-notice"' not in shown, url
    # the director's counts form asks for the reason before the values; the trick page,
    # whose save comes after the cards, says so before the first card is tapped
    counts = director.get(f"/games/{gid}/hands/1/edit").get_data(as_text=True)
    assert counts.index('id="correction"') < counts.index('name="tricks_0"')
    tricks = director.get(f"/games/{gid}/hands/1/tricks").get_data(as_text=True)
    assert tricks.index('id="locked-director-first"') < tricks.index('id="referee"')


def test_a_director_vouches_for_the_seats_without_pin_or_account(app):
    """Issue 38: the confirmation page offers a director a button for each seat with no PIN
    and no account of their own; the four vouched seats lock the sheet, each says so. A
    scorer sees no such button, and a scorer's vouch is refused."""
    from app.db import get_session
    from app.games.games import import_game

    sam = ensure_user(app, "sam", "scorer")
    with app.app_context():
        gid = int(import_game(get_session(), load_record("ru32_complete.json"), who="sam", scorer_id=sam).id)
    scorer, director = tc(app, user="sam", role="scorer"), tc(app)
    assert 'id="vouch-0"' not in scorer.get(f"/games/{gid}/confirm").get_data(as_text=True)
    refused = scorer.post(f"/games/{gid}/confirm",
                          data={"seat": "0", "vouch": "1", "version": seen_version(scorer, gid)})
    assert refused.status_code == 403
    page = director.get(f"/games/{gid}/confirm").get_data(as_text=True)
    assert all(f'id="vouch-{s}"' in page for s in range(4))
    for seat in range(4):
        r = director.post(f"/games/{gid}/confirm",
                          data={"seat": str(seat), "vouch": "1", "version": seen_version(director, gid)})
        assert r.status_code == 303, r.get_data(as_text=True)[:300]
    page = director.get(f"/games/{gid}/confirm").get_data(as_text=True)
    assert 'id="locked-line"' in page and page.count("vouched for by a director") == 4
