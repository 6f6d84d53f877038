"""The address of a hand entered trick by trick, and its first step: the deal, tapped card by
card (each card to its seat), carried in the address with the setup."""
from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from flask import redirect, render_template, request, url_for

from app.games.entry import setup as setup_service
from app.games.referee import referee as svc
from app.games.referee import view as view_of
from app.rules.game.hand import HandState


def state_url(game_id: int, index: int, editing: bool, setup: setup_service.Setup,
               deal: list[list[str]] | None, plays: list[str], **extra: str) -> str:
    params: dict[str, str] = {} if editing else {**setup.params, "row": str(index + 1)}
    params.update(svc.deal_params(deal))
    params["plays"] = ",".join(plays)
    params.update({k: v for k, v in extra.items() if v})
    if editing:
        base = url_for("referee.correct_tricks", game_id=game_id, n=index + 1)
    else:
        base = url_for("referee.tricks", game_id=game_id)
    return base + "?" + urlencode(params, safe=",")


def as_url_args(params: dict[str, str]) -> dict[str, Any]:
    """URL parameters as url_for takes them (its own keywords are typed)."""
    return dict(params)


def hidden_fields(editing: bool, setup: setup_service.Setup, deal: list[list[str]] | None,
            plays: list[str], index: int) -> dict[str, str]:
    out: dict[str, str] = {} if editing else {**setup.params, "row": str(index + 1)}
    out.update(svc.deal_params(deal))
    out["plays"] = ",".join(plays)
    return out


def deal_step(game: Any, index: int, editing: bool, setup: setup_service.Setup, page: dict[str, Any],
               plays: list[str], deal: list[list[str]] | None, problem: str | None) -> Any:
    """Deal entry: tap each seat's cards; the last seat takes the remaining ones."""
    profile = page["profile"]
    errors: dict[Any, str] = {}
    status = 200
    if "dealt" in request.args:
        assigned = tapped(profile)
        new_deal, errors = view_of.deal_from_assignment(profile, assigned, page["players"])
        if not errors:
            # cards already played must be in their player's hand: the play step checks
            return redirect(state_url(game.id, index, editing, setup, new_deal, plays), code=303)
        status = 422
    else:
        assigned = {c: s for s, cards in enumerate(deal or []) for c in cards}
    if problem:
        errors["deal"] = problem
        status = 422
    if not assigned and plays:
        assigned = played_by(profile, setup, plays)
    hidden = hidden_fields(editing, setup, None, plays, index)
    hidden["dealt"] = "1"
    # "Without the deal" leaves a deal that cannot be played with (say the 2♦ of rifki's
    # hand 1 at a seat that does not choose) behind; otherwise it goes back as it came
    kept = None if problem else deal
    page.update(grid=view_of.deck_by_suit(profile), assigned=assigned, deal_errors=errors,
                hidden=hidden, back=state_url(game.id, index, editing, setup, kept, plays),
                n_tricks=profile.n_tricks, form_action=request.path)
    return render_template("referee/tricks.html", step="deal", **page), status


def tapped(profile: Any) -> dict[str, int | None]:
    """Each card's seat as the deal form posted it (None: not tapped)."""
    args = request.args
    assigned: dict[str, int | None] = {}
    for suit in view_of.deck_by_suit(profile):
        for code in suit["cards"]:
            v = args.get(f"c_{code}", "")
            assigned[code] = int(v) if v in ("0", "1", "2", "3") else None
    return assigned


def played_by(profile: Any, setup: setup_service.Setup, plays: list[str]) -> dict[str, int | None]:
    """The cards already played, each with the seat that played it (the engine's)."""
    assert setup.leader is not None, "a 433 has no tricks"
    state = HandState(profile.id, None, setup.contract, setup.trump, setup.leader)
    n_ok, _msg = view_of.replay_plays(state, plays)
    seats = [s for trick in state.seats() for s in trick]
    return dict(zip(plays[:n_ok], seats, strict=False))
