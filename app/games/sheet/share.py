"""The share link: ``/s/<token>`` shows a game's live sheet, its hand pages and its PDFs to
anyone who has the link, without an account, and nothing else: no form, no correction,
no other game. A revoked token opens nothing (404)."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, request, url_for

from app.db import get_session
from app.games import links
from app.games.referee.view import hand_record_page
from app.games.sheet.view import render_sheet
from app.games.table import confirm
from app.printing import docs as pdf_docs
from app.printing import responses
from app.web.common import found_or_404, remember_table_stamp, stamp_response

bp = Blueprint("share", __name__)


def shared_or_404(token: str) -> Any:
    return found_or_404(links.shared_game(get_session(), token))


@bp.get("/s/<token>")
def sheet(token: str) -> str:
    game = shared_or_404(token)
    state = confirm.sheet_state(get_session(), game, None)
    remember_table_stamp(game.id, state.confirmations)
    return render_sheet(game, "share/sheet.html", base_url=url_for("share.sheet", token=token),
                        token=token, table=state.table,
                        state=(state.table.key(), state.confirmations, token))


@bp.get("/s/<token>/live")
def stamp(token: str) -> Any:
    return stamp_response(shared_or_404(token).id)


@bp.get("/s/<token>/hands/<int:n>")
def hand(token: str, n: int) -> Any:
    game = shared_or_404(token)
    if not 1 <= n <= len(game.hands):
        abort(404)
    return hand_record_page(game, n - 1, None, {}, 200, share=token,
                            step=request.args.get("trick"))


def _stamp(token: str) -> pdf_docs.PdfStamp | None:
    """The shared game's PdfStamp (one statement; None for an unknown or revoked token)."""
    return pdf_docs.pdf_stamp(get_session(), share_token=token) if links.TOKEN.match(token) else None


@bp.get("/s/<token>/sheet.pdf")
def sheet_pdf(token: str) -> Response:
    return responses.sheet_pdf(_stamp(token))


@bp.get("/s/<token>/hands/<int:n>.pdf")
def hand_pdf(token: str, n: int) -> Response:
    return responses.hand_pdf(_stamp(token), n)
