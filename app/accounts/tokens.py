"""Personal API tokens: made (shown once), listed, revoked, and the user a request's
``Authorization: Bearer <token>`` acts as. A token acts with its user's role and nothing
more (the same guard as the pages)."""
from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session, joinedload

from app.db import utcnow
from app.errors import BadInput, Text
from app.models import ApiToken, User

#: A token's text: "ks_" and 43 characters of 32 random bytes (URL-safe base64).
TOKEN_PREFIX = "ks_"
LABEL_MAX = 60
#: ``last_used_at`` is written at most this often (not one UPDATE per API call).
TOUCH_EVERY = timedelta(minutes=1)


def token_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def create_token(session: Session, user: User, label: str | None = None) -> tuple[ApiToken, str]:
    """A new token of ``user``: the stored row and the token's text (never stored)."""
    label = " ".join((label or "").split()) or "API"
    if len(label) > LABEL_MAX:
        raise BadInput("label", Text("A label has at most %(n)s characters.", n=LABEL_MAX))
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken(user_id=user.id, label=label, token_hash=token_hash(secret),
                     prefix=secret[:8])
    session.add(token)
    session.commit()
    return token, secret


def list_tokens(session: Session, user_id: int) -> list[ApiToken]:
    """The user's tokens, newest first (revoked ones too: they say when)."""
    return list(session.scalars(select(ApiToken).where(ApiToken.user_id == user_id)
                                .order_by(ApiToken.id.desc())))


def revoke_token(session: Session, user_id: int, token_id: int) -> bool:
    """Revokes one of the user's own tokens; False when it is not theirs (or unknown)."""
    token = session.get(ApiToken, token_id)
    if token is None or token.user_id != user_id:
        return False
    if token.revoked_at is None:
        token.revoked_at = utcnow()
        session.commit()
    return True


def revoke_all(session: Session, user_id: int) -> int:
    """Revokes every token of the user still in use (a new password, a director's or the
    command line's revoke); the caller commits. Returns how many were revoked."""
    live = list(session.scalars(select(ApiToken).where(ApiToken.user_id == user_id,
                                                       ApiToken.revoked_at.is_(None))))
    now = utcnow()
    for token in live:
        token.revoked_at = now
    return len(live)


def live_tokens(session: Session, user_id: int) -> int:
    """How many of the user's tokens the API still takes."""
    return sum(1 for t in list_tokens(session, user_id) if t.revoked_at is None)


def user_for_token(session: Session, secret: str) -> User | None:
    """The user a token acts as, or None for an unknown or revoked token."""
    if not secret.startswith(TOKEN_PREFIX) or len(secret) > 100:
        return None
    # the user in the same statement (the API's every request asks for both)
    token = session.scalars(select(ApiToken).options(joinedload(ApiToken.user))
                            .where(ApiToken.token_hash == token_hash(secret))).first()
    if token is None or token.revoked_at is not None:
        return None
    now = utcnow()
    last = token.last_used_at
    if last is None or now - (last if last.tzinfo else last.replace(tzinfo=now.tzinfo)) > TOUCH_EVERY:
        token.last_used_at = now
        session.commit()
    return token.user
