"""The analysis of a disputed play in the JSON API (ANALYSIS.md §3).

- ``POST /api/v1/analysis`` is open like ``POST /api/v1/score`` (no token, a JSON body,
  nothing stored): ``{"record", "hand", "trick", "seat"}`` answers every card the seat
  could have played there with the score it could make sure of and the most it could reach;
- ``GET /api/v1/games/<id>/hands/<n>/analysis?trick=t&seat=s`` is the same for a stored
  game's record, hand ``n`` counted from 1 (any role that reads the game).

Both answer :func:`app.rules.search.analysis.analyse`'s object, or 422 in the API's error shape on
the first of ``record``/``record.<path>``, ``hand``, ``trick``, ``seat`` that is refused.
The search's time is ``ANALYSIS_BUDGET_S`` (app/config.py), under the 10 s ANALYSIS.md §2
allows a request.
"""
from __future__ import annotations

import re
from typing import Any

from flask import Flask, current_app, jsonify, request
from flask_babel import gettext as _
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from app.api import answers, v1
from app.rules import RecordError
from app.rules.limits import read_json
from app.rules.search.analysis import BUDGET_S, MISSING, analyse, analyse_request
from app.web.messages import translate_error

bp = Blueprint("api_analysis", __name__, url_prefix="/api/v1",
               description="The analysis of a disputed play: what a seat could have made.")

#: A whole number in a query (ASCII digits, an optional minus sign).
WHOLE = re.compile(r"^-?[0-9]{1,18}$")


class AnalysisIn(Schema):
    """The position: a record (RECORD.md), the hand's index (from 0), the trick's index in
    that hand (from 0) and the seat (0-3) about to play there."""

    record = fields.Dict(required=True, metadata={"description": "a record (RECORD.md)"})
    hand = fields.Integer(required=True, strict=True,
                          metadata={"description": "index of the hand in the record, from 0"})
    trick = fields.Integer(required=True, strict=True,
                           metadata={"description": "index of the trick in the hand, from 0"})
    seat = fields.Integer(required=True, strict=True, metadata={"description": "0-3"})


class Alternative(Schema):
    card = fields.String(required=True, metadata={"description": "canonical (RECORD.md)"})
    legal = fields.Boolean(required=True, metadata={
        "description": "false only for the played card, when the referee refuses it"})
    guaranteed = fields.Integer(required=True, metadata={
        "description": "the most the seat makes sure of (points + payments), the others against it"})
    possible = fields.Integer(required=True, metadata={
        "description": "the most the seat reaches, everyone playing for it"})
    exact = fields.Boolean(required=True, metadata={
        "description": "false: guaranteed is a lower bound and possible an upper bound"})


class AnalysisAnswer(Schema):
    hand = fields.Integer(required=True)
    trick = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    played = fields.String(required=True, metadata={"description": "the card the seat played"})
    tricks_left = fields.Integer(required=True, metadata={
        "description": "tricks not yet complete at the position, this one included"})
    alternatives = fields.List(fields.Nested(Alternative), required=True, metadata={
        "description": "by guaranteed, then possible (highest first), then card order"})


def _budget() -> float:
    return float(current_app.config.get("ANALYSIS_BUDGET_S", BUDGET_S))


def refused(e: RecordError) -> Any:
    return answers.error_answer(422, e.code, translate_error(e), e.field)


@bp.route("/analysis", methods=["POST"])
@bp.doc(summary="Analyse a play: every card the seat could have played, with what it could "
                "make sure of and reach (stores nothing; open to anyone)",
        requestBody={"required": True, "content": {"application/json": {"schema": AnalysisIn}}},
        security=[])
@bp.response(200, AnalysisAnswer)
@v1._errors(400, 422)
def analyse_post() -> Any:
    if not request.is_json:
        return answers.error_answer(400, "json-required", _("Send the record as application/json."))
    try:
        body = read_json(request.get_data())
    except RecordError as e:              # not JSON at all
        return answers.error_answer(400, e.code, translate_error(e), e.field)
    try:
        return jsonify(analyse_request(body, _budget()))
    except RecordError as e:
        return refused(e)


def _query_int(name: str) -> object:
    """A query parameter as an integer when it is one (else as sent, for the engine's refusal)."""
    text = request.args.get(name)
    if text is None:
        return MISSING
    return int(text) if WHOLE.match(text) else text


QUERY = [{"in": "query", "name": "trick", "required": True, "schema": {"type": "integer"},
          "description": "index of the trick in the hand, from 0"},
         {"in": "query", "name": "seat", "required": True,
          "schema": {"type": "integer", "minimum": 0, "maximum": 3}}]


@bp.route("/games/<int:game_id>/hands/<int:n>/analysis", methods=["GET"])
@bp.doc(summary="Analyse a play of a stored game's hand n (1-based): the POST's answer for "
                "its record", security=v1.SECURITY, parameters=QUERY)
@bp.response(200, AnalysisAnswer)
@v1._errors(401, 404, 422)
def analyse_stored(game_id: int, n: int) -> Any:
    game = answers.game_or_404_json(game_id)
    record = game.record
    try:
        return jsonify(analyse(record, n - 1, _query_int("trick"), _query_int("seat"), _budget()))
    except RecordError as e:
        if e.field == "hand" and e.code == "range":
            count = len(record.get("hands") or [])
            return answers.error_answer(422, "range", _("The game has no hand %(n)s (it has %(count)s).",
                                             n=n, count=count), "hand")
        return refused(e)


@bp.errorhandler(answers.Refusal)
def _refusal(e: Any) -> Any:
    return e.response


def init_app(app: Flask) -> None:
    """Registers the routes on the API's document (after app.api.v1.init_app)."""
    app.extensions["kingsheet_api"].register_blueprint(bp)
    app.extensions["csrf"].exempt(bp)     # the POST stores nothing, the GET writes nothing


__all__ = ["bp", "init_app"]
