"""Retries that never save twice (``Idempotency-Key``): the first answer to a write made
with a key is kept in the database, per user, so a repeat with the same key and body --
sent to any worker or app server -- gets that answer and changes nothing.

The key's row is added to the session *before* the write, so it is committed in the same
transaction as the write itself: a write that happened always has its key. Two requests
racing with one key cannot both save (the second one's row collides and its whole
transaction is rolled back). The answer is written just after; a repeat that finds the key
without an answer (the first request still running, or its worker killed between the two
commits) is told so (409) rather than carried out again.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, update
from sqlalchemy.orm import Session

from app.db import utcnow
from app.models import IdempotencyRecord
from app.services.errors import BadInput, Text

#: How long a key's answer is kept (the API promises at least 24 hours).
KEEP_FOR = timedelta(hours=48)
KEY_MAX = 200


@dataclass
class Answer:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)


class KeyInProgress(Exception):
    """The key is known but its first request has no answer (yet)."""


def request_digest(method: str, path: str, body: bytes) -> str:
    h = hashlib.sha256()
    for part in (method.encode(), b"\0", path.encode(), b"\0", body):
        h.update(part)
    return h.hexdigest()


def check_key(key: str) -> str:
    key = key.strip()
    if not key or len(key) > KEY_MAX or not key.isprintable():
        raise BadInput("Idempotency-Key", Text("An idempotency key is 1 to %(n)s printable "
                                               "characters.", n=KEY_MAX))
    return key


def kept_answer(session: Session, user_id: int, key: str, digest: str) -> Answer | None:
    """The first answer to ``key`` (None: the key is new). The same key with another
    request is refused (BadInput); a key still without its answer raises KeyInProgress."""
    row = session.get(IdempotencyRecord, (user_id, key))
    if row is None:
        return None
    if row.request_digest != digest:
        raise BadInput("Idempotency-Key", Text("This idempotency key was used for another "
                                               "request."))
    if row.status is None:
        raise KeyInProgress(key)
    return Answer(row.status, row.body, dict(row.headers or {}))


def claim(session: Session, user_id: int, key: str, digest: str) -> None:
    """Adds the key's row to the session: it is committed with the write that follows."""
    session.execute(delete(IdempotencyRecord).where(IdempotencyRecord.created_at < utcnow() - KEEP_FOR))
    session.add(IdempotencyRecord(user_id=user_id, key=key, request_digest=digest))


def keep(session: Session, user_id: int, key: str, digest: str, answer: Answer) -> None:
    """Stores the answer of the key's request (after the write committed, or after a
    refusal that wrote nothing: then the row is new)."""
    found = session.get(IdempotencyRecord, (user_id, key))
    if found is None:
        session.add(IdempotencyRecord(user_id=user_id, key=key, request_digest=digest,
                                      status=answer.status, body=answer.body,
                                      headers=answer.headers))
    else:
        session.execute(update(IdempotencyRecord)
                        .where(IdempotencyRecord.user_id == user_id, IdempotencyRecord.key == key)
                        .values(status=answer.status, body=answer.body, headers=answer.headers))
    session.commit()
