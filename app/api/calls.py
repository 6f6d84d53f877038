"""Calls to the director in the JSON API (issue 40): ``POST /api/v1/games/<id>/calls`` (a
seat's own player or the game's scorer; 201 with the new call, 200 with the open one when
the table has called already), ``GET /api/v1/calls?status=open`` and ``POST
/api/v1/calls/<id>/answer`` (directors; 409 once answered).

A blueprint of its own under /api/v1, registered on the same OpenAPI document as
app/api/v1.py, with its errors, idempotent writes and CSRF rule for sessions.
"""
from __future__ import annotations

from typing import Any

from flask import Flask, jsonify
from flask_babel import gettext as _
from flask_smorest import Blueprint
from marshmallow import fields, validate
from werkzeug.exceptions import UnprocessableEntity

from app.accounts.auth import actor, user
from app.api import answers, shapes, v1
from app.api.schemas import ErrorAnswer, _Strict
from app.db import get_session
from app.games import queries
from app.games.table import calls
from app.games.table.calls import CallView
from app.models import DirectorCall
from app.models.call import ANSWER_MAX, NOTE_MAX
from app.web.words import iso_utc

bp = Blueprint("api_calls", __name__, url_prefix="/api/v1",
               description="Calls to the director: a table asks for the director, who answers.")


class CallIn(_Strict):
    note = fields.String(allow_none=True, validate=validate.Length(max=NOTE_MAX),
                         metadata={"description": "why the table calls (optional)"})


class AnswerIn(_Strict):
    note = fields.String(required=True, validate=validate.Length(min=1, max=ANSWER_MAX),
                         metadata={"description": "the director's answer"})


class CallListArgs(_Strict):
    status = fields.String(load_default="open", validate=validate.OneOf(calls.STATUSES),
                           metadata={"description": "open (default), answered or all"})


class CallOut(_Strict):
    id = fields.Integer(required=True)
    game_id = fields.Integer(required=True)
    event_id = fields.Integer(allow_none=True, required=True, metadata={"description": "null outside events"})
    round = fields.Integer(allow_none=True, required=True, metadata={"description": "the event's round"})
    table = fields.Integer(allow_none=True, required=True, metadata={"description": "the event's table"})
    seat = fields.Integer(allow_none=True, required=True,
                          metadata={"description": "the caller's seat (null: the scorer or a director)"})
    player = fields.String(allow_none=True, required=True, metadata={"description": "the name at that seat"})
    called_by = fields.String(required=True, metadata={"description": "the caller's account"})
    note = fields.String(allow_none=True, required=True)
    called_at = fields.String(required=True, metadata={"format": "date-time"})
    status = fields.String(required=True, validate=validate.OneOf(("open", "answered")))
    answered_by = fields.String(allow_none=True, required=True)
    answered_at = fields.String(allow_none=True, required=True, metadata={"format": "date-time"})
    answer = fields.String(allow_none=True, required=True)


class CallList(_Strict):
    calls = fields.List(fields.Nested(CallOut), required=True,
                        metadata={"description": "oldest first (the newest 200 at most)"})


def call_body(view: CallView) -> dict[str, Any]:
    return {"id": view.id, "game_id": view.game_id, "event_id": view.event_id, "round": view.round,
            "table": view.table, "seat": view.seat, "player": view.player, "called_by": view.called_by,
            "note": view.note, "called_at": iso_utc(view.called_at), "status": view.status,
            "answered_by": view.answered_by, "answered_at": iso_utc(view.answered_at) or None,
            "answer": view.answer}


def _answer(call: DirectorCall, status: int) -> Any:
    view = calls.call_view(get_session(), call.id)
    assert view is not None
    response = jsonify(call_body(view))
    response.status_code = status
    return response


@bp.route("/games/<int:game_id>/calls", methods=["POST"])
@bp.arguments(CallIn, required=False)
@bp.response(201, CallOut)
@bp.alt_response(200, schema=CallOut, description="the table's call that is still open (none is added)")
@bp.doc(summary="Call the director to the game's table (a seat's own player, the game's scorer "
        "or a director): one open call per game", security=v1.SECURITY)
@v1._errors(401, 403, 404, 422)
def open_call(body: dict[str, Any], game_id: int) -> Any:
    game = queries.get_game(get_session(), game_id)
    if game is None:
        return answers.error_answer(404, "not-found", _("There is no such game."))
    if not calls.may_call(get_session(), user(), game):
        return answers.error_answer(403, "forbidden",
                                    _("Only the game's players and its scorers call the director."))

    def carry_out() -> Any:
        found, made = calls.open_call(get_session(), game, user=user(), who=actor(), note=body.get("note"))
        return _answer(found, 201 if made else 200)
    return answers.idempotent_write(carry_out)


@bp.route("/calls", methods=["GET"])
@bp.arguments(CallListArgs, location="query", as_kwargs=True)
@bp.response(200, CallList)
@bp.doc(summary="Calls to the director (directors), oldest first: open, answered or all",
        security=v1.SECURITY)
@v1._errors(401, 403, 422)
def list_calls(status: str = "open") -> Any:
    return {"calls": [call_body(c) for c in calls.list_calls(get_session(), status)]}


@bp.route("/calls/<int:call_id>/answer", methods=["POST"])
@bp.arguments(AnswerIn)
@bp.response(200, CallOut)
@bp.alt_response(409, schema=ErrorAnswer, description="the call is answered already")
@bp.doc(summary="Answer a call (directors): the table's page shows the answer", security=v1.SECURITY)
@v1._errors(401, 403, 404, 422)
def answer_call(body: dict[str, Any], call_id: int) -> Any:
    found = calls.get_call(get_session(), call_id)
    if found is None:
        return answers.error_answer(404, "not-found", _("There is no such call."))

    def carry_out() -> Any:
        try:
            answered = calls.answer_call(get_session(), found, user=user(), who=actor(), note=body["note"])
        except calls.AlreadyAnswered as e:
            get_session().rollback()
            return answers.error_answer(409, "answered", _("%(who)s answered this call already.",
                                                who=e.call.answered_by or "?"))
        return _answer(answered, 200)
    return answers.idempotent_write(carry_out)


@bp.errorhandler(answers.Refusal)
def _refusal(e: Any) -> Any:
    return e.response


@bp.errorhandler(UnprocessableEntity)
def _bad_shape(e: UnprocessableEntity) -> Any:
    """A body or query of the wrong shape: 422 naming its key (``note``, ``status``)."""
    field, message = shapes.first_message((getattr(e, "data", None) or {}).get("messages", {}))
    return answers.error_answer(422, "shape", message, field)


bp.before_request(v1._csrf_for_sessions)


def init_app(app: Flask) -> None:
    """Registers the routes on the API's document (after app.api.v1.init_app)."""
    app.extensions["kingsheet_api"].register_blueprint(bp)
    app.extensions["csrf"].exempt(bp)
