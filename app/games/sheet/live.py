"""The live sheet: a version check every page of a game polls, and what changed since.

Every open sheet, hand page and trick page asks ``/games/<id>/live`` about once a second
with ``If-None-Match: "v<version>"`` (``"v<version>c<n>"`` once seats have confirmed the
sheet or the table has called the director). The answer comes from the game row's version
column and the count of its confirmations, calls and answers, in one statement (no record,
no replay): 304 with no body while nothing
changed, else the version, when it changed and the confirmations. It works the same with
any number of workers and app servers on one database. A page that sees a new version then
fetches itself again (the sheet, read-only pages) or asks
``/games/<id>/changes?since=<version>`` (an entry page: what changed is shown next to what
the scorer typed, which is kept).
"""
from __future__ import annotations

import io
from typing import Any

import segno
from flask import Blueprint, Response, abort, render_template, request

from app.db import get_session
from app.games import queries
from app.security import Response as SafeResponse
from app.security import id_arg
from app.web.common import known_table_stamp, lang, load_game_or_404, safe_next, stamp_response

bp = Blueprint("live", __name__)

POLL_MS = 1000  # the pages' interval: a save shows everywhere within about 1-2 s


@bp.app_template_global("table_stamp")
def table_stamp(game_id: int) -> int:
    """The confirmations a page of this game was rendered with (its live status starts there)."""
    known = known_table_stamp(game_id)
    return known if known is not None else queries.confirmation_count(get_session(), game_id)


@bp.get("/games/<int:game_id>/live")
def stamp(game_id: int) -> Any:
    return stamp_response(game_id)


@bp.get("/games/<int:game_id>/changes")
def changes(game_id: int) -> Any:
    """An HTML fragment: what was saved after version ``since`` (the entry pages show it
    as soon as the poll sees a new version, before the scorer presses Save)."""
    game = load_game_or_404(game_id)
    since = request.args.get("since", type=id_arg)
    row = request.args.get("row", type=id_arg)
    if since is None or not 0 <= since <= game.version:
        abort(400)
    found = queries.changes_since(get_session(), game, since, lang())
    response = SafeResponse(render_template("live/_changes.html", ch=found, row=row,
                                        players=list(game.record["players"]), profile=game.profile))
    response.headers["Cache-Control"] = "no-store"
    return response


QR_SCALE = 5


@bp.get("/qr.svg")
def qr() -> Any:
    """A QR code (SVG) of a link of this site, given as its local path (``?path=/games/3``):
    another phone scans it to open the sheet (or the share link) there. Only local paths:
    the code never points elsewhere."""
    path = request.args.get("path", "")
    if len(path) > 300 or safe_next(path, default="") != path:
        abort(400)
    code = segno.make(request.host_url.rstrip("/") + path, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", scale=QR_SCALE, border=2, title=path, xmldecl=False)
    response = Response(out.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=3600"
    return response
