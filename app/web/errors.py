"""How errors become responses.

- Engine errors (`RecordError`) for user input: 422 with the field and message.
- A stale version (two scorers saving at once): 409 with a clear message.
- Other HTTP errors: HTML page or JSON `{"error": {"code", "message", "field"}}`,
  whichever the client asked for. The 500 handler rolls the session back.
- The database away (stopped, restarting, locked beyond its timeout): 503 with Retry-After,
  logged once per outage.
- The 500 page can never fail: it is rendered from ``errors/server_error.html`` with plain
  strings (no database, no ``current_user``, no context processor), falls back to a fixed
  page if even that breaks, and carries the security headers itself (an ``after_request``
  that fails on the way out cannot leave it bare).
"""
from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, current_app, g, jsonify, render_template, request
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import InterfaceError, OperationalError
from werkzeug.exceptions import HTTPException

from app.db import is_database_away
from app.errors import BadInput, ConflictError, ForbiddenError, LockedError
from app.rules import RecordError
from app.security import security_headers
from app.web.messages import service_text, translate_error


def wants_json() -> bool:
    if request.path.startswith("/api/") or request.path.endswith(".json"):
        return True
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return best == "application/json" and (
        request.accept_mimetypes[best] > request.accept_mimetypes["text/html"])


def error_response(status: int, code: str, message: str, field: str | None = None) -> Any:
    if wants_json():
        return jsonify({"error": {"code": code, "message": message, "field": field}}), status
    return render_template("errors/error.html", status=status, code=code, message=message,
                           field=field), status


def _csrf_error(e: CSRFError) -> Any:
    return error_response(400, "csrf", _("The form has expired or was not sent from this "
                                         "site. Go back, reload the page and try again."))


def _record_error(e: RecordError) -> Any:
    if wants_json():
        return error_response(422, getattr(e, "code", "record"), str(e),
                              getattr(e, "field", None))
    # the page's language (issue 14.4)
    return error_response(422, e.code, translate_error(e), e.field)


def _input_error(e: BadInput) -> Any:
    return error_response(400, "input", service_text(e), e.field)


def _conflict_error(e: ConflictError) -> Any:
    return error_response(409, "conflict", str(e))


def _locked_error(e: LockedError) -> Any:
    return error_response(409, "locked", service_text(e))


def _forbidden_error(e: ForbiddenError) -> Any:
    return error_response(403, "forbidden", service_text(e))


def _http_messages() -> dict[int, str]:
    """What the page says for the common HTTP errors, in the page's language."""
    return {
        404: _("There is nothing at this address."),
        405: _("This address does not accept that kind of request."),
        413: _("The file is too large."),
        400: _("The request could not be understood."),
        401: _("Log in first."),
        403: _("Your account may not do this."),
        409: _("This page changed meanwhile or is not ready yet: go back and open it again."),
        429: _("Too many attempts from this address: wait a minute and try again."),
    }


def _http_error(e: HTTPException) -> Any:
    code = e.code or 500
    return error_response(code, (e.name or "error").lower().replace(" ", "-"),
                          _http_messages().get(code, e.description or e.name or ""))


#: The 500 page when even its template cannot be rendered.
FALLBACK_500 = ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>500 · "
                "kingsheet</title></head><body><h1>500</h1><p>Something went wrong on our side."
                "</p><p><a href=\"/\">Back to the games</a></p></body></html>")


def _words() -> tuple[str, str, str]:
    """(language, message, link text) of the 500 page; English when the catalog fails."""
    try:
        return (str(get_locale() or "en"), str(_("Something went wrong on our side.")),
                str(_("Back to the games")))
    except Exception:  # noqa: BLE001 - the error page must not fail on a broken catalog
        return "en", "Something went wrong on our side.", "Back to the games"


def _drop_session() -> None:
    """The request's session rolled back and closed (a failing database is let be)."""
    session = g.pop("db_session", None)
    if session is not None:
        for end in (session.rollback, session.close):   # close even when the rollback failed:
            with contextlib.suppress(Exception):        # an unclosed connection leaks (the
                end()                                   # database may be what failed)


def _plain_page(status: int, code: str, message: str, back: str, lang: str) -> Any:
    """A page or JSON body that needs nothing that can fail (no database, no current_user,
    no context processor), with the security headers set here."""
    try:
        if wants_json():
            response = jsonify({"error": {"code": code, "message": message, "field": None}})
        else:
            template = current_app.jinja_env.get_template("errors/server_error.html")
            response = current_app.response_class(
                template.render(lang=lang, message=message, back=back, status=status),
                mimetype="text/html")
    except Exception:  # noqa: BLE001 - the last resort: a fixed page
        response = current_app.response_class(FALLBACK_500, mimetype="text/html")
    response.status_code = status
    return security_headers(response)


def _server_error(e: Exception) -> Any:
    """The 500 answer: the session rolled back, then a page that cannot fail."""
    _drop_session()
    lang, message, back = _words()
    return _plain_page(500, "server-error", message, back, lang)


#: Seconds a client is asked to wait before trying again while the database is away.
RETRY_AFTER = 5
log = logging.getLogger("kingsheet.database")
#: When this process first saw the database away (0: it answers): one log line per outage
#: and one when it is back, not a traceback per request.
_OUTAGE = {"since": 0.0}


def _database_away(e: Exception) -> Any:
    """503 with Retry-After while the database cannot be reached (a stopped or restarting
    PostgreSQL, a SQLite file locked beyond its busy timeout): the page says so in the
    page's language, the API with the code ``unavailable``; nothing saved is lost."""
    if not is_database_away(e):
        return _server_error(e)             # a query that is wrong, not a database away
    _drop_session()
    if not _OUTAGE["since"]:
        _OUTAGE["since"] = time.monotonic()
        first = str(e).strip().splitlines()[0] if str(e).strip() else ""
        log.error("database unavailable: %s: %s", type(getattr(e, "orig", None) or e).__name__, first[:200])
    lang, _message, back = _words()
    try:
        message = str(_("The score sheet's database is not answering. Nothing saved is lost: "
                        "try again in a few seconds."))
    except Exception:  # noqa: BLE001 - as the 500 page: never fail on a broken catalog
        message = "The score sheet's database is not answering. Nothing saved is lost: " \
                  "try again in a few seconds."
    response = _plain_page(503, "unavailable", message, back, lang)
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response


def _database_back(response: Any) -> Any:
    """After an outage, the first request that read the database again says so in the log."""
    if _OUTAGE["since"] and response.status_code != 503 and "db_session" in g:
        log.warning("database available again after %.0f s", time.monotonic() - _OUTAGE["since"])
        _OUTAGE["since"] = 0.0
    return response


#: Each error and its handler, registered in this order.
_HANDLERS: tuple[tuple[type[Exception] | int, Callable[[Any], Any]], ...] = (
    (CSRFError, _csrf_error),
    (RecordError, _record_error),
    (BadInput, _input_error),
    (ConflictError, _conflict_error),
    (LockedError, _locked_error),
    (ForbiddenError, _forbidden_error),
    (OperationalError, _database_away),
    (InterfaceError, _database_away),
    (HTTPException, _http_error),
    (500, _server_error),
)


def init_app(app: Flask) -> None:
    for error, handler in _HANDLERS:
        app.register_error_handler(error, handler)
    app.after_request(_database_back)
