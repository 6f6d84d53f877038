"""Events in the JSON API (issue 25): ``POST /api/v1/events`` (round 1 drawn),
``GET /api/v1/events/<id>`` (its rounds, each table's game and players, who sat out),
``POST /api/v1/events/<id>/rounds`` (409 while a table of the round is not locked, unless
``{"force": true, "reason": …}``), ``POST /api/v1/events/<id>/swap``, ``/late`` and ``/withdraw`` (the
director's changes of a round, as on the event's page) and ``GET /api/v1/events/<id>/standings``.

A blueprint of its own under /api/v1, registered on the same OpenAPI document as
app/api/v1.py, with its errors, idempotent writes and CSRF rule for sessions.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, jsonify
from flask_babel import gettext as _
from flask_smorest import Blueprint
from marshmallow import fields, validate
from werkzeug.exceptions import UnprocessableEntity

from app.accounts.auth import actor, user
from app.api import answers, v1
from app.api.schemas import ID, PROFILE_IDS, ErrorAnswer, Json, _Strict
from app.db import get_session
from app.errors import BadInput
from app.events import changes, events, scoreboard
from app.models import Event
from app.web.messages import service_text

bp = Blueprint("api_events", __name__, url_prefix="/api/v1",
               description="Events: club nights of several tables, reseated between rounds.")


class NewEvent(_Strict):
    name = fields.String(required=True, validate=validate.Length(max=200))
    profile = fields.String(required=True, validate=PROFILE_IDS)
    options = fields.Dict(keys=fields.String(), values=fields.String())
    players = fields.List(fields.String(validate=validate.Length(max=200)), required=True,
                          validate=validate.Length(max=events.MAX_PLAYERS),
                          metadata={"description": "names (new ones join the roster)"})
    rounds = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=events.MAX_ROUNDS))
    seating = fields.String(validate=validate.OneOf(events.SEATINGS), metadata={
        "description": "how rounds after the first are drawn (round 1: random); default balanced"})
    scoring = fields.String(validate=validate.OneOf(events.SCORINGS),
                            metadata={"description": "default points"})
    ranking_points = fields.List(fields.Float(validate=validate.Range(min=0, max=1000)),
                                 validate=validate.Length(equal=4),
                                 metadata={"description": "default 4-2-1-0"})
    sit_out = fields.String(validate=validate.OneOf(events.SIT_OUTS), metadata={
        "description": "what a sit-out scores: nothing (default) or the round's average"})
    date = fields.Date()
    season_id = fields.Integer(strict=True, validate=ID)
    pins = fields.Dict(keys=fields.String(validate=validate.Length(max=200)),
                       values=fields.String(validate=validate.Regexp(r"^\d{4}$")),
                       metadata={"description": "a player's 4-digit PIN for the night, by name"})
    seed = fields.Integer(strict=True, validate=validate.Range(min=0, max=2**62),
                          metadata={"description": "round 1's seed (drawn when not given)"})


class DrawIn(_Strict):
    force = fields.Boolean(metadata={"description": "draw although a table is not locked"})
    reason = fields.String(validate=validate.Length(max=300), metadata={"description": "required with force"})
    seed = fields.Integer(strict=True, validate=validate.Range(min=0, max=2**62))


class SwapIn(_Strict):
    a = fields.String(required=True, validate=validate.Length(max=200), metadata={"description": "a name"})
    b = fields.String(required=True, validate=validate.Length(max=200),
                      metadata={"description": "the other name (seated or sitting out)"})


class WithdrawIn(_Strict):
    player = fields.String(required=True, validate=validate.Length(max=200),
                           metadata={"description": "the name of a player of the event"})


class LateIn(_Strict):
    player = fields.String(required=True, validate=validate.Length(max=200),
                           metadata={"description": "the name (a new one joins the roster)"})
    pin = fields.String(validate=validate.Regexp(r"^\d{4}$"),
                        metadata={"description": "their 4-digit PIN for the night"})


class TableOut(_Strict):
    table = fields.Integer(required=True)
    game_id = fields.Integer(required=True)
    players = fields.List(fields.String(), required=True, metadata={"description": "in seat order"})
    first_seat = fields.Integer(required=True, metadata={"description": "first dealer (rifki: 2♦ holder)"})
    hands = fields.Integer(required=True)
    locked = fields.Boolean(required=True)
    totals = fields.List(fields.Integer(), allow_none=True, required=True)


class RoundOut(_Strict):
    round = fields.Integer(required=True)
    method = fields.String(required=True)
    seed = fields.Integer(required=True)
    forced_reason = fields.String(allow_none=True, required=True)
    tables = fields.List(fields.Nested(TableOut), required=True)
    sitting_out = fields.List(fields.String(), required=True)


class EventOut(_Strict):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    date = fields.String(required=True, metadata={"format": "date"})
    profile = fields.String(required=True)
    options = Json(required=True)
    planned_rounds = fields.Integer(required=True)
    seating = fields.String(required=True)
    scoring = fields.String(required=True)
    ranking_points = fields.List(fields.Float(), required=True)
    sit_out = fields.String(required=True)
    season_id = fields.Integer(allow_none=True, required=True)
    players = fields.List(fields.String(), required=True)
    rounds = fields.List(fields.Nested(RoundOut), required=True)
    status = fields.String(required=True, validate=validate.OneOf(events.STATUSES), metadata={
        "description": "running; finished once the last planned round is drawn and all its tables locked"})


class StandingOut(_Strict):
    player = fields.String(required=True)
    player_id = fields.Integer(required=True)
    rank = fields.Integer(required=True)
    total = fields.Float(required=True)
    rounds = fields.List(fields.Float(allow_none=True), required=True,
                         metadata={"description": "per round (null: not present yet)"})
    sat_out = fields.List(fields.Boolean(), required=True)
    points = fields.Integer(required=True, metadata={"description": "the games' points summed"})
    wins = fields.Float(required=True,
                        metadata={"description": "tables won (a shared first place its share)"})


class EventList(_Strict):
    events = fields.List(Json(), required=True)


def _event_or_404(event_id: int) -> Event:
    event = get_session().get(Event, event_id)
    if event is None:
        raise answers.Refusal(answers.error_answer(404, "not-found", _("There is no such event.")))
    return event


def event_body(event: Event) -> dict[str, Any]:
    session = get_session()
    names = scoreboard.names_of(session, [e.player_id for e in event.entrants])
    rounds = []
    tables: list[scoreboard.TableStatus] = []
    for rnd, drawn in zip(event.drawn, events.past_draws(session, event), strict=True):
        tables = scoreboard.round_tables(session, rnd)
        out = names | scoreboard.names_of(session, list(rnd.sitting_out))
        rounds.append({"round": rnd.number, "method": rnd.method, "seed": rnd.seed,
                       "forced_reason": rnd.forced_reason, "sitting_out": [out[p] for p in rnd.sitting_out],
                       "tables": [{"table": t.number, "game_id": t.game_id, "players": t.players,
                                   "first_seat": d.first_dealer, "hands": t.hands, "locked": t.locked,
                                   "totals": t.totals} for t, d in zip(tables, drawn.tables, strict=True)]})
    return {"id": event.id, "name": event.name, "date": event.day.isoformat(), "profile": event.profile,
            "options": event.options, "planned_rounds": event.rounds, "seating": event.seating,
            "scoring": event.scoring, "ranking_points": event.ranking_points, "sit_out": event.sit_out,
            "season_id": event.season_id, "players": sorted(names.values(), key=str.casefold),
            "rounds": rounds, "status": events.event_status(event, tables)}


def _created(event: Event) -> Any:
    response = jsonify(event_body(event))
    response.status_code = 201
    response.headers["Location"] = f"/api/v1/events/{event.id}"
    return response


@bp.route("/events", methods=["GET"])
@bp.response(200, EventList)
@bp.doc(summary="Events, newest first", security=v1.SECURITY)
@v1._errors(401)
def list_events() -> Any:
    return {"events": [{"id": e.id, "name": e.name, "date": e.day.isoformat(), "profile": e.profile}
                       for e in scoreboard.list_events(get_session())]}


@bp.route("/events", methods=["POST"])
@bp.arguments(NewEvent)
@bp.response(201, EventOut)
@bp.doc(summary="Create an event (a director): round 1 is drawn at random, each table a new game",
        security=v1.SECURITY)
@v1._errors(401, 403, 422)
def new_event(body: dict[str, Any]) -> Any:
    def carry_out() -> Any:
        u = user()
        spec = events.EventSpec(
            name=body["name"], profile=body["profile"], players=list(body["players"]),
            rounds=body["rounds"], day=body.get("date"), options=dict(body.get("options") or {}),
            seating=body.get("seating", "balanced"), scoring=body.get("scoring", "points"),
            ranking_points=list(body.get("ranking_points") or events.DEFAULT_RANKING),
            sit_out=body.get("sit_out", "nothing"), season_id=body.get("season_id"),
            pins=dict(body.get("pins") or {}))
        event = events.create_event(get_session(), spec, who=actor(), user_id=u.id if u else None,
                                    seed=body.get("seed"))
        return _created(event)
    return answers.idempotent_write(carry_out)


@bp.route("/events/<int:event_id>", methods=["GET"])
@bp.response(200, EventOut)
@bp.doc(summary="An event: its rounds, each table's game and players, who sat out", security=v1.SECURITY)
@v1._errors(401, 404)
def event(event_id: int) -> Any:
    return event_body(_event_or_404(event_id))


@bp.route("/events/<int:event_id>/rounds", methods=["POST"])
@bp.arguments(DrawIn)
@bp.response(201, EventOut)
@bp.alt_response(409, schema=ErrorAnswer, description="a table of the round is not locked (send force "
                 "and a reason), or every planned round is drawn")
@bp.doc(summary="Draw the next round (a director)", security=v1.SECURITY)
@v1._errors(401, 403, 404, 422)
def draw_round(body: dict[str, Any], event_id: int) -> Any:
    def carry_out() -> Any:
        found = _event_or_404(event_id)
        u = user()
        try:
            events.draw_next_round(get_session(), found, who=actor(), user_id=u.id if u else None,
                                   force=bool(body.get("force")), reason=body.get("reason"),
                                   seed=body.get("seed"))
        except events.RoundOpen as e:
            get_session().rollback()
            return answers.error_answer(409, "round-open", service_text(e), "force",
                                        open_tables=e.open_tables)
        return _created(found)
    return answers.idempotent_write(carry_out)


def _named(fields_: dict[str, str], act: Callable[[], Any]) -> Any:
    """``act()``, its refusals naming the API's fields (the service names the page's)."""
    try:
        return act()
    except BadInput as e:
        e.field = fields_.get(e.field, e.field)
        raise


def _changed(event_id: int, fields_: dict[str, str], act: Callable[[Event], Any]) -> Any:
    """A director's change of the event (``act(event)``, idempotent with a key): the event
    as it stands after it."""
    def carry_out() -> Any:
        found = _event_or_404(event_id)
        _named(fields_, lambda: act(found))
        return jsonify(event_body(found))
    return answers.idempotent_write(carry_out)


@bp.route("/events/<int:event_id>/swap", methods=["POST"])
@bp.arguments(SwapIn)
@bp.response(200, EventOut)
@bp.doc(summary="Swap two players of the current round before its first hand (a director): seat "
        "for seat, or one sitting out for one seated; each keeps their PIN", security=v1.SECURITY)
@v1._errors(401, 403, 404, 422)
def swap(body: dict[str, Any], event_id: int) -> Any:
    return _changed(event_id, {"first": "a", "second": "b", "round": "a"},
                    lambda found: changes.swap_players(get_session(), found, body["a"], body["b"],
                                                      who=actor()))


@bp.route("/events/<int:event_id>/late", methods=["POST"])
@bp.arguments(LateIn)
@bp.response(200, EventOut)
@bp.doc(summary="A late arrival (a director): registered now, drawn from the next round on, "
        "with their PIN for the night", security=v1.SECURITY)
@v1._errors(401, 403, 404, 422)
def late(body: dict[str, Any], event_id: int) -> Any:
    return _changed(event_id, {"name": "player"},
                    lambda found: changes.add_late_player(get_session(), found, body["player"], who=actor(),
                                                         pin=body.get("pin")))


@bp.route("/events/<int:event_id>/withdraw", methods=["POST"])
@bp.arguments(WithdrawIn)
@bp.response(200, EventOut)
@bp.doc(summary="A player withdraws (a director): not drawn from the next round on; the round "
        "being played keeps their seat and the standings their results", security=v1.SECURITY)
@v1._errors(401, 403, 404, 422)
def withdraw(body: dict[str, Any], event_id: int) -> Any:
    return _changed(event_id, {},
                    lambda found: changes.withdraw_player(get_session(), found, body["player"], who=actor()))


@bp.route("/events/<int:event_id>/standings", methods=["GET"])
@bp.response(200, StandingOut(many=True))
@bp.doc(summary="The standings, best first, after every table's last saved hand "
        "(points: the games' totals; ranking: points by place, ties split)", security=v1.SECURITY)
@v1._errors(401, 404)
def event_standings(event_id: int) -> Any:
    table = scoreboard.standings(get_session(), _event_or_404(event_id))
    return [{"player": r.name, "player_id": r.player_id, "rank": r.rank, "total": r.total,
             "rounds": r.rounds, "sat_out": r.sat_out, "points": r.points, "wins": r.wins}
            for r in table.rows]


@bp.errorhandler(answers.Refusal)
def _refusal(e: Any) -> Any:
    return e.response


@bp.errorhandler(UnprocessableEntity)
def _bad_shape(e: UnprocessableEntity) -> Any:
    return v1._bad_shape(e)


bp.before_request(v1._csrf_for_sessions)


def init_app(app: Flask) -> None:
    """Registers the routes on the API's document (after app.api.v1.init_app)."""
    app.extensions["kingsheet_api"].register_blueprint(bp)
    app.extensions["csrf"].exempt(bp)
