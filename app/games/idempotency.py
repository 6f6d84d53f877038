"""Retries that never save twice (``Idempotency-Key``): the first answer to a write made
with a key is kept in the database, per user, so a repeat with the same key and body --
sent to any worker or app server -- gets that answer and changes nothing.

The key's row is written first, the write is carried out in the same transaction (the
services' commits are savepoints meanwhile: ``AppSession.held`` in app/db.py), then the
answer is written into the row and everything is committed at once. So a write that
committed always has its key *and* its answer: a repeat after any crash gets the saved
answer; a crash before that one commit leaves nothing, not even the key, and the repeat
carries the write out. Two requests racing with one key cannot both save: the second one's
row collides with the first (on PostgreSQL it waits for the first to commit), its
transaction is rolled back and it answers with the first one's answer.

A row without an answer can only be one written before this was so (a worker killed between
the write's commit and the answer's): a repeat is told to wait (409) rather than carried out
again, and such a row goes with the others after ``KEEP_FOR``.

Rows expire by age: every new key deletes at most ``SWEEP`` rows older than ``KEEP_FOR`` (of
any user) in a short transaction of its own, so the table holds about two days of keys, however the
keys come.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, select, tuple_, update
from sqlalchemy.orm import Session

from app.db import utcnow
from app.errors import BadInput, Text
from app.models import IdempotencyRecord

#: How long a key's answer is kept (the API promises at least 24 hours).
KEEP_FOR = timedelta(hours=48)
KEY_MAX = 200
#: How many expired rows one new key deletes at most (more than any user makes per key).
SWEEP = 200


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


def sweep(session: Session, limit: int = SWEEP) -> int:
    """Deletes at most ``limit`` rows older than ``KEEP_FOR`` (the oldest first) and commits,
    in a transaction of its own (none when nothing has expired: one indexed read)."""
    cutoff = utcnow() - KEEP_FOR
    if session.scalar(select(IdempotencyRecord.created_at)
                      .where(IdempotencyRecord.created_at < cutoff).limit(1)) is None:
        return 0
    old = (select(IdempotencyRecord.user_id, IdempotencyRecord.key)
           .where(IdempotencyRecord.created_at < cutoff)
           .order_by(IdempotencyRecord.created_at).limit(limit))
    result = session.execute(delete(IdempotencyRecord)
                             .where(tuple_(IdempotencyRecord.user_id, IdempotencyRecord.key).in_(old))
                             .execution_options(synchronize_session=False))
    session.commit()
    return int(getattr(result, "rowcount", 0) or 0)


def claim(session: Session, user_id: int, key: str, digest: str) -> None:
    """Writes the key's row (without its answer) at the start of the transaction that will
    carry out the write and keep its answer; IntegrityError if another request has the key
    (on PostgreSQL: once that request committed). Expired rows are swept first."""
    sweep(session)
    session.add(IdempotencyRecord(user_id=user_id, key=key, request_digest=digest))
    session.flush()


def keep(session: Session, user_id: int, key: str, digest: str, answer: Answer) -> None:
    """Writes the answer into the key's row and commits it with the write (the row is new
    when a refusal rolled everything back)."""
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
