"""A game's single PDFs as responses: the sheet and a hand's record (the pdf blueprint
serves them at the game's address, the share link behind its token), each rendered once
per content and kept on disk (:mod:`app.printing.cache`) for the next download; and every
PDF render (``export_*_pdf``: a plain doc through its template into bytes)."""
from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Response, abort, current_app, g, render_template, request, url_for

from app.db import get_session
from app.games import links, queries
from app.games.referee.deal_viewer import alternatives_views
from app.games.table.confirm import confirmation_log
from app.printing import docs as pdf_docs
from app.printing.cache import PdfCache, layout_version
from app.printing.docs import ORIENTATIONS, PdfStamp
from app.printing.render import render_pdf
from app.rules import digest
from app.web import versions
from app.web.common import found_or_404, lang
from app.web.referee_words import confirmation_way


def pdf_response(data: bytes, filename: str, key: str | None = None) -> Response:
    """``data`` as a PDF response; with the ``key`` it was kept under, an ETag (a phone
    asking again with If-None-Match gets 304, no body)."""
    response = Response(data, mimetype="application/pdf")
    disposition = "attachment" if request.args.get("download") else "inline"
    response.headers["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    if key is not None:
        return versions.file_answer(response, hashlib.sha256(key.encode("utf-8")).hexdigest()[:32])
    return response


def _links() -> dict[int, str]:
    """The footer addresses decided in this request (or bulk export), by game."""
    found: dict[int, str] = g.setdefault("game_links", {})
    return found


def game_link(game_id: int) -> str:
    """The address printed (and QR-coded) in a game's PDF footer: where a reader of the
    paper finds the game. The ONE place that decides it: the game's share link when it has
    one (anyone holding the paper can follow it, no account needed), else its sheet (for
    the club's accounts). Printing never makes a share link: sharing is the scorer's call.
    Decided once per request: the key a render is kept under names the same address."""
    found = _links().get(game_id)
    if found is None:
        share = links.active_share(get_session(), game_id)
        found = _link(game_id, share.token if share is not None else None)
    return found


def _link(game_id: int, share_token: str | None) -> str:
    if share_token is not None:
        link = url_for("share.sheet", token=share_token, _external=True)
    else:
        link = url_for("games.sheet", game_id=game_id, _external=True)
    _links()[game_id] = link
    return link


# --- renders kept (app.printing.cache) ---------------------------------------------------------

def pdf_cache() -> PdfCache | None:
    """This app's kept renders (``PDF_CACHE_DIR``, bounded by ``PDF_CACHE_MB``); None when
    the bound is 0."""
    app = current_app
    cache = app.extensions.get("pdf_cache")
    if cache is None:
        limit = int(float(app.config.get("PDF_CACHE_MB") or 0) * 1024 * 1024)
        if limit <= 0:
            return None
        root = app.config.get("PDF_CACHE_DIR") or Path(app.instance_path) / "pdf-cache"
        try:
            cache = app.extensions.setdefault("pdf_cache", PdfCache(root, limit))
        except OSError:           # a folder that cannot be made: PDFs are rendered each time
            app.logger.warning("PDF cache folder %s unusable: renders are not kept", root)
            return None
    return cache  # type: ignore[no-any-return]


def pdf_key(stamp: PdfStamp, kind: str, language: str, *more: Any) -> str:
    """Everything a game's PDF depends on: what it is (``kind`` and ``more``: the row, the
    orientation), the game, its version and its record's digest, the day it started, the
    language and the club's time zone, the address its footer prints (a share link, this
    site's host), and :func:`app.printing.cache.layout_version` (templates, stylesheet,
    catalogs, code)."""
    created = stamp.created_at
    parts = [kind, *map(str, more), str(stamp.game_id), str(stamp.version),
             str(stamp.record_digest), created.isoformat() if created is not None else "",
             language, str(current_app.config.get("CLUB_TIME_ZONE")),
             _link(stamp.game_id, stamp.share_token), layout_version()]
    return "\x1f".join(parts)


def kept_pdf(session: Any, stamp: PdfStamp, render: Callable[[Any], tuple[bytes, bool]],
             kind: str, language: str, *more: Any) -> tuple[bytes, str | None]:
    """A game's PDF and the key it is kept under: the kept one when there is one (nothing
    else is read: not even the record), else ``render(game)``'s ``(bytes, keep)``, kept when
    ``keep`` says so and the game read is the one the stamp named (same version and record
    digest: a save landing meanwhile keeps nothing under the old name). The key is None
    when the bytes are not the kept ones. 404 when the game is gone."""
    cache = pdf_cache()
    key = pdf_key(stamp, kind, language, *more) if stamp.record_digest else None
    if cache is not None and key is not None:
        data = cache.get(key)
        if data is not None:
            return data, key
    game = queries.get_game(session, stamp.game_id)
    if game is None:
        abort(404)
    data, keep = render(game)
    if not (keep and key is not None and game.version == stamp.version
            and digest(game.record) == stamp.record_digest):
        return data, None
    if cache is not None:
        cache.put(key, data)
    return data, key


def orientation_arg() -> str:
    orientation = request.args.get("orientation", "auto")
    if orientation not in ORIENTATIONS:
        abort(400)
    return orientation


def sheet_pdf(stamp: PdfStamp | None) -> Response:
    """The sheet PDF of a game (also behind its share link); 404 without a game."""
    stamp = found_or_404(stamp)
    orientation = orientation_arg()
    language = lang()

    def render(game: Any) -> tuple[bytes, bool]:
        doc = pdf_docs.sheet_doc(game, language)
        if doc["error"]:
            raise doc["error"]           # the record's own error: the error page translates it
        return export_sheet_pdf(doc, orientation), True

    data, key = kept_pdf(get_session(), stamp, render, "sheet", language, orientation)
    return pdf_response(data, f"kingsheet-{stamp.game_id}.pdf", key)


def bulk_sheet_pdf(session: Any, game_id: int, language: str, orientation: str) -> bytes | None:
    """A game's sheet in a bulk export (None: no such game): the single sheet PDF, kept and
    shared with its downloads. A record that no longer replays prints its header and error;
    that page is not kept (its single download is an error page)."""
    stamp = pdf_docs.pdf_stamp(session, game_id)
    if stamp is None:
        return None

    def render(game: Any) -> tuple[bytes, bool]:
        doc = pdf_docs.sheet_doc_or_error(game, language)
        return export_sheet_pdf(doc, orientation), not doc.get("error")

    return kept_pdf(session, stamp, render, "sheet", language, orientation)[0]


def hand_pdf(stamp: PdfStamp | None, row: int) -> Response:
    """A hand's record as PDF (also behind the game's share link); 404 without the game or
    the row."""
    stamp = found_or_404(stamp)
    if stamp.n_rows is not None and not 1 <= row <= stamp.n_rows:
        abort(404)
    language = lang()

    def render(game: Any) -> tuple[bytes, bool]:
        doc = pdf_docs.hand_doc(game, row, language)
        if doc is None:
            abort(404)
        return export_hand_pdf(doc), True

    data, key = kept_pdf(get_session(), stamp, render, "hand", language, row)
    return pdf_response(data, f"kingsheet-{stamp.game_id}-hand-{row}.pdf", key)


def dispute_pdf(game: Any, row: int) -> Response:
    """The dispute pack of hand row ``row`` (issue 40): the hand's record (deal, tricks,
    violations with their evidence, the ruling and its weights) with, for an appeal
    committee, the engine's alternatives at each violation (searched for up to the
    analysis budget), the table's confirmations and the record's fingerprint (16 hex of the
    SHA-256 of its canonical JSON). Rendered each time: the search is bounded by time."""
    language = lang()
    doc = pdf_docs.hand_doc(game, row, language)
    if doc is None:
        abort(404)
    doc["kind"] = "dispute"
    doc["alternatives"] = alternatives_views(game.record, row - 1, doc["violations"], bool(doc["deal"]),
                                             budget_key="ANALYSIS_BUDGET_S")
    doc["confirmations"] = [
        {"seat": c.seat, "name": name, "way": confirmation_way(c.method), "version": c.version,
         "at": c.at, "current": c.version == game.version}
        for c, name in reversed(confirmation_log(get_session(), game.id))]
    doc["record_digest"] = digest(game.record)[:16]
    data = _render("pdf/hand.html", doc=doc, orientation="portrait")
    return pdf_response(data, f"kingsheet-{game.id}-hand-{row}-dispute.pdf")


def blank_pdf(stamp: PdfStamp | None) -> Response:
    """A sheet to play on paper with the game's seats."""
    stamp = found_or_404(stamp)
    language = lang()

    def render(game: Any) -> tuple[bytes, bool]:
        return export_blank_pdf(pdf_docs.blank_doc(game, language)), True

    data, key = kept_pdf(get_session(), stamp, render, "blank", language)
    return pdf_response(data, f"kingsheet-{stamp.game_id}-blank.pdf", key)


# --- rendering: a plain doc (app.printing.docs) through its template into PDF bytes ------

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
    """The PDF of a season's standings (``app.stats.standings.standings_doc``)."""
    return _render("pdf/standings.html", doc=doc, orientation="portrait")


def export_event_standings_pdf(doc: dict[str, Any]) -> bytes:
    """The first pages of an event's PDF: its standings (``services.events.standings_doc``)."""
    return _render("events/pdf_standings.html", doc=doc, orientation="portrait")
