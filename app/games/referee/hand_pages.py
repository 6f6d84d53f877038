"""The hand's record page (``/games/<id>/hands/<n>``: the deal viewer, each violation with the
analysis of what the offender could have made) and the director's ruling on it (RULES.md §3,
issue 40: a weighted adjusted ruling among them)."""
from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, abort, flash, redirect, request, url_for
from flask_babel import gettext as _

from app.accounts.auth import actor, director_reason, game_access
from app.db import get_session
from app.errors import ConflictError, LockedError, NothingChanged
from app.games import queries
from app.games.referee import referee as svc
from app.games.referee import view as view_of
from app.games.referee.deal_viewer import outcomes_from_analysis
from app.games.referee.forms import OUTCOMES, RulingForm, seat_choices
from app.rules import RecordError
from app.security import id_arg
from app.web.common import load_game_or_404, refused_for_lock
from app.web.messages import translate_error

bp = Blueprint("hand_record", __name__)


@bp.get("/games/<int:game_id>/hands/<int:n>")
def hand(game_id: int, n: int) -> Any:
    game = load_game_or_404(game_id)
    if not 1 <= n <= len(game.hands):
        abort(404)
    uses = request.args.getlist("use")
    outcomes: list[dict[str, Any]] = []
    problems: list[str] = []
    if uses and game_access(game_id).can_score:    # outcomes read off the analysis (issue 40)
        played = queries.replay_game(game).hands[n - 1].played_points
        outcomes, problems = outcomes_from_analysis(game.record, n - 1, uses, played)
    form = _ruling_form(game, n - 1, formdata=None, outcomes=outcomes)
    errors = {"weights": problems} if problems else {}
    return view_of.hand_record_page(game, n - 1, form, errors, 200, step=request.args.get("trick"),
                                    uses=uses)


def _hand_gone(game: Any, n: int) -> ConflictError:
    """A ruling posted for a hand row another phone deleted meanwhile."""
    return ConflictError(_("Someone else deleted hand row %(n)s meanwhile: nothing was saved.",
                           n=n), game.version)


@bp.post("/games/<int:game_id>/hands/<int:n>/ruling")
def ruling(game_id: int, n: int) -> Any:
    game = load_game_or_404(game_id)
    if not 1 <= n <= len(game.hands):
        if request.form.get("version", type=id_arg) not in (None, game.version):
            raise _hand_gone(game, n)
        abort(404)
    index = n - 1
    form = _ruling_form(game, index)
    if not form.validate():
        return _hand_page(game, index, form, form.field_errors(), 400)
    who = actor()
    errors: dict[str, list[str]] = {}
    try:
        new = _new_ruling(form, who, game, index)
        svc.apply_ruling(get_session(), game, index, new, expected_version=form.version.data,
                         who=who, reason=director_reason(form.correction.data))
    except RecordError as e:
        key, message = _ruling_error_key(e, index)
        errors.setdefault(key, []).append(message)
        return _hand_page(game, index, form, errors, 422)
    except ConflictError:
        if index >= len(game.hands):
            raise _hand_gone(game, n) from None
        form.version.data = game.version
        form.version.raw_data = [str(game.version)]
        return _hand_page(game, index, form, {"__all__": [
            _("Someone else changed this game meanwhile: nothing was saved. Check the hand "
              "and press the button again.")]}, 409)
    except LockedError as e:
        refused_for_lock(form, e, errors)
        return _hand_page(game, index, form, errors, 409)
    except NothingChanged:
        flash(_("Nothing changed: hand row %(n)s already had this ruling.", n=n))
        return redirect(url_for("hand_record.hand", game_id=game_id, n=n) + "#ruling", code=303)
    flash(_("Ruling recorded on hand row %(n)s.", n=n))
    return redirect(url_for("hand_record.hand", game_id=game_id, n=n) + "#ruling", code=303)


def _new_ruling(form: RulingForm, who: str, game: Any, index: int) -> dict[str, Any] | None:
    """The ruling the form asks for (None: the hand stands as played, with no reason given)."""
    kind = form.kind.data
    if kind == "as-played" and not (form.reason.data or "").strip():
        return None
    at = datetime.now(UTC).replace(microsecond=0).isoformat()
    weights = form.outcomes() if kind == "adjusted" else None
    return svc.build_ruling(kind, seat=form.seat_value(), points=form.points(),
                            reason=form.reason.data, who=who, at=at, weights=weights,
                            total=svc.hand_total(game, index) if weights else None)


def _ruling_form(game: Any, index: int, formdata: Any = "post",
                 outcomes: Sequence[dict[str, Any]] = ()) -> RulingForm:
    """The ruling form: as posted, or (``formdata`` None) the hand's stored ruling, or an
    adjusted ruling whose outcomes are ``outcomes`` (read off the analysis; the director
    types the shares)."""
    if formdata is not None:
        form = RulingForm()
    elif outcomes:
        form = RulingForm(formdata=None, data={
            "version": game.version, "kind": "adjusted", "seat": "", "reason": "",
            **_outcome_fields([{**w, "share": None} for w in outcomes])})
    else:
        stored = game.hands[index].get("ruling") or {}
        form = RulingForm(formdata=None, data={
            "version": game.version, "kind": stored.get("kind", "as-played"),
            "seat": "" if stored.get("seat") is None else str(stored["seat"]),
            "reason": stored.get("reason") or "",
            **{f"points_{s}": p for s, p in enumerate(stored.get("points") or [])},
            **_outcome_fields(stored.get("weights") or [])})
    form.seat.choices = seat_choices(list(game.record["players"]))
    return form


def _outcome_fields(weights: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The form's fields of a weighted ruling's outcomes (RECORD.md ``ruling.weights``)."""
    data: dict[str, Any] = {}
    for k, w in enumerate(weights[:OUTCOMES]):
        data.update({f"w{k}_share": w.get("share"), f"w{k}_label": w.get("label") or ""})
        data.update({f"w{k}_p{s}": p for s, p in enumerate(w.get("points") or [])})
    return data


def _ruling_error_key(e: RecordError, index: int) -> tuple[str, str]:
    """(form field, message) for an engine error about a ruling."""
    message = translate_error(e)
    path = e.path
    if path.hand is not None and path.hand != index:
        return "__all__", _("This change would make hand row %(n)s invalid: %(msg)s",
                            n=path.hand + 1, msg=message)
    key = path.within(index).after("ruling")
    if key is None:
        return "__all__", message
    key = "weights" if key.startswith("weights") else key
    return (key if key in ("kind", "seat", "points", "weights", "reason") else "kind"), message


def _hand_page(game: Any, index: int, form: RulingForm | None, errors: dict[str, list[str]],
               status: int) -> Any:
    return view_of.hand_record_page(game, index, form, errors, status)
