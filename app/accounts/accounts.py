"""Users: create, change a password, authenticate, list; who may change which game.

Passwords (and seat PINs) are stored only as werkzeug scrypt hashes
(``scrypt:32768:8:1$salt$hash``): never in clear, never reversibly.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Integer, bindparam, exists, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from werkzeug.security import check_password_hash, generate_password_hash

from app.accounts.tokens import revoke_all
from app.errors import BadInput, Text
from app.models import GameScorer, Player, Role, User
from app.rules.club.confusables import look_alikes
from app.rules.errors import RecordError
from app.rules.limits import NAME_MAX, check_name, invisible_character
from app.stats.results import player_ids_for

USERNAME = re.compile(r"^[\w.@+-]{1,40}$")
PASSWORD_MIN = 8
PASSWORD_MAX = 200
ROLES = tuple(r.value for r in Role)

#: What `authenticate` checks an unknown name against, so a wrong name costs the same time
#: as a wrong password (the answer never tells which one was wrong).
_DUMMY_HASH: list[str] = []


#: How a password is hashed: werkzeug's scrypt at its own cost (``scrypt:32768:8:1``). The
#: tests lower it (tests/conftest.py): their logins guard nothing, and at full cost the
#: suite's logins and accounts spent a minute of its time in scrypt;
#: tests/web/test_accounts.py checks the full cost.
PASSWORD_HASH = "scrypt"


def hash_secret(secret: str, method: str | None = None) -> str:
    return generate_password_hash(secret, method=method or PASSWORD_HASH)


def check_secret(stored: str, secret: str) -> bool:
    return check_password_hash(stored, secret)


def clean_username(username: str) -> str:
    name = (username or "").strip()
    if not USERNAME.match(name) or invisible_character(name) is not None:
        raise BadInput("username", Text("A user name is 1 to 40 letters, digits or . _ @ + -"))
    return name


def check_password(password: str) -> str:
    if not password or not password.strip():
        raise BadInput("password", Text("The password is empty."))
    if len(password) < PASSWORD_MIN:
        raise BadInput("password", Text("A password has at least %(n)s characters.", n=PASSWORD_MIN))
    if len(password) > PASSWORD_MAX:
        raise BadInput("password", Text("A password has at most %(n)s characters.", n=PASSWORD_MAX))
    return password


def get_user(session: Session, user_id: int) -> User | None:
    return session.get(User, user_id)


def find_user(session: Session, username: str) -> User | None:
    return session.scalars(select(User).where(User.username == username)).first()


def has_users(session: Session) -> bool:
    return bool(session.scalar(select(exists().where(User.id.is_not(None)))))


def list_users(session: Session) -> list[User]:
    return list(session.scalars(select(User).order_by(User.username)).all())


def _player(session: Session, name: str | None) -> Player | None:
    """The roster player an account is linked to; a name not on the roster yet is added to
    it (a club's first accounts come before its first games: issue 27.9)."""
    if not name:
        return None
    player = session.scalars(select(Player).where(Player.name == name)).first()
    if player is None:
        try:
            name = check_name(name.strip(), "player")
        except RecordError as e:
            raise BadInput("player", Text("A player's name is 1 to %(n)s visible characters.",
                                          n=NAME_MAX)) from e
        if not name:
            raise BadInput("player", Text("A player's name is 1 to %(n)s visible characters.",
                                          n=NAME_MAX))
        player = session.get(Player, player_ids_for(session, [name], {})[0])
        assert player is not None
    taken = session.scalar(select(func.count()).select_from(User).where(User.player_id == player.id))
    if taken:
        raise BadInput("player", Text("Player %(name)s is already linked to a user.", name=name))
    return player


FIRST_DIRECTOR_EXISTS = Text("The first director exists already: log in.")


def create_user(session: Session, username: str, password: str, role: str,
                player: str | None = None, first_director: bool = False) -> User:
    """A new user; BadInput (naming the field) for a taken name, an empty password, … The
    checks run before the insert, and the database's unique constraints decide a race (two
    requests creating one name, or linking one player, at once): the loser gets the same
    BadInput, never an IntegrityError."""
    name = clean_username(username)
    if role not in ROLES:
        raise BadInput("role", Text("The role is one of: %(roles)s.", roles=", ".join(ROLES)))
    check_password(password)
    if find_user(session, name) is not None:
        raise BadInput("username", Text("There is already a user %(name)s.", name=name))
    twins = look_alikes(name, session.scalars(select(User.username)))
    if twins:
        # a login name that reads as another's is an impersonation (issue 23.7): refused,
        # where a look-alike player name is only questioned (the new-game form)
        raise BadInput("username", Text("%(name)s looks like the existing user %(other)s: "
                                        "choose a name no one can take for another.",
                                        name=name, other=twins[0]))
    linked = _player(session, player)
    user = User(username=name, password_hash=hash_secret(password), role=Role(role),
                player_id=linked.id if linked else None, first_director=first_director or None)
    session.add(user)
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        if first_director and has_users(session):
            raise BadInput("username", FIRST_DIRECTOR_EXISTS) from None
        if find_user(session, name) is not None:
            raise BadInput("username", Text("There is already a user %(name)s.", name=name)) from None
        _player(session, player)          # BadInput when another request linked the player
        raise
    return user


def create_first_director(session: Session, username: str, password: str) -> User:
    """The club's first user (only while there is none): one atomic step. Requests racing
    past the check all insert a row marked ``first_director``; the unique constraint keeps
    one, the others are told the first director exists (BadInput on ``username``)."""
    if has_users(session):
        raise BadInput("username", FIRST_DIRECTOR_EXISTS)
    return create_user(session, username, password, Role.DIRECTOR.value, first_director=True)


def end_sessions(session: Session, user: User) -> None:
    """Ends every session of `user` (each cookie carries the generation it was made in): one
    UPDATE that adds one, so two at once both count. The caller commits. API tokens are not
    sessions: they stay until revoked."""
    session.execute(update(User).where(User.id == user.id)
                    .values(session_generation=User.session_generation + 1)
                    .execution_options(synchronize_session=False))
    session.expire(user, ["session_generation"])


def log_out(session: Session, user: User) -> None:
    """Logging out: a copy of the session cookie (or any other) no longer logs in."""
    end_sessions(session, user)
    session.commit()


def set_password(session: Session, username: str, password: str) -> User:
    """A new password; it ends every session of the user and revokes their API tokens."""
    user = find_user(session, username)
    if user is None:
        raise BadInput("username", Text("There is no user %(name)s.", name=username))
    user.password_hash = hash_secret(check_password(password))
    end_sessions(session, user)
    revoke_all(session, user.id)
    session.commit()
    return user


def change_user(session: Session, user_id: int, role: str, password: str | None) -> User:
    """A director changes an account's role and, when one is given, its password; either
    change ends every session of that user (who logs in again), and a new password revokes
    their API tokens too (whoever knew the old one may have made one)."""
    user = session.get(User, user_id)
    if user is None:
        raise BadInput("username", Text("There is no such user."))
    if role not in ROLES:
        raise BadInput("role", Text("The role is one of: %(roles)s.", roles=", ".join(ROLES)))
    if user.role is Role.DIRECTOR and role != Role.DIRECTOR.value and _directors(session) <= 1:
        # the club would have nobody left to run it (issue 23.8)
        raise BadInput("role", Text("%(name)s is the club's last director: make another "
                                    "director first.", name=user.username))
    changed = bool(password) or user.role is not Role(role)
    if password:
        user.password_hash = hash_secret(check_password(password))
        revoke_all(session, user.id)
    user.role = Role(role)
    if changed:
        end_sessions(session, user)
    session.commit()
    return user


def user_for_session(session: Session, session_id: str) -> User | None:
    """The user of a session cookie's id ``"<id>:<generation>"`` while that generation is the
    user's (an ended session, or a cookie from before generations, is nobody)."""
    parsed = parse_session_id(session_id)
    if parsed is None:
        return None
    user = session.get(User, parsed[0])
    return user if user is not None and user.session_generation == parsed[1] else None


def parse_session_id(session_id: str) -> tuple[int, int] | None:
    """(user id, generation) of a session cookie's id ``"<id>:<generation>"``; None for
    anything else."""
    user_id, sep, generation = session_id.partition(":")
    if not (sep and user_id.isdigit() and generation.isdigit()):
        return None
    return int(user_id), int(generation)


@functools.cache
def _generation_statement() -> Any:
    return select(User.session_generation).where(User.id == bindparam("user_id", type_=Integer))


def session_generation(session: Session, user_id: int) -> int | None:
    """The session generation of user ``user_id`` (None: no such user), without loading the
    user: what a read for anyone logged in checks (app.accounts.auth.login_only_guard)."""
    found = session.execute(_generation_statement(), {"user_id": user_id}).scalar()
    return None if found is None else int(found)


def _directors(session: Session) -> int:
    return int(session.scalar(select(func.count()).select_from(User)
                              .where(User.role == Role.DIRECTOR)) or 0)


def authenticate(session: Session, username: str, password: str) -> User | None:
    user = find_user(session, (username or "").strip())
    if user is None:
        if not _DUMMY_HASH:
            _DUMMY_HASH.append(hash_secret("not a password"))
        check_secret(_DUMMY_HASH[0], password or "")
        return None
    return user if check_secret(user.password_hash, password or "") else None


# --- who may change which game ---------------------------------------------------------

@dataclass(frozen=True)
class Access:
    """What the current user may do with one game."""

    can_score: bool      # change it (hands, rulings, deletions, links)
    director: bool       # may correct a confirmed (locked) sheet, giving a reason


def scorer_ids(session: Session, game_id: int) -> list[int]:
    return list(session.scalars(select(GameScorer.user_id).where(GameScorer.game_id == game_id)).all())


def can_score(session: Session, user: User | None, game_id: int) -> bool:
    """Directors change every game; a scorer only the games they are a scorer of (created
    or handed); a player none. Both must hold, the role *and* the game: a scorer demoted to
    player keeps nothing of the games they scored. Games from before accounts have no
    scorer: directors only."""
    if user is None:
        return False
    if user.role is Role.DIRECTOR:
        return True
    if user.role is not Role.SCORER:
        return False
    return bool(session.scalar(select(exists().where(GameScorer.game_id == game_id,
                                                     GameScorer.user_id == user.id))))


def may_keep_score(user: User) -> bool:
    """Whether the user's role keeps score at all (a player's does not)."""
    return user.role in (Role.DIRECTOR, Role.SCORER)


def add_scorer(session: Session, game_id: int, user_id: int) -> None:
    if session.get(GameScorer, (game_id, user_id)) is None:
        session.add(GameScorer(game_id=game_id, user_id=user_id))
