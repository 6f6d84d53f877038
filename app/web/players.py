"""The players roster: games played, wins (shared wins count), each player's games."""
from __future__ import annotations

from flask import Blueprint, abort, render_template

from app.db import get_session
from app.rules import PROFILES
from app.services import queries
from app.web.games import lang

bp = Blueprint("players", __name__)


@bp.get("/players")
def roster() -> str:
    return render_template("players/roster.html", players=queries.roster(get_session()))


@bp.get("/players/<int:player_id>")
def games(player_id: int) -> str:
    found = queries.player_games(get_session(), player_id)
    if found is None:
        abort(404)
    player, games = found
    return render_template("players/games.html", player=player, games=games, profiles=PROFILES,
                           lang=lang())
