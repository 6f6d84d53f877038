"""Printable PDFs: the score sheet, a hand's record, a blank sheet, and bulk exports.

Bulk exports are jobs in the database (:mod:`app.printing.exports`): a POST to /exports
queues one, a runner thread in each worker renders queued jobs one at a time
(:mod:`app.printing.runner`), the page /exports/<job> shows a progress bar fed by
/exports/<job>.json (any worker answers), and the PDF is served from instance/exports/
once built.
"""
from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from datetime import date
from typing import Any

import segno
from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    send_file,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from markupsafe import Markup
from wtforms import DateField, SelectField
from wtforms.validators import Optional

from app.accounts.auth import user
from app.db import get_session
from app.games import queries
from app.models import ExportJob, ExportState
from app.printing import docs, pool
from app.printing import exports as exports_service
from app.printing.responses import blank_pdf, dispute_pdf, game_link, hand_pdf, sheet_pdf
from app.printing.runner import exports_dir, runner
from app.rules import fingerprint
from app.web.chart import legend, progression_svg
from app.web.common import lang, load_game_or_404
from app.web.diagram import table_svg
from app.web.forms import choices
from app.web.words import OPTION_LABELS

bp = Blueprint("pdf", __name__)

PDF_FONT = 'font-family="DejaVu Sans Condensed"'


# --- template helpers (the pictures and labels of a plain doc) ----------------------------

def _with_font(svg: str) -> Markup:
    """The SVG with the PDF's one font family on its root (its text inherits it)."""
    return Markup(str(svg).replace("<svg ", f"<svg {PDF_FONT} ", 1))


@bp.app_template_global()
def pdf_diagram(doc: dict[str, Any]) -> Markup:
    return _with_font(table_svg(doc["players"], doc["clockwise"],
                                _("Seats around the table and the direction of play"),
                                doc.get("first_seat")))


@bp.app_template_global()
def pdf_chart(doc: dict[str, Any]) -> Markup:
    running = [r["running_totals"] for r in doc.get("hands", [])]
    svg = progression_svg(doc["players"], running, _("Running totals, hand by hand"), lean=True)
    return _with_font(svg) + legend(doc["players"])


@bp.app_template_global("game_link")
def _game_link(game_id: int) -> str:
    return game_link(game_id)


@bp.app_template_global()
def pdf_qr(data: str) -> Markup:
    """A QR code of ``data`` as inline SVG (one path: cheap to render, nothing fetched)."""
    svg = segno.make(data, error="m").svg_inline(scale=1, border=0, omitsize=True, dark="#16181b")
    return Markup(svg.replace("<svg ", '<svg class="qr" ', 1))


@bp.app_template_global()
def pdf_option(name: str, value: str) -> tuple[str, str]:
    label, values = OPTION_LABELS.get(name, (name, {}))
    return str(label), str(values.get(value, value))


@bp.app_template_global()
def record_fingerprint(game_id: int) -> str:
    """The short fingerprint of a stored game's record (the same as in its PDF footer)."""
    game = queries.get_game(get_session(), game_id)
    return fingerprint(game.record) if game is not None else ""


# --- single PDFs ------------------------------------------------------------------------

@bp.get("/games/<int:game_id>/sheet.pdf")
def sheet(game_id: int) -> Response:
    return sheet_pdf(docs.pdf_stamp(get_session(), game_id))


@bp.get("/games/<int:game_id>/hands/<int:row>.pdf")
def hand(game_id: int, row: int) -> Response:
    return hand_pdf(docs.pdf_stamp(get_session(), game_id), row)


@bp.get("/games/<int:game_id>/hands/<int:row>/dispute.pdf")
def dispute(game_id: int, row: int) -> Response:
    return dispute_pdf(load_game_or_404(game_id), row)


@bp.get("/games/<int:game_id>/blank.pdf")
def blank(game_id: int) -> Response:
    return blank_pdf(docs.pdf_stamp(get_session(), game_id))


# --- bulk exports -----------------------------------------------------------------------

class ExportForm(FlaskForm):
    date_from = DateField(_l("From"), validators=[Optional()])
    date_to = DateField(_l("To"), validators=[Optional()])
    player = SelectField(_l("Player"), coerce=int, default=0)
    orientation = SelectField(_l("Orientation"), default="auto",
                              choices=choices([("auto", _l("as each game prints best")),
                                               ("portrait", _l("portrait")), ("landscape", _l("landscape"))]))

    def validate(self, extra_validators: Any = None) -> bool:
        ok = bool(super().validate(extra_validators))
        if ok and not (self.date_from.data or self.date_to.data or self.player.data):
            self.form_errors.append(_("Pick a date range or a player."))
            ok = False
        if ok and self.date_from.data and self.date_to.data and self.date_from.data > self.date_to.data:
            self.date_to.errors.append(_("The range ends before it starts."))
            ok = False
        return ok


# The job's state as the page's script words it (queued, building ... done, error).
def _status(job: ExportJob) -> dict[str, Any]:
    state = {ExportState.RUNNING: "building"}.get(job.state, job.state)
    percent = 100 if job.state == ExportState.DONE else (
        int(99 * job.progress / job.total) if job.total else 0)
    out: dict[str, Any] = {"id": job.id, "state": state, "done": job.progress,
                           "total": job.total, "percent": percent,
                           "error": _error_text(job.error) if job.state == ExportState.ERROR else None}
    if job.state == ExportState.DONE:
        out["pdf_url"] = url_for("pdf.export_file", job_id=job.id)
        out["pages"] = job.pages
    return out


def _error_text(error: str | None) -> str:
    if error == "no-games":
        return str(_("No games match."))
    if error == "interrupted":
        return str(_("The export was interrupted (the server restarted). Start it again."))
    return error or ""


def _requester() -> str:
    """Who asks for exports: the signed-in user (``user:<id>``); without one, this browser
    (a random id kept in its session)."""
    signed_in = user()
    if signed_in is not None:
        return f"user:{signed_in.id}"
    rid = session.get("requester")
    if not isinstance(rid, str):
        rid = session["requester"] = secrets.token_urlsafe(12)
    return rid


def _player_choices() -> list[Any]:
    keep = request.values.get("player", type=int)      # the chosen one stays a choice
    return choices([(0, "—")] + queries.player_choices(get_session(), keep=keep))


@bp.route("/exports", methods=["GET", "POST"])
def exports() -> Any:
    form = ExportForm()
    form.player.choices = _player_choices()
    status = 200
    if form.validate_on_submit():
        params: dict[str, Any] = {"date_from": form.date_from.data, "date_to": form.date_to.data,
                                  "player_id": form.player.data or None, "lang": lang(),
                                  "orientation": form.orientation.data,
                                  "base_url": request.host_url}
        try:
            job = exports_service.create_job(get_session(), owner=_requester(), params=params)
        except exports_service.ExportBusy as e:
            flash(_("Your previous export is still being prepared: wait for it to finish, "
                    "then start the next one."), "error")
            return redirect(url_for("pdf.export_page", job_id=e.job_id), 303)
        except exports_service.QueueFull:
            form.form_errors.append(_("Many exports are being prepared right now. Try again in "
                                      "a few minutes."))
            status = 503
        else:
            runner().notify()
            return redirect(url_for("pdf.export_page", job_id=job.id), 303)
    elif request.method == "POST":
        status = 400
    return render_template("pdf/exports.html", form=form, today=date.today()), status


JOB_ID = re.compile(r"[A-Za-z0-9_-]{8,32}")


def _job_or_404(job_id: str) -> ExportJob:
    if not JOB_ID.fullmatch(job_id):
        abort(404)
    job = get_session().get(ExportJob, job_id)
    if job is None:
        abort(404)
    if job.state == ExportState.QUEUED:
        runner().notify()   # its worker may be gone: this one takes it
    return job


@bp.get("/exports/<job_id>")
def export_page(job_id: str) -> str:
    job = _job_or_404(job_id)
    return render_template("pdf/export_job.html", job=job, status=_status(job))


@bp.get("/exports/<job_id>.json")
def export_status(job_id: str) -> Response:
    response = jsonify(_status(_job_or_404(job_id)))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/exports/<job_id>.pdf")
def export_file(job_id: str) -> Any:
    job = _job_or_404(job_id)
    if job.state in ExportState.ACTIVE:     # not ready yet: its page follows it (issue 38)
        return redirect(url_for("pdf.export_page", job_id=job.id), 303)
    path = exports_service.file_of(job, exports_dir(current_app))
    if path is None:
        abort(404)
    response = send_file(path, mimetype="application/pdf", conditional=True,
                         download_name=f"kingsheet-export-{job_id[:8]}.pdf",
                         as_attachment=bool(request.args.get("download")))
    return response


def init_app(app: Flask, make_app: Callable[[dict[str, Any]], Flask]) -> None:
    """Serves the PDFs and the exports. ``make_app`` (the factory's ``build_app``) is how a
    bulk export's render process builds its own app from this one's settings: handed in,
    as the factory imports this package (never the other way round), and kept in the
    settings, which the render processes are given (:func:`app.printing.pool.pool_renders`)."""
    app.config[pool.MAKE_APP] = make_app
    app.register_blueprint(bp)
