"""Players: the roster with everyone's statistics, a season's leaderboard, the ratings'
leaderboard per profile, one player's page (ratings, statistics per profile with charts, a
CSV of them, and their games, a page at a time), and a director's renaming or merging of a
player (issue 38: app/players/roster.py)."""
from __future__ import annotations

import io
from typing import Any

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from app.accounts.auth import actor
from app.db import get_session
from app.errors import BadInput
from app.games import game_list, queries
from app.players import player_csv
from app.players import roster as roster_service
from app.players.forms import MergeForm, RenameForm
from app.rules import PROFILES
from app.security import Response, id_arg
from app.stats import leaderboard, rating_backlog, rating_model, ratings, standings, stats
from app.web.chart import series_svg
from app.web.common import SafeCsvWriter, lang, shown
from app.web.messages import field_label, service_text
from app.web.words import profile_name

bp = Blueprint("players", __name__)

MAX_SEARCH = 60    # a player's name is at most 60 characters


@bp.get("/players")
def roster() -> str:
    session = get_session()
    seasons = standings.list_seasons(session)
    season = _asked_season(session)
    board = standings.season_leaderboard(session, season) if season is not None else None
    search = (request.args.get("q") or "").strip()[:MAX_SEARCH]
    after = request.args.get("after")
    page = standings.roster_page(session, search, after) if board is None else None
    next_url, first_url = _roster_links(page, search, after)
    return render_template(
        "players/roster.html", players=page.rows if page else [], search=search,
        next_url=next_url, first_url=first_url,
        board=shown(board) if board is not None else None,
        board_size=len(board or []), season=season, seasons=seasons)


def _asked_season(session: Any) -> Any:
    """The season the query string asks for (``season``), or None."""
    season_id = request.args.get("season", type=id_arg)
    if season_id is None:
        return None
    return standings.get_season(session, season_id)


def _roster_links(page: standings.RosterPage | None, search: str, after: str | None
                  ) -> tuple[str | None, str | None]:
    """The roster page's links to its next page and back to its first (None: no link)."""
    if page is None:
        return None, None
    next_url = (url_for("players.roster", q=search or None, after=page.next_cursor)
                if page.next_cursor else None)
    first_url = url_for("players.roster", q=search or None) if after else None
    return next_url, first_url


@bp.get("/players/names")
def names() -> Any:
    """Up to 20 roster names containing ``q`` (the new-game form's suggestions as a seat's
    name is typed): ``{"names": [...]}``. Signed-in users only (app.accounts.auth's guard)."""
    search = (request.args.get("q") or "").strip()[:MAX_SEARCH]
    return jsonify({"names": standings.name_suggestions(get_session(), search)})


def _charts(session: Any, player_id: int, profile: str) -> dict[str, Any]:
    steps = leaderboard.history(session, player_id, profile, points=ratings.CHART_POINTS)
    if len(steps) < 2:
        return {}           # a line needs two games
    labels = [s["games"] for s in steps]
    return {"rating": series_svg([s["shown"] for s in steps], labels,
                                 _("Rating after each game (%(game)s)", game=profile_name(profile))),
            "points": series_svg([s["points"] for s in steps], labels,
                                 _("Points over time: the sum of final totals (%(game)s)",
                                   game=profile_name(profile)))}


def _player_or_404(session: Any, player_id: int) -> standings.PlayerStats:
    player = standings.player_stats(session, player_id)
    if player is None:
        abort(404)
    return player


@bp.get("/players/<int:player_id>")
def games(player_id: int) -> Any:
    session = get_session()
    player = _player_or_404(session, player_id)
    after = request.args.get("after")
    page = game_list.list_games(session, game_list.GameFilter(player_id=player_id), after)
    seat_of = queries.seats_of(session, player_id, [g.id for g in page.games])
    played = stats.player_profiles(session, player_id)
    return render_template(
        "players/games.html", player=player, played=played, games=page.games, seat_of=seat_of,
        profiles=PROFILES, lang=lang(), field_label=field_label,
        charts={p.profile: _charts(session, player_id, p.profile) for p in played},
        behind=rating_backlog.behind(session), shown_base=rating_model.SHOWN_BASE,
        shown_scale=rating_model.SHOWN_SCALE,
        next_url=url_for("players.games", player_id=player_id, after=page.next_cursor)
        if page.next_cursor else None,
        first_url=url_for("players.games", player_id=player_id) if after else None)


# --- a director renames or merges a player (issue 38) ------------------------------------------

def _merge_form(session: Any, player_id: int) -> MergeForm:
    """The players one may merge this one into: every other roster player, by name; a
    namesake ("Koldo" for "koldo") chosen first."""
    form = MergeForm()
    form.into.choices = [(str(pid), name) for pid, name in roster_service.others(session, player_id)]
    if form.into.data is None:
        likely = roster_service.namesake(session, player_id)
        if likely is not None:
            form.into.data = str(likely)
    return form


def _edit(player_id: int, status: int = 200, errors: dict[str, str] | None = None,
          rename: RenameForm | None = None, merge: MergeForm | None = None,
          confirm: roster_service.RosterChange | None = None) -> Any:
    session = get_session()
    player = _player_or_404(session, player_id)
    return render_template("players/edit.html", player=player, errors=errors or {},
                           rename_form=rename or RenameForm(name=player.name),
                           merge_form=merge or _merge_form(session, player_id), confirm=confirm), status


def _refusal(e: BadInput) -> str:
    labels = {"name": _("New name"), "into": _("Merge into"), "player": _("Player")}
    return f"{labels.get(e.field, e.field)}: {service_text(e)}"


@bp.get("/players/<int:player_id>/edit")
def edit(player_id: int) -> Any:
    """A director's page: rename the player, or merge them into another."""
    return _edit(player_id)


@bp.post("/players/<int:player_id>/rename")
def rename(player_id: int) -> Any:
    session = get_session()
    _player_or_404(session, player_id)
    form = RenameForm()
    if not form.validate_on_submit():
        problems = [f"{form.name.label.text}: {m}" for m in form.name.errors]
        return _edit(player_id, 400, {"rename": " ".join(problems) or _("The form expired: try again.")},
                     rename=form)
    try:
        change = roster_service.rename_player(session, player_id, form.name.data, who=actor())
    except BadInput as e:
        session.rollback()
        return _edit(player_id, 422, {"rename": _refusal(e)}, rename=form)
    flash(ngettext("Renamed %(name)s in %(num)s game.", "Renamed %(name)s in %(num)s games.", change.games,
                   name=change.name))
    return redirect(url_for("players.games", player_id=player_id), 303)


@bp.post("/players/<int:player_id>/merge")
def merge(player_id: int) -> Any:
    """Merging asks first (what moves, that it cannot be undone); the form sent again with
    ``confirmed`` merges."""
    session = get_session()
    _player_or_404(session, player_id)
    form = _merge_form(session, player_id)
    if not form.validate_on_submit():
        problems = [f"{form.into.label.text}: {m}" for m in form.into.errors]
        return _edit(player_id, 400, {"merge": " ".join(problems) or _("The form expired: try again.")},
                     merge=form)
    into = int(form.into.data)
    try:
        if form.confirmed.data != "yes":
            return _edit(player_id, merge=form, confirm=roster_service.check_merge(session, player_id, into))
        change = roster_service.merge_players(session, player_id, into, who=actor())
    except BadInput as e:
        session.rollback()
        return _edit(player_id, 422, {"merge": _refusal(e)}, merge=form)
    flash(ngettext("Merged into %(name)s: %(num)s game moved.", "Merged into %(name)s: %(num)s games moved.",
                   change.games, name=change.name))
    return redirect(url_for("players.games", player_id=change.player_id), 303)


@bp.get("/players/<int:player_id>/stats.csv")
def stats_csv(player_id: int) -> Response:
    """Every statistic of the player's page (all opponents, the points of its charts), one
    value a row."""
    session = get_session()
    player = _player_or_404(session, player_id)
    out = io.StringIO()
    w = SafeCsvWriter(out)
    w.writerows(player_csv.player_csv(session, player_id, player.name))
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="kingsheet-player-{player_id}.csv"'
    return response


MAX_MIN_GAMES = 10_000


@bp.get("/players/ratings")
def rating_board() -> Any:
    """The ratings' leaderboard of one profile: players with at least ``min`` rated games."""
    errors: dict[str, str] = {}
    profile = request.args.get("profile") or leaderboard.most_played_profile(get_session(), list(PROFILES))
    if profile not in PROFILES:
        errors["profile"] = _("Choose one of the games of the list.")
        profile = next(iter(PROFILES))
    raw_min = (request.args.get("min") or "").strip()
    min_games = ratings.MIN_GAMES
    if raw_min:
        if raw_min.isdigit() and 1 <= int(raw_min) <= MAX_MIN_GAMES:
            min_games = int(raw_min)
        else:
            errors["min"] = _("Write a whole number from 1 to %(most)s.", most=MAX_MIN_GAMES)
    board = leaderboard.leaderboard(get_session(), profile, min_games)
    return render_template("players/ratings.html", board=board, profile=profile, min_games=min_games,
                           behind=rating_backlog.behind(get_session()),
                           profiles=PROFILES, errors=errors, shown_base=rating_model.SHOWN_BASE,
                           shown_scale=rating_model.SHOWN_SCALE), 400 if errors else 200
