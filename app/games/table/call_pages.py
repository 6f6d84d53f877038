"""Calling the director (issue 40): the table's page calls (``POST /games/<id>/calls``, a
seat's own player or the game's scorer), the director answers (``POST /calls/<id>/answer``)
from the event's page or from ``/calls``, the directors' list of every game's calls. The
list follows the calls live (``/calls/live``, static/js/event_live.js), as the event's page
does through the event's stamp."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from app.accounts.auth import actor, forbidden, user
from app.db import get_session
from app.errors import BadInput
from app.games.table import calls, confirm
from app.games.table.calls import CallView
from app.games.table.forms import AnswerForm, CallForm
from app.web import versions
from app.web.common import found_or_404, load_game_or_404, safe_next
from app.web.messages import service_text

bp = Blueprint("calls", __name__)

POLL_MS = 1000


@bp.app_template_global("director_call")
def director_call(game_id: int) -> CallView | None:
    """The game's open call, else its last answered one (the table's page shows it)."""
    return calls.latest_call(get_session(), game_id)


@bp.app_template_global("open_calls")
def open_calls(event_id: int) -> list[CallView]:
    """An event's open calls, the one waiting longest first (the event's page)."""
    return calls.list_calls(get_session(), "open", event_id=event_id)


@bp.app_template_global("answer_form")
def answer_form() -> AnswerForm:
    return AnswerForm(formdata=None)


def _note_error(e: BadInput) -> str:
    label = _("Answer") if request.endpoint == "calls.answer" else _("Note for the director")
    return f"{label}: {service_text(e)}"


@bp.route("/games/<int:game_id>/calls", methods=["GET", "POST"])
def call(game_id: int) -> Any:
    """The table calls the director (the sheet's button posts here); a refused note comes
    back on this page, as it was typed, with what is wrong next to it."""
    game = load_game_or_404(game_id)
    session = get_session()
    if not calls.may_call(session, user(), game):
        return forbidden(_("Only the game's players and its scorers call the director."))
    form = CallForm()
    error, status = None, 200
    if request.method == "POST":
        if not form.validate_on_submit():
            error, status = _("The form expired: try again."), 400
        else:
            try:
                _found, made = calls.open_call(session, game, user=user(), who=actor(), note=form.note.data)
            except BadInput as e:
                error, status = _note_error(e), 422
            else:
                flash(_("The director is called: the call waits below until it is answered.") if made
                      else _("The director was called already: that call is still open."))
                return redirect(url_for("games.sheet", game_id=game.id, _anchor="director-call"), 303)
    return render_template("calls/call.html", game=game, place=confirm.event_place(session, game.id),
                           form=form, error=error, latest=calls.latest_call(session, game.id)), status


def _list_page(status: str = "open", errors: dict[int, str] | None = None,
               typed: dict[int, str] | None = None, code: int = 200) -> Any:
    session = get_session()
    try:
        found = calls.list_calls(session, status)
    except BadInput:
        status, found = "open", calls.list_calls(session, "open")
    return render_template("calls/index.html", calls=found, status=status, errors=errors or {},
                           typed=typed or {}, stamp=calls.calls_stamp(session), poll_ms=POLL_MS,
                           statuses=calls.STATUSES), code


@bp.get("/calls")
def index() -> Any:
    """Every game's calls for the directors: the open ones, the one waiting longest first."""
    return _list_page(request.args.get("status", "open"))


@bp.get("/calls/live")
def live() -> Any:
    """The calls' stamp (``ETag``), 304 while no call was made or answered."""
    return versions.answer(calls.calls_stamp(get_session()),
                           lambda: Response("{}", mimetype="application/json"))


@bp.post("/calls/<int:call_id>/answer")
def answer(call_id: int) -> Any:
    session = get_session()
    found = found_or_404(calls.get_call(session, call_id))
    form = AnswerForm()
    back = safe_next(form.next.data, url_for("calls.index"))
    if not form.validate_on_submit():
        return _list_page(errors={call_id: _("The form expired: try again.")}, code=400)
    try:
        calls.answer_call(session, found, user=user(), who=actor(), note=form.note.data)
    except BadInput as e:
        return _list_page(errors={call_id: _note_error(e)}, typed={call_id: form.note.data or ""}, code=422)
    except calls.AlreadyAnswered as e:
        flash(_("%(who)s answered this call already.", who=e.call.answered_by or "?"), "error")
        return redirect(back, 303)
    flash(_("The call is answered: the table sees your answer."))
    return redirect(back, 303)
