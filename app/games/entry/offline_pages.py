"""What a phone keeps to enter hands with no network (issue 24, issue 39): the entry pages of
the next hand and of the few after it (``/games/<id>/hands/offline.json``, which the service
worker fetches), the sheet's hands ahead, and the game a page belongs to."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request, url_for

from app.games.entry import entry
from app.games.entry import setup as setup_service
from app.games.entry.ahead import AHEAD, ahead_context, chosen_ahead, hand_after, not_known
from app.rules import entry as entering
from app.rules import get_profile
from app.web.common import load_game_or_404

bp = Blueprint("offline", __name__)


@bp.app_template_global("hands_ahead")
def hands_ahead(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The sheet's next hand and the few after it, each with its row (the sheet kept on a
    phone shows the one after the hands waiting there: static/js/offline.js)."""
    nxt: dict[str, Any] = view.get("next") or {}
    seat = nxt.get("dealer") if nxt.get("dealer") is not None else nxt.get("chooser")
    if seat is None:
        return []
    profile = get_profile(view["profile"])
    first_seat = (seat - nxt["number"] + 1) % 4
    out = []
    for ahead in range(1, AHEAD + 1):
        after = hand_after(profile, first_seat, nxt["number"] + ahead)
        if after is None:
            break
        out.append({"row": view["n_rows"] + 1 + ahead, "next": after,
                    "not_known": not_known(after, view["players"], after.number - 1)})
    return out


@bp.app_template_global("page_game")
def page_game() -> int | None:
    """The game a page belongs to: every page whose address is under ``/games/<id>``
    (its sheet, entry, trick, hand, confirm, change log and handover pages). The page
    names it for static/js/offline.js, which shows there how many of that game's hands
    wait on this phone and since when; None on any other page."""
    found = (request.view_args or {}).get("game_id")
    return found if isinstance(found, int) else None


@bp.get("/games/<int:game_id>/hands/offline.json")
def offline_pages(game_id: int) -> Any:
    """The entry pages of the next hand (each allowed setup in each entry mode), and of the
    few hands after it where the schedule alone fixes them (``ahead``), which the phone's
    service worker keeps so that the hands can be entered without a network, each on its
    own page (static/js/sw.js keeps the later ones by their row)."""
    game = load_game_or_404(game_id)
    index = len(game.hands)
    ctx = entry.context(game.record, index)
    urls: list[str] = []
    for ahead in range(1, AHEAD + 1):     # the hands after it, each on its own row's pages
        later = ahead_context(ctx, ahead)
        if later is None:
            break
        urls += _entry_urls(later, dict(game_id=game.id, row=index + 1 + ahead, ahead=ahead))
    if ctx.next is not None:
        urls.append(url_for("hands.new", game_id=game.id))
        urls.append(url_for("hands.new", game_id=game.id, row=index + 1))
        urls.append(url_for("hands.new", game_id=game.id, mode="tricks"))   # "trick by trick"
        urls += _entry_urls(ctx, dict(game_id=game.id, row=index + 1))
    response = jsonify(version=game.version, urls=urls)
    response.headers["Cache-Control"] = "no-store"
    return response


def _entry_urls(ctx: entry.Context, where: dict[str, Any]) -> list[str]:
    """The entry pages of hand ``ctx.index`` a phone keeps: each complete setup in each entry
    mode (counts, captured cards, trick by trick); a chooser's hand ahead also its choice
    (each contract offered), a fiesta ahead only its page saying what is not known yet."""
    ahead = where.get("ahead")
    if ahead and ctx.next.fiesta:
        return [url_for("hands.new", **where)]
    if ahead and ctx.next.contract is not None:      # fixed by the schedule: no setup to name
        return [url_for("hands.new", **where, mode=mode) for mode in _modes(ctx, ctx.next.contract)]
    if ahead:
        # a chooser's hand ahead: its choice, and each choice's counts page only (a phone
        # asks for these again after every change of the game: every mode of every contract
        # of three rifki hands ahead was 105 pages each time, counts only is 63)
        setups = [s.setup for c in chosen_ahead(ctx, None, None).choices if c.allowed
                  for t in (setup_service.SUITS if ctx.profile.contracts[c.contract].trump_game else (None,))
                  if (s := chosen_ahead(ctx, c.contract, t)).setup is not None]
        urls = [url_for("hands.new", **where, mode=mode) for mode in ("counts", "tricks")]
        return urls + [url_for("hands.new", **where, mode="counts", **_url_args(ready.params))
                       for ready in setups]
    urls = []
    for ready in setup_service.ready_setups(ctx):
        urls += [url_for("hands.new", **where, mode=mode, **_url_args(ready.params))
                 for mode in _modes(ctx, ready.contract)]
    return urls


def _url_args(params: dict[str, str]) -> dict[str, Any]:
    """URL parameters as url_for takes them (its own keywords are typed)."""
    return dict(params)


def _modes(ctx: entry.Context, contract: str) -> list[str]:
    """The entry modes of a contract: counts, captured cards where it scores cards, trick by
    trick where it is played."""
    spec = entering.entry_spec(ctx.profile, contract)
    return (["counts"] + (["captures"] if spec.has_cards else [])
            + (["tricks"] if ctx.profile.contracts[contract].played else []))
