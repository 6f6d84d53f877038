"""Changes to a running event before a round starts (issue 38): two players swap seats, a late
arrival joins, a player withdraws; the tables' seats, PINs and records follow."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.errors import BadInput, Text
from app.events.events import clean_player, night_pins, past_draws, present_for, roster_spelling, seat_pins
from app.events.scoreboard import names_of
from app.games.queries import refuse_look_alikes
from app.games.records import checked_record, status_of
from app.games.table.confirm import clean_pin, hash_pin
from app.models import (
    AuditAction,
    AuditEntry,
    Event,
    EventLogEntry,
    EventPlayer,
    EventRound,
    Game,
    Player,
)
from app.rules.club import seating as draws
from app.stats.projections import game_changed
from app.stats.results import player_ids_for


def _started(rnd: EventRound) -> bool:
    return any(t.game.record.get("hands") for t in rnd.tables)


def _player_id(session: Session, event: Event, name: str, fld: str) -> int:
    pid = session.scalar(select(Player.id).where(Player.name == " ".join((name or "").split())))
    if pid is None or pid not in {e.player_id for e in event.entrants}:
        raise BadInput(fld, Text("%(name)s is not a player of this event.", name=name))
    return pid


def swap_players(session: Session, event: Event, first: str, second: str, *, who: str) -> None:
    """Exchanges two players of the current round (seat for seat, or one sitting out for
    one seated) while no table of it has a hand; each changed game is saved with the new
    seats (its change log shows it) and the event's log names the swap."""
    rnd = event.drawn[-1]
    if _started(rnd):
        raise BadInput("round", Text("This round has started: seats can be swapped only before "
                                     "the first hand of every table is saved."))
    a, b = _player_id(session, event, first, "first"), _player_id(session, event, second, "second")
    if a == b:
        raise BadInput("second", Text("Choose two different players."))
    before = past_draws(session, event)[-1]
    if a not in {*before.seated(), *before.sitting_out} or b not in {*before.seated(), *before.sitting_out}:
        raise BadInput("second", Text("Both players must be in this round."))
    after = draws.swap(before, a, b)
    names = names_of(session, [a, b])
    for t, old, new in zip(rnd.tables, before.tables, after.tables, strict=True):
        if old.seats != new.seats:
            _reseat(session, t.game, new.seats, names, who)
            seat_pins(session, night_pins(event), t.game_id, new.seats)
    rnd.sitting_out = list(after.sitting_out)
    session.add(EventLogEntry(event_id=event.id, who=who, action="swap", round_number=rnd.number,
                              detail={"players": [names[a], names[b]]}))
    session.commit()


def _reseat(session: Session, game: Game, seats: tuple[int, ...], names: dict[int, str], who: str) -> None:
    old_record = dict(game.record)
    players = list(old_record["players"])
    for s, (seat_row, pid) in enumerate(zip(sorted(game.seats, key=lambda r: r.seat), seats, strict=True)):
        if seat_row.player_id != pid:
            seat_row.player_id = pid
            players[s] = names[pid]
    record, result = checked_record({**old_record, "players": players}, keep=True)
    game.record = record
    game.status = status_of(result)
    session.add(AuditEntry(game=game, who=who, action=AuditAction.CREATE, before=old_record,
                           after=record, version=game.version + 1))
    session.flush()
    game_changed(session, game, result)


def add_late_player(session: Session, event: Event, name: str, *, who: str, pin: str | None = None) -> int:
    """A late arrival: registered now, drawn from the next round on. Returns the round."""
    cleaned = clean_player(name, "name")
    if not cleaned:
        raise BadInput("name", Text("Write the player's name."))
    cleaned = roster_spelling(session, [cleaned])[cleaned]
    refuse_look_alikes(session, [cleaned], "name")
    if len(event.drawn) >= event.rounds:
        raise BadInput("name", Text("Every round of this event is drawn already."))
    pid = player_ids_for(session, [cleaned], {})[0]
    if pid in {e.player_id for e in event.entrants}:
        raise BadInput("name", Text("%(name)s is registered already.", name=cleaned))
    joins = len(event.drawn) + 1
    pin_clean = clean_pin(pin, "pin")
    event.entrants.append(EventPlayer(player_id=pid, joins=joins,
                                      pin_hash=hash_pin(pin_clean) if pin_clean else None))
    session.add(EventLogEntry(event_id=event.id, who=who, action="late", round_number=joins,
                              detail={"player": cleaned}))
    session.commit()
    return joins


def withdraw_player(session: Session, event: Event, name: str, *, who: str) -> int:
    """A player leaves the event: not drawn from the next round on (the round being played
    keeps their seat; their results stay in the standings, their PIN with them). Returns
    the first round they miss."""
    pid = _player_id(session, event, name, "player")
    leaves = len(event.drawn) + 1
    if leaves > event.rounds:
        raise BadInput("player", Text("Every round of this event is drawn already."))
    entrant = next(e for e in event.entrants if e.player_id == pid)
    if entrant.leaves is not None:
        raise BadInput("player", Text("%(name)s has withdrawn already.", name=name))
    if len(present_for(event, leaves)) <= 4:
        raise BadInput("player", Text("A round needs at least four players: nobody can withdraw now."))
    entrant.leaves = leaves
    session.add(EventLogEntry(event_id=event.id, who=who, action="withdraw", round_number=leaves,
                              detail={"player": names_of(session, [pid])[pid]}))
    session.commit()
    return leaves
