"""Printable PDFs: the score sheet, a hand's record, a blank sheet, and bulk exports.

Bulk exports run in a background thread (one job per request to /exports): the page
/exports/<job> shows a progress bar fed by /exports/<job>.json, and the PDF is served from
/exports/<job>.pdf once built. Jobs live in memory (the last few are kept); a restart
forgets them, which is fine for a file the user downloads right away.
"""
from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_wtf import FlaskForm
from markupsafe import Markup
from wtforms import DateField, SelectField
from wtforms.validators import Optional

from app.db import get_session
from app.forms import choices
from app.rules import RecordError, fingerprint
from app.services import pdf as pdf_service
from app.services import queries
from app.web.chart import legend, progression_svg
from app.web.diagram import table_svg
from app.web.games import lang, load_game_or_404

bp = Blueprint("pdf", __name__)

PDF_FONT = 'font-family="DejaVu Sans Condensed"'
MAX_JOBS = 20


def _pdf_response(data: bytes, filename: str) -> Response:
    response = Response(data, mimetype="application/pdf")
    disposition = "attachment" if request.args.get("download") else "inline"
    response.headers["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    return response


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


def game_link(game_id: int) -> str:
    """The address printed (and QR-coded) in a game's PDF footer: where a reader of the
    paper finds the game. The ONE place that decides it."""
    return url_for("games.sheet", game_id=game_id, _external=True)


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
    from app.web.games import OPTION_LABELS

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
    game = load_game_or_404(game_id)
    orientation = request.args.get("orientation", "auto")
    if orientation not in pdf_service.ORIENTATIONS:
        abort(400)
    doc = pdf_service.sheet_doc(game, lang())
    if doc["error"]:
        raise RecordError("record", doc["error"])
    return _pdf_response(pdf_service.export_sheet_pdf(doc, orientation), f"kingsheet-{game_id}.pdf")


@bp.get("/games/<int:game_id>/hands/<int:row>.pdf")
def hand(game_id: int, row: int) -> Response:
    game = load_game_or_404(game_id)
    doc = pdf_service.hand_doc(game, row, lang())
    if doc is None:
        abort(404)
    return _pdf_response(pdf_service.export_hand_pdf(doc), f"kingsheet-{game_id}-hand-{row}.pdf")


@bp.get("/games/<int:game_id>/blank.pdf")
def blank(game_id: int) -> Response:
    game = load_game_or_404(game_id)
    doc = pdf_service.blank_doc(game, lang())
    return _pdf_response(pdf_service.export_blank_pdf(doc), f"kingsheet-{game_id}-blank.pdf")


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


@dataclass
class Job:
    id: str
    lang: str
    orientation: str
    criteria: dict[str, Any]
    state: str = "queued"           # queued, building, rendering, done, error
    done: int = 0                   # games prepared
    total: int = 0
    pages: int = 0
    error: str | None = None
    pdf: bytes | None = None
    created: float = field(default_factory=time.monotonic)
    thread: threading.Thread | None = field(default=None, repr=False)

    @property
    def percent(self) -> int:
        if self.state == "done":
            return 100
        if self.state == "rendering":
            return 60
        if self.state == "writing":
            return 85
        if self.total:
            return int(60 * self.done / self.total)
        return 0

    def status(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "state": self.state, "done": self.done,
                               "total": self.total, "percent": self.percent, "error": self.error}
        if self.state == "done":
            out["pdf_url"] = url_for("pdf.export_file", job_id=self.id)
            out["pages"] = self.pages
            out["bytes"] = len(self.pdf or b"")
        return out


class JobStore:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.jobs: dict[str, Job] = {}

    def add(self, job: Job) -> None:
        with self.lock:
            finished = sorted((j for j in self.jobs.values() if j.state in ("done", "error")),
                              key=lambda j: j.created)
            while len(self.jobs) >= MAX_JOBS and finished:
                self.jobs.pop(finished.pop(0).id, None)
            self.jobs[job.id] = job

    def get(self, job_id: str) -> Job | None:
        with self.lock:
            return self.jobs.get(job_id)


def jobs(app: Flask | None = None) -> JobStore:
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    store = app.extensions.get("pdf_jobs")
    if store is None:
        store = app.extensions.setdefault("pdf_jobs", JobStore())
    return store  # type: ignore[no-any-return]


def run_job(app: Flask, job: Job) -> None:
    """Build every game's doc (progress per game), then render them all at once."""
    try:
        with app.test_request_context("/exports", headers={"Accept-Language": job.lang}):
            session = get_session()
            ids = pdf_service.find_games(session, **job.criteria)
            job.total = len(ids)
            job.state = "building"
            docs = []
            for game_id in ids:
                doc = pdf_service.game_sheet_doc(session, game_id, job.lang)
                if doc is not None:
                    docs.append(doc)
                job.done += 1
            if not docs:
                job.error = _("No games match.")
                job.state = "error"
                return
            job.state = "rendering"

            def progress(stage: str, pages: int) -> None:
                job.state, job.pages = stage, pages

            data = pdf_service.export_bulk_pdf(docs, job.orientation,
                                               title=ngettext("Score sheets (%(num)s game)",
                                                              "Score sheets (%(num)s games)",
                                                              len(docs)),
                                               progress=progress)
            job.pdf = data
            job.state = "done"
    except Exception as e:  # noqa: BLE001 - reported on the page, logged for us
        app.logger.exception("bulk PDF export %s failed", job.id)
        job.error = f"{type(e).__name__}: {e}"
        job.state = "error"


def _player_choices() -> list[Any]:
    return choices([(0, "—")] + queries.player_choices(get_session()))


@bp.route("/exports", methods=["GET", "POST"])
def exports() -> Any:
    form = ExportForm()
    form.player.choices = _player_choices()
    if form.validate_on_submit():
        criteria: dict[str, Any] = {"date_from": form.date_from.data, "date_to": form.date_to.data,
                                    "player_id": form.player.data or None}
        job = Job(secrets.token_urlsafe(12), lang(), form.orientation.data, criteria)
        app = current_app._get_current_object()  # type: ignore[attr-defined]
        jobs(app).add(job)
        job.thread = threading.Thread(target=run_job, args=(app, job), daemon=True,
                                      name=f"pdf-export-{job.id}")
        job.thread.start()
        return redirect(url_for("pdf.export_page", job_id=job.id), 303)
    status = 400 if request.method == "POST" else 200
    return render_template("pdf/exports.html", form=form, today=date.today()), status


def _job_or_404(job_id: str) -> Job:
    job = jobs().get(job_id)
    if job is None:
        abort(404)
    return job


@bp.get("/exports/<job_id>")
def export_page(job_id: str) -> str:
    job = _job_or_404(job_id)
    return render_template("pdf/export_job.html", job=job, status=job.status())


@bp.get("/exports/<job_id>.json")
def export_status(job_id: str) -> Response:
    return jsonify(_job_or_404(job_id).status())


@bp.get("/exports/<job_id>.pdf")
def export_file(job_id: str) -> Response:
    job = _job_or_404(job_id)
    if job.state != "done" or job.pdf is None:
        abort(409 if job.state != "error" else 404)
    return _pdf_response(job.pdf, f"kingsheet-export-{job_id[:8]}.pdf")
