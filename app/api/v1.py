"""JSON API /api/v1 (docs/api.md): games, hands, what comes next, confirmations, players and
season standings, on the same services and the same access guard as the pages
(app/accounts/auth.py ``guard``: a token acts with its user's role and nothing more).

Every error is ``{"error": {"code", "message", "field"}}``. Writes to a game need
``If-Match: "v<version>"``; every write takes an ``Idempotency-Key``
(app/games/idempotency.py). The OpenAPI document is generated from the routes and
their schemas (flask-smorest) at ``/api/v1/openapi.json``; ``/api/v1/docs`` reads it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, current_app, jsonify, request
from flask_babel import gettext as _
from flask_smorest import Blueprint
from werkzeug.exceptions import UnprocessableEntity

from app.accounts.accounts import can_score
from app.accounts.auth import actor, by_token, director_reason, user
from app.api import schemas as s
from app.api import views as api_views
from app.api.answers import (
    Refusal,
    error_answer,
    expected_version,
    game_or_404_json,
    hand_answer,
    idempotent_write,
    saved_answer,
)
from app.api.document import QuietApi, docs_page, http_headers
from app.api.shapes import first_message
from app.db import get_session
from app.errors import BadInput
from app.games import game_list, games, hands, queries
from app.models import Player
from app.players import roster
from app.rules import PROFILES, RecordError, score_record
from app.rules.limits import read_json
from app.stats import standings
from app.web import versions
from app.web.messages import translate_error

bp = Blueprint("api", __name__, url_prefix="/api/v1",
               description="Games, hands, confirmations, players and standings of kingsheet.")

ERRORS = {400: "bad request", 401: "no or a bad token", 403: "not allowed", 404: "not found",
          409: "locked game or a write in progress", 412: "stale If-Match",
          422: "refused (the field says where)", 428: "If-Match missing",
          429: "too many wrong PINs: the seat waits (Retry-After)"}
SECURITY: list[dict[str, list[str]]] = [{"bearer": []}]
#: The headers of a write to a game, as the document names them.
WRITE_HEADERS: list[dict[str, Any]] = [
    {"in": "header", "name": "If-Match", "required": True, "schema": {"type": "string"},
     "description": '"v<version>"'},
    {"in": "header", "name": "Idempotency-Key", "schema": {"type": "string"}}]


def _errors(*codes: int) -> Callable[[Any], Any]:
    """Documents the error answers of a route."""
    def wrap(view: Any) -> Any:
        for code in codes:
            view = bp.alt_response(code, schema=s.ErrorAnswer, description=ERRORS[code])(view)
        return view
    return wrap


# --- writes: idempotent ------------------------------------------------------------------


# --- routes --------------------------------------------------------------------------------

@bp.route("/score", methods=["POST"])
@bp.doc(summary="Score a record (stores nothing; open to anyone)",
        requestBody={"content": {"application/json": {"schema": {"type": "object"}}}},
        responses={200: {"description": "the score report (RECORD.md)",
                         "content": {"application/json": {"schema": {"type": "object"}}}}},
        security=[])
@_errors(400, 422)
def score() -> Any:
    if not request.is_json:
        return error_answer(400, "json-required", _("Send the record as application/json."))
    try:
        data = read_json(request.get_data())
    except RecordError as e:              # not JSON at all
        return error_answer(400, e.code, translate_error(e), e.field)
    try:
        return jsonify(score_record(data))
    except RecordError as e:
        return error_answer(422, e.code, translate_error(e), e.field)


@bp.route("/games", methods=["GET"])
@bp.arguments(s.GameListArgs, location="query", as_kwargs=True)
@bp.response(200, s.GamePage)
@bp.doc(summary="Games, newest first, a page at a time (keyset: pass next_cursor back)",
        security=SECURITY)
@_errors(401, 422)
def list_games(**args: Any) -> Any:
    if args.get("cursor") and game_list.Cursor.decode(args["cursor"]) is None:
        return error_answer(422, "cursor", _("Not a cursor of this list: send next_cursor back as it "
                      "came (without one: the first page)."), "cursor")
    return api_views.game_page(get_session(), **args)


@bp.route("/games", methods=["POST"])
@bp.arguments(s.NewGame)
@bp.response(201, s.GameOut)
@bp.doc(summary="Start a game (first seat drawn by lot when not given)", security=SECURITY)
@_errors(401, 403, 422)
def new_game(body: dict[str, Any]) -> Any:
    def carry_out() -> Any:
        profile = PROFILES[body["profile"]]
        other = "first_dealer" if profile.seat_key == "first_chooser" else "first_chooser"
        if other in body:
            raise BadInput(other, f"not a key of {profile.id}: it names {profile.seat_key}")
        u = user()
        game = games.start_game(get_session(), profile=profile.id, players=list(body["players"]),
                                first_seat=body.get(profile.seat_key), options=body.get("options"),
                                who=actor(), scorer_id=u.id if u else None,
                                pins=body.get("seat_pins"))
        response = jsonify(api_views.game_body(get_session(), game))
        response.status_code = 201
        response.headers["ETag"] = f'"{versions.game_tag(game.version)}"'
        response.headers["Location"] = f"/api/v1/games/{game.id}"
        return response
    return idempotent_write(carry_out)


@bp.route("/games/<int:game_id>", methods=["GET"])
@bp.response(200, s.GameOut)
@bp.alt_response(304, description="not changed since the ETag sent in If-None-Match")
@bp.doc(summary="A game: its record and report (RECORD.md), version, lock and confirmations",
        security=SECURITY)
@_errors(401, 404)
def game(game_id: int) -> Any:
    stamp = queries.game_stamp(get_session(), game_id)
    if stamp is None:
        return error_answer(404, "not-found", _("There is no such game."))
    return versions.answer(versions.game_tag(stamp.version),
                           lambda: jsonify(api_views.game_body(get_session(), game_or_404_json(game_id))))


def _hand_body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise Refusal(error_answer(422, "hand-required", _("Send one hand (RECORD.md) as a JSON object."),
                              "hand"))
    return data


@bp.route("/games/<int:game_id>/hands", methods=["POST"])
@bp.arguments(s.HandIn)
@bp.arguments(s.CorrectionArgs, location="query", as_kwargs=True)
@bp.response(201, s.HandSaved)
@bp.doc(summary="Record the next hand (needs If-Match)", security=SECURITY,
        parameters=WRITE_HEADERS)
@_errors(401, 403, 404, 409, 412, 422, 428)
def add_hand(_shape: dict[str, Any], game_id: int, reason: str | None = None) -> Any:
    game = game_or_404_json(game_id)

    def carry_out() -> Any:
        expected = expected_version(game)
        hand = _hand_body()
        index = len(game.hands)
        outcome = hands.save_hand(get_session(), game, hand, row=None, expected_version=expected,
                                  who=actor(), reason=director_reason(reason))
        if isinstance(outcome, hands.Refused):
            # every problem of the hand at once (a save the engine accepts is not checked
            # twice: the entry check replays the game's hands once more)
            found = api_views.hand_problems(game, hand, index)
            if not found:
                return hand_answer(outcome, 201)
            problems = [{"code": e.code, "message": translate_error(e), "field": e.field} for e in found]
            first = problems[0]
            return error_answer(422, first["code"], first["message"], first["field"], problems=problems)
        return hand_answer(outcome, 201)
    return idempotent_write(carry_out, game)


@bp.route("/games/<int:game_id>/hands/<int:n>", methods=["PUT"])
@bp.arguments(s.HandIn)
@bp.arguments(s.CorrectionArgs, location="query", as_kwargs=True)
@bp.response(200, s.HandSaved)
@bp.doc(summary="Replace hand n (1-based; needs If-Match)", security=SECURITY,
        parameters=WRITE_HEADERS)
@_errors(401, 403, 404, 409, 412, 422, 428)
def replace_hand(_shape: dict[str, Any], game_id: int, n: int, reason: str | None = None) -> Any:
    game = game_or_404_json(game_id)

    def carry_out() -> Any:
        expected = expected_version(game)
        hand = _hand_body()
        outcome = hands.save_hand(get_session(), game, hand, row=n - 1, expected_version=expected,
                                  who=actor(), reason=director_reason(reason))
        return hand_answer(outcome, 200)   # the hand as it is stored: the same version, 200
    return idempotent_write(carry_out, game)


@bp.route("/games/<int:game_id>/hands/last", methods=["DELETE"])
@bp.arguments(s.CorrectionArgs, location="query", as_kwargs=True)
@bp.response(200, s.HandSaved)
@bp.doc(summary="Remove the last hand (needs If-Match)", security=SECURITY,
        parameters=WRITE_HEADERS)
@_errors(401, 403, 404, 409, 412, 422, 428)
def delete_hand(game_id: int, reason: str | None = None) -> Any:
    game = game_or_404_json(game_id)

    def carry_out() -> Any:
        expected = expected_version(game)
        saved = hands.delete_last_hand(get_session(), game, expected_version=expected,
                                       who=actor(), reason=director_reason(reason))
        return saved_answer(saved, len(saved.hands), 200)
    return idempotent_write(carry_out, game)


@bp.route("/games/<int:game_id>/next", methods=["GET"])
@bp.response(200, s.NextOut)
@bp.doc(summary="What comes next: who deals, owns, chooses and leads; the legal calls or "
                "contracts (the engine's answer)", security=SECURITY)
@_errors(401, 404)
def next_hand(game_id: int) -> Any:
    return api_views.next_body(game_or_404_json(game_id))


@bp.route("/games/<int:game_id>/confirmations", methods=["POST"])
@bp.arguments(s.ConfirmIn)
@bp.response(201, s.ConfirmOut)
@bp.doc(summary="Confirm a seat: with its PIN (the game's scorer), or without (the seat's "
                "own player's account, or a director's, who vouches for it)", security=SECURITY)
@_errors(401, 403, 404, 422, 429)
def confirm_seat(body: dict[str, Any], game_id: int) -> Any:
    game = game_or_404_json(game_id)

    def carry_out() -> Any:
        response = jsonify(api_views.confirm_seat(get_session(), game, body["seat"],
                                                  body.get("pin"), user(), body.get("version")))
        response.status_code = 201
        return response
    return idempotent_write(carry_out, game)


@bp.route("/players", methods=["GET"])
@bp.arguments(s.PlayerListArgs, location="query", as_kwargs=True)
@bp.response(200, s.PlayerList)
@bp.doc(summary="The roster with each player's all-time sums (name: those whose name contains it)",
        security=SECURITY)
@_errors(401, 422)
def players(name: str = "") -> Any:
    return {"players": [api_views.player_row(r) for r in standings.roster(get_session(), name)]}


@bp.route("/players/<int:player_id>", methods=["GET"])
@bp.response(200, s.PlayerDetail)
@bp.doc(summary="One player's totals, ratings (openskill's μ and σ) and statistics per profile",
        security=SECURITY)
@_errors(401, 404)
def player(player_id: int) -> Any:
    body = api_views.player_body(get_session(), player_id)
    if body is None:
        return error_answer(404, "not-found", _("There is no such player."))
    return body


def _roster_change(player_id: int, act: Callable[[], Any]) -> Any:
    """A director's change of the roster (``act()``, idempotent with a key): the kept
    player as ``GET /players/<id>`` shows them after it."""
    def carry_out() -> Any:
        if get_session().get(Player, player_id) is None:
            return error_answer(404, "not-found", _("There is no such player."))
        kept = act()
        return jsonify(api_views.player_body(get_session(), kept.player_id))
    return idempotent_write(carry_out)


@bp.route("/players/<int:player_id>/rename", methods=["POST"])
@bp.arguments(s.RenameIn)
@bp.response(200, s.PlayerDetail)
@bp.doc(summary="Rename a player (a director): every game's record follows, each game's change log "
        "says so; no score changes and a confirmed sheet stays confirmed. A name another player "
        "has (but for case, accents or spacing) is refused: merge them instead", security=SECURITY)
@_errors(401, 403, 404, 422)
def rename_player(body: dict[str, Any], player_id: int) -> Any:
    return _roster_change(player_id, lambda: roster.rename_player(get_session(), player_id, body["name"],
                                                                  who=actor()))


@bp.route("/players/<int:player_id>/merge", methods=["POST"])
@bp.arguments(s.MergeIn)
@bp.response(200, s.PlayerDetail)
@bp.doc(summary="Merge a player into another (a director): every seat, event entry, result and "
        "rating goes to `into`, and the player leaves the roster; refused when both sat at one game",
        security=SECURITY)
@_errors(401, 403, 404, 422)
def merge_players(body: dict[str, Any], player_id: int) -> Any:
    return _roster_change(player_id, lambda: roster.merge_players(get_session(), player_id, body["into"],
                                                                  who=actor()))


@bp.route("/ratings", methods=["GET"])
@bp.arguments(s.RatingListArgs, location="query", as_kwargs=True)
@bp.response(200, s.RatingList)
@bp.doc(summary="The ratings' leaderboard of a profile (players with at least `min` finished games)",
        security=SECURITY)
@_errors(401, 422)
def rating_list(profile: str, min: int | None = None) -> Any:  # noqa: A002 - the query's name
    return api_views.ratings_body(get_session(), profile, min)


@bp.route("/seasons/<int:season_id>/standings", methods=["GET"])
@bp.response(200, s.StandingsOut)
@bp.doc(summary="A season's standings per profile (complete games in its days)",
        security=SECURITY)
@_errors(401, 404)
def season_standings(season_id: int) -> Any:
    season = standings.get_season(get_session(), season_id)
    if season is None:
        return error_answer(404, "not-found", _("There is no such season."))
    return api_views.standings_body(get_session(), season)


@bp.errorhandler(Refusal)
def _refusal(e: Refusal) -> Any:
    return e.response


@bp.errorhandler(UnprocessableEntity)
def _bad_shape(e: UnprocessableEntity) -> Any:
    """webargs' answer to a request of the wrong shape: the first field it names (a hand's
    keys are named by their RECORD.md path)."""
    messages = (getattr(e, "data", None) or {}).get("messages", {})
    field, message = first_message(messages)
    if request.view_args and "game_id" in request.view_args and request.method in ("POST", "PUT") \
            and field and not field.startswith(("reason", "seat", "pin")):
        n = request.view_args.get("n")
        if n is None:
            game = queries.get_game(get_session(), request.view_args["game_id"])
            if game is None:              # the shape is checked before the view looks
                return error_answer(404, "not-found", _("There is no such game."))
            n = len(game.hands) + 1
        field = f"hands[{n - 1}].{field}"
    return error_answer(422, "shape", message, field)


@bp.before_request
def _seat_or_scorer() -> Any:
    """A confirmation is for the game's scorers (a PIN) or a seat's own player: anyone else
    is refused before the request is read (as the table page does)."""
    if request.endpoint != "api.confirm_seat" or request.method != "POST":
        return None
    u = user()
    game_id = int((request.view_args or {})["game_id"])
    game = queries.get_game(get_session(), game_id)
    if u is None or game is None:
        return None
    seated = u.player_id is not None and any(seat.player_id == u.player_id for seat in game.seats)
    if seated or can_score(get_session(), u, game_id):
        return None
    return error_answer(403, "forbidden", _("Only the game's scorers and its players confirm its seats."))


@bp.before_request
def _csrf_for_sessions() -> Any:
    """A write made with the browser's session cookie needs the CSRF token like a form;
    one made with a token needs none (there is no cookie to ride on)."""
    if request.method in ("GET", "HEAD", "OPTIONS") or by_token() or user() is None:
        return None
    if request.endpoint == "api.score" or not current_app.config.get("WTF_CSRF_ENABLED", True):
        return None
    current_app.extensions["csrf"].protect()
    return None


def init_app(app: Flask) -> None:
    app.config.update(
        API_TITLE="kingsheet", API_VERSION="v1", OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api/v1", OPENAPI_JSON_PATH="openapi.json")
    api = QuietApi(app, spec_kwargs={"components": {"securitySchemes": {
        "bearer": {"type": "http", "scheme": "bearer",
                   "description": "a personal API token (your account page, or "
                                  "`flask --app app user token NAME`)"}}}})
    api.register_blueprint(bp)
    app.extensions["kingsheet_api"] = api
    app.add_url_rule("/api/v1/docs", "api.docs", docs_page)
    app.after_request(http_headers)
    app.extensions["csrf"].exempt(bp)


__all__ = ["bp", "init_app"]
