"""One roster (issue 38): a director renames a player, or merges two players who are one
person ("koldo" created by mistake beside "Koldo").

The games' records are the truth, and a record names its players: a rename writes the new
name into every record the player sits in (the next save of an old game would otherwise
find the old name and create that player again), a merge writes the kept player's name and
moves the seats. Each game so changed gets a log entry (who, when, the old and the new
name) and a new version -- its pages and ETags show the new name at once -- but no score
changes: each seat's confirmation of the old version is carried over to the new one, so a
locked sheet stays locked. Everything derived (stored results, sums, ratings) follows in
:func:`app.stats.projections.games_changed`; a merged player's leftover derived rows go
with the player (their foreign keys cascade).
"""
from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from app.collation import by_name, folded_name
from app.errors import BadInput, Text
from app.games.queries import refuse_look_alikes
from app.games.records import checked_record, status_of
from app.games.table.confirm import latest_confirmations
from app.models import (
    AuditAction,
    AuditEntry,
    Confirmation,
    Event,
    EventPlayer,
    EventRound,
    Game,
    Player,
    Seat,
    User,
)
from app.rules import RecordError
from app.rules.limits import check_name
from app.stats.projections import facts_of, games_changed


@dataclass(frozen=True)
class RosterChange:
    """What a rename or a merge did: the player kept and the games rewritten."""

    player_id: int
    name: str
    games: int


def _player(session: Session, player_id: int, fld: str) -> Player:
    found = session.get(Player, player_id)
    if found is None:
        raise BadInput(fld, Text("There is no such player."))
    return found


def clean_new_name(session: Session, player: Player, raw: Any) -> str:
    """The new name of ``player`` as the roster will store it, or BadInput naming ``name``:
    empty, not plain text, a look-alike of another roster name, or another player's name
    (the same but for case, accents or spacing: merge them instead)."""
    name = " ".join(str(raw or "").split())
    if not name:
        raise BadInput("name", Text("Write the player's new name."))
    try:
        name = check_name(name, "name")
    except RecordError as e:
        raise BadInput("name", e.message, cause=e) from None
    folded = folded_name(name)
    for other in session.scalars(select(Player.name).where(Player.folded_name == folded,
                                                           Player.id != player.id)):
        raise BadInput("name", Text("%(name)s is already on the roster: if they are the same person, "
                                    "merge the two players instead.", name=other))
    refuse_look_alikes(session, [name], "name", but=player.id)
    if name == player.name:
        raise BadInput("name", Text("That is the player's name already."))
    return name


def others(session: Session, player_id: int) -> list[tuple[int, str]]:
    """(id, name) of every roster player but ``player_id``, by name: whom it may merge into."""
    rows = session.execute(select(Player.id, Player.name).where(Player.id != player_id)).all()
    return by_name([(int(pid), str(name)) for pid, name in rows], lambda row: row[1])


def namesake(session: Session, player_id: int) -> int | None:
    """Another roster player whose name is this one's but for case, accents or spacing
    ("koldo" beside "Koldo", from before names were matched so): the likely merge."""
    player = session.get(Player, player_id)
    if player is None:
        return None
    return session.scalar(select(Player.id).where(Player.folded_name == player.folded_name,
                                                  Player.id != player_id).order_by(Player.id).limit(1))


def _games_of(session: Session, player_id: int) -> list[Game]:
    return list(session.scalars(select(Game).join(Seat, Seat.game_id == Game.id)
                                .where(Seat.player_id == player_id).order_by(Game.id)))


def _rewrite(session: Session, games: list[Game], player_id: int, into_id: int, new_name: str,
             action: AuditAction, who: str) -> None:
    """Every game of ``games`` with the seat of ``player_id`` now ``into_id`` named
    ``new_name``: the record, the seat, a log entry, a new version with the confirmations of
    the old one carried over; then the projectors."""
    latest = latest_confirmations(session, [g.id for g in games])
    results: list[Any] = []
    for game in games:
        seat = next(s for s in game.seats if s.player_id == player_id)
        players = list(game.record["players"])
        old_name = players[seat.seat]
        players[seat.seat] = new_name
        record = {**copy.deepcopy(game.record), "players": players}
        result = None
        with contextlib.suppress(RecordError):   # a stored record that does not replay keeps so
            record, result = checked_record(record, keep=True)
        old_version = game.version
        game.record = record
        if result is not None:
            game.status = status_of(result)
        seat.player_id = into_id
        session.add(AuditEntry(game=game, who=who, action=action,
                               before={"seat": seat.seat, "player": old_name},
                               after={"seat": seat.seat, "player": new_name}, version=old_version + 1))
        for c in latest[game.id].values():
            if c.version == old_version:        # no score changed: what was confirmed still is
                session.add(Confirmation(game_id=game.id, seat=c.seat, version=old_version + 1,
                                         n_rows=c.n_rows, method=c.method, user_id=c.user_id, at=c.at))
        results.append(result)
    session.flush()
    if games:
        games_changed(session, [facts_of(g, r) for g, r in zip(games, results, strict=True)])


@contextmanager
def _raced(session: Session, fld: str, taken: Text) -> Iterator[None]:
    """A write that lost a race refused as input, nothing written: a game of the player saved
    meanwhile (its version moved on), or the name taken meanwhile (the unique constraint)."""
    try:
        yield
    except StaleDataError:
        session.rollback()
        raise BadInput(fld, Text("A game of this player changed meanwhile: try again.")) from None
    except IntegrityError:
        session.rollback()
        raise BadInput(fld, taken) from None


def rename_player(session: Session, player_id: int, new_name: Any, *, who: str) -> RosterChange:
    """Renames a player everywhere (committed). BadInput (``name``) for a refused name."""
    player = _player(session, player_id, "name")
    name = clean_new_name(session, player, new_name)
    taken = Text("%(name)s is already on the roster: if they are the same person, merge the two "
                 "players instead.", name=name)
    with _raced(session, "name", taken):
        games = _games_of(session, player.id)
        player.name = name
        player.folded_name = folded_name(name)
        session.flush()
        _rewrite(session, games, player.id, player.id, name, AuditAction.RENAME, who)
        session.commit()
    return RosterChange(player.id, name, len(games))


def _check_merge(session: Session, gone: Player, kept: Player) -> None:
    if gone.id == kept.id:
        raise BadInput("into", Text("Choose another player to merge into."))
    both = select(Seat.game_id).where(Seat.player_id == gone.id).intersect(
        select(Seat.game_id).where(Seat.player_id == kept.id))
    shared = session.scalar(select(func.min(both.subquery().c.game_id)))
    if shared is not None:
        raise BadInput("into", Text("%(a)s and %(b)s both sat at game #%(game)s: one game cannot have "
                                    "the same player twice, so they are two people.",
                                    a=gone.name, b=kept.name, game=shared))
    event = session.scalar(select(Event.name).join(EventPlayer, EventPlayer.event_id == Event.id)
                           .where(EventPlayer.player_id == gone.id,
                                  EventPlayer.event_id.in_(select(EventPlayer.event_id)
                                                           .where(EventPlayer.player_id == kept.id)))
                           .limit(1))
    if event is not None:
        raise BadInput("into", Text("%(a)s and %(b)s are both registered in the event %(event)s: "
                                    "they are two people.", a=gone.name, b=kept.name, event=event))
    accounts = session.scalar(select(func.count()).select_from(User)
                              .where(User.player_id.in_([gone.id, kept.id])))
    if accounts == 2:
        raise BadInput("into", Text("%(a)s and %(b)s each have a user account: unlink one of them "
                                    "first.", a=gone.name, b=kept.name))


def check_merge(session: Session, player_id: int, into_id: int) -> RosterChange:
    """What merging ``player_id`` into ``into_id`` would do (the player kept, the games that
    move), or the BadInput the merge would raise; nothing is written."""
    gone = _player(session, player_id, "player")
    kept = _player(session, into_id, "into")
    _check_merge(session, gone, kept)
    moved = session.scalar(select(func.count()).select_from(Seat).where(Seat.player_id == gone.id))
    return RosterChange(kept.id, kept.name, int(moved or 0))


def merge_players(session: Session, player_id: int, into_id: int, *, who: str) -> RosterChange:
    """Merges player ``player_id`` into ``into_id`` (committed): every seat, event entry,
    result, sum and rating of the first goes to the second, and the first is removed.
    BadInput (``into``) when they cannot be one person (a game or an event with both)."""
    gone = _player(session, player_id, "player")
    kept = _player(session, into_id, "into")
    _check_merge(session, gone, kept)
    kept_name = kept.name
    refused = Text("%(a)s and %(b)s cannot be merged now: try again.", a=gone.name, b=kept_name)
    with _raced(session, "into", refused):
        games = _games_of(session, gone.id)
        _rewrite(session, games, gone.id, kept.id, kept.name, AuditAction.MERGE, who)
        entered = select(EventPlayer.event_id).where(EventPlayer.player_id == gone.id)
        for rnd in session.scalars(select(EventRound).where(EventRound.event_id.in_(entered))):
            if gone.id in rnd.sitting_out:
                rnd.sitting_out = [kept.id if p == gone.id else p for p in rnd.sitting_out]
        session.execute(update(EventPlayer).where(EventPlayer.player_id == gone.id)
                        .values(player_id=kept.id))
        session.execute(update(User).where(User.player_id == gone.id).values(player_id=kept.id))
        session.flush()
        # what the projectors left of the merged player (sums and ratings at nothing) goes with it
        session.execute(delete(Player).where(Player.id == gone.id))
        session.expunge(gone)
        session.commit()
    return RosterChange(into_id, kept_name, len(games))
