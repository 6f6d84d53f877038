"""Events (issue 25): directors create and run club nights; ``/events/<id>`` shows every
table of the round live and every round drawn, ``/events/<id>/screen`` is the room's screen
for the club's TV (opened without login through the event's share link: the round's seating
until its first hand, then the standings, at the end the final standings; issue 38),
``/events/<id>/seating`` the round's seating to print, standings as CSV and PDF.

The pages poll ``/events/<id>/live`` (one statement: the event's stamp, 304 while nothing
changed) and fetch themselves again when it changes (static/js/event_live.js).
"""
from __future__ import annotations

import io
from datetime import date
from typing import Any

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from app.accounts.auth import actor, user
from app.db import get_session
from app.errors import BadInput
from app.events import changes, events, scoreboard
from app.events.forms import DrawForm, EventForm, LateForm, SwapForm, WithdrawForm
from app.games import links, queries
from app.models import Event
from app.printing import exports
from app.rules import PROFILES
from app.stats import standings
from app.web import versions
from app.web.common import SafeCsvWriter, found_or_404, lang
from app.web.list_forms import ConfirmForm
from app.web.messages import service_text
from app.web.words import OPTION_LABELS

bp = Blueprint("events", __name__)

POLL_MS = 1000
#: The results screen (issue 38): up to SCREEN_ROWS standings on one screen, in two columns
#: past SCREEN_COLUMN rows, and up to SCREEN_TABLES tables of a round's seating; it pages
#: through longer lists by itself, one page every SCREEN_PAGE_MS.
SCREEN_ROWS = 40
SCREEN_COLUMN = 12
SCREEN_TABLES = 12
SCREEN_PAGE_MS = 8000


def load_event_or_404(event_id: int) -> Event:
    return found_or_404(get_session().get(Event, event_id))


def _user_id() -> int | None:
    u = user()
    return u.id if u is not None else None


@bp.app_template_global("player_events")
def player_events(player_id: int) -> list[Event]:
    """The events a player is registered in (their page lists them)."""
    return scoreboard.events_of_player(get_session(), player_id)


# --- the list and a new event ---------------------------------------------------------------

@bp.get("/events")
def index() -> str:
    return render_template("events/index.html", events=scoreboard.list_events(get_session()))


def _option_rows(form: Any) -> list[dict[str, Any]]:
    rows = []
    for profile in PROFILES.values():
        for spec in profile.options:
            label, values = OPTION_LABELS.get(spec.name, (spec.name, {}))
            rows.append({"profile": profile.id, "field": form[f"opt_{spec.name}"], "label": label,
                         "labels": values, "default": spec.values[0]})
    return rows


def _spec(form: Any) -> events.EventSpec:
    names, pins = form.entries()
    season = form.season.data
    return events.EventSpec(name=form.name.data, profile=form.profile.data, players=names,
                            rounds=form.rounds.data, day=form.day.data,
                            options=form.options_for(form.profile.data), seating=form.seating.data,
                            scoring=form.scoring.data, ranking_points=form.ranking(),
                            sit_out=form.sit_out.data, season_id=int(season) if season else None,
                            pins=pins)


def _warn_of_missing_pins(event: Event) -> None:
    """Players without a PIN: their seats confirm from an account, or a director vouches
    (issue 38)."""
    without = sum(1 for e in event.entrants if not e.pin_hash)
    if without:
        flash(ngettext("%(num)s player has no PIN: their seat is confirmed from their account "
                       "or vouched for by a director before a table can lock.",
                       "%(num)s players have no PIN: their seats are confirmed from their accounts "
                       "or vouched for by a director before a table can lock.", without), "error")


@bp.route("/events/new", methods=["GET", "POST"])
def new() -> Any:
    form = EventForm()
    form.profile.choices = [(p.id, p.name(lang())) for p in PROFILES.values()]
    form.season.choices = [("", _("none")), *[(str(s.id), s.name) for s in
                                              standings.list_seasons(get_session())]]
    if request.method == "GET":
        form.day.data = date.today()
    if form.validate_on_submit():
        try:
            event = events.create_event(get_session(), _spec(form), who=actor(), user_id=_user_id())
        except BadInput as e:
            field = form._fields.get(e.field, form.name)
            field.errors = [*field.errors, service_text(e)]
        else:
            flash(_("Event created: round 1 is drawn."))
            _warn_of_missing_pins(event)
            return redirect(url_for("events.show", event_id=event.id), 303)
    status = 400 if request.method == "POST" else 200
    return render_template("events/new.html", form=form, options=_option_rows(form),
                           names=queries.player_names(get_session())), status


# --- the director's view --------------------------------------------------------------------

def _round_view(session: Any, event: Event) -> dict[str, Any]:
    rnd = event.drawn[-1]
    tables = scoreboard.round_tables(session, rnd)
    names = scoreboard.names_of(session, list(rnd.sitting_out))
    return {"round": rnd, "tables": tables, "sitting_out": [names[p] for p in rnd.sitting_out],
            "all_locked": all(t.locked for t in tables),
            "started": any(t.hands for t in tables),
            "finished": events.event_status(event, tables) == "finished"}


def _swap_form(view: dict[str, Any]) -> SwapForm:
    form = SwapForm()
    names = sorted({n for t in view["tables"] for n in t.players} | set(view["sitting_out"]),
                   key=str.casefold)
    form.first.choices = [(n, n) for n in names]
    form.second.choices = [(n, n) for n in names]
    return form


def _show(event: Event, status: int = 200, errors: dict[str, str] | None = None,
          draw: DrawForm | None = None) -> Any:
    session = get_session()
    view = _round_view(session, event)
    table = scoreboard.standings(session, event)
    return render_template(
        "events/show.html", event=event, view=view, standings=table, errors=errors or {},
        history=scoreboard.round_history(session, event, earlier=True),
        tie_break=service_text(table.tie_break),
        draw_form=draw or DrawForm(), swap_form=_swap_form(view), late_form=LateForm(),
        withdraw_form=_withdraw_form(event),
        share_form=ConfirmForm(), log=scoreboard.event_log(session, event.id), poll_ms=POLL_MS,
        stamp=scoreboard.event_stamp(session, event.id),
        screen_url=url_for("events.screen", event_id=event.id, key=event.share_token, _external=True)
        if event.share_token else None), status


@bp.get("/events/<int:event_id>")
def show(event_id: int) -> Any:
    return _show(load_event_or_404(event_id))


@bp.get("/events/<int:event_id>/live")
def live(event_id: int) -> Any:
    """The event's stamp (``ETag``), 304 while it has not changed. Open to the screen's
    link (``?key=``) as well as to anyone logged in."""
    _readable_or_404(event_id)
    stamp = found_or_404(scoreboard.event_stamp(get_session(), event_id))
    return versions.answer(stamp, lambda: Response("{}", mimetype="application/json"))


@bp.post("/events/<int:event_id>/rounds")
def draw(event_id: int) -> Any:
    event = load_event_or_404(event_id)
    form = DrawForm()
    if not form.validate_on_submit():
        return _show(event, 400, {"draw": _("The form expired: try again.")}, form)
    try:
        rnd = events.draw_next_round(get_session(), event, who=actor(), user_id=_user_id(),
                                     force=bool(form.force.data), reason=form.reason.data)
    except events.RoundOpen as e:
        return _show(event, 409, {"draw": service_text(e)}, form)
    except BadInput as e:
        return _show(event, 422, {"draw": f"{_field_label(e.field)}: {service_text(e)}"}, form)
    flash(_("Round %(n)s is drawn.", n=rnd.number))
    return redirect(url_for("events.show", event_id=event.id), 303)


def _field_label(field: str) -> str:
    labels = {"reason": _("Reason"), "round": _("Round"), "first": _("Player"),
              "second": _("Player"), "name": _("Name"), "pin": _("PIN")}
    return str(labels.get(field, field))


@bp.post("/events/<int:event_id>/swap")
def swap(event_id: int) -> Any:
    event = load_event_or_404(event_id)
    form = _swap_form(_round_view(get_session(), event))
    if not form.validate_on_submit():
        return _show(event, 400, {"swap": _("Choose two players of this round.")})
    try:
        changes.swap_players(get_session(), event, form.first.data, form.second.data, who=actor())
    except BadInput as e:
        return _show(event, 422, {"swap": f"{_field_label(e.field)}: {service_text(e)}"})
    flash(_("%(a)s and %(b)s swapped seats.", a=form.first.data, b=form.second.data))
    return redirect(url_for("events.show", event_id=event.id), 303)


@bp.post("/events/<int:event_id>/late")
def late(event_id: int) -> Any:
    event = load_event_or_404(event_id)
    form = LateForm()
    if not form.validate_on_submit():
        problems = [f"{form[f].label.text}: {m}" for f in ("name", "pin") for m in form[f].errors]
        return _show(event, 400, {"late": " ".join(problems) or _("The form expired: try again.")})
    try:
        joins = changes.add_late_player(get_session(), event, form.name.data, who=actor(), pin=form.pin.data)
    except BadInput as e:
        return _show(event, 422, {"late": f"{_field_label(e.field)}: {service_text(e)}"})
    flash(_("%(name)s joins from round %(n)s.", name=" ".join(form.name.data.split()), n=joins))
    return redirect(url_for("events.show", event_id=event.id), 303)


@bp.post("/events/<int:event_id>/withdraw")
def withdraw(event_id: int) -> Any:
    event = load_event_or_404(event_id)
    form = _withdraw_form(event)
    if not form.validate_on_submit():
        problems = [f"{form.player.label.text}: {m}" for m in form.player.errors]
        return _show(event, 400, {"withdraw": " ".join(problems) or _("The form expired: try again.")})
    try:
        leaves = changes.withdraw_player(get_session(), event, form.player.data, who=actor())
    except BadInput as e:
        return _show(event, 422, {"withdraw": f"{_field_label(e.field)}: {service_text(e)}"})
    flash(_("%(name)s is not drawn from round %(n)s on.", name=form.player.data, n=leaves))
    return redirect(url_for("events.show", event_id=event.id), 303)


def _withdraw_form(event: Event) -> WithdrawForm:
    """Who may withdraw: the players drawn in the next round as it stands."""
    form = WithdrawForm()
    names = scoreboard.names_of(get_session(), events.present_for(event, len(event.drawn) + 1))
    form.player.choices = [(n, n) for n in sorted(names.values(), key=str.casefold)]
    return form


@bp.post("/events/<int:event_id>/share")
def share(event_id: int) -> Any:
    event = load_event_or_404(event_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    events.share_token(get_session(), event)
    return redirect(url_for("events.show", event_id=event.id, _anchor="screen-link"), 303)


@bp.route("/events/<int:event_id>/qr", methods=["GET", "POST"])
def table_codes(event_id: int) -> Any:
    """The QR code of each table of the round: the table's phone scans it and keeps that
    table's score (the games' one-time handover link). Made on the button's POST."""
    event = load_event_or_404(event_id)
    session = get_session()
    rnd = event.drawn[-1]
    if request.method == "POST":
        if not ConfirmForm().validate_on_submit():
            abort(400)
        for t in rnd.tables:
            links.handover_link(session, t.game_id, _user_id())
        return redirect(url_for("events.table_codes", event_id=event.id), 303)
    codes = []
    for status in scoreboard.round_tables(session, rnd):
        link = links.active_handover(session, status.game_id)
        codes.append({"table": status, "path": url_for("table.handover", token=link.token) if link else None})
    return render_template("events/qr.html", event=event, round=rnd, codes=codes, form=ConfirmForm())


@bp.get("/events/<int:event_id>/seating")
def seating(event_id: int) -> Any:
    """The current round's seating on one A4, for the wall (issue 38): every table with its
    four players, who sits out; printed from the browser."""
    event = load_event_or_404(event_id)
    view = _round_view(get_session(), event)
    return render_template("events/seating.html", event=event, view=view)


# --- the results screen ---------------------------------------------------------------------

def _readable_or_404(event_id: int) -> Event:
    """The event, for anyone logged in or holding its screen link (``?key=``); else 404."""
    session = get_session()
    if user() is not None:
        return load_event_or_404(event_id)
    return found_or_404(events.event_for_token(session, event_id, request.args.get("key")))


def _pages(rows: list[Any], size: int) -> list[list[Any]]:
    return [rows[i:i + size] for i in range(0, len(rows), size)] or [[]]


@bp.get("/events/<int:event_id>/screen")
def screen(event_id: int) -> Any:
    event = _readable_or_404(event_id)
    session = get_session()
    view = _round_view(session, event)
    table = scoreboard.standings(session, event)
    key = request.args.get("key")
    # the round's seating until its first hand is saved; then the standings; at the end
    # the final standings
    phase = "final" if view["finished"] else "play" if view["started"] else "seating"
    pages = _pages(table.rows, SCREEN_ROWS)
    columns = 2 if len(pages[0]) > SCREEN_COLUMN else 1
    return render_template("events/screen.html", event=event, view=view, standings=table,
                           tie_break=service_text(table.tie_break), phase=phase,
                           standing_pages=pages, columns=columns,
                           column_rows=max(1, -(-len(pages[0]) // columns)),
                           table_pages=_pages(view["tables"], SCREEN_TABLES),
                           live_url=url_for("events.live", event_id=event.id, key=key),
                           poll_ms=POLL_MS, page_ms=SCREEN_PAGE_MS,
                           stamp=scoreboard.event_stamp(session, event.id))


# --- standings as CSV -----------------------------------------------------------------------

@bp.get("/events/<int:event_id>/standings.csv")
def standings_csv(event_id: int) -> Response:
    event = load_event_or_404(event_id)
    table = scoreboard.standings(get_session(), event)
    out = io.StringIO()
    writer = SafeCsvWriter(out)      # a player named "=HYPERLINK(...)" stays text
    writer.writerow([_("Place"), _("Player"), *[_("Round %(n)s", n=i + 1) for i in range(table.rounds)],
                     _("Total"), _("Game points"), _("Tables won")])
    for row in table.rows:
        cells = ["" if x is None else x for x in row.rounds]
        writer.writerow([row.rank, row.name, *cells, row.total, row.points, row.wins])
    response = Response("\ufeff" + out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="event-{event.id}-standings.csv"'
    return response


# --- the event's PDF: a bulk export job (app/printing/event_job.py renders it) ---------------

@bp.post("/events/<int:event_id>/pdf")
def event_pdf(event_id: int) -> Any:
    """Queues the event's PDF -- its standings, then every table's sheet -- as an export job,
    and shows the job's page (which starts the runner and follows it)."""
    event = load_event_or_404(event_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    u = user()
    params = {"event_id": event.id, "title": event.name, "lang": lang(), "orientation": "auto",
              "base_url": request.host_url}
    try:
        job = exports.create_job(get_session(), owner=f"user:{u.id}" if u else None, params=params)
    except exports.ExportBusy as e:
        flash(_("Your previous export is still being prepared: wait for it to finish, "
                "then start the next one."), "error")
        return redirect(url_for("pdf.export_page", job_id=e.job_id), 303)
    except exports.QueueFull:
        flash(_("Many exports are being prepared right now. Try again in a few minutes."), "error")
        return redirect(url_for("events.show", event_id=event.id), 303)
    return redirect(url_for("pdf.export_page", job_id=job.id), 303)
