"""Accounts on the web: who may do what, and the login's session (the login, logout and
first-director pages themselves are app/accounts/login_pages.py).

Every request passes `guard` (a ``before_request`` of the app), so a new route is
protected the day it is added:

- **public** endpoints (below) are open to anyone: logging in, the first-director page
  (only while there is no user), the share-link views, the rules pages, the language
  switch, the site's files, ``POST /api/v1/score`` and ``POST /api/v1/analysis`` (they
  store nothing);
- everything else needs a logged-in user: an anonymous page request is redirected to
  ``/login?next=…``, an ``/api/`` (or JSON) request gets 401;
- an endpoint of one game (``game_id`` in the address) that changes it, or shows a form
  that does (its rule accepts POST), needs a scorer of that game or a director (else 403),
  except the ones that check for themselves (a player confirming their own seat or
  calling the director to their table);
- creating games (new, import) needs a scorer or a director; seasons' forms a director;
- the account page, where a user makes and revokes their API tokens, needs a logged-in
  session: a request with a token is refused (a token never makes another token, so
  revoking a leaked one ends what it can do).
"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from flask import (
    Flask,
    current_app,
    g,
    redirect,
    request,
    url_for,
)
from flask import session as cookie_session
from flask_babel import gettext as _
from flask_login import LoginManager, current_user, login_user
from flask_wtf.csrf import generate_csrf

from app.accounts import accounts, tokens
from app.accounts.accounts import Access
from app.db import get_session
from app.games import queries
from app.games.table import confirm
from app.models import Game, Role, User
from app.web.common import safe_next
from app.web.errors import error_response, wants_json

#: Login and seat-PIN guesses are counted in the database: app/accounts/throttle.py.

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

#: Open to anyone (endpoints, or blueprints ending in ".").
PUBLIC = frozenset({"static", "auth.login", "auth.logout", "auth.setup", "prefs.set_language",
                    "site.favicon", "site.manifest", "site.service_worker", "site.offline",
                    "rules.index", "rules.profile", "api.score", "api_analysis.analyse_post",
                    "api.docs", "api-docs.", "live.qr", "share.", "events.screen", "events.live"})
#: Endpoints of one game that check the user themselves (a player confirms their own seat).
SELF_CHECKED = frozenset({"table.confirm_sheet", "api.confirm_seat",
                          # a seat's own player calls the director too (games/table/calls.may_call)
                          "calls.call", "api_calls.open_call"})
#: Endpoints without a game that need one of these roles (for every method).
ROLES_NEEDED: dict[str, frozenset[Role]] = {
    "games.new": frozenset({Role.DIRECTOR, Role.SCORER}),
    "games.import_record": frozenset({Role.DIRECTOR, Role.SCORER}),
    "api.new_game": frozenset({Role.DIRECTOR, Role.SCORER}),
    "seasons.edit": frozenset({Role.DIRECTOR}),
    "seasons.delete": frozenset({Role.DIRECTOR}),
    "users.index": frozenset({Role.DIRECTOR}),
    "users.edit": frozenset({Role.DIRECTOR}),
    "users.revoke_tokens": frozenset({Role.DIRECTOR}),
    # events: directors create and run them (events.screen and events.live check a link's key)
    **{f"events.{name}": frozenset({Role.DIRECTOR})
       for name in ("new", "draw", "swap", "late", "withdraw", "share", "table_codes", "event_pdf")},
    "api_events.new_event": frozenset({Role.DIRECTOR}),
    "api_events.draw_round": frozenset({Role.DIRECTOR}),
    "api_events.swap": frozenset({Role.DIRECTOR}),
    "api_events.late": frozenset({Role.DIRECTOR}),
    "api_events.withdraw": frozenset({Role.DIRECTOR}),
    # calls to the director: the directors see and answer them (issue 40)
    **{f"calls.{name}": frozenset({Role.DIRECTOR}) for name in ("index", "live", "answer")},
    "api_calls.list_calls": frozenset({Role.DIRECTOR}),
    "api_calls.answer_call": frozenset({Role.DIRECTOR}),
    # one roster: directors rename and merge players (issue 38)
    **{f"players.{name}": frozenset({Role.DIRECTOR}) for name in ("edit", "rename", "merge")},
    "api.rename_player": frozenset({Role.DIRECTOR}),
    "api.merge_players": frozenset({Role.DIRECTOR}),
}
#: Endpoints (or blueprints ending in ".") an API token may not use: only a session does.
SESSION_ONLY = frozenset({"account."})
#: ... and for their writes only (the page itself is for everyone logged in).
ROLES_TO_WRITE: dict[str, frozenset[Role]] = {
    "seasons.index": frozenset({Role.DIRECTOR}),
}


def _listed(endpoint: str, names: frozenset[str]) -> bool:
    return endpoint in names or endpoint.split(".", 1)[0] + "." in names


def is_public(endpoint: str) -> bool:
    return _listed(endpoint, PUBLIC)


def user() -> User | None:
    """The logged-in user, or None."""
    u = current_user
    return u if isinstance(u, User) else None


def actor() -> str:
    """The change log's "who": the authenticated user's name."""
    u = user()
    return u.username if u is not None else "?"


def director_reason(reason: str | None) -> str | None:
    """A correction's reason, counted only from a director (it unlocks a confirmed sheet)."""
    u = user()
    return reason if u is not None and u.is_director else None


def game_access(game_id: int) -> Access:
    """What the current user may do with this game (kept for the request)."""
    cache: dict[int, Access] = g.setdefault("game_access", {})
    if game_id not in cache:
        u = user()
        cache[game_id] = Access(can_score=accounts.can_score(get_session(), u, game_id),
                                director=u is not None and u.is_director)
    return cache[game_id]


def known_game_access(game_id: int, scorer: bool) -> Access:
    """:func:`game_access`, from whether the user is a scorer of the game as a page read it
    with its own statement (``confirm.sheet_state``): the same rule as
    ``accounts.can_score``, no statement of its own."""
    u = user()
    director = u is not None and u.is_director
    access = Access(can_score=director or (u is not None and u.role is Role.SCORER and scorer),
                    director=director)
    g.setdefault("game_access", {})[game_id] = access
    return access


def sheet_locked(game_id: int) -> bool:
    """Whether the table confirmed this game's sheet (it is locked)."""
    game = get_session().get(Game, game_id)
    return game is not None and confirm.is_locked(get_session(), game)


def has_users() -> bool:
    """Whether any user exists (remembered once true: users are never all removed)."""
    if current_app.extensions.get("kingsheet_has_users"):
        return True
    found = accounts.has_users(get_session())
    if found:
        current_app.extensions["kingsheet_has_users"] = True
    return found


def _refuse_anonymous() -> Any:
    if wants_json():
        return error_response(401, "login-required", _("Log in first."))
    target = request.full_path.rstrip("?") if request.method in SAFE_METHODS else (
        safe_next(request.referrer and _local(request.referrer), request.path))
    return redirect(url_for("auth.login", next=target), 303)


def _local(url: str) -> str:
    """The path and query of an address of this site (the page a refused form was on)."""
    host = request.host_url.rstrip("/")
    return url[len(host):] if url.startswith(host + "/") else ""


def forbidden(message: str | None = None) -> Any:
    return error_response(403, "forbidden", message or _("You may not change this game: it is kept "
                                                          "by its scorers and the club's directors."))


def _rule_writes() -> bool:
    rule = request.url_rule
    return rule is not None and bool((rule.methods or set()) - SAFE_METHODS)


def _role_refusal(u: Any, endpoint: str, writing: bool) -> Any:
    """The refusal when the user's role may not use (or, writing, change through) the endpoint."""
    needed = ROLES_NEEDED.get(endpoint) or (ROLES_TO_WRITE.get(endpoint) if writing else None)
    if needed is not None and u.role not in needed:
        return forbidden(_("Your account may not do this."))
    return None


def _game_refusal(endpoint: str, writing: bool) -> Any:
    """The refusal when the request would change a game the user may not score."""
    game_id = (request.view_args or {}).get("game_id")
    if (game_id is not None and endpoint not in SELF_CHECKED and (writing or _rule_writes())
            and not game_access(int(game_id)).can_score):
        return forbidden()
    return None


def bearer_token() -> str | None:
    """The token of ``Authorization: Bearer <token>``, or None without one."""
    header = request.headers.get("Authorization", "")
    scheme, _sep, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" else None


def by_token() -> bool:
    """Whether this request is authenticated by an API token (no session, no CSRF)."""
    return bool(g.get("by_token"))


def _token_user() -> Any:
    """A request with a bearer token acts as the token's user (over any session cookie);
    an unknown or revoked token is refused with 401, whatever else the request carries."""
    secret = bearer_token()
    if secret is None:
        return None
    if not request.path.startswith("/api/"):
        # a token is for the API: the pages and their forms go with a session (and CSRF)
        return error_response(401, "token-not-here", _("API tokens are for /api/v1 only."))
    found = tokens.user_for_token(get_session(), secret)
    if found is None:
        return error_response(401, "token-invalid", _("Unknown or revoked API token."))
    g._login_user = found          # Flask-Login's current_user for this request only
    g.by_token = True
    return None


def guard() -> Any:
    endpoint = request.endpoint
    refusal = _token_user()
    if refusal is not None:
        return refusal
    if endpoint is None or is_public(endpoint):
        return None
    if not has_users() and not wants_json():
        return redirect(url_for("auth.setup"))
    if _login_only(endpoint):
        return login_only_guard(endpoint)
    return _user_guard(endpoint)


def _login_only(endpoint: str) -> bool:
    """A :data:`LOGIN_ONLY` read (GET or HEAD) with a session, not an API token."""
    return endpoint in LOGIN_ONLY and request.method in ("GET", "HEAD") and not by_token()


def _user_guard(endpoint: str) -> Any:
    """The user's turn of the guard: logged in, a session where a token may not do it, the
    role's and the game's rights (None: the request goes on)."""
    u = user()
    if u is None:
        return _refuse_anonymous()
    _renew_daily()
    if by_token() and _listed(endpoint, SESSION_ONLY):
        return forbidden(_("An API token may not do this: log in on the site."))
    writing = request.method not in SAFE_METHODS
    refusal = _role_refusal(u, endpoint, writing)
    if refusal is not None:
        return refusal
    return _game_refusal(endpoint, writing)


#: Reads for anyone logged in that use nothing of the user (no role, no game right): the
#: version check every open page of a game asks about once a second, and the PDFs (a
#: repeat download is a file read). :func:`login_only_guard` checks the login without
#: loading the user, for the version check inside the statement that reads the stamp.
LOGIN_ONLY = frozenset({"live.stamp", "pdf.sheet", "pdf.hand", "pdf.blank"})


def login_only_guard(endpoint: str) -> Any:
    """The guard of a :data:`LOGIN_ONLY` read: the session's user (``"<id>:<generation>"``,
    as :func:`accounts.user_for_session` reads it) must exist with that generation. For the
    version check it is read with the game's stamp, kept for the view (``g.live_stamp``)."""
    parsed = accounts.parse_session_id(str(cookie_session.get("_user_id") or ""))
    if parsed is None:
        return _refuse_anonymous()
    user_id, generation = parsed
    if endpoint == "live.stamp":
        game_id = int((request.view_args or {}).get("game_id", 0))
        found, current = queries.game_stamp_for(get_session(), game_id, user_id)
        if found is None:        # no such game: said only to a login (a stranger learns nothing)
            current = accounts.session_generation(get_session(), user_id)
        g.live_stamp = found
    else:
        current = accounts.session_generation(get_session(), user_id)
    if current != generation:
        return _refuse_anonymous()     # logged out elsewhere, a new password, a role change
    _renew_daily()
    return None


def _renew_daily() -> None:
    """A kept login's week starts again on its first page of the day. The cookie is sent
    only when the session changes (SESSION_REFRESH_EACH_REQUEST is off): once a day, then,
    not with every background page of the service worker, whose late answers would put an
    older session back."""
    if renewal_due(cookie_session):
        cookie_session["_renewed"] = date.today().isoformat()


def renewal_due(data: Mapping[str, Any]) -> bool:
    """Whether this session's first page of the day is now (:func:`_renew_daily` writes the
    cookie then): only a kept login is renewed."""
    return bool(data.get("_permanent")) and data.get("_renewed") != date.today().isoformat()


def new_csrf_token() -> None:
    """Replaces the session's CSRF token, in the answer that changes the session anyway: the
    pages opened next (and the service worker's background pages, at the same moment)
    all find this one, so none of them writes a token of its own into the cookie."""
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    cookie_session.pop(field, None)
    g.pop(field, None)
    generate_csrf()


def start_session(found: User) -> None:
    """Logs `found` in on this browser, with a CSRF token the anonymous page never had."""
    new_csrf_token()
    login_user(found)
    # kept when the phone's browser is closed (PERMANENT_SESSION_LIFETIME): hands waiting in
    # its outbox are sent when it opens again; logging out or a new password still ends it
    cookie_session.permanent = True
    _renew_daily()


def init_app(app: Flask) -> None:
    manager = LoginManager()
    manager.login_view = "auth.login"

    def load_user(session_id: str) -> User | None:
        return accounts.user_for_session(get_session(), session_id)

    manager.user_loader(load_user)
    manager.init_app(app)
    app.before_request(guard)
    # globals (not a context processor): imported macros see them too
    app.add_template_global(game_access, "game_access")
    app.add_template_global(sheet_locked, "sheet_locked")
