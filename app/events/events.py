"""Events (issue 25): a club night or a tournament of rounds, each round's tables drawn by
:mod:`app.rules.club.seating` and each table an ordinary game (``services.games.start_game``:
its scorer, live sheet, confirmation, lock and corrections are the games' own).

Every function here that writes owns its transaction: creating an event draws round 1
and creates its games in one commit; drawing a round is refused while a table of the
round before is not locked, unless forced with a reason (kept in the event's log).
"""
from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.collation import folded_name
from app.errors import BadInput, Text
from app.events.scoreboard import TableStatus, names_of, standings
from app.games.games import start_game
from app.games.queries import refuse_look_alikes
from app.games.records import checked_record
from app.games.table.confirm import clean_pin, hash_pin, latest_confirmations, locked_by
from app.models import (
    Event,
    EventLogEntry,
    EventPlayer,
    EventRound,
    EventTable,
    Player,
    Season,
    SeatPin,
)
from app.rules import RecordError, get_profile
from app.rules.club import seating as draws
from app.rules.limits import check_name, has_visible_text, invisible_character
from app.stats.results import player_ids_for

SEATINGS = draws.METHODS
SCORINGS = ("points", "ranking")
SIT_OUTS = ("nothing", "average")
DEFAULT_RANKING = (4, 2, 1, 0)
NAME_MAX = 80
REASON_MAX = 300
MAX_ROUNDS = 30
MAX_PLAYERS = 400


class RoundOpen(Exception):
    """A table of the current round is not locked yet: the next round waits (or is forced)."""

    def __init__(self, open_tables: list[int]) -> None:
        super().__init__(f"tables {open_tables} are not locked")
        self.open_tables = open_tables
        # one table or several: the message lists the tables, it does not count them (in
        # Russian 21 tables listed are "Столы", where ngettext's count would say "Стол")
        tables = ", ".join(str(n) for n in open_tables)
        self.text = (Text("Table %(tables)s is not locked yet: draw the next round when every "
                          "table has confirmed its sheet, or force it giving a reason.", tables=tables)
                     if len(open_tables) == 1 else
                     Text("Tables %(tables)s are not locked yet: draw the next round when every "
                          "table has confirmed its sheet, or force it giving a reason.", tables=tables))


@dataclass
class EventSpec:
    """What a director fills in to create an event (plain values, checked here)."""

    name: str
    profile: str
    players: list[str]
    rounds: int
    day: date | None = None
    options: dict[str, str] = field(default_factory=dict)
    seating: str = "balanced"
    scoring: str = "points"
    ranking_points: list[float] = field(default_factory=lambda: list(DEFAULT_RANKING))
    sit_out: str = "nothing"
    season_id: int | None = None
    pins: dict[str, str] = field(default_factory=dict)   # a player's PIN for the night


# --- checking what was asked ----------------------------------------------------------------

def _clean_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise BadInput("name", Text("An event needs a name."))
    if len(name) > NAME_MAX or invisible_character(name) is not None:
        raise BadInput("name", Text("A name is plain text of at most %(n)s characters.", n=NAME_MAX))
    return name


def clean_player(raw: Any, fld: str) -> str:
    name = " ".join(str(raw or "").split())
    try:
        return check_name(name, fld) if name else ""
    except RecordError as e:
        raise BadInput(fld, e.message, cause=e) from None


def _clean_players(names: list[str]) -> list[str]:
    cleaned: list[str] = []
    for raw in names:
        name = clean_player(raw, "players")
        if not name:
            continue
        if name.casefold() in {n.casefold() for n in cleaned}:
            raise BadInput("players", Text("%(name)s is registered twice.", name=name))
        cleaned.append(name)
    if len(cleaned) < draws.TABLE:
        raise BadInput("players", Text("An event needs at least four players."))
    if len(cleaned) > MAX_PLAYERS:
        raise BadInput("players", Text("An event has at most %(n)s players.", n=MAX_PLAYERS))
    return cleaned


def roster_spelling(session: Session, names: Sequence[str]) -> dict[str, str]:
    """Each name as the roster spells it (issue 38: one roster): a name that differs from
    one roster name only in case, accents or spacing ("ines", "Ines" for "Inés") is that
    player; the stored spelling wins. A new name, or one matching several, is kept."""
    wanted = {folded_name(n) for n in names}
    found: dict[str, list[str]] = {}
    for stored, folded in session.execute(select(Player.name, Player.folded_name)
                                          .where(Player.folded_name.in_(wanted))):
        found.setdefault(folded, []).append(stored)
    out = {}
    for name in names:
        same = found.get(folded_name(name), [])
        out[name] = name if name in same or len(same) != 1 else same[0]
    return out


def _choice(value: str, allowed: tuple[str, ...], fld: str) -> str:
    if value not in allowed:
        raise BadInput(fld, Text("Choose one of: %(choices)s.", choices=", ".join(allowed)))
    return value


def _clean_ranking(points: list[float]) -> list[float]:
    if len(points) != draws.TABLE or any(not isinstance(p, int | float) or p < 0 or p > 1000
                                         for p in points):
        raise BadInput("ranking_points", Text("Four numbers, from first place to fourth."))
    if any(a < b for a, b in zip(points, points[1:], strict=False)):
        raise BadInput("ranking_points", Text("A place never earns more than the place before it."))
    return [int(p) if float(p).is_integer() else float(p) for p in points]


def _checked_options(profile: str, options: dict[str, str]) -> dict[str, Any]:
    """Every option of the profile, as a game created now stores them (RecordError named
    ``options``)."""
    prof = get_profile(profile)
    record = {"format": "kingsheet/1", "profile": prof.id, "options": dict(options),
              "players": ["a", "b", "c", "d"], prof.seat_key: 0, "hands": []}
    try:
        _record, result = checked_record(record)
    except RecordError as e:
        raise BadInput("options", e.message, cause=e) from None
    stored: dict[str, Any] = result.options.as_dict(result.profile)
    return stored


def _check_spec(session: Session, spec: EventSpec) -> None:
    spec.name = _clean_name(spec.name)
    try:
        spec.profile = get_profile(spec.profile).id
    except (KeyError, RecordError, ValueError):
        raise BadInput("profile", Text("There is no such game.")) from None
    spec.options = _checked_options(spec.profile, spec.options)
    typed = _clean_players(spec.players)
    spelled = roster_spelling(session, typed)
    spec.players = _clean_players([spelled[n] for n in typed])     # "Ines" and "Inés": twice
    spec.pins = {spelled.get(" ".join(k.split()), k): v for k, v in spec.pins.items()}
    refuse_look_alikes(session, spec.players, "players")
    if not isinstance(spec.rounds, int) or not 1 <= spec.rounds <= MAX_ROUNDS:
        raise BadInput("rounds", Text("From 1 to %(n)s rounds.", n=MAX_ROUNDS))
    _choice(spec.seating, SEATINGS, "seating")
    _choice(spec.scoring, SCORINGS, "scoring")
    _choice(spec.sit_out, SIT_OUTS, "sit_out")
    spec.ranking_points = _clean_ranking(spec.ranking_points)
    if spec.season_id is not None and session.get(Season, spec.season_id) is None:
        raise BadInput("season", Text("There is no such season."))


def _pin_hashes(spec: EventSpec) -> dict[str, str]:
    out = {}
    for name, pin in spec.pins.items():
        cleaned = clean_pin(pin, "pins")
        if cleaned is not None:
            out[" ".join(name.split())] = hash_pin(cleaned)
    return out


# --- creating and drawing -------------------------------------------------------------------

def new_seed() -> int:
    return secrets.randbits(62)


def create_event(session: Session, spec: EventSpec, *, who: str, user_id: int | None,
                 seed: int | None = None) -> Event:
    """The event, its players (new names join the roster) and round 1 drawn at random,
    with its games, in one transaction."""
    _check_spec(session, spec)
    pins = _pin_hashes(spec)
    event = Event(name=spec.name, day=spec.day or date.today(), profile=spec.profile,
                  options=spec.options, rounds=spec.rounds, seating=spec.seating,
                  scoring=spec.scoring, ranking_points=spec.ranking_points, sit_out=spec.sit_out,
                  season_id=spec.season_id, created_by=user_id)
    session.add(event)
    ids = player_ids_for(session, spec.players, {})
    for name, pid in zip(spec.players, ids, strict=True):
        event.entrants.append(EventPlayer(player_id=pid, joins=1, pin_hash=pins.get(name)))
    session.flush()
    _draw(session, event, who=who, user_id=user_id, seed=seed)
    session.commit()
    return event


def past_draws(session: Session, event: Event) -> list[draws.Draw]:
    """The rounds drawn so far as the seating module sees them: seats from the games (a
    swap shows), first dealers from their records."""
    out = []
    for rnd in event.drawn:
        tables = []
        for t in rnd.tables:
            seats = tuple(s.player_id for s in sorted(t.game.seats, key=lambda s: s.seat))
            key = get_profile(t.game.profile).seat_key
            tables.append(draws.Table(seats, int(t.game.record[key])))
        out.append(draws.Draw(tuple(tables), tuple(rnd.sitting_out)))
    return out


def present_for(event: Event, number: int) -> list[int]:
    return [e.player_id for e in event.entrants
            if e.joins <= number and (e.leaves is None or number < e.leaves)]


def _draw(session: Session, event: Event, *, who: str, user_id: int | None, seed: int | None,
          reason: str | None = None) -> EventRound:
    number = len(event.drawn) + 1
    method = "random" if number == 1 else event.seating
    seed = new_seed() if seed is None else seed
    order = [r.player_id for r in standings(session, event).rows] if method == "swiss" else []
    drawn = draws.draw_round(present_for(event, number), past_draws(session, event), method, seed, order)
    rnd = EventRound(number=number, seed=seed, method=method, sitting_out=list(drawn.sitting_out),
                     forced_reason=reason)
    event.drawn.append(rnd)
    names = names_of(session, list(drawn.seated()))
    pins = night_pins(event)
    for n, table in enumerate(drawn.tables, start=1):
        game = start_game(session, profile=event.profile, players=[names[p] for p in table.seats],
                          first_seat=table.first_dealer, options=event.options, who=who,
                          scorer_id=user_id, commit=False)
        seat_pins(session, pins, game.id, table.seats)
        rnd.tables.append(EventTable(number=n, game_id=game.id))
    session.add(EventLogEntry(event_id=event.id, who=who, action="draw", round_number=number,
                              reason=reason, detail={"seed": seed, "method": method}))
    session.flush()
    return rnd


def open_tables(session: Session, rnd: EventRound) -> list[int]:
    """The numbers of the round's tables whose sheet is not locked."""
    latest = latest_confirmations(session, [t.game_id for t in rnd.tables])
    return [t.number for t in rnd.tables if not locked_by(t.game, latest[t.game_id])]


def clean_reason(reason: str | None) -> str:
    reason = " ".join((reason or "").split())[:REASON_MAX]
    if not has_visible_text(reason):
        raise BadInput("reason", Text("Give a reason to draw the round before every table is locked."))
    return reason


def draw_next_round(session: Session, event: Event, *, who: str, user_id: int | None,
                    force: bool = False, reason: str | None = None, seed: int | None = None) -> EventRound:
    """Round n+1: RoundOpen while a table of round n is not locked, unless ``force`` with a
    reason (the log keeps it). BadInput when every planned round is drawn. Two draws at once
    are made one after the other: the second sees the round the first drew (RoundOpen)."""
    _hold_event(session, event)
    try:
        if len(event.drawn) >= event.rounds:
            raise BadInput("round", Text("All %(n)s rounds of this event are drawn.", n=event.rounds))
        waiting = open_tables(session, event.drawn[-1]) if event.drawn else []
        kept: str | None = None
        if waiting:
            if not force:
                raise RoundOpen(waiting)
            kept = clean_reason(reason)
    except (BadInput, RoundOpen):
        session.rollback()          # the event's hold ends with the refusal
        raise
    rnd = _draw(session, event, who=who, user_id=user_id, seed=seed, reason=kept)
    session.commit()
    return rnd


def _hold_event(session: Session, event: Event) -> None:
    """Holds the event until the commit and reads it again as it is now: two directors'
    draws at once gave the loser a 500 on the round's unique number (issue 38). The write
    that changes nothing takes the event row's lock on PostgreSQL and the database's on
    SQLite (as throttle.pin_try does for a seat)."""
    session.execute(update(Event).where(Event.id == event.id).values(id=Event.id))
    session.expire(event)


# --- changes before a round starts ----------------------------------------------------------

def night_pins(event: Event) -> dict[int, str | None]:
    """Each player's PIN for the night (hashed), by player id."""
    return {e.player_id: e.pin_hash for e in event.entrants}


def seat_pins(session: Session, pins: dict[int, str | None], game_id: int, seats: Sequence[int]) -> None:
    """A table's seat PINs are its players' PINs for the night (``pins``): each seat gets the
    PIN of the player sitting there (a seat whose player has none, none), at the draw and
    after every swap -- a PIN belongs to the player, never to the seat."""
    for seat, player_id in enumerate(seats):
        stored = session.get(SeatPin, (game_id, seat))
        wanted = pins.get(player_id)
        if wanted is None and stored is not None:
            session.delete(stored)
        elif wanted is not None and stored is None:
            session.add(SeatPin(game_id=game_id, seat=seat, pin_hash=wanted))
        elif wanted is not None and stored is not None and stored.pin_hash != wanted:
            stored.pin_hash, stored.failures, stored.wait_until = wanted, 0, None


#: An event's life (issue 38): running until its last planned round is drawn and every table
#: of it is locked (its four seats confirmed the sheet), then finished.
STATUSES = ("running", "finished")


def event_status(event: Event, last_round: Sequence[TableStatus]) -> str:
    """``finished`` once every planned round is drawn and the last one's tables are all
    locked (``last_round``: :func:`round_tables` of the last round drawn), else ``running``."""
    done = len(event.drawn) >= event.rounds and bool(last_round) and all(t.locked for t in last_round)
    return STATUSES[1] if done else STATUSES[0]


def share_token(session: Session, event: Event) -> str:
    """The results screen's link token (made now if the event has none)."""
    if event.share_token is None:
        event.share_token = secrets.token_urlsafe(24)
        session.commit()
    return event.share_token


def event_for_token(session: Session, event_id: int, token: str | None) -> Event | None:
    if not token or len(token) > 64:
        return None
    return session.scalars(select(Event).where(Event.id == event_id, Event.share_token == token)).first()


# --- reading: tables and standings ----------------------------------------------------------


# --- reading: lists and the live check ------------------------------------------------------


# --- the event's PDF: the standings first, then every table's sheet ----------------------------


