"""The API's OpenAPI document, its page (``/api/v1/docs``, rendered here: no script from a
CDN) and the HTTP headers two of its errors carry (``Allow``, ``WWW-Authenticate``)."""
from __future__ import annotations

from typing import Any

from flask import current_app, render_template, request
from flask_smorest import Api
from werkzeug.exceptions import MethodNotAllowed

from app.api import schemas as s


class QuietApi(Api):
    """flask-smorest without its app-wide error handlers (the pages keep theirs; the API's
    own errors are answered above), documenting the API's own error body as every error's
    (the `default` response too)."""

    ERROR_SCHEMA = s.ErrorAnswer

    def _register_error_handlers(self) -> None:
        return None


def http_headers(response: Any) -> Any:
    """The headers HTTP asks of two errors under /api/v1, which the app's HTML/JSON error
    handlers answer without: a 405 says which methods the address takes (``Allow``, RFC
    9110), a 401 how to authenticate (``WWW-Authenticate``, RFC 9110 and RFC 6750: a
    Bearer token, and ``invalid_token`` when the one sent is unknown or revoked)."""
    if not request.path.startswith("/api/v1/"):
        return response
    e = request.routing_exception
    if (response.status_code == 405 and isinstance(e, MethodNotAllowed) and e.valid_methods
            and "Allow" not in response.headers):
        response.headers["Allow"] = ", ".join(sorted(e.valid_methods))
    if response.status_code == 401 and "WWW-Authenticate" not in response.headers:
        challenge = 'Bearer realm="kingsheet"'
        if request.headers.get("Authorization", "").lower().startswith("bearer "):
            challenge += ', error="invalid_token"'
        response.headers["WWW-Authenticate"] = challenge
    return response


def docs_page() -> Any:
    """/api/v1/docs: the OpenAPI document, readable (rendered here, no script from a CDN)."""
    spec = current_app.extensions["kingsheet_api"].spec.to_dict()
    return render_template("api/docs.html", spec=spec)
