"""Seasons: named ranges of days defined by a director, and their standings per profile
(on the page and as a printable PDF)."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from app.db import get_session
from app.errors import BadInput
from app.printing import responses
from app.rules import PROFILES
from app.stats import seasons as seasons_service
from app.stats import standings
from app.web.common import found_or_404, lang, shown
from app.web.list_forms import ConfirmForm, SeasonForm
from app.web.messages import service_text

bp = Blueprint("seasons", __name__)


def load_season_or_404(season_id: int) -> Any:
    return found_or_404(standings.get_season(get_session(), season_id))


def _save(form: SeasonForm, season: Any = None) -> Any:
    """Validates and saves; None (errors on the form) when refused."""
    if not form.validate_on_submit():
        return None
    try:
        return seasons_service.save_season(get_session(), name=form.name.data, starts_on=form.starts_on.data,
                                           ends_on=form.ends_on.data, season=season)
    except BadInput as e:
        form[e.field].errors = [*form[e.field].errors, service_text(e)]
        return None


@bp.route("/seasons", methods=["GET", "POST"])
def index() -> Any:
    form = SeasonForm()
    if request.method == "POST":
        season = _save(form)
        if season is not None:
            flash(_("Season saved."))
            return redirect(url_for("seasons.show", season_id=season.id))
    status = 400 if request.method == "POST" else 200
    return render_template("seasons/index.html", seasons=standings.list_seasons(get_session()),
                           form=form), status


def _profile_arg() -> str | None:
    profile = request.args.get("profile") or None
    return profile if profile in PROFILES else None


#: Rows of a standings table on a page (the whole table with ?all=1, and in the PDF).
@bp.get("/seasons/<int:season_id>")
def show(season_id: int) -> str:
    season = load_season_or_404(season_id)
    profile = _profile_arg()
    tables = standings.season_standings(get_session(), season, profile)
    sizes = {p: len(rows) for p, rows in tables.items()}
    return render_template("seasons/show.html", season=season, sizes=sizes, profile=profile,
                           tables={p: shown(rows) for p, rows in tables.items()}, profiles=PROFILES,
                           lang=lang())


@bp.route("/seasons/<int:season_id>/edit", methods=["GET", "POST"])
def edit(season_id: int) -> Any:
    season = load_season_or_404(season_id)
    form = SeasonForm(obj=season)
    if request.method == "POST" and _save(form, season) is not None:
        flash(_("Season saved."))
        return redirect(url_for("seasons.show", season_id=season.id))
    status = 400 if request.method == "POST" else 200
    return render_template("seasons/edit.html", season=season, form=form), status


@bp.post("/seasons/<int:season_id>/delete")
def delete(season_id: int) -> Any:
    season = load_season_or_404(season_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    seasons_service.delete_season(get_session(), season)
    flash(_("Season deleted."))
    return redirect(url_for("seasons.index"))


@bp.get("/seasons/<int:season_id>/standings.pdf")
def standings_pdf(season_id: int) -> Response:
    season = load_season_or_404(season_id)
    profile = _profile_arg()
    language = lang()
    doc = standings.standings_doc(get_session(), season, profile, language)
    doc["link"] = url_for("seasons.show", season_id=season.id, profile=profile, _external=True)
    response = Response(responses.export_standings_pdf(doc), mimetype="application/pdf")
    name = f"standings-{season.id}" + (f"-{profile}" if profile else "")
    disposition = "attachment" if request.args.get("download") else "inline"
    response.headers["Content-Disposition"] = f'{disposition}; filename="{name}.pdf"'
    return response
