"""The version check's short way: a game's version check answered before Flask is entered.

Every open page of a game asks ``GET /games/<id>/live`` with ``If-None-Match`` about once
a second (app/games/sheet/live.py); at a club night of 100 tables that is 400 requests a second,
nearly all answered 304, and each save answers the next poll of every phone of its table
200 with the new version (at a club night's compressed pace, a third of the polls).
Through Flask such an answer costs a request context, the before/after hooks and a
SQLAlchemy session (BEGIN, the statement, ROLLBACK) around one SQL statement. This WSGI
middleware answers both itself, with the same checks and the same statement:

- the session cookie verifies with the app's own signing serializer (secret key, salt,
  lifetime) and names a user ``"<id>:<generation>"`` (accounts.parse_session_id);
- one statement reads the game's stamp and that user's session generation
  (queries.game_stamp_for's statement), which must match: a logout, a new password or a
  role change still ends the polls at once;
- the stamp's ETag in ``If-None-Match``: 304; else 200 with the stamp as JSON (the one
  version check, :mod:`app.web.versions`, decides and writes the ETag's headers).

Both with exactly the headers (and body) the Flask view sends. Anything else -- no cookie,
a login due for its daily renewal (the answer writes the cookie), a token, a query string,
a missing game or user -- goes to Flask unchanged, which answers as before. So the short
way can only ever give the answer the view would give.

``FAST_POLL_VERIFY`` (on in the tests, like PAGE_CACHE_VERIFY): every short answer is
compared with the answer of the app itself for the same request; a difference raises
:class:`FastPollMismatch`, so every poll of the test suite checks this module.
"""
from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.http import parse_cookie

from app import security
from app.accounts import accounts
from app.accounts.auth import renewal_due
from app.db import get_db
from app.games import queries
from app.web import versions
from app.web.common import stamp_body

#: Verified session cookies kept per process (one or two per phone polling this process).
KNOWN_COOKIES = 4096

PATH = re.compile(r"/games/([1-9][0-9]{0,8})/live\Z")

Environ = dict[str, Any]
StartResponse = Callable[..., Any]
WsgiApp = Callable[[Environ, StartResponse], Iterable[bytes]]


class FastPollMismatch(AssertionError):
    """The short answer differs from the app's (FAST_POLL_VERIFY)."""


def _stamp_headers(etag: str, csp: str) -> list[tuple[str, str]]:
    """app/web/common.stamp_response's headers, then security.security_headers' and the
    session's ``Vary: Cookie``, in the view's order."""
    return [*versions.headers(etag), *security.HEADERS.items(),
            ("Content-Security-Policy", csp), ("Vary", "Cookie")]


def not_modified_headers(etag: str) -> list[tuple[str, str]]:
    """The headers of the view's 304."""
    return _stamp_headers(etag, security.CSP_PAGE)


def changed_headers(etag: str, length: int) -> list[tuple[str, str]]:
    """The headers of the view's 200 (its JSON)."""
    return [("Content-Type", "application/json"), ("Content-Length", str(length)),
            *_stamp_headers(etag, security.CSP_OTHER)]


Answer = tuple[str, list[tuple[str, str]], bytes]


class FastPoll:
    """WSGI middleware in front of the Flask app (see the module's text)."""

    def __init__(self, app: Flask, inner: WsgiApp) -> None:
        self.app, self.inner = app, inner
        interface = app.session_interface
        self.serializer = interface.get_signing_serializer(app)  # type: ignore[attr-defined]
        self.cookie = app.config["SESSION_COOKIE_NAME"]
        self.max_age = int(app.permanent_session_lifetime.total_seconds())
        self.verify = bool(app.config.get("FAST_POLL_VERIFY"))
        # one statement, read on its own: no BEGIN before it nor ROLLBACK after it (two
        # round trips to the database fewer for each of the 400 polls a second of a club
        # night); the statement alone reads one consistent snapshot
        self.engine = get_db(app).engine.execution_options(isolation_level="AUTOCOMMIT")
        # cookies whose signature verified: (when they expire, what they hold); a cookie is
        # a signed value, so the same text always verifies the same way until it expires
        self.cookies: dict[str, tuple[float, dict[str, Any]]] = {}

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        answer = self.answer(environ)
        if answer is None:
            return self.inner(environ, start_response)
        if self.verify:
            self.check(environ, answer)
        status, headers, body = answer
        start_response(status, headers)
        return [body] if body else []

    def answer(self, environ: Environ) -> Answer | None:
        """(status, headers, body) as the view would answer, or None: Flask answers."""
        game_id = self._asked_game(environ)
        if game_id is None:
            return None
        login = self.login(environ)
        if login is None:
            return None
        user_id, generation = login
        try:
            with self.engine.connect() as connection:     # no ORM session: a row is all it reads
                stamp, current = queries.game_stamp_for(connection, game_id, user_id)
        except SQLAlchemyError:     # the database away: the app answers (503, Retry-After)
            return None
        if stamp is None or current != generation:
            return None
        return self._stamp_answer(environ, stamp)

    def _asked_game(self, environ: Environ) -> int | None:
        """The game whose version check this is, when it is one the short way answers: a
        plain GET (no query string, no API token) of a game's address, cookies readable."""
        if environ.get("REQUEST_METHOD") != "GET" or environ.get("QUERY_STRING") \
                or "HTTP_AUTHORIZATION" in environ:
            return None
        found = PATH.match(environ.get("PATH_INFO", ""))
        if found is None or self.serializer is None:
            return None
        return int(found.group(1))

    def _stamp_answer(self, environ: Environ, stamp: queries.Stamp) -> Answer:
        """304 when the request's If-None-Match holds the game's tag, else the stamp's JSON."""
        etag = versions.game_tag(stamp.version, stamp.confirmations)
        if versions.unchanged(etag, environ.get("HTTP_IF_NONE_MATCH")):
            return "304 NOT MODIFIED", not_modified_headers(etag), b""
        # the view's JSON as the app's provider writes it (sorted keys, compact, a newline)
        body = self.app.json.dumps(stamp_body(stamp), separators=(",", ":")).encode() + b"\n"
        return "200 OK", changed_headers(etag, len(body)), body

    def login(self, environ: Environ) -> tuple[int, int] | None:
        """(user id, generation) of the request's session cookie, when it verifies and the
        view would not write the cookie back (app.accounts.auth.renewal_due)."""
        value = parse_cookie(environ.get("HTTP_COOKIE", "")).get(self.cookie)
        if not value:
            return None
        known = self.cookies.get(value)
        if known is None:
            try:
                data, signed = self.serializer.loads(value, max_age=self.max_age, return_timestamp=True)
            except Exception:  # noqa: BLE001 - a bad or old cookie: Flask answers (and says why)
                return None
            if not isinstance(data, dict):
                return None
            if len(self.cookies) >= KNOWN_COOKIES:
                self.cookies.clear()
            known = self.cookies[value] = (signed.timestamp() + self.max_age, data)
        expires, data = known
        if time.time() > expires or renewal_due(data):
            return None
        return accounts.parse_session_id(str(data.get("_user_id") or ""))

    def check(self, environ: Environ, answer: Answer) -> None:
        """FAST_POLL_VERIFY: the app's own answer to the same request must be this one."""
        got: dict[str, Any] = {}

        def start(status: str, response_headers: list[tuple[str, str]], *_: Any) -> Any:
            got["status"], got["headers"] = status, response_headers
            return lambda _data: None

        body = b"".join(self.inner(dict(environ), start))
        if (got.get("status"), got.get("headers"), body) != answer:
            if self.answer(environ) != answer:
                return      # the game or the login changed in between (another phone saved)
            raise FastPollMismatch(f"{environ.get('PATH_INFO')}: short answer {answer}, "
                                   f"the app's {got.get('status')} {got.get('headers')} {body[:80]!r}")


def init_app(app: Flask) -> None:
    """Puts the short way in front of everything else (ProxyFix included: it reads no
    address)."""
    app.wsgi_app = FastPoll(app, app.wsgi_app)  # type: ignore[method-assign]
