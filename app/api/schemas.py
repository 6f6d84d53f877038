"""The shapes of /api/v1 (marshmallow): what each route takes and answers. They document
the API (the OpenAPI document is generated from them) and check a request's shape; the
rules themselves are the engine's (a hand that has the right shape may still be refused,
with the engine's field path)."""
from __future__ import annotations

from marshmallow import RAISE, Schema, fields, validate

from app.rules import PROFILES
from app.security import ID_MAX

SEAT = validate.Range(min=0, max=3)
#: An id in a query, as in an address: 0 to what an id column holds.
ID = validate.Range(min=0, max=ID_MAX)
PROFILE_IDS = validate.OneOf(list(PROFILES))


class _Strict(Schema):
    class Meta:
        unknown = RAISE


class ApiError(Schema):
    code = fields.String(required=True, metadata={"description": "a stable code"})
    message = fields.String(required=True)
    field = fields.String(allow_none=True, required=True,
                          metadata={"description": "RECORD.md's path of the field, when there is one"})


class ErrorAnswer(Schema):
    error = fields.Nested(ApiError, required=True)
    #: 412, and 409 on a stale If-Match: the game's current version
    version = fields.Integer(metadata={"description": "the game's current version (412)"})
    #: 422 of a hand: every problem the engine found
    problems = fields.List(fields.Nested(ApiError))


class Json(fields.Raw):
    """Any JSON value (the record and report of RECORD.md; described there)."""


class HandIn(_Strict):
    """One hand of RECORD.md (the engine checks the rest)."""

    contract = fields.String()
    trump = fields.String()
    leader = fields.Integer(strict=True, validate=SEAT)
    auction = fields.List(fields.String())
    counts = fields.Dict(keys=fields.String(), values=fields.Raw())
    captures = fields.Dict(keys=fields.String(), values=fields.Raw())
    tricks = fields.List(fields.List(fields.String()))
    deal = fields.List(fields.List(fields.String()))
    ruling = fields.Dict(keys=fields.String(), values=fields.Raw())


class CorrectionArgs(_Strict):
    reason = fields.String(validate=validate.Length(max=300), metadata={
        "description": "a director's reason for correcting a locked (confirmed) sheet"})


class NewGame(_Strict):
    profile = fields.String(required=True, validate=PROFILE_IDS)
    players = fields.List(fields.String(validate=validate.Length(min=1, max=60)), required=True,
                          validate=validate.Length(equal=4))
    options = fields.Dict(keys=fields.String(), values=fields.String())
    first_dealer = fields.Integer(strict=True, validate=SEAT)
    first_chooser = fields.Integer(strict=True, validate=SEAT, metadata={"description": "rifki"})
    seat_pins = fields.List(fields.String(allow_none=True, validate=validate.Regexp(r"^\d{4}$")),
                            validate=validate.Length(equal=4))


class SeatConfirmation(Schema):
    seat = fields.Integer(required=True)
    version = fields.Integer(required=True)
    current = fields.Boolean(required=True, metadata={"description": "confirms the sheet as it is now"})
    method = fields.String(required=True)
    at = fields.String(required=True, metadata={"format": "date-time"})


class GameOut(Schema):
    id = fields.Integer(required=True)
    version = fields.Integer(required=True)
    locked = fields.Boolean(required=True)
    confirmations = fields.List(fields.Nested(SeatConfirmation), required=True)
    record = Json(required=True, metadata={"description": "the record (RECORD.md)"})
    report = Json(required=True, metadata={"description": "the score report (RECORD.md)"})


class GameItem(Schema):
    id = fields.Integer(required=True)
    profile = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    hands_played = fields.Integer(required=True)
    n_hands = fields.Integer(required=True)
    version = fields.Integer(required=True)
    locked = fields.Boolean(required=True)
    updated_at = fields.String(required=True, metadata={"format": "date-time"})


class GamePage(Schema):
    games = fields.List(fields.Nested(GameItem), required=True)
    next_cursor = fields.String(allow_none=True, required=True)


class GameListArgs(_Strict):
    cursor = fields.String(metadata={"description": "the next_cursor of the page before "
                                     "(opaque; an unreadable one is refused)"})
    limit = fields.Integer(validate=validate.Range(min=1, max=100))
    profile = fields.String(validate=PROFILE_IDS)
    player = fields.Integer(validate=ID, metadata={"description": "a player's id (GET /players)"})
    season = fields.Integer(validate=ID, metadata={"description": "a season's id"})
    state = fields.String(validate=validate.OneOf(["in_progress", "finished", "locked"]))


class HandSaved(Schema):
    id = fields.Integer(required=True)
    version = fields.Integer(required=True)
    hand = Json(required=True, allow_none=True, metadata={
        "description": "the hand in the score report (RECORD.md); null after DELETE hands/last"})
    totals = fields.List(fields.Integer(), required=True)


class NextOut(Schema):
    next = Json(required=True, metadata={"description": "the report's `next` (null: the game is over)"})
    calls = fields.List(fields.String(), metadata={"description": "a fiesta: the first legal calls"})
    contracts = fields.List(Json(), metadata={
        "description": "the contracts that may be played (rifki: each with allowed and why not)"})


class ConfirmIn(_Strict):
    seat = fields.Integer(required=True, strict=True, validate=SEAT)
    pin = fields.String(validate=validate.Regexp(r"^\d{4}$"))
    version = fields.Integer(strict=True, metadata={
        "description": "the game version the player saw (GET /games/<id>); another one is "
                       "refused with 409 sheet-changed. Without it: the sheet as it is now"})


class ConfirmOut(Schema):
    seat = fields.Integer(required=True)
    version = fields.Integer(required=True)
    locked = fields.Boolean(required=True)


class PlayerOut(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    games = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    points = fields.Integer(required=True)


class PlayerList(Schema):
    players = fields.List(fields.Nested(PlayerOut), required=True)


class PlayerListArgs(_Strict):
    name = fields.String(validate=validate.Length(min=1, max=60), metadata={
        "description": "only the players whose name contains this (ignoring case and accents)"})


class RatingOut(Schema):
    profile = fields.String(required=True)
    mu = fields.Float(required=True, metadata={"description": "openskill's μ (Plackett-Luce, "
                                                            "default parameters)"})
    sigma = fields.Float(required=True, metadata={"description": "openskill's σ"})
    ordinal = fields.Float(required=True, metadata={"description": "μ - 3σ, the conservative number"})
    games = fields.Integer(required=True, metadata={"description": "finished games it rests on"})
    shown = fields.Integer(required=True, metadata={"description": "as the pages show it: "
                                                                   "round(1000 + 25 × ordinal)"})


class RenameIn(_Strict):
    name = fields.String(required=True, validate=validate.Length(max=300),
                         metadata={"description": "the player's new name"})


class MergeIn(_Strict):
    into = fields.Integer(required=True, strict=True, validate=ID,
                          metadata={"description": "the id of the player who is kept"})


class PlayerDetail(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    player = fields.Nested(PlayerOut, required=True)
    profiles = fields.List(Json(), required=True, metadata={"description": "totals per profile"})
    ratings = fields.List(fields.Nested(RatingOut), required=True,
                          metadata={"description": "one per profile with a finished game"})
    stats = fields.Dict(keys=fields.String(), values=Json(), required=True, metadata={
        "description": "per profile, over finished games: games, wins, points, average, "
                       "kings_made, wins_in_a_row, most_wins_in_a_row, best_game, worst_game, "
                       "contracts (hands, points, average, took per element), auction (bought, "
                       "bid_points, paid, sold, received, 433), head_to_head (per opponent: "
                       "games, ahead, behind, points = own totals minus theirs)"})


class RatingListArgs(_Strict):
    profile = fields.String(required=True, validate=PROFILE_IDS)
    min = fields.Integer(validate=validate.Range(min=1, max=10_000), metadata={
        "description": "the fewest finished games a player needs to be listed (default 5)"})


class RatingRowOut(RatingOut):
    rank = fields.Integer(required=True)
    id = fields.Integer(required=True)
    name = fields.String(required=True)


class RatingList(Schema):
    profile = fields.String(required=True)
    min = fields.Integer(required=True)
    ratings = fields.List(fields.Nested(RatingRowOut), required=True,
                          metadata={"description": "best conservative rating first (100 at most)"})


class StandingsOut(Schema):
    season = Json(required=True)
    tables = fields.List(Json(), required=True)


class ScoreOut(Schema):
    class Meta:
        unknown = RAISE
