"""What every response carries, whatever a view returns.

- A number in an address (``/games/<int:id>``) beyond what an id column holds is simply
  not found (404), on PostgreSQL as on SQLite.
- Security headers: a Content-Security-Policy that allows only this site's own scripts,
  styles and images (no inline script or style attribute; a page's words for its script
  travel in ``data-`` attributes), never framed (``frame-ancestors 'none'``), no MIME
  sniffing, no referrer sent to other sites.
- A NUL character in a query or form value is refused (400) before any view runs.
- Text is encoded so that it never fails: a record stored before text was checked (a lone
  surrogate in a name) shows a replacement character instead of taking the page down.
"""
from __future__ import annotations

from typing import Any

from flask import Flask, abort, request
from flask import Response as FlaskResponse
from werkzeug.routing import IntegerConverter

#: The largest id a route accepts: PostgreSQL's integer columns end here.
ID_MAX = 2**31 - 1


class Response(FlaskResponse):
    def set_data(self, value: bytes | str) -> None:
        if isinstance(value, str):
            value = value.encode("utf-8", "replace")
        super().set_data(value)


class BoundedInt(IntegerConverter):
    """``<int:...>`` in every route: 0 to :data:`ID_MAX`; a longer number does not match."""

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", ID_MAX)
        super().__init__(map, *args, **kwargs)


def id_arg(text: str) -> int:
    """An id or count from the query string (``type=`` of ``request.args.get``): ASCII digits
    up to :data:`ID_MAX`; ValueError otherwise, so the argument reads as absent."""
    if not (text.isascii() and text.isdigit()) or int(text) > ID_MAX:
        raise ValueError(text)
    return int(text)


#: The policy of every HTML page: only this origin's files, nothing inline.
CSP_PAGE = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            "font-src 'self'; connect-src 'self'; manifest-src 'self'; object-src 'none'; "
            "base-uri 'self'; form-action 'self'; frame-ancestors 'none'")
#: Any other response (PDF, JSON, SVG, CSV): never framed; a browser's own viewer still
#: shows a PDF.
CSP_OTHER = "frame-ancestors 'none'"
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def security_headers(response: FlaskResponse) -> FlaskResponse:
    headers = response.headers
    for name, value in HEADERS.items():
        headers.setdefault(name, value)
    if response.mimetype == "text/html":
        headers.setdefault("Content-Security-Policy", CSP_PAGE)
    elif response.mimetype == "image/svg+xml":
        headers.setdefault("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; "
                           + CSP_OTHER)
    else:
        headers.setdefault("Content-Security-Policy", CSP_OTHER)
    return response


def refuse_nul() -> None:
    """400 for a NUL character in any query or form value: no field holds one, and
    PostgreSQL cannot store one (a 500 otherwise, wherever the value goes); 404 for one in
    the address."""
    if "\x00" in request.path:
        abort(404)
    for _key, values in request.values.lists():
        if any("\x00" in v for v in values):
            abort(400)


def init_app(app: Flask) -> None:
    """Called before any blueprint is registered (the converter applies to later routes)."""
    app.response_class = Response
    app.url_map.converters["int"] = BoundedInt
    app.before_request(refuse_nul)
    app.after_request(security_headers)
