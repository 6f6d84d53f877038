"""Writes carried out once per ``Idempotency-Key``: the API's writes and the hand saves a
phone's outbox sends (static/js/outbox_store.js, offline.js). The first answer to a key is
kept in the database in the same transaction as the write itself
(app/games/idempotency.py); a repeat -- the same key and request, sent again because its
answer was lost -- gets that answer and changes nothing."""
from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from flask import g, get_flashed_messages, jsonify, make_response, request
from flask_babel import gettext as _
from sqlalchemy.exc import IntegrityError

from app.accounts.auth import user
from app.db import AppSession, get_session
from app.errors import BadInput
from app.games import hands, idempotency
from app.web.messages import service_text

#: (status, code, message, field) -> the response of a refusal, in the caller's own format.
Refuse = Callable[[int, str, str, str | None], Any]


def carried_out_once(carry_out: Callable[[], Any], answer_of: Callable[[Any], idempotency.Answer],
                     replay: Callable[[idempotency.Answer], Any], refuse: Refuse,
                     body: bytes | None = None, retried: bool = False) -> Any:
    """Calls ``carry_out`` once per key (without a key, or logged out: every time).

    ``answer_of`` turns the response into what is kept, ``replay`` a kept answer into the
    response of a repeat, ``refuse`` words the key's own refusals; ``body`` is what names
    the request with its method and address (default: the request's body as sent)."""
    session = get_session()
    key = request.headers.get("Idempotency-Key")
    u = user()
    if key is None or u is None:
        return carry_out()
    try:
        key = idempotency.check_key(key)
    except BadInput as e:
        return refuse(422, "idempotency-key", service_text(e), e.field)
    digest = _request_digest(body)
    answered = _repeat_or_refusal(session, u.id, key, digest, replay, refuse)
    if answered is not None:
        return answered
    try:
        idempotency.claim(session, u.id, key, digest)
    except IntegrityError:
        session.rollback()               # a request with the same key won the race: its answer
        if retried:
            raise
        return carried_out_once(carry_out, answer_of, replay, refuse, body, retried=True)
    assert isinstance(session, AppSession)
    with session.held():                 # the write's commits wait for its answer's
        response = carry_out()
    idempotency.keep(session, u.id, key, digest, answer_of(response))
    return response


def _request_digest(body: bytes | None) -> str:
    """What names the request: its method, address and ``body`` (default: as sent)."""
    target = request.full_path if request.query_string else request.path
    return idempotency.request_digest(request.method, target,
                                      request.get_data() if body is None else body)


def _repeat_or_refusal(session: Any, user_id: int, key: str, digest: str,
                       replay: Callable[[idempotency.Answer], Any], refuse: Refuse) -> Any:
    """The answer to a key already used: the kept answer replayed, or the key's refusal
    (used for another request, or still being carried out); None: the key is new."""
    try:
        kept = idempotency.kept_answer(session, user_id, key, digest)
    except BadInput as e:
        return refuse(422, "idempotency-key-reused", service_text(e), e.field)
    except idempotency.KeyInProgress:
        return refuse(409, "idempotency-in-progress", _("A request with this key is still being "
                      "carried out (or its answer was lost): read the game first."),
                      "Idempotency-Key")
    if kept is not None:
        return replay(kept)
    return None


# --- the outbox's hand saves ----------------------------------------------------------------
# A phone keeps every hand it saves in its outbox (IndexedDB) until the server has answered,
# and sends it with an Idempotency-Key and ``X-Outbox: 1``. Such a save is carried out once
# per key and answered in JSON instead of the page: {"state": "saved", "row", "version",
# "location"}, {"state": "refused", "problems", "fields"} (the engine or the form refused
# it: the entry reopens), {"state": "conflict", "problems", "fields"} (another phone saved
# first: the entry reopens on the conflict page) or {"state": "wait", "problems"} (the same
# key is still being carried out). "problems" are the page's messages; "fields" the same
# messages by the entry's field key ("tricks", "kh", ...; "__all__": the whole hand).

def note_outcome(outcome: hands.Outcome) -> None:
    """What became of a hand's save (app/games/hands.py), for the outbox's answer."""
    g.entry_outcome = outcome


def note_problems(errors: dict[str, list[str]]) -> None:
    """What the page of a refused save shows, for the outbox's answer (``entry_problems``)."""
    g.entry_problems = errors


def _fields() -> dict[str, list[str]]:
    found: dict[str, list[str]] = g.get("entry_problems") or {}
    return {key: [str(m) for m in messages] for key, messages in found.items() if messages}


def _problems() -> list[str]:
    out = [m for messages in _fields().values() for m in messages]
    return out or [str(m) for m in get_flashed_messages()]


def _outbox_answer(response: Any, game_id: int) -> Any:
    """The JSON answer of an outbox save: what became of the hand (the outcome its page
    noted), with the problems its page shows; a page that saved nothing (the form did not
    read, a step of the setup is missing) is a refusal with its own status."""
    outcome = g.get("entry_outcome")
    match outcome:
        case hands.Saved():
            return jsonify(state="saved", row=outcome.index + 1, version=outcome.game.version,
                           location=response.headers.get("Location"))
        case hands.Conflict() | hands.Locked():     # offered as a correction, or left waiting
            return _outbox_json(409, "conflict", _problems(), _fields())
        case hands.Refused():
            return _outbox_json(422, "refused", _problems(), _fields())
    status = response.status_code
    return _outbox_json(status if status >= 400 else 422, "refused", _problems(), _fields())


def _outbox_json(status: int, state: str, problems: list[str],
                 fields: dict[str, list[str]] | None = None) -> Any:
    response = (jsonify(state=state, problems=problems) if fields is None
                else jsonify(state=state, problems=problems, fields=fields))
    response.status_code = status
    return response


def _outbox_kept(response: Any) -> idempotency.Answer:
    return idempotency.Answer(response.status_code, response.get_json(), {})


def _outbox_replay(answer: idempotency.Answer) -> Any:
    response = jsonify(answer.body)
    response.status_code = answer.status
    response.headers["Idempotent-Replayed"] = "true"
    return response


def _outbox_refuse(status: int, code: str, message: str, field: str | None) -> Any:
    if code == "idempotency-in-progress":
        return _outbox_json(409, "wait", [message])
    return _outbox_json(status, "refused", [message])


def outbox_save(view: Callable[..., Any]) -> Callable[..., Any]:
    """A hand-saving view that also answers a phone's outbox (``X-Outbox: 1``), once per key."""
    @wraps(view)
    def wrapped(**kwargs: Any) -> Any:
        if request.method != "POST" or request.headers.get("X-Outbox") != "1":
            return view(**kwargs)
        game_id = int(kwargs["game_id"])
        # the CSRF token is the session's, not the hand's: a phone that logged in again sends
        # the same hand with a new one
        body = urlencode([(k, v) for k, v in request.form.items(multi=True) if k != "csrf_token"])
        response = carried_out_once(lambda: _outbox_answer(make_response(view(**kwargs)), game_id),
                                    _outbox_kept, _outbox_replay, _outbox_refuse, body.encode())
        response.headers["Cache-Control"] = "no-store"
        return response
    return wrapped
