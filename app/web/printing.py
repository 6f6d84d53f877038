"""A game's single PDFs as responses: the sheet and a hand's record (the pdf blueprint
serves them at the game's address, the share link behind its token)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response, abort, render_template, request

from app.pdf import render_pdf
from app.services import pdf as pdf_service
from app.services.pdf import ORIENTATIONS
from app.web.common import lang


def pdf_response(data: bytes, filename: str) -> Response:
    response = Response(data, mimetype="application/pdf")
    disposition = "attachment" if request.args.get("download") else "inline"
    response.headers["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    return response


def sheet_pdf(game: Any) -> Response:
    """The sheet PDF of a game (also behind its share link)."""
    game_id = game.id
    orientation = request.args.get("orientation", "auto")
    if orientation not in pdf_service.ORIENTATIONS:
        abort(400)
    doc = pdf_service.sheet_doc(game, lang())
    if doc["error"]:
        raise doc["error"]           # the record's own error: the error page translates it
    return pdf_response(export_sheet_pdf(doc, orientation), f"kingsheet-{game_id}.pdf")


def hand_pdf(game: Any, row: int) -> Response:
    """A hand's record as PDF (also behind the game's share link)."""
    game_id = game.id
    doc = pdf_service.hand_doc(game, row, lang())
    if doc is None:
        abort(404)
    return pdf_response(export_hand_pdf(doc), f"kingsheet-{game_id}-hand-{row}.pdf")


# --- rendering: a plain doc (app.services.pdf) through its template into PDF bytes ------

def _render(template: str, progress: Callable[[str, int], None] | None = None,
            **context: Any) -> bytes:
    return render_pdf(render_template(template, **context), progress=progress)


def export_sheet_pdf(doc: dict[str, Any], orientation: str = "auto") -> bytes:
    if orientation not in ORIENTATIONS:
        raise ValueError(f"orientation is one of {ORIENTATIONS}")
    return _render("pdf/sheet.html", docs=[doc], orientation=orientation)


def export_hand_pdf(doc: dict[str, Any]) -> bytes:
    return _render("pdf/hand.html", doc=doc, orientation="portrait")


def export_blank_pdf(doc: dict[str, Any]) -> bytes:
    return _render("pdf/blank.html", doc=doc, orientation="portrait")


def export_bulk_pdf(docs: list[dict[str, Any]], orientation: str = "auto",
                    title: str | None = None,
                    progress: Callable[[str, int], None] | None = None) -> bytes:
    """Many score sheets as one PDF: one document, one render; each game starts a page
    (with "auto", each game in its own orientation)."""
    if orientation not in ORIENTATIONS:
        raise ValueError(f"orientation is one of {ORIENTATIONS}")
    return _render("pdf/sheet.html", progress, docs=docs, orientation=orientation, bulk_title=title)


def export_standings_pdf(doc: dict[str, Any]) -> bytes:
    """The PDF of a season's standings (``app.services.standings.standings_doc``)."""
    return _render("pdf/standings.html", doc=doc, orientation="portrait")


def export_event_standings_pdf(doc: dict[str, Any]) -> bytes:
    """The first pages of an event's PDF: its standings (``services.events.standings_doc``)."""
    return _render("events/pdf_standings.html", doc=doc, orientation="portrait")
