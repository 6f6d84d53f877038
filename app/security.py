"""What every response carries, whatever a view returns.

- A number in an address (``/games/<int:id>``) beyond what an id column holds is simply
  not found (404), on PostgreSQL as on SQLite.
- Text is encoded so that it never fails: a record stored before text was checked (a lone
  surrogate in a name) shows a replacement character instead of taking the page down.
"""
from __future__ import annotations

from typing import Any

from flask import Flask
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


def init_app(app: Flask) -> None:
    """Called before any blueprint is registered (the converter applies to later routes)."""
    app.response_class = Response
    app.url_map.converters["int"] = BoundedInt
