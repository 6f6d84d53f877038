"""At the table: each seat confirms the sheet (one tap from the player's account, or the
seat's PIN on the scorer's phone), the share link (made and revoked by a scorer) and the
one-time link that hands scoring to another logged-in phone."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from app.accounts import accounts, throttle
from app.accounts.auth import forbidden, game_access, user
from app.accounts.forms import LogoutForm as PostForm  # a form with only its CSRF token
from app.accounts.throttle import Throttled
from app.db import get_session
from app.errors import BadInput, ForbiddenError, SheetChanged
from app.games import links, queries
from app.games.table import confirm
from app.web.common import found_or_404, lang, load_game_or_404
from app.web.messages import service_text

bp = Blueprint("table", __name__)

#: Wrong PINs are counted per game seat (app/accounts/throttle.py): after 5 the seat waits.


def _waiting(game: Any, e: Throttled, seat: int | None) -> Any:
    """A seat that waits after wrong PINs: the page says until when (429, Retry-After)."""
    response = make_response(_confirm_page(game, _(
        "Too many wrong PINs for this seat: wait %(n)s seconds and try again.", n=e.retry_after),
        429, seat))
    response.headers["Retry-After"] = str(e.retry_after)
    return response


def _confirm_page(game: Any, error: str | None = None, status: int = 200,
                  seat: int | None = None) -> Any:
    """The four seats, each with its total, its state and its way to confirm; a refusal is
    shown next to the seat it is about (``seat``), or above them all."""
    session = get_session()
    u = user()
    return render_template("table/confirm.html", game=game, players=list(game.record["players"]),
                           table=confirm.table_state(session, game), access=game_access(game.id),
                           waits=throttle.seat_waits(session, game.id),
                           me=u.id if u is not None else None, error=error, error_seat=seat,
                           sheet=queries.sheet_view(game, lang()),
                           complete=game.status.value == "complete"), status


@bp.route("/games/<int:game_id>/confirm", methods=["GET", "POST"])
def confirm_sheet(game_id: int) -> Any:
    """GET: the four seats and how each confirms; POST ``seat`` (+ ``pin``): a confirmation.
    A PIN is typed on a scorer's phone; without one, only the seat's own player confirms."""
    game = load_game_or_404(game_id)
    if request.method == "GET":
        return _confirm_page(game)
    if not PostForm().validate_on_submit():
        abort(400)
    seat = request.form.get("seat", type=int)
    pin = request.form.get("pin")
    # the version of the sheet the player looked at (a form without one saw no sheet)
    seen = request.form.get("version", type=int, default=-1)
    u = user()
    if u is None or seat is None:
        abort(400)
    try:
        _confirm_seat(game, seat, pin, u, seen)
    except SheetChanged as e:
        return _confirm_page(game, service_text(e), 409)
    except BadInput as e:
        return _confirm_page(game, service_text(e), 422, _seat_or_none(seat))
    except Throttled as e:
        return _waiting(game, e, _seat_or_none(seat))
    players = game.record["players"]
    flash(_("%(name)s confirmed the sheet.", name=players[seat]))
    if confirm.is_locked(get_session(), game):
        flash(_("All four players confirmed: the sheet is locked."))
    return redirect(url_for("table.confirm_sheet", game_id=game.id), 303)


def _confirm_seat(game: Any, seat: int, pin: str | None, u: Any, seen: int) -> None:
    """The confirmation: by the seat's PIN (on a scorer's phone only), a director vouching
    for the seat, else by the seat's own account."""
    if pin:
        if not game_access(game.id).can_score:
            raise ForbiddenError(_("Seat PINs are typed on the phone of the game's scorer."))
        confirm.confirm_by_pin(get_session(), game, seat, pin, u, version=seen)
    elif request.form.get("vouch"):      # a director vouches for the seat (issue 38)
        confirm.confirm_by_director(get_session(), game, seat, u, version=seen)
    else:
        confirm.confirm_by_account(get_session(), game, seat, u, version=seen)


def _seat_or_none(seat: int) -> int | None:
    """The seat a refusal is shown next to: None (above them all) when it is no seat."""
    return seat if seat in range(4) else None


@bp.post("/games/<int:game_id>/seats/<int:seat>/pin-wait")
def clear_pin_wait(game_id: int, seat: int) -> Any:
    """A director ends a seat's wait after wrong PINs (the table vouches for the player)."""
    game = load_game_or_404(game_id)
    if not PostForm().validate_on_submit():
        abort(400)
    u = user()
    if u is None or not u.is_director:
        raise ForbiddenError(_("Only a director can end a seat's wait."))
    throttle.clear_pin_wait(get_session(), game.id, seat)
    flash(_("The seat of %(name)s may try its PIN again.", name=game.record["players"][seat]
            if seat in range(4) else "?"))
    return redirect(url_for("table.confirm_sheet", game_id=game.id), 303)


@bp.post("/games/<int:game_id>/share")
def make_share(game_id: int) -> Any:
    game = load_game_or_404(game_id)
    if not PostForm().validate_on_submit():
        abort(400)
    u = user()
    links.share_link(get_session(), game.id, created_by=u.id if u else None)
    flash(_("Share link made: anyone with it reads this sheet live."))
    return redirect(url_for("games.sheet", game_id=game.id) + "#share", 303)


@bp.post("/games/<int:game_id>/share/revoke")
def revoke_share(game_id: int) -> Any:
    game = load_game_or_404(game_id)
    if not PostForm().validate_on_submit():
        abort(400)
    if links.revoke_share(get_session(), game.id):
        flash(_("Share link revoked: it opens nothing any more."))
    return redirect(url_for("games.sheet", game_id=game.id) + "#share", 303)


@bp.route("/games/<int:game_id>/handover", methods=["GET", "POST"])
def handover_page(game_id: int) -> Any:
    """The scorer's phone shows the QR code of a one-time link; the logged-in phone that
    opens it becomes a scorer of this game (the link is then spent)."""
    game = load_game_or_404(game_id)
    session = get_session()
    link = None
    if request.method == "POST":
        if not PostForm().validate_on_submit():
            abort(400)
        u = user()
        link = links.handover_link(session, game.id, created_by=u.id if u else None)
    return render_template("table/handover.html", game=game, link=link)


@bp.route("/h/<token>", methods=["GET", "POST"])
def handover(token: str) -> Any:
    session = get_session()
    game = found_or_404(links.handover_game(session, token))
    u = user()
    if u is not None and not accounts.may_keep_score(u):
        return forbidden(service_text(links.PLAYER_REFUSED))
    if request.method == "POST" and u is not None:
        if not PostForm().validate_on_submit():
            abort(400)
        taken = links.use_handover(session, token, u)
        if taken is None:
            abort(404)
        flash(_("You keep score of this game now."))
        return redirect(url_for("games.sheet", game_id=taken.id), 303)
    return render_template("table/take_over.html", game=game, token=token)
