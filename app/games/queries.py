"""Reads: plain dicts built from the replayed record (no ORM objects reach templates)."""
from __future__ import annotations

import functools
import threading
import unicodedata
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache
from sqlalchemy import Connection, Integer, bindparam, func, select
from sqlalchemy.orm import Session

from app.collation import by_name
from app.errors import BadInput, Text
from app.games.table.calls import call_events
from app.models import (
    AuditEntry,
    Confirmation,
    Event,
    EventRound,
    EventTable,
    Game,
    Player,
    SeatResult,
    StoredResult,
    User,
)
from app.rules import RecordError, build_report, digest, get_profile, load
from app.rules.club.confusables import look_alikes
from app.rules.limits import invisible_character


def get_game(session: Session, game_id: int) -> Game | None:
    return session.get(Game, game_id)


_REPLAYS_KEPT = 64
_REPLAYS: LRUCache[str, Any] = LRUCache(maxsize=_REPLAYS_KEPT)
_REPLAYS_LOCK = threading.Lock()   # LRUCache is not thread-safe; a read also reorders it


def replay_game(game: Game, record_digest: str | None = None) -> Any:
    """The engine's GameResult for the stored record (RecordError if it no longer replays).

    Results are kept per worker for the last few records, keyed by the SHA-256 of the
    record's content: a sheet is read far more often than it changes, and the same content
    always replays to the same result. Callers must not change a result."""
    return replay_record(game.record, record_digest)


def replay_record(record: Any, record_digest: str | None = None) -> Any:
    """The engine's GameResult for any record value (a stored one, one with a hand being
    entered, the hands before a row), kept by content like :func:`replay_game`'s."""
    try:
        key = record_digest or digest(record)
    except (TypeError, ValueError):      # not a JSON value: the engine says what is wrong
        return load(record)
    with _REPLAYS_LOCK:
        result = _REPLAYS.get(key)
    if result is not None:
        return result
    result = load(record)
    remember(result, key)
    return result


def remember(result: Any, record_digest: str) -> None:
    """Keeps a result replayed elsewhere (a save's) under its record's digest."""
    with _REPLAYS_LOCK:
        _REPLAYS[record_digest] = result


def report(game: Game) -> dict[str, Any]:
    return build_report(replay_game(game))


def top_scorers(totals: list[int]) -> list[int]:
    top = max(totals)
    return [s for s, t in enumerate(totals) if t == top]


@dataclass
class GameSummary:
    id: int
    profile: str
    players: list[str]
    hands_played: int
    n_hands: int
    complete: bool
    totals: list[int] | None
    leaders: list[int]
    winners: list[int]
    played_at: Any
    broken: bool = False
    #: the event table it is: (event name, round, table), None outside events
    place: tuple[str, int, int] | None = None


def summary_of(row: StoredResult) -> GameSummary:
    """A game's line in a list, from its stored result (no replay)."""
    totals = list(row.totals)
    return GameSummary(row.game_id, row.profile, list(row.players), row.hands_counted,
                       get_profile(row.profile).n_hands, row.complete,
                       None if row.error else totals,
                       top_scorers(totals) if row.n_rows and not row.error else [], list(row.winners),
                       row.played_at, broken=row.error is not None)


def summarize(session: Session, game_id: int) -> GameSummary | None:
    row = session.get(StoredResult, game_id)
    return summary_of(row) if row is not None else None


def event_places(session: Session, game_ids: list[int]) -> dict[int, tuple[str, int, int]]:
    """The event tables among ``game_ids`` (one statement; none when no game is given):
    game id -> (event name, round, table), so a list says "Mesa 1 · Ronda 2" (issue 38)."""
    if not game_ids:
        return {}
    return {int(gid): (str(name), int(rnd), int(table)) for gid, name, rnd, table in session.execute(
        select(EventTable.game_id, Event.name, EventRound.number, EventTable.number)
        .join(EventRound, EventTable.round_id == EventRound.id)
        .join(Event, EventRound.event_id == Event.id)
        .where(EventTable.game_id.in_(game_ids)))}


def seats_of(session: Session, player_id: int, game_ids: list[int]) -> dict[int, int]:
    """The player's seat in each of the games."""
    return {int(g): int(s) for g, s in session.execute(
        select(SeatResult.game_id, SeatResult.seat).where(SeatResult.player_id == player_id,
                                                          SeatResult.game_id.in_(game_ids)))}


RECENT_PLAYERS = 50


def recent_player_ids(session: Session, limit: int = RECENT_PLAYERS) -> list[int]:
    """The ``limit`` players who sat at a game most recently (a bounded list whatever the
    size of the roster; the rest are found by typing, /players/names)."""
    # The latest seat rows backwards, along the index on played_at, until ``limit`` players
    # are seen: grouping every seat row by player (400,000 rows at 100,000 games) made the
    # game list 4.6 times slower at that size than at 100 games. The order is the grouped
    # one's: by each player's latest game, then by player id, both descending.
    window = max(64, 8 * limit)
    while True:
        rows = session.execute(select(SeatResult.played_at, SeatResult.player_id)
                               .order_by(SeatResult.played_at.desc()).limit(window)).all()
        every = len(rows) < window
        if not every:          # the last moment read may go on past the window: read it whole
            rows = [r for r in rows if r[0] != rows[-1][0]]
        ordered = sorted(rows, key=lambda r: (r[0], r[1]), reverse=True)
        found = list(dict.fromkeys(int(r[1]) for r in ordered))
        if every or len(found) >= limit:
            return found[:limit]
        window *= 4


def player_choices(session: Session, keep: int | None = None) -> list[tuple[int, str]]:
    """(id, name) of the players who played most recently, and of ``keep`` (the player
    chosen now), by name (the list's player filter)."""
    ids = recent_player_ids(session)
    if keep and keep not in ids:
        ids.append(keep)
    return by_name([(int(i), str(n)) for i, n in session.execute(
        select(Player.id, Player.name).where(Player.id.in_(ids)))], lambda row: row[1])


def player_names(session: Session) -> list[str]:
    """The names of the players who played most recently, by name (the new-game form's
    suggestions before anything is typed)."""
    return by_name(session.scalars(select(Player.name).where(
        Player.id.in_(recent_player_ids(session)))).all(), str)


def look_alike_players(session: Session, names: list[str], but: int | None = None
                       ) -> dict[int, list[str]]:
    """Seat -> the roster names that look like the seat's new name (the same UTS #39
    skeleton, app.rules.club.confusables) though it is not on the roster: "Аna" with a Cyrillic
    А when Ana plays. A name already on the roster, or like none, has no entry. ``but``: a
    player left out of the roster (one being renamed: their new name may look like their
    old one)."""
    # a name the engine refuses (an invisible character) is refused, not compared
    typed = {seat: unicodedata.normalize("NFC", name) for seat, name in enumerate(names)
             if name and invisible_character(name) is None}
    query = select(Player.name) if but is None else select(Player.name).where(Player.id != but)
    roster = set(session.scalars(query).all())
    found: dict[int, list[str]] = {}
    for seat, name in typed.items():
        if name not in roster:
            alike = look_alikes(name, roster)
            if alike:
                found[seat] = by_name(alike, str)
    return found


def refuse_look_alikes(session: Session, names: list[str], fld: str, but: int | None = None) -> None:
    """A new name that looks like a roster name (:func:`look_alike_players`) is refused on
    ``fld``, as the new-game page asks about it (an event's players, a late arrival, a
    rename)."""
    for seat, alike in look_alike_players(session, names, but).items():
        raise BadInput(fld, Text("%(name)s looks like %(others)s on the roster: write the roster's "
                                 "name, or a name that does not look like it.",
                                 name=names[seat], others=", ".join(alike)))


def audit_log(session: Session, game_id: int) -> list[AuditEntry]:
    return list(session.scalars(select(AuditEntry).where(AuditEntry.game_id == game_id)
                                .order_by(AuditEntry.id.desc())).all())


def _violation(v: Any) -> dict[str, Any]:
    """A violation as a plain dict (ids and codes: the pages word it, app.web.words)."""
    return {"trick": v.trick, "seat": v.seat, "card": v.card, "rule": v.rule,
            "message": v.message, "evidence": list(v.evidence)}


def hand_row(h: Any, profile: Any, lang: str) -> dict[str, Any]:
    ruling = getattr(h, "ruling", None)
    ruling_kind = getattr(ruling, "kind", "as-played") if ruling else "as-played"
    diff = h.total - h.expected_total
    return {
        "index": h.index, "row": h.index + 1, "number": h.number,
        "contract": h.contract.id,
        "trump": h.trump, "dealer": h.dealer, "owner": h.owner, "chooser": h.chooser,
        "declarer": h.declarer, "leader": h.leader, "bid": h.bid, "auction": list(h.auction),
        "mode": h.mode, "points": list(h.points), "payments": list(h.payments),
        "has_payment": any(h.payments), "total": h.total, "expected_total": h.expected_total,
        "check_ok": diff == 0, "diff": diff, "running_totals": list(h.running_totals),
        "counted": h.counted, "made_king": getattr(h, "made_king", False),
        "ended_early": getattr(h, "ended_early", False),
        "violations": [_violation(v) for v in getattr(h, "violations", ())],
        "ruling": None if ruling_kind == "as-played" else {
            "kind": ruling_kind, "seat": getattr(ruling, "seat", None),
            "points": getattr(ruling, "points", None), "reason": getattr(ruling, "reason", None),
            "by": getattr(ruling, "by", None), "at": getattr(ruling, "at", None),
            "weights": outcomes_of(ruling)},
    }


def outcomes_of(ruling: Any) -> list[dict[str, Any]] | None:
    """A weighted ruling's outcomes (share, four points, label), None for any other."""
    weights = getattr(ruling, "weights", None)
    return None if not weights else [{"share": o.share, "points": list(o.points), "label": o.label}
                                     for o in weights]


def sheet_view(game: Game, lang: str = "es") -> dict[str, Any]:
    """Everything the sheet page shows, from the replayed record; ``error`` is the
    :class:`RecordError` of a record that no longer replays (the pages translate it)."""
    profile = get_profile(game.profile)
    record = game.record
    view: dict[str, Any] = {
        "id": game.id, "version": game.version, "updated_at": getattr(game, "updated_at", None),
        "profile": profile.id, "seat_key": profile.seat_key,
        "n_hands": profile.n_hands,
        "clockwise": profile.clockwise, "players": list(record["players"]),
        "options": dict(record.get("options") or {}), "n_rows": len(record.get("hands", [])),
        "error": None, "hands": [], "next": None, "complete": False,
    }
    record_digest = digest(record)
    view["fingerprint"] = record_digest[:10]
    view["digest"] = record_digest
    try:
        result = replay_game(game, record_digest)
    except RecordError as e:
        view["error"] = e            # the pages write it in their language (the web's words)
        return view
    rows = [hand_row(h, profile, lang) for h in result.hands]
    totals = list(result.totals)
    view.update({
        "hands": rows, "totals": totals, "sum": result.sum, "expected_sum": result.expected_sum,
        "zero_sum_ok": result.zero_sum_ok, "complete": result.complete,
        "winners": list(result.winners), "leaders": top_scorers(totals) if rows else [],
        "any_payment": any(r["has_payment"] for r in rows),
        "hands_played": sum(1 for r in rows if r["counted"]),
    })
    nxt = result.next
    if nxt is not None:
        view["next"] = {
            "number": nxt.number, "contract": nxt.contract,
            "dealer": nxt.dealer, "owner": nxt.owner, "chooser": nxt.chooser,
            "leader": nxt.leader, "fiesta": nxt.fiesta,
        }
    return view


# --- the live sheet: a version check, and what changed since a version ----------------------

@dataclass
class Stamp:
    """What a page polls: the game's version (the optimistic lock, one more per save), when
    it last changed, and how many things the table did that change no record and no version
    but that the sheets must show: seat confirmations, calls to the director and their
    answers (``confirmations`` counts them all). Read in one statement from the game row
    and the indexes of confirmations and calls, without the record."""

    version: int
    updated_at: Any
    confirmations: int = 0


@functools.cache
def _stamp_statement() -> Any:
    """The version check's one statement, built once (building costs more than running
    it): the game's stamp and the session generation of user ``user_id`` (NULL for none)."""
    confirmed = (select(func.count()).select_from(Confirmation).where(Confirmation.game_id == Game.id)
                 .scalar_subquery()) + call_events(Game.id)
    generation = (select(User.session_generation)
                  .where(User.id == bindparam("user_id", type_=Integer)).scalar_subquery())
    return (select(Game.version, Game.updated_at, confirmed, generation)
            .where(Game.id == bindparam("game_id", type_=Integer)))


def game_stamp(session: Session, game_id: int) -> Stamp | None:
    return game_stamp_for(session, game_id, None)[0]


def game_stamp_for(session: Session | Connection, game_id: int,
                   user_id: int | None) -> tuple[Stamp | None, int | None]:
    """The game's :class:`Stamp` and, read in the same statement, the session generation
    of user ``user_id`` (None: no such user, or no game): a logged-in phone's poll checks
    its login and the game in one statement (app.accounts.auth.poll_guard)."""
    row = session.execute(_stamp_statement(),
                          {"game_id": game_id, "user_id": -1 if user_id is None else user_id}).first()
    if row is None:
        return None, None
    return Stamp(int(row[0]), row[1], int(row[2] or 0)), (None if row[3] is None else int(row[3]))


def confirmation_count(session: Session, game_id: int) -> int:
    """The `confirmations` of a game's stamp, calls to the director included (for the page
    it is first shown on)."""
    return int(session.scalar(select(select(func.count()).select_from(Confirmation)
                                     .where(Confirmation.game_id == game_id).scalar_subquery()
                                     + call_events(game_id))) or 0)


CHANGES_SHOWN = 20


def version_before_change(session: Session, game_id: int, hand_index: int) -> int | None:
    """The game's version just before the last change to hand ``hand_index`` (None when the
    change log does not know): what a phone whose entry for that hand was overtaken saw."""
    version = session.scalar(select(func.max(AuditEntry.version)).where(
        AuditEntry.game_id == game_id, AuditEntry.hand_index == hand_index))
    return None if version is None else int(version) - 1


def changes_since(session: Session, game: Game, since: int, lang: str = "es") -> dict[str, Any]:
    """What was saved after version ``since``: the change-log entries (who, when, what, which
    hand row), oldest first, each with the hand as it stands now when it still exists.

    ``complete`` is False when some changes are older than the change log's versions (or
    more than CHANGES_SHOWN): the page then says the game changed without listing it all."""
    entries = list(session.scalars(
        select(AuditEntry).where(AuditEntry.game_id == game.id, AuditEntry.version > since)
        .order_by(AuditEntry.id).limit(CHANGES_SHOWN + 1)).all())
    rows: list[dict[str, Any]] = []
    try:
        result = replay_game(game)
        profile = get_profile(game.profile)
        rows = [hand_row(h, profile, lang) for h in result.hands]
    except RecordError:
        rows = []
    listed = []
    for e in entries[:CHANGES_SHOWN]:
        index = e.hand_index
        now = rows[index] if index is not None and 0 <= index < len(rows) else None
        listed.append({"who": e.who, "at": e.at, "action": e.action.value, "version": e.version,
                       "row": None if index is None else index + 1,
                       "now": None if e.action.value == "delete_hand" else now})
    return {"since": since, "version": game.version, "changes": listed,
            "complete": len(entries) <= CHANGES_SHOWN and game.version - since == len(entries),
            "n_rows": len(game.hands)}
