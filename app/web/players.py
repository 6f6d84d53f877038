"""Players: the roster with everyone's statistics, a season's leaderboard, one player's
page (per-profile split and their games, a page at a time)."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, render_template, request, url_for

from app.db import get_session
from app.rules import PROFILES
from app.security import id_arg
from app.services import queries, standings
from app.web.common import lang, shown

bp = Blueprint("players", __name__)

MAX_SEARCH = 60    # a player's name is at most 60 characters


@bp.get("/players")
def roster() -> str:
    session = get_session()
    seasons = standings.list_seasons(session)
    season = None
    season_id = request.args.get("season", type=id_arg)
    if season_id is not None:
        season = standings.get_season(session, season_id)
    board = standings.season_leaderboard(session, season) if season is not None else None
    search = (request.args.get("q") or "").strip()[:MAX_SEARCH]
    after = request.args.get("after")
    page = standings.roster_page(session, search, after) if board is None else None
    return render_template(
        "players/roster.html", players=page.rows if page else [], search=search,
        next_url=url_for("players.roster", q=search or None, after=page.next_cursor)
        if page and page.next_cursor else None,
        first_url=url_for("players.roster", q=search or None) if page and after else None,
        board=shown(board) if board is not None else None,
        board_size=len(board or []), season=season, seasons=seasons)


@bp.get("/players/names")
def names() -> Any:
    """Up to 20 roster names containing ``q`` (the new-game form's suggestions as a seat's
    name is typed): ``{"names": [...]}``. Signed-in users only (app.web.auth's guard)."""
    search = (request.args.get("q") or "").strip()[:MAX_SEARCH]
    return jsonify({"names": standings.name_suggestions(get_session(), search)})


@bp.get("/players/<int:player_id>")
def games(player_id: int) -> Any:
    session = get_session()
    stats = standings.player_stats(session, player_id)
    if stats is None:
        abort(404)
    after = request.args.get("after")
    page = queries.list_games(session, queries.GameFilter(player_id=player_id), after)
    seat_of = queries.seats_of(session, player_id, [g.id for g in page.games])
    return render_template(
        "players/games.html", player=stats, games=page.games, seat_of=seat_of, profiles=PROFILES,
        lang=lang(),
        next_url=url_for("players.games", player_id=player_id, after=page.next_cursor)
        if page.next_cursor else None,
        first_url=url_for("players.games", player_id=player_id) if after else None)
