"""What /api/v1 answers, as JSON values, from the same services the pages use (no Flask)."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.accounts.accounts import can_score
from app.errors import ForbiddenError, Text
from app.games import game_list, queries
from app.games.game_list import GameFilter
from app.games.table import confirm
from app.models import Confirmation, Game, Role, Season, User
from app.rules import RecordError, entry_problems
from app.rules.game.choices import NextChoices, contract_choices
from app.stats import leaderboard, ratings, standings, stats

#: The API's names of a game's state, and the list's status for them.
STATES = {"in_progress": "in_progress", "finished": "complete", "locked": "complete"}


def _timestamp(at: datetime) -> str:
    """RFC 3339 (the document's ``date-time``): stored times are UTC, but SQLite gives them
    back without their offset."""
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).isoformat()


def _confirmation_rows(game: Game, latest: dict[int, Confirmation]) -> list[dict[str, Any]]:
    return [{"seat": c.seat, "version": c.version, "current": c.version == game.version,
             "method": c.method.value, "at": _timestamp(c.at)} for _s, c in sorted(latest.items())]


def game_body(session: Session, game: Game) -> dict[str, Any]:
    """``{id, version, locked, confirmations, record, report}`` (record and report as
    RECORD.md)."""
    latest = confirm.latest_confirmations(session, [game.id])[game.id]
    return {"id": game.id, "version": game.version, "locked": confirm.locked_by(game, latest),
            "confirmations": _confirmation_rows(game, latest), "record": game.record,
            "report": queries.report(game)}


def _item(game: Game, summary: queries.GameSummary, locked: bool) -> dict[str, Any]:
    return {"id": game.id, "profile": summary.profile, "players": summary.players,
            "hands_played": summary.hands_played, "n_hands": summary.n_hands,
            "version": game.version, "locked": locked, "updated_at": _timestamp(game.updated_at)}


def _filter(session: Session, profile: str | None, player: int | None, season: int | None,
            state: str | None) -> GameFilter | None:
    f = GameFilter(player_id=player, profile=profile, status=STATES.get(state or ""))
    if season is not None:
        found = session.get(Season, season)
        if found is None:
            return None
        f = GameFilter(player_id=player, profile=profile, status=f.status,
                       date_from=found.starts_on, date_to=found.ends_on)
    return f


def game_page(session: Session, *, cursor: str | None = None, limit: int = 50,
              profile: str | None = None, player: int | None = None, season: int | None = None,
              state: str | None = None) -> dict[str, Any]:
    """One keyset page of the game list (the pages' own order: in progress first, newest
    first). ``state=locked`` reads finished games and keeps the locked ones."""
    f = _filter(session, profile, player, season, state)
    if f is None:
        return {"games": [], "next_cursor": None}
    items: list[dict[str, Any]] = []
    while True:
        page = game_list.list_games(session, f, cursor, limit - len(items))
        items.extend(_page_items(session, page, state))
        cursor = page.next_cursor
        if state != "locked" or cursor is None or len(items) >= limit:
            return {"games": items, "next_cursor": cursor}


def _page_items(session: Session, page: game_list.GamePage, state: str | None) -> list[dict[str, Any]]:
    """The items of one page of the game list (``state=locked``: the locked games only)."""
    ids = [s.id for s in page.games]
    by_id = {g.id: g for g in session.scalars(select(Game).where(Game.id.in_(ids)))}
    latest = confirm.latest_confirmations(session, ids)      # one query for the page
    items: list[dict[str, Any]] = []
    for summary in page.games:
        game = by_id[summary.id]
        locked = confirm.locked_by(game, latest[game.id])
        if state != "locked" or locked:
            items.append(_item(game, summary, locked))
    return items


def hand_problems(game: Game, hand: dict[str, Any], index: int) -> list[RecordError]:
    """Every problem the engine finds in ``hand`` as hand ``index`` of the game (empty:
    none; the save then checks the whole record once more)."""
    # a new dict and list; the stored hands are shared, and only read (the engine is pure)
    record = {**game.record, "hands": [*game.record["hands"][:index], hand]}
    return entry_problems(record, index)


def next_body(game: Game) -> dict[str, Any]:
    """The report's ``next`` and what the engine allows there."""
    result = queries.replay_game(game)
    report = queries.report(game)
    body: dict[str, Any] = {"next": report["next"]}
    if result.next is None:
        return body
    choices = NextChoices(result)
    if result.next.fiesta:
        body["calls"] = list(choices.legal_calls())
        body["contracts"] = [{"contract": c, "leaders": list(choices.leaders(c, None))}
                             for c in choices.contracts(None)]
    elif result.profile.chosen:
        body["contracts"] = [{"contract": c.contract, "allowed": c.allowed, "rule": c.rule,
                              "message": c.message, "played": c.played, "limit": c.limit}
                             for c in contract_choices(result)]
    return body


def _own_seat(game: Game, seat: int, u: User) -> bool:
    """The seat is the user's own player's (they confirm it from their account)."""
    return u.player_id is not None and 0 <= seat < 4 and game.seats[seat].player_id == u.player_id


def confirm_seat(session: Session, game: Game, seat: int, pin: str | None,
                 u: User | None, version: int | None = None) -> dict[str, Any]:
    """A seat's confirmation (as the table page's): a PIN only from the game's scorer; no
    PIN from the seat's own player's account, or from a director's, who vouches for it."""
    if u is None:
        raise ForbiddenError(Text("Log in first."))
    if pin:
        if not can_score(session, u, game.id):
            raise ForbiddenError(Text("Seat PINs are typed on the phone of the game's scorer."))
        confirm.confirm_by_pin(session, game, seat, pin, u, version)
    elif u.role == Role.DIRECTOR and not _own_seat(game, seat, u):
        confirm.confirm_by_director(session, game, seat, u, version)
    else:
        confirm.confirm_by_account(session, game, seat, u, version)
    return {"seat": seat, "version": game.version, "locked": confirm.is_locked(session, game)}


def player_row(row: standings.StandingRow) -> dict[str, Any]:
    return {"id": row.player_id, "name": row.name, "games": row.games, "wins": row.wins,
            "points": row.points}


def rating_row(r: leaderboard.RatingRow) -> dict[str, Any]:
    return {"profile": r.profile, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal, "games": r.games,
            "shown": r.shown}


def _mark(mark: stats.GameMark | None) -> dict[str, Any] | None:
    return None if mark is None else {"game": mark.game_id, "total": mark.total}


def _profile_stats(p: stats.ProfileStats) -> dict[str, Any]:
    return {"games": p.games, "wins": p.wins, "points": p.points, "average": p.average,
            "kings_made": p.kings, "wins_in_a_row": p.streak, "most_wins_in_a_row": p.best_streak,
            "best_game": _mark(p.best), "worst_game": _mark(p.worst),
            "contracts": [{"contract": c.contract, "hands": c.hands, "points": c.points, "average": c.average,
                           "took": dict(c.took)} for c in p.contracts],
            "auction": p.auction or None,
            "head_to_head": [{"id": o.player_id, "name": o.name, "games": o.games, "ahead": o.ahead,
                              "behind": o.behind, "points": o.points} for o in p.opponents]}


def player_body(session: Session, player_id: int) -> dict[str, Any] | None:
    """A player's totals, ratings and statistics (every opponent), or None."""
    found = standings.player_stats(session, player_id)
    if found is None:
        return None
    played = stats.player_profiles(session, player_id, opponents_shown=None)
    return {"id": found.player_id, "name": found.name, "player": player_row(found.overall),
            "profiles": [{"profile": p, **player_row(r)} for p, r in found.by_profile],
            "ratings": [rating_row(p.rating) for p in played if p.rating is not None],
            "stats": {p.profile: _profile_stats(p) for p in played}}


def ratings_body(session: Session, profile: str, min_games: int | None) -> dict[str, Any]:
    least = min_games or ratings.MIN_GAMES
    return {"profile": profile, "min": least,
            "ratings": [{"rank": r.rank, "id": r.player_id, "name": r.name, **rating_row(r)}
                        for r in leaderboard.leaderboard(session, profile, least)]}


def standings_body(session: Session, season: Season) -> dict[str, Any]:
    tables = standings.season_standings(session, season)
    return {"season": {"id": season.id, "name": season.name,
                       "starts_on": season.starts_on.isoformat(),
                       "ends_on": (season.ends_on or season.starts_on + timedelta(0)).isoformat()},
            "tables": [{"profile": p, "rows": [{**player_row(r), "rank": r.rank} for r in rows]}
                       for p, rows in tables.items()]}
