"""Events (issue 25): a club night or a tournament of rounds, each round's tables drawn by
:mod:`app.rules.seating` and each table an ordinary game (``services.games.start_game``:
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
from fractions import Fraction
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, defer, load_only, selectinload

from app.collation import folded_name
from app.errors import BadInput, Text
from app.games.games import start_game
from app.games.queries import refuse_look_alikes, top_scorers
from app.games.records import checked_record, status_of
from app.games.table.confirm import clean_pin, hash_pin, latest_confirmations, locked_by
from app.models import (
    AuditAction,
    AuditEntry,
    Confirmation,
    DirectorCall,
    Event,
    EventLogEntry,
    EventPlayer,
    EventRound,
    EventTable,
    Game,
    Player,
    Season,
    Seat,
    SeatPin,
    StoredResult,
)
from app.rules import RecordError, get_profile
from app.rules import seating as draws
from app.rules.limits import check_name, has_visible_text, invisible_character
from app.stats.projections import game_changed
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


def _clean_player(raw: Any, fld: str) -> str:
    name = " ".join(str(raw or "").split())
    try:
        return check_name(name, fld) if name else ""
    except RecordError as e:
        raise BadInput(fld, e.message, cause=e) from None


def _clean_players(names: list[str]) -> list[str]:
    cleaned: list[str] = []
    for raw in names:
        name = _clean_player(raw, "players")
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


def names_of(session: Session, ids: list[int]) -> dict[int, str]:
    """Roster names by player id."""
    return dict(session.execute(select(Player.id, Player.name).where(Player.id.in_(ids))).all())


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
    pins = _night_pins(event)
    for n, table in enumerate(drawn.tables, start=1):
        game = start_game(session, profile=event.profile, players=[names[p] for p in table.seats],
                          first_seat=table.first_dealer, options=event.options, who=who,
                          scorer_id=user_id, commit=False)
        _seat_pins(session, pins, game.id, table.seats)
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

def _night_pins(event: Event) -> dict[int, str | None]:
    """Each player's PIN for the night (hashed), by player id."""
    return {e.player_id: e.pin_hash for e in event.entrants}


def _seat_pins(session: Session, pins: dict[int, str | None], game_id: int, seats: Sequence[int]) -> None:
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
            _seat_pins(session, _night_pins(event), t.game_id, new.seats)
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
    cleaned = _clean_player(name, "name")
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

@dataclass(frozen=True)
class TableStatus:
    number: int
    game_id: int
    players: list[str]
    player_ids: list[int]
    hands: int
    n_hands: int
    complete: bool
    totals: list[int] | None
    leaders: list[int]
    confirmed: list[int]        # seats whose confirmation is of the sheet as it stands
    locked: bool
    violations: int
    conflict: bool              # a seat confirmed an earlier sheet: the table must confirm again
    broken: bool
    last_change: Any
    last_by: str | None
    version: int


def _last_changes(session: Session, game_ids: list[int]) -> dict[int, tuple[Any, str]]:
    last = (select(AuditEntry.game_id, func.max(AuditEntry.id).label("id"))
            .where(AuditEntry.game_id.in_(game_ids),    # a call changes no sheet
                   AuditEntry.action.not_in((AuditAction.CALL, AuditAction.ANSWER)))
            .group_by(AuditEntry.game_id).subquery())
    rows = session.execute(select(AuditEntry.game_id, AuditEntry.at, AuditEntry.who)
                           .join(last, last.c.id == AuditEntry.id)).all()
    return {gid: (at, who) for gid, at, who in rows}


def round_tables(session: Session, rnd: EventRound) -> list[TableStatus]:
    """Every table of a round as the director's view shows it (a few queries in all)."""
    ids = [t.game_id for t in rnd.tables]
    # the round's games and their seats in two statements (not two per table): each
    # table's ``t.game`` then finds its game already loaded
    games = {g.id: g for g in session.scalars(
        select(Game).where(Game.id.in_(ids)).options(defer(Game.record), selectinload(Game.seats)))}
    # the names only, not every record whole (a hundred tables' records, tricks and all,
    # were most of the results screen's time)
    names = {gid: players for gid, players in session.execute(
        select(Game.id, Game.record["players"]).where(Game.id.in_(ids)))}
    stored = {r.game_id: r for r in session.scalars(
        select(StoredResult).where(StoredResult.game_id.in_(ids)).options(load_only(
            StoredResult.totals, StoredResult.error, StoredResult.n_rows, StoredResult.complete,
            StoredResult.violations)))}
    latest = latest_confirmations(session, ids)
    changes = _last_changes(session, ids)
    return [_table_status(t, games[t.game_id], stored.get(t.game_id), latest[t.game_id],
                          names[t.game_id], changes) for t in rnd.tables]


def _table_status(t: EventTable, game: Game, row: StoredResult | None,
                  seen: dict[int, Confirmation], players: Any,
                  changes: dict[int, tuple[Any, str]]) -> TableStatus:
    """One table as the director's view shows it: its game, stored result (None when not
    stored), latest confirmations per seat, players' names and the last audited change."""
    broken = row is None or row.error is not None
    totals = None if broken or row is None else list(row.totals)
    at, by = changes.get(t.game_id, (game.updated_at, None))
    hands, complete, violations = _stored_figures(game, row)
    return TableStatus(
        number=t.number, game_id=game.id, players=list(players),
        player_ids=[s.player_id for s in sorted(game.seats, key=lambda s: s.seat)],
        hands=hands, n_hands=get_profile(game.profile).n_hands,
        complete=complete, totals=totals,
        leaders=top_scorers(totals) if totals and hands else [],
        confirmed=sorted(s for s, c in seen.items() if c.version == game.version),
        locked=locked_by(game, seen), violations=violations,
        conflict=any(c.version != game.version for c in seen.values()), broken=broken,
        last_change=at, last_by=by, version=game.version)


def _stored_figures(game: Game, row: StoredResult | None) -> tuple[int, bool, int]:
    """Hands scored, complete, violations: from the stored result (hands entered and none
    of the rest without one)."""
    if row is None:
        return len(game.hands), False, 0
    return row.n_rows, bool(row.complete), row.violations


@dataclass(frozen=True)
class RoundSummary:
    """One round drawn, as the event page's history shows it (issue 38: the event keeps
    every round): its tables, who sat out, why it was forced (None: it was not)."""

    number: int
    tables: list[TableStatus]
    sitting_out: list[str]
    forced_reason: str | None

    @property
    def locked(self) -> int:
        return sum(1 for t in self.tables if t.locked)


def round_history(session: Session, event: Event, *, earlier: bool = False) -> list[RoundSummary]:
    """Every round drawn, first to last (a few statements a round, none a table); with
    ``earlier``, every round but the last (the event page shows the last one in full above
    them: at 100 tables, drawing it twice was a sixth of the page)."""
    rounds = event.drawn[:-1] if earlier else event.drawn
    out = [p for rnd in rounds for p in rnd.sitting_out]
    names = names_of(session, out) if out else {}
    return [RoundSummary(rnd.number, round_tables(session, rnd), [names[p] for p in rnd.sitting_out],
                         rnd.forced_reason)
            for rnd in rounds]


TIE_BREAK = {
    "points": Text("Ties: most tables won, then the best single game."),
    "ranking": Text("Ties: most game points, then most tables won."),
}


@dataclass
class StandingRow:
    player_id: int
    name: str
    rounds: list[Any]           # per round: a number, or None (absent)
    sat_out: list[bool]
    total: Any = 0
    points: int = 0             # the games' points summed (ranking: the first tie-break)
    wins: Any = 0               # tables won (a shared first place counts its share)
    best: int | None = None     # the best single game
    rank: int = 0


@dataclass
class Standings:
    scoring: str
    rounds: int
    rows: list[StandingRow]
    tie_break: Text


def _number(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else round(float(x), 2)


def place_points(totals: list[int], points: Sequence[float | Fraction]) -> list[Fraction]:
    """Ranking points by place at one table, tied places sharing their points equally."""
    exact = [p if isinstance(p, Fraction) else Fraction(p) for p in points]
    out = [Fraction(0)] * len(totals)
    order = sorted(range(len(totals)), key=lambda s: -totals[s])
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and totals[order[j]] == totals[order[i]]:
            j += 1
        # a place of its own keeps its points as they are (no arithmetic: the common case)
        share = exact[i] if j - i == 1 else sum(exact[i:j], Fraction(0)) / (j - i)
        for k in range(i, j):
            out[order[k]] = share
        i = j
    return out


#: The points of a table's winner (a shared first place splits them): tables won.
_WIN = (Fraction(1), Fraction(0), Fraction(0), Fraction(0))


def _table_rows(session: Session, event: Event) -> list[tuple[int, list[int], list[int]]]:
    """(round number, seat player ids, totals) of every table of the event whose record
    replays, from the stored results (no replay)."""
    rows = session.execute(
        select(EventRound.number, EventTable.game_id, StoredResult.totals, StoredResult.error)
        .join(EventTable, EventTable.round_id == EventRound.id)
        .join(StoredResult, StoredResult.game_id == EventTable.game_id)
        .where(EventRound.event_id == event.id, StoredResult.n_rows > 0)).all()   # not begun: no score
    seats: dict[int, list[int]] = {}
    for gid, _seat, pid in session.execute(select(Seat.game_id, Seat.seat, Seat.player_id).where(
            Seat.game_id.in_([r[1] for r in rows])).order_by(Seat.game_id, Seat.seat)):
        seats.setdefault(gid, []).append(pid)
    return [(n, seats[gid], list(totals)) for n, gid, totals, error in rows if error is None]


def standings(session: Session, event: Event) -> Standings:
    """Per round and overall, after every table's last saved hand. ``points``: each player's
    game totals; ``ranking``: the event's points by place at each table, ties split. A
    sit-out scores nothing or the average of the round (the event's setting)."""
    names = names_of(session, [e.player_id for e in event.entrants])
    n_rounds = len(event.drawn)
    rows = {e.player_id: StandingRow(e.player_id, names[e.player_id], [None] * n_rounds, [False] * n_rounds)
            for e in event.entrants}
    scores: dict[int, dict[int, Fraction]] = {}
    ranking = [Fraction(p) for p in event.ranking_points]
    for number, pids, totals in _table_rows(session, event):
        won = place_points(totals, _WIN)
        earned = (place_points(totals, ranking) if event.scoring == "ranking"
                  else [Fraction(t) for t in totals])
        for s, pid in enumerate(pids):
            if pid not in rows:
                continue
            row = rows[pid]
            scores.setdefault(number, {})[pid] = earned[s]
            row.points += totals[s]
            row.wins += won[s]
            row.best = totals[s] if row.best is None else max(row.best, totals[s])
    _fill_rounds(event, rows, scores)
    ranked = _ranked(list(rows.values()), event.scoring)
    return Standings(event.scoring, n_rounds, ranked, TIE_BREAK[event.scoring])


def _fill_rounds(event: Event, rows: dict[int, StandingRow], scores: dict[int, dict[int, Fraction]]) -> None:
    for rnd in event.drawn:
        _fill_round(event, rnd, rows, scores.get(rnd.number, {}))
    for row in rows.values():
        total = sum((x for x in row.rounds if x is not None), Fraction(0))
        row.total = _number(total)
        row.rounds = [None if x is None else _number(x) for x in row.rounds]
        row.wins = _number(Fraction(row.wins))


def _fill_round(event: Event, rnd: EventRound, rows: dict[int, StandingRow],
                played: dict[int, Fraction]) -> None:
    """One round's column: each player's score, a sit-out's (nothing or the round's average)."""
    average = sum(played.values(), Fraction(0)) / len(played) if played else Fraction(0)
    for pid, row in rows.items():
        i = rnd.number - 1
        if pid in played:
            row.rounds[i] = played[pid]
        elif pid in rnd.sitting_out:
            row.sat_out[i] = True
            row.rounds[i] = average if event.sit_out == "average" else Fraction(0)


def _key(row: StandingRow, scoring: str) -> tuple[Any, ...]:
    best = row.best if row.best is not None else -10**9
    if scoring == "ranking":
        return (row.total, row.points, row.wins)
    return (row.total, row.wins, best)


def _ranked(rows: list[StandingRow], scoring: str) -> list[StandingRow]:
    rows.sort(key=lambda r: (tuple(-x for x in _key(r, scoring)), r.name.casefold(), r.player_id))
    for i, row in enumerate(rows):
        same = i > 0 and _key(rows[i - 1], scoring) == _key(row, scoring)
        row.rank = rows[i - 1].rank if same else i + 1
    return rows


# --- reading: lists and the live check ------------------------------------------------------

def list_events(session: Session, limit: int = 100) -> list[Event]:
    return list(session.scalars(select(Event).order_by(Event.day.desc(), Event.id.desc()).limit(limit)))


def events_of_player(session: Session, player_id: int) -> list[Event]:
    """The events a player is registered in, newest first (their page lists them)."""
    return list(session.scalars(select(Event).join(EventPlayer, EventPlayer.event_id == Event.id)
                                .where(EventPlayer.player_id == player_id)
                                .order_by(Event.day.desc(), Event.id.desc())))


def event_stamp(session: Session, event_id: int) -> str | None:
    """What the director's view and the screen poll: changes whenever a game of the event
    is saved or confirmed, a round is drawn, the log grows, or a table calls the director
    or is answered (``d<calls and answers>``, once there is one; one statement)."""
    games = select(EventTable.game_id).join(EventRound, EventRound.id == EventTable.round_id).where(
        EventRound.event_id == event_id).scalar_subquery()
    versions = select(func.coalesce(func.sum(Game.version), 0)).where(Game.id.in_(games)).scalar_subquery()
    confirmed = select(func.count()).select_from(Confirmation).where(
        Confirmation.game_id.in_(games)).scalar_subquery()
    logged = select(func.count()).select_from(EventLogEntry).where(
        EventLogEntry.event_id == event_id).scalar_subquery()
    called = select(func.count() + func.count(DirectorCall.answered_at)).where(
        DirectorCall.game_id.in_(games)).scalar_subquery()
    row = session.execute(select(Event.id, versions, confirmed, logged, called)
                          .where(Event.id == event_id)).first()
    if row is None:
        return None
    return f"e{row[1]}c{row[2]}l{row[3]}" + (f"d{row[4]}" if row[4] else "")


def event_log(session: Session, event_id: int) -> list[EventLogEntry]:
    return list(session.scalars(select(EventLogEntry).where(EventLogEntry.event_id == event_id)
                                .order_by(EventLogEntry.id)))


# --- the event's PDF: the standings first, then every table's sheet ----------------------------

def event_game_ids(session: Session, event_id: int) -> list[int]:
    """The event's games, round by round, table by table (one query)."""
    stmt = (select(EventTable.game_id).join(EventRound, EventRound.id == EventTable.round_id)
            .where(EventRound.event_id == event_id).order_by(EventRound.number, EventTable.number))
    return list(session.scalars(stmt))


def table_labels(session: Session, event_id: int) -> dict[int, tuple[int, int]]:
    """(round, table) of each of the event's games."""
    rows = session.execute(select(EventTable.game_id, EventRound.number, EventTable.number)
                           .join(EventRound, EventRound.id == EventTable.round_id)
                           .where(EventRound.event_id == event_id)).all()
    return {gid: (r, t) for gid, r, t in rows}


def standings_doc(session: Session, event: Event) -> dict[str, Any]:
    """A plain doc of the event's standings (the PDF's first pages): no ORM object."""
    table = standings(session, event)
    return {"name": event.name, "day": event.day, "profile": event.profile, "scoring": event.scoring,
            "ranking_points": list(event.ranking_points), "sit_out": event.sit_out,
            "rounds": table.rounds, "planned": event.rounds, "players": len(table.rows),
            "tables": sum(len(r.tables) for r in event.drawn), "tie_break": table.tie_break,
            "today": date.today(),
            "rows": [{"rank": r.rank, "name": r.name, "rounds": r.rounds, "sat_out": r.sat_out,
                      "total": r.total, "points": r.points, "wins": r.wins} for r in table.rows]}
