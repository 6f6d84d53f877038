"""Entering and correcting hands: setup steps (auction, fiesta contract, rifki choice) carried
in the query string, then the contract's own form (counts or captures), saved by one service."""
from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _

from app.db import get_session
from app.forms.games import VersionedForm
from app.forms.hands import SetupForm, hand_form_class
from app.rules import RecordError
from app.services import entry, queries
from app.services import hands as hands_service
from app.services.errors import ConflictError, InputError
from app.web.games import lang, load_game_or_404
from app.web.messages import field_label, translate_error
from app.web.prefs import remember_scorer

bp = Blueprint("hands", __name__)

SETUP_KEYS = ("contract", "trump", "leader", "auction", "mode")
_FIELD = re.compile(r"^(?:counts\.|captures\.)?([a-z_]+)")


def error_key(e: RecordError, index: int) -> tuple[str, str]:
    """(form key, message) for an engine error on hand `index` (RecordError.field path)."""
    fld = e.field or ""
    prefix = f"hands[{index}]"
    message = translate_error(e)
    if fld == prefix or not fld:
        return "__all__", message
    if fld.startswith(prefix + "."):
        rest = fld[len(prefix) + 1:]
        m = _FIELD.match(rest)
        key = m.group(1) if m else "__all__"
        if rest.startswith("captures.cards"):
            key = "cards"
        return key, message
    m = re.match(r"^hands\[(\d+)\]", fld)
    if m:
        return "__all__", _("This change would make hand row %(n)s invalid: %(msg)s",
                            n=int(m.group(1)) + 1, msg=message)
    return "__all__", message


def _step_url(game_id: int, index: int, editing: bool, **params: Any) -> str:
    params = {k: v for k, v in params.items() if v not in (None, "")}
    if editing:
        return url_for("hands.edit", game_id=game_id, row=index + 1, **params)
    # a new hand's steps and form name its row: see new()
    return url_for("hands.new", game_id=game_id, row=index + 1, **params)


@bp.route("/games/<int:game_id>/hands/new", methods=["GET", "POST"])
def new(game_id: int) -> Any:
    game = load_game_or_404(game_id)
    row = request.args.get("row", type=int)
    if row is not None and 1 <= row <= len(game.hands):
        # another phone recorded this entry's hand row meanwhile: the entry stays on that
        # row (offered to replace theirs), never carried to the next hand or added twice
        return _entry(game, row - 1, taken=True)
    return _entry(game, len(game.hands))


@bp.route("/games/<int:game_id>/hands/<int:row>/edit", methods=["GET", "POST"])
def edit(game_id: int, row: int) -> Any:
    game = load_game_or_404(game_id)
    if not 1 <= row <= len(game.hands):
        abort(404)
    return _entry(game, row - 1)


@bp.post("/games/<int:game_id>/hands/last/delete")
def delete_last(game_id: int) -> Any:
    game = load_game_or_404(game_id)
    form = VersionedForm()
    if not form.validate():
        abort(400)
    try:
        hands_service.delete_last_hand(get_session(), game, expected_version=form.version.data,
                                       who=remember_scorer(form.scorer.data))
    except ConflictError:
        flash(_("Someone else changed this game meanwhile: nothing was deleted. "
                "Check the sheet and try again."), "conflict")
        return redirect(url_for("games.sheet", game_id=game_id)), 303
    except (RecordError, InputError) as e:
        flash(str(e), "error")
    else:
        flash(_("The last hand was deleted."))
    return redirect(url_for("games.sheet", game_id=game_id))


def _setup_from_hand(hand: dict[str, Any], fiesta: bool, spec_mode: str) -> dict[str, str]:
    out = {"contract": hand.get("contract") or "", "trump": hand.get("trump") or "",
           "leader": "" if hand.get("leader") is None else str(hand["leader"]), "mode": spec_mode}
    if fiesta:
        out["auction"] = ",".join(hand["auction"]) if hand.get("auction") is not None else "none"
    return out


def _preview(form: Any, spec: Any, mode: str, game: Any, index: int, contract_id: str,
             trump: str | None, leader: int | None, auction_calls: list[str] | None) -> Any:
    """The live check of the entry page (JSON): the hand's points, or every problem next to
    its field key. Nothing is saved; the form (and its CSRF token) is checked as on save."""
    problems: dict[str, list[str]] = {}
    points = None
    if form.validate():
        hand = entry.build_hand(spec, mode, form.entry_data(), contract=contract_id, trump=trump,
                                leader=leader, auction=auction_calls, ruling=None)
        points, found = entry.hand_preview(game.record, index, hand)
        for problem in found:
            key, message = error_key(problem, index)
            if message not in problems.get(key, []):
                problems.setdefault(key, []).append(message)
    elif "csrf_token" in form.errors:
        abort(400)
    else:
        problems["__all__"] = [_("Type a number for every player.")]
    total = sum(points) if points is not None else None
    return jsonify(points=points, total=total, problems=problems)


def _entry(game: Any, index: int, taken: bool = False) -> Any:
    editing = index < len(game.hands)
    ctx = entry.context(game.record, index)
    nxt = ctx.next
    if nxt is None:
        flash(_("The game is over: there is no hand to enter."))
        return redirect(url_for("games.sheet", game_id=game.id))
    profile = ctx.profile
    values = request.values
    if editing and not any(k in values for k in SETUP_KEYS):
        hand = ctx.existing or {}
        if "tricks" in hand:
            # a hand entered trick by trick is corrected trick by trick: the counts or
            # captures form would drop its tricks, its deal and its violations
            return redirect(url_for("referee.correct_tricks", game_id=game.id, n=index + 1))
        cid = hand.get("contract") or (ctx.existing_result.contract.id if ctx.existing_result else None)
        mode = "counts"
        if cid and cid in profile.contracts:
            mode = entry.mode_of(hand, entry.entry_spec(profile, cid))
        setup_data = _setup_from_hand(hand, nxt.fiesta, mode)
        if ctx.existing_result is not None:
            setup_data["contract"] = ctx.existing_result.contract.id
        setup = SetupForm(data=setup_data)
    else:
        setup = SetupForm(values)
    setup.validate()
    page: dict[str, Any] = {
        "game_id": game.id, "index": index, "row": index + 1, "editing": editing,
        "players": ctx.players, "next": nxt, "profile": profile, "lang": lang(), "setup": setup,
        "setup_errors": {f.name: f.errors for f in setup if f.errors},
        "step_url": lambda **p: _step_url(game.id, index, editing, **p), "version": game.version,
        "field_label": field_label, "error_text": translate_error, "taken": taken, "changes": None,
    }
    trump = setup.trump.data or None
    leader = setup.leader_seat
    auction_calls: list[str] | None = None
    contract_id: str | None

    if nxt.fiesta:
        owner = nxt.owner if nxt.owner is not None else nxt.dealer
        raw = setup.auction.data or ""
        calls = None if raw == "none" else entry.parse_calls(raw)
        state = entry.auction_state(profile.id, owner, calls)
        page.update(owner=owner, auction=state, auction_raw=raw)
        if state.error is not None or not state.finished:
            return render_template("hands/entry.html", step="auction", **page), (
                422 if state.error is not None else 200)
        outcome = entry.outcome_of(state)
        auction_calls = None if calls is None else state.calls
        contract_id = setup.contract.data or None
        page.update(outcome=outcome)
        problem = None
        if contract_id not in outcome.contracts:
            problem = _("Choose what is played.") if contract_id is None else _(
                "%(c)s may not be played after this auction.", c=contract_id)
        elif contract_id == "trump" and not trump:
            problem = _("Choose the trump suit.")
        elif contract_id != "433" and leader is not None and leader not in outcome.leaders:
            problem = _("%(name)s may not lead this fiesta.", name=ctx.players[leader])
        if problem:
            return render_template("hands/entry.html", step="fiesta", problem=problem if contract_id else None,
                                   **page), (422 if contract_id else 200)
        if contract_id != "trump":
            trump = None
        if contract_id == "433":
            leader = None
        elif leader is None:
            leader = outcome.leaders[0]
    elif profile.seat_key == "first_chooser":
        choices = entry.rifki_choices(ctx)
        chooser = nxt.chooser
        page.update(choices=choices, quota=entry.chooser_quota(ctx, chooser), chooser=chooser)
        contract_id = setup.contract.data or None
        choice = next((c for c in choices if c.contract == contract_id), None)
        problem = None
        if contract_id is None:
            problem = None
        elif choice is None:
            problem = _("%(c)s is not a contract of this game.", c=contract_id)
        elif not choice.allowed:
            reason = translate_error(choice.error) if choice.error else choice.message
            problem = f"{choice.rule}: {reason}"
        elif profile.contracts[contract_id].trump_game and not trump:
            problem = _("Choose the trump suit.")
        if contract_id is None or problem:
            return render_template("hands/entry.html", step="choose", problem=problem, **page), (
                422 if problem else 200)
        if not profile.contracts[contract_id].trump_game:
            trump = None
        leader = None
    else:
        contract_id = nxt.contract
        trump = None
        leader = None

    assert contract_id is not None
    if setup.mode.data == "tricks" and profile.contracts[contract_id].played:
        # the setup is complete: play the hand card by card on the referee's page
        if editing:
            return redirect(url_for("referee.correct_tricks", game_id=game.id, n=index + 1))
        params = {"contract": contract_id, "trump": trump, "leader": leader,
                  "auction": setup.auction.data if nxt.fiesta else None, "row": index + 1}
        return redirect(url_for("referee.tricks", game_id=game.id,
                                **{k: v for k, v in params.items() if v not in (None, "")}))
    spec = entry.entry_spec(profile, contract_id)
    mode = setup.mode.data if spec.has_cards and setup.mode.data != "tricks" else "counts"
    form_cls = hand_form_class(spec, mode)
    errors: dict[str, list[str]] = {}
    conflict = None
    status = 200
    if request.method == "POST" and request.form.get("preview") == "1":
        return _preview(form_cls(), spec, mode, game, index, contract_id, trump, leader,
                        auction_calls)
    if request.method == "POST":
        form = form_cls()
        if form.validate():
            who = remember_scorer(form.scorer.data)
            at = datetime.now(timezone.utc).replace(microsecond=0).isoformat()
            hand = entry.build_hand(spec, mode, form.entry_data(), contract=contract_id, trump=trump,
                                    leader=leader, auction=auction_calls, ruling=form.ruling(who, at))
            try:
                if editing:
                    hands_service.replace_hand(get_session(), game, index, hand,
                                               expected_version=form.version.data, who=who)
                else:
                    hands_service.record_hand(get_session(), game, hand,
                                              expected_version=form.version.data, who=who)
            except RecordError as e:
                # the save reports the first problem; the page shows every one at once
                for problem in entry.hand_problems(game.record, index, hand) or [e]:
                    key, message = error_key(problem, index)
                    if message not in errors.get(key, []):
                        errors.setdefault(key, []).append(message)
                status = 422
            except ConflictError as e:
                # what changed since this entry was loaded, next to what was typed (kept);
                # saving again puts it on this hand row (a correction once another phone
                # recorded the row): never a second copy of the hand
                conflict = e
                page["changes"] = queries.changes_since(
                    get_session(), game, min(form.version.data or 0, game.version), lang())
                form.version.data = e.current_version
                form.version.raw_data = [str(e.current_version)]
                status = 409
            else:
                flash(_("Hand %(n)s corrected.", n=index + 1) if editing else _("Hand %(n)s saved.", n=nxt.number))
                return redirect(url_for("games.sheet", game_id=game.id) + f"#hand-{index + 1}")
        else:
            status = 400
            known = set(spec.counts) | set(spec.capture_counts) | {"kh", "last_two", "cards"}
            for name, errs in form.errors.items():
                key = name.rsplit("_", 1)[0] if name[-1].isdigit() else name
                key = "cards" if name.startswith("card_") else key
                key = "ruling" if key.startswith("ruling") else key
                key = key if key in known | {"ruling"} else "__all__"
                for err in errs:
                    if err not in errors.get(key, []):
                        errors.setdefault(key, []).append(str(err))
    else:
        if taken:
            page["changes"] = queries.changes_since(
                get_session(), game, queries.version_before_change(get_session(), game.id, index) or 0,
                lang())
        data = entry.entry_values(spec, ctx.existing, ctx.existing_result) if editing else {}
        data = {k: (str(v) if k.startswith(("card_", "kh", "last_two_")) else v) for k, v in data.items()}
        data["version"] = game.version
        ruling = (ctx.existing or {}).get("ruling") if editing else None
        if ruling:
            data["ruling_kind"] = ruling.get("kind", "as-played")
            if ruling.get("seat") is not None:
                data["ruling_seat"] = str(ruling["seat"])
            for s, p in enumerate(ruling.get("points") or []):
                data[f"ruling_points_{s}"] = p
            data["ruling_reason"] = ruling.get("reason") or ""
        form = form_cls(formdata=None, data=data)
    page.update(spec=spec, mode=mode, form=form, errors=errors, conflict=conflict,
                contract_id=contract_id, trump=trump, leader=leader, auction_calls=auction_calls,
                field_label=field_label)
    return render_template("hands/entry.html", step="entry", **page), status
