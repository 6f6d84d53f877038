"""The one version check (issue 37): a game's or an event's version as an HTTP ETag,
answered 304 while ``If-None-Match`` names it.

Every reader that polls or re-reads asks through here: the live sheet's poll
(``/games/<id>/live``, also behind a share link: :func:`app.web.common.stamp_response`),
its short way before Flask (:mod:`app.games.sheet.fast_poll`, which calls :func:`unchanged` and
:func:`headers` so it cannot answer differently), an event's director view and results
screen (``/events/<id>/live``), the API's game (``GET /api/v1/games/<id>``, whose ETag is
also what a write names in ``If-Match``) and a PDF asked again (:func:`file_answer`). The
tags:

- a game: ``v<version>``, and ``c<n>`` after it once seats have confirmed the sheet or
  the table has called the director (``n`` counts confirmations, calls and answers: none
  changes the version, but every open sheet shows them) -- :func:`game_tag`; the API's is
  the version alone (``v<version>``: what ``If-Match`` compares);
- an event: ``e<sum of its games' versions>c<confirmations>l<log entries>``, and
  ``d<calls and answers>`` once a table of it has called the director
  (``events/events.event_stamp``);
- the directors' list of calls: ``k<calls>a<answered>`` (``games/table/calls.calls_stamp``).

A version-checked answer is never taken from a cache without asking (``no-cache,
private``).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response, request
from werkzeug.http import parse_etags

CACHE_CONTROL = "no-cache, private"


def game_tag(version: int, confirmations: int = 0) -> str:
    """A game's ETag value (without quotes)."""
    return f"v{version}c{confirmations}" if confirmations else f"v{version}"


def unchanged(tag: str, if_none_match: str | None) -> bool:
    """Whether an ``If-None-Match`` header names ``tag`` (a list, weak tags and ``*`` as
    RFC 9110 says)."""
    return bool(if_none_match) and parse_etags(if_none_match).contains_weak(tag)


def headers(tag: str) -> list[tuple[str, str]]:
    """The headers every version-checked answer carries (200 and 304 alike), in order."""
    return [("ETag", f'"{tag}"'), ("Cache-Control", CACHE_CONTROL)]


def file_answer(response: Response, tag: str) -> Response:
    """A file's answer (a PDF: its ``tag`` names what it was rendered from): 304 while
    ``If-None-Match`` names the tag, and Range requests answered 206 (werkzeug's
    ``make_conditional``: a browser's PDF viewer may ask for parts)."""
    response.set_etag(tag)
    response.make_conditional(request)
    return response


def answer(tag: str, body: Callable[[], Any]) -> Any:
    """The request's answer: 304 with no body while its ``If-None-Match`` names ``tag``,
    else ``body()`` (a response, read only then); both with :func:`headers`."""
    response = Response(status=304) if unchanged(tag, request.headers.get("If-None-Match")) else body()
    for name, value in headers(tag):
        response.headers[name] = value
    return response
