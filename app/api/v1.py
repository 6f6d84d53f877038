"""JSON API /api/v1: score a record, read a game's record and report."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, request

from app.db import get_session
from app.rules import RecordError, score_record
from app.rules.limits import read_json
from app.services import queries
from app.services.errors import BadInput

bp = Blueprint("api", __name__, url_prefix="/api/v1")


@bp.post("/score")
def score() -> Any:
    """The score report of the posted record (RecordError -> 422 via app.web.errors)."""
    if not request.is_json:
        abort(400)
    try:
        data = read_json(request.get_data())
    except RecordError as e:
        raise BadInput(e.field, e.message) from None
    return jsonify(score_record(data))


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> Any:
    found = queries.get_game(get_session(), game_id)
    if found is None:
        abort(404)
    return jsonify({"id": found.id, "version": found.version, "record": found.record,
                    "report": queries.report(found)})
