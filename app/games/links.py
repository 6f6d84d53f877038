"""A game's links: the read-only share link (``/s/<token>``) and the one-time handover link
that adds whoever opens it (logged in) to the game's scorers.

Tokens are 32 URL-safe characters from `secrets` (192 bits): unguessable. A share link
lives until its scorer revokes it; a handover link is spent by its first use.
"""
from __future__ import annotations

import re
import secrets
from datetime import timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.accounts.accounts import add_scorer, may_keep_score
from app.db import utcnow
from app.errors import ForbiddenError, Text
from app.models import Game, GameLink, LinkKind, User

#: What a player account reads when it opens a handover link.
PLAYER_REFUSED = Text("A player account does not keep score: the link is still unused. "
                      "Ask a director to make your account a scorer, or open it on a scorer's phone.")

#: What a token looks like (anything else opens nothing and is never sent to the database).
TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")


#: A handover link works once, within a day of being made (issue 23.8): a link photographed
#: off a phone at the table is no key to the game next week.
HANDOVER_FOR = timedelta(hours=24)


def _fresh_handover() -> Any:
    """The condition of a handover link still in its day."""
    return GameLink.created_at > utcnow() - HANDOVER_FOR


def new_token() -> str:
    return secrets.token_urlsafe(24)


def _active(session: Session, game_id: int, kind: LinkKind) -> GameLink | None:
    stmt = select(GameLink).where(GameLink.game_id == game_id, GameLink.kind == kind,
                                  GameLink.ended_at.is_(None))
    if kind is LinkKind.HANDOVER:
        stmt = stmt.where(_fresh_handover())
    return session.scalars(stmt.order_by(GameLink.id.desc())).first()


def active_share(session: Session, game_id: int) -> GameLink | None:
    return _active(session, game_id, LinkKind.SHARE)


def active_handover(session: Session, game_id: int) -> GameLink | None:
    """The game's unspent handover link of the day, if one was made (None: none or spent)."""
    return _active(session, game_id, LinkKind.HANDOVER)


def _ensure(session: Session, game_id: int, kind: LinkKind, created_by: int | None) -> GameLink:
    link = _active(session, game_id, kind)
    if link is None:
        link = GameLink(game_id=game_id, kind=kind, token=new_token(), created_by=created_by)
        session.add(link)
        session.commit()
    return link


def share_link(session: Session, game_id: int, created_by: int | None = None) -> GameLink:
    """The game's share link (made now if it has none)."""
    return _ensure(session, game_id, LinkKind.SHARE, created_by)


def revoke_share(session: Session, game_id: int) -> bool:
    """Ends the game's share link: its address opens nothing any more."""
    link = active_share(session, game_id)
    if link is None:
        return False
    link.ended_at = utcnow()
    session.commit()
    return True


def shared_game(session: Session, token: str) -> Game | None:
    """The game a live share token shows (None: unknown or revoked)."""
    if not TOKEN.match(token):
        return None
    link = session.scalars(select(GameLink).where(GameLink.token == token, GameLink.kind == LinkKind.SHARE,
                                                  GameLink.ended_at.is_(None))).first()
    return session.get(Game, link.game_id) if link is not None else None


def handover_link(session: Session, game_id: int, created_by: int | None) -> GameLink:
    """The game's unspent handover link (made now if there is none)."""
    return _ensure(session, game_id, LinkKind.HANDOVER, created_by)


def handover_game(session: Session, token: str) -> Game | None:
    if not TOKEN.match(token):
        return None
    link = session.scalars(select(GameLink).where(GameLink.token == token,
                                                  GameLink.kind == LinkKind.HANDOVER,
                                                  GameLink.ended_at.is_(None),
                                                  _fresh_handover())).first()
    return session.get(Game, link.game_id) if link is not None else None


def use_handover(session: Session, token: str, user: User) -> Game | None:
    """Adds `user` to the scorers of the link's game and spends the link (None: unknown or
    spent already). The spending is one conditional UPDATE, so two phones opening the same
    link at once cannot both use it. A player's account is refused (ForbiddenError) and the
    link stays unspent: the role decides who keeps score, not the holding of a link."""
    if not TOKEN.match(token):
        return None
    if not may_keep_score(user):
        raise ForbiddenError(PLAYER_REFUSED)
    now = utcnow()
    spent = session.execute(update(GameLink).where(
        GameLink.token == token, GameLink.kind == LinkKind.HANDOVER, GameLink.ended_at.is_(None),
        _fresh_handover()).values(ended_at=now))
    if spent.rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        return None
    game_id = session.scalars(select(GameLink.game_id).where(GameLink.token == token)).one()
    add_scorer(session, game_id, user.id)
    session.commit()
    return session.get(Game, game_id)
