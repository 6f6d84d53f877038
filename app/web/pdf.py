"""Printable PDFs: the score sheet, a hand's record, a blank sheet, and bulk exports.

Bulk exports are jobs in the database (:mod:`app.services.exports`): a POST to /exports
queues one, a runner thread in each worker renders queued jobs one at a time, the page
/exports/<job> shows a progress bar fed by /exports/<job>.json (any worker answers), and
the PDF is served from instance/exports/ once built.
"""
from __future__ import annotations

import re
import secrets
import threading
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

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
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_wtf import FlaskForm
from markupsafe import Markup
from wtforms import DateField, SelectField
from wtforms.validators import Optional

from app.db import get_db, get_session
from app.forms import choices
from app.models import ExportJob, ExportState
from app.rules import fingerprint
from app.services import exports as exports_service
from app.services import pdf as pdf_service
from app.services import queries
from app.web import event_pdf, export_pool
from app.web.chart import legend, progression_svg
from app.web.common import lang
from app.web.diagram import table_svg
from app.web.printing import blank_pdf, bulk_sheet_pdf, game_link, hand_pdf, sheet_pdf

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
    import segno

    svg = segno.make(data, error="m").svg_inline(scale=1, border=0, omitsize=True, dark="#16181b")
    return Markup(svg.replace("<svg ", '<svg class="qr" ', 1))


@bp.app_template_global()
def pdf_option(name: str, value: str) -> tuple[str, str]:
    from app.web.words import OPTION_LABELS

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
    return sheet_pdf(pdf_service.pdf_stamp(get_session(), game_id))


@bp.get("/games/<int:game_id>/hands/<int:row>.pdf")
def hand(game_id: int, row: int) -> Response:
    return hand_pdf(pdf_service.pdf_stamp(get_session(), game_id), row)


@bp.get("/games/<int:game_id>/blank.pdf")
def blank(game_id: int) -> Response:
    return blank_pdf(pdf_service.pdf_stamp(get_session(), game_id))


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


class ExportRunner:
    """One thread per process renders the queued jobs, one at a time (any process may
    claim any job: the database says which are waiting)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.wake = threading.Event()
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None

    def notify(self) -> None:
        with self.lock:
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._loop, daemon=True,
                                               name="kingsheet-exports")
                self.thread.start()
        self.wake.set()

    def _loop(self) -> None:
        while True:
            self.wake.clear()
            try:
                while self.run_one():
                    pass
            except Exception:  # noqa: BLE001 - logged; the loop serves the next job
                self.app.logger.exception("bulk PDF export runner")
            self.wake.wait(timeout=RUNNER_POLL)

    def run_one(self) -> bool:
        """Claims and renders one queued job; False when none is waiting."""
        db = get_db(self.app)
        with db.sessionmaker() as session:
            exports_service.expire_stale(session)
            exports_service.cleanup(session, _exports_dir(self.app),
                                    int(self.app.config.get("EXPORTS_MAX_MB") or 0) * 1024 * 1024)
            job = exports_service.claim_next(session, exports_service.worker_name())
            if job is None:
                return False
            job_id, params = job.id, dict(job.params)
        language = params.get("lang", "es")
        orientation = params.get("orientation", "auto")
        with self.app.test_request_context("/exports", base_url=params.get("base_url"),
                                           headers={"Accept-Language": language}):
            renderer = exports_service.Renderer(
                find_games=lambda s, p: pdf_service.find_games(s, **exports_service.criteria(p)),
                render_game=lambda s, gid: _render_game(s, gid, language, orientation),
                label=lambda gid: str(_("Game %(id)s", id=gid)),
                render_all=lambda ids: export_pool.pool_renders(self.app, ids, language, orientation,
                                                                params.get("base_url")))
            title: Callable[[int], str] = _sheets_title
            if event_pdf.is_event_job(params):   # an event: its standings, then its tables
                renderer = event_pdf.event_renderer(
                    params, lambda s, gid: _render_game(s, gid, language, orientation))
                title = event_pdf.titled(params)
            try:
                exports_service.render_job(db.sessionmaker, job_id, _exports_dir(self.app),
                                           renderer, title=title)
            except Exception:  # noqa: BLE001 - the job row says it failed; logged for us
                self.app.logger.exception("bulk PDF export %s failed", job_id)
        return True


def _sheets_title(n: int) -> str:
    return str(ngettext("Score sheets (%(num)s game)", "Score sheets (%(num)s games)", n))


#: Seconds between looks at the queue when nobody woke the runner (jobs of a worker that
#: died, the clean-up of old files).
RUNNER_POLL = 30.0


def _exports_dir(app: Flask) -> Path:
    return exports_service.exports_dir(app.config.get("EXPORTS_DIR"), app.instance_path)


def _render_game(session: Any, game_id: int, language: str, orientation: str) -> bytes | None:
    data = bulk_sheet_pdf(session, game_id, language, orientation)
    export_pool.release_memory()     # the runner renders a small job game by game
    return data


def runner(app: Flask | None = None) -> ExportRunner:
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    found = app.extensions.get("pdf_export_runner")
    if found is None:
        found = app.extensions.setdefault("pdf_export_runner", ExportRunner(app))
    return found  # type: ignore[no-any-return]


def wait_for_job(app: Flask, job_id: str, timeout: float = 600.0) -> ExportJob:
    """The job once it is done or failed (tests and the bench; polls the database)."""
    deadline = time.monotonic() + timeout
    while True:
        with get_db(app).sessionmaker() as session:
            job = session.get(ExportJob, job_id)
            if job is None or job.state not in ExportState.ACTIVE or time.monotonic() > deadline:
                if job is None:
                    raise LookupError(job_id)
                return job
        time.sleep(0.1)


def _requester() -> str:
    """Who asks for exports: the signed-in user (``user:<id>``); without one, this browser
    (a random id kept in its session)."""
    from flask import session

    from app.web.auth import user

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
    if job.state in ExportState.ACTIVE:
        abort(409)
    path = exports_service.file_of(job, _exports_dir(current_app))
    if path is None:
        abort(404)
    response = send_file(path, mimetype="application/pdf", conditional=True,
                         download_name=f"kingsheet-export-{job_id[:8]}.pdf",
                         as_attachment=bool(request.args.get("download")))
    return response
