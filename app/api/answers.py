"""The API's answers: its error body, the version a write names (``If-Match``), and a write
carried out once per ``Idempotency-Key`` whose refusals become the error a client reads."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import jsonify, request
from flask_babel import gettext as _

from app.accounts.throttle import Throttled
from app.db import get_session
from app.errors import BadInput, ConflictError, ForbiddenError, LockedError, SheetChanged
from app.games import hands, idempotency, queries
from app.games.idempotent import carried_out_once
from app.models import Game
from app.rules import RecordError
from app.web import versions
from app.web.messages import service_text, translate_error

IF_MATCH = re.compile(r'^(?:W/)?"v([0-9]{1,10})"$')   # a version is an integer column


def error_answer(status: int, code: str, message: str, field: str | None = None,
           **extra: Any) -> Any:
    response = jsonify({"error": {"code": code, "message": message, "field": field}, **extra})
    response.status_code = status
    return response


def expected_version(game: Game) -> int:
    """The version ``If-Match`` names (428 without one, 412 when stale)."""
    header = request.headers.get("If-Match")
    if header is None:
        raise Refusal(error_answer(428, "if-match-required", _('Send If-Match: "v<version>" (the '
                              "version you read)."), "If-Match", version=game.version))
    found = IF_MATCH.match(header.strip())
    if found is None or int(found.group(1)) != game.version:
        raise Refusal(error_answer(412, "stale", _("The game has changed since that version."),
                              "If-Match", version=game.version))
    return int(found.group(1))


class Refusal(Exception):
    def __init__(self, response: Any) -> None:
        super().__init__()
        self.response = response


def answer_of(response: Any) -> idempotency.Answer:
    headers = {k: v for k, v in response.headers.items() if k in ("ETag", "Location")}
    return idempotency.Answer(response.status_code, response.get_json(), headers)


def response_of(answer: idempotency.Answer) -> Any:
    response = jsonify(answer.body)
    response.status_code = answer.status
    for k, v in answer.headers.items():
        response.headers[k] = v
    response.headers["Idempotent-Replayed"] = "true"
    return response


def refused(e: Exception, game: Game | None) -> Any:
    """The answer of a write the services refused (nothing was written)."""
    if isinstance(e, Refusal):
        return e.response
    if isinstance(e, RecordError):
        return error_answer(422, e.code, translate_error(e), e.field)
    if isinstance(e, LockedError):
        return error_answer(409, "locked", service_text(e), "reason")
    if isinstance(e, ConflictError):
        return error_answer(412, "stale", str(e), "If-Match", version=e.current_version)
    if isinstance(e, ForbiddenError):
        return error_answer(403, "forbidden", service_text(e))
    if isinstance(e, Throttled):
        response = error_answer(429, "too-many", _("Too many wrong PINs for this seat: wait and try "
                          "again."), "pin")
        response.headers["Retry-After"] = str(e.retry_after)
        return response
    if isinstance(e, SheetChanged):
        return error_answer(409, "sheet-changed", service_text(e), e.field, version=e.current_version)
    assert isinstance(e, BadInput)
    return error_answer(422, "input", service_text(e), e.field)


REFUSED = (Refusal, RecordError, LockedError, ConflictError, ForbiddenError, BadInput, Throttled)


def idempotent_write(carry_out: Callable[[], Any], game: Game | None = None) -> Any:
    """Carries out a write once per ``Idempotency-Key`` (without one: every time)."""
    def attempt() -> Any:
        try:
            return carry_out()
        except REFUSED as e:
            get_session().rollback()
            return refused(e, game)

    return carried_out_once(attempt, answer_of, response_of, error_answer)


def game_or_404_json(game_id: int) -> Game:
    game = queries.get_game(get_session(), game_id)
    if game is None:
        raise Refusal(error_answer(404, "not-found", _("There is no such game.")))
    return game


def saved_answer(game: Game, index: int, status: int) -> Any:
    report = queries.report(game)
    body: dict[str, Any] = {"id": game.id, "version": game.version, "totals": report["totals"],
                            "hand": report["hands"][index] if index < len(report["hands"]) else None}
    response = jsonify(body)
    response.status_code = status
    response.headers["ETag"] = f'"{versions.game_tag(game.version)}"'
    return response


def hand_answer(outcome: hands.Outcome, status: int) -> Any:
    """The answer to a hand's save: the hand saved, or its refusal as any write's."""
    match outcome:
        case hands.Saved():
            return saved_answer(outcome.game, outcome.index, status)
        case hands.Refused():
            return refused(outcome.first, None)
        case hands.Conflict() | hands.Locked():
            return refused(outcome.error, None)
