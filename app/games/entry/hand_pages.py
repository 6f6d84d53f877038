"""Entering and correcting hands: setup steps (auction, fiesta contract, rifki choice) carried
in the query string, then the contract's own form (counts or captures), saved by one service."""
from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from app.accounts.auth import actor, director_reason
from app.db import get_session
from app.errors import BadInput, ConflictError
from app.games import hands as hands_service
from app.games import queries
from app.games.entry import draft, entry
from app.games.entry import setup as setup_service
from app.games.entry.ahead import ahead_or_404, chosen_ahead, not_known
from app.games.entry.forms import SetupForm, hand_form_class
from app.games.forms import VersionedForm
from app.games.hands import Conflict, Locked, Refused, Saved
from app.games.idempotent import note_outcome, note_problems, outbox_save
from app.rules import RecordError
from app.rules import entry as entering
from app.web.common import lang, load_game_or_404, new_hand_row, refused_for_lock, stored_row_or_404
from app.web.messages import field_label, problem_text, translate_error
from app.web.words import signed

bp = Blueprint("hands", __name__)

SETUP_KEYS = ("contract", "trump", "leader", "auction", "mode")


def error_key(e: RecordError, index: int) -> tuple[str, str]:
    """(form key, message) for an engine error on hand `index` (its field path read once:
    :class:`app.rules.fields.FieldPath`)."""
    message = translate_error(e)
    path = e.path
    if path.hand is not None and path.hand != index:
        return "__all__", _("This change would make hand row %(n)s invalid: %(msg)s",
                            n=path.hand + 1, msg=message)
    key = path.within(index).element if path.hand == index else None
    return key or "__all__", message


def _step_url(game_id: int, index: int, editing: bool, **params: Any) -> str:
    params = {k: v for k, v in params.items() if v not in (None, "")}
    if editing:
        return url_for("hands.edit", game_id=game_id, row=index + 1, **params)
    # a new hand's steps and form name its row: see new()
    return url_for("hands.new", game_id=game_id, row=index + 1, **params)


@bp.route("/games/<int:game_id>/hands/new", methods=["GET", "POST"])
@outbox_save
def new(game_id: int) -> Any:
    game = load_game_or_404(game_id)
    ahead = request.args.get("ahead", type=int) if request.method == "GET" else None
    row = request.args.get("row", type=int)
    if ahead:
        if row != len(game.hands) + 1 + ahead:     # the game moved since offline.json
            abort(409)
        return _entry(game, len(game.hands), ahead=ahead)
    index, taken = new_hand_row(game)
    if taken and request.headers.get("X-Kingsheet-Page"):
        # the service worker keeping the next hand's page (sw.js "warm") after the row was
        # recorded: it must not keep the correction of that row as the next hand's page
        abort(409)
    return _entry(game, index, taken=taken)


@bp.route("/games/<int:game_id>/hands/<int:row>/edit", methods=["GET", "POST"])
@outbox_save
def edit(game_id: int, row: int) -> Any:
    game = load_game_or_404(game_id)
    return _entry(game, stored_row_or_404(game, row))


@bp.post("/games/<int:game_id>/hands/last/delete")
def delete_last(game_id: int) -> Any:
    game = load_game_or_404(game_id)
    form = VersionedForm()
    if not form.validate():
        abort(400)
    try:
        hands_service.delete_last_hand(get_session(), game, expected_version=form.version.data,
                                       who=actor(), reason=director_reason(form.correction.data))
    except ConflictError:
        flash(_("Someone else changed this game meanwhile: nothing was deleted. "
                "Check the sheet and try again."), "conflict")
        return redirect(url_for("games.sheet", game_id=game_id)), 303
    except (RecordError, BadInput) as e:
        flash(problem_text(e), "error")
    else:
        flash(_("The last hand was deleted."))
    return redirect(url_for("games.sheet", game_id=game_id))


#: Entry values carried through a change of the setup (contract, mode), so none is lost.
_CARRIED = re.compile(r"^(?:(?:tricks|hearts|kings|queens|jacks|last_two|ruling_points)_\d"
                      r"|card_[2-9TJQKA][SHDC]|kh|ruling_kind|ruling_seat|ruling_reason|correction"
                      r"|version)$")


def _carried(changing: bool) -> dict[str, str]:
    """The typed entry values a change of setup carries along (from the form being changed,
    or from the address of the setup step that carries them)."""
    source = request.form if changing else request.args
    return {k: v for k, v in source.items() if _CARRIED.match(k) and v != ""}


def _setup_form(ctx: entry.Context, editing: bool, changing: bool) -> SetupForm:
    """The submitted setup; a correction opened without one starts from the stored hand."""
    values = request.args if changing else request.values
    if editing and not any(k in values for k in SETUP_KEYS):
        stored = setup_service.of_hand(ctx)
        mode = "counts"
        if stored.contract in ctx.profile.contracts:
            mode = entering.mode_of(ctx.existing, entering.entry_spec(ctx.profile, stored.contract))
        form = SetupForm(data=setup_service.form_data(stored, mode))
    else:
        form = SetupForm(values)
    form.validate()
    return form


def _problem_map(problems: Any, index: int) -> dict[str, list[str]]:
    """Problems by form key, each message once, in the page's language. Engine problems
    name ``hands[i]...`` fields; the setup service's name the setup key itself."""
    out: dict[str, list[str]] = {}
    for problem in problems:
        if problem.path.hand is not None:
            key, message = error_key(problem, index)
        else:
            key, message = problem.path.key or "__all__", translate_error(problem)
        if message not in out.get(key, []):
            out.setdefault(key, []).append(message)
    return out


def _preview(form: Any, spec: Any, mode: str, game: Any, index: int,
             ready: setup_service.Setup) -> Any:
    """The live check of the entry page (JSON): the hand's points, or every problem next to
    its field key. Nothing is saved; the form (and its CSRF token) is checked as on save."""
    if form.validate():
        shown_hand = draft.preview(game, _draft(index, spec, mode, form, ready, None))
        points = None if shown_hand.points is None else list(shown_hand.points)
        return _preview_answer(points, _problem_map(shown_hand.problems, index))
    if "csrf_token" in form.errors:
        abort(400)
    return _preview_answer(None, _typing_problems(form, spec))


def _typing_problems(form: Any, spec: Any) -> dict[str, list[str]]:
    """A form that does not validate: a value typed and refused (a count out of range) is
    named at its row; blanks while the scorer is still typing are one line."""
    typed = {f.name for f in form if f.errors and f.raw_data and str(f.raw_data[0]).strip()}
    return (_form_errors(form, spec, only=typed) if typed else {}) or {
        "__all__": [_("Type a number for every player.")]}


def _preview_answer(points: list[int] | None, problems: dict[str, list[str]]) -> Any:
    """The live check's JSON: the points (None when not scored), their total and problems."""
    total = sum(points) if points is not None else None
    # the numbers as the page writes them (app.web.words.signed): the script only places them
    shown = [signed(p) or "0" for p in points] if points is not None else None
    return jsonify(points=points, total=total, problems=problems, shown=shown,
                   shown_total=None if total is None else signed(total) or "0")


def _entry(game: Any, index: int, taken: bool = False, ahead: int = 0) -> Any:
    """Load, validate the setup, ask the setup service, then the step's page or the save
    (``ahead``: the page of a later hand, to be kept by the phone; see _ahead_context)."""
    editing = index < len(game.hands)
    ctx = entry.context(game.record, index)
    if ahead:
        ctx, index = ahead_or_404(ctx, ahead)
    elsewhere = _elsewhere(game, index, ctx, editing)
    if elsewhere is not None:
        return elsewhere
    changing = _changing()
    setup = _setup_form(ctx, editing, changing)
    if ahead and ctx.next.chooser is not None:
        step = chosen_ahead(ctx, setup.contract.data, setup.trump.data)
    else:
        step = setup_service.resolve(ctx, setup.contract.data, setup.trump.data, setup.leader.data,
                                     setup.auction.data)
    page = _page(game, index, ctx, editing, taken, setup, step, _carried(changing))
    if ahead:      # the hands before it wait on the phone: what the server cannot know yet
        page.update(ahead=ahead, not_known=not_known(ctx.next, ctx.players, ctx.next.number - 1))
    ready = step.setup
    if ready is None or (ahead and ctx.next.fiesta):
        return _setup_problems(page, step, index)
    if setup.mode.data == "tricks" and ctx.profile.contracts[ready.contract].played:
        return _to_tricks(game, index, editing, ready, ahead)
    spec, mode, form_cls = _entry_form(ctx, ready, setup.mode.data)
    posted = request.method == "POST"
    if posted and request.form.get("preview") == "1":
        return _preview(form_cls(), spec, mode, game, index, ready)
    page.update(spec=spec, mode=mode, ready=ready, conflict=None, errors={})
    if posted and not changing:
        return _save(game, index, ctx, form_cls(), page)
    return _show(game, index, ctx, page, form_cls, changing)


def _setup_problems(page: dict[str, Any], step: setup_service.SetupStep, index: int) -> Any:
    """The entry page with the setup's problems (422 when there are any)."""
    page["problems"] = _problem_map(step.problems, index)
    note_problems(page["problems"])
    return render_template("hands/entry.html", **page), 422 if page["problems"] else 200


def _entry_form(ctx: entry.Context, ready: setup_service.Setup, asked: str | None
                ) -> tuple[entering.EntrySpec, str, Any]:
    """The contract's entry: what it scores, the mode (cards only where it scores cards)
    and the form class of that mode."""
    spec = entering.entry_spec(ctx.profile, ready.contract)
    mode = asked if spec.has_cards and asked in ("counts", "captures") else "counts"
    return spec, mode, hand_form_class(spec, mode)


def _changing() -> bool:
    """The scorer changes the setup (contract, mode) of an entry being typed."""
    return request.method == "POST" and "change" in request.args


def _elsewhere(game: Any, index: int, ctx: entry.Context, editing: bool) -> Any:
    """A redirect when this hand is not entered here: the game is over, or a hand entered
    trick by trick is corrected trick by trick (the counts or captures form would drop its
    tricks, its deal and its violations). None: the entry goes on."""
    if ctx.next is None:
        flash(_("The game is over: there is no hand to enter."))
        return redirect(url_for("games.sheet", game_id=game.id))
    if editing and "tricks" in (ctx.existing or {}) and not any(k in request.values for k in SETUP_KEYS):
        return redirect(url_for("referee.correct_tricks", game_id=game.id, n=index + 1))
    return None


def _to_tricks(game: Any, index: int, editing: bool, ready: setup_service.Setup, ahead: int = 0) -> Any:
    """The setup is complete: the hand is played card by card on the referee's page (a page
    ahead: that hand's, see _ahead_context)."""
    if editing:
        return redirect(url_for("referee.correct_tricks", game_id=game.id, n=index + 1))
    params: dict[str, Any] = {**ready.params, "row": str(index + 1)}
    if ahead:
        params["ahead"] = str(ahead)
    return redirect(url_for("referee.tricks", game_id=game.id, **params))


def _page(game: Any, index: int, ctx: entry.Context, editing: bool, taken: bool, setup: SetupForm,
          step: setup_service.SetupStep, carried: dict[str, str]) -> dict[str, Any]:
    """What every step of the entry page shows."""
    return {
        "game_id": game.id, "index": index, "row": index + 1, "editing": editing,
        "players": ctx.players, "next": ctx.next, "profile": ctx.profile, "lang": lang(),
        "setup": setup, "setup_errors": {f.name: f.errors for f in setup if f.errors},
        "step_url": lambda **p: _step_url(game.id, index, editing, **{**carried, **p}),
        "version": game.version, "field_label": field_label,
        "step": step, "carried": carried, "auction_raw": setup.auction.data or "",
        "taken": taken, "changes": None, "ahead": 0, "not_known": None,
    }


def _show(game: Any, index: int, ctx: entry.Context, page: dict[str, Any], form_cls: Any,
          changing: bool) -> Any:
    """The entry form: the values carried through a change of setup, the stored hand (a
    correction) or blank; with what changed meanwhile when another phone took the row."""
    carried = page["carried"]
    if carried or changing:
        form = form_cls(formdata=MultiDict(carried))
        form.version.data = form.version.data or game.version
    else:
        form = _stored_form(form_cls, page["spec"], ctx, page["editing"], game.version)
    if page["taken"]:
        page["changes"] = queries.changes_since(
            get_session(), game, queries.version_before_change(get_session(), game.id, index) or 0,
            lang())
    page["form"] = form
    return render_template("hands/entry.html", **page), 200


def _stored_form(form_cls: Any, spec: Any, ctx: entry.Context, editing: bool, version: int) -> Any:
    """The entry form showing the stored hand (a correction), or blank (a new hand)."""
    data = entering.entry_values(spec, ctx.existing, ctx.existing_result) if editing else {}
    data = {k: (str(v) if k.startswith(("card_", "kh", "last_two_")) else v) for k, v in data.items()}
    data["version"] = version
    ruling = (ctx.existing or {}).get("ruling") if editing else None
    if ruling:
        data.update(_ruling_values(ruling))
    return form_cls(formdata=None, data=data)


def _ruling_values(ruling: dict[str, Any]) -> dict[str, Any]:
    """The ruling fields showing a stored hand's ruling again."""
    data: dict[str, Any] = {"ruling_kind": ruling.get("kind", "as-played"),
                            "ruling_reason": ruling.get("reason") or ""}
    if ruling.get("seat") is not None:
        data["ruling_seat"] = str(ruling["seat"])
    for s, p in enumerate(ruling.get("points") or []):
        data[f"ruling_points_{s}"] = p
    return data


def _save(game: Any, index: int, ctx: entry.Context, form: Any, page: dict[str, Any]) -> Any:
    """Validates the entry form and saves the hand; else the page again, every problem shown."""
    editing = page["editing"]
    page["form"] = form
    note_problems(page["errors"])
    if not form.validate():
        page["errors"] = _form_errors(form, page["spec"])
        note_problems(page["errors"])
        return render_template("hands/entry.html", **page), 400
    who = actor()
    reason = director_reason(form.correction.data)
    at = datetime.now(UTC).replace(microsecond=0).isoformat()
    entered = _draft(index, page["spec"], page["mode"], form, page["ready"], form.ruling(who, at))
    outcome = draft.save(get_session(), game, entered, expected_version=form.version.data, who=who,
                         reason=reason)
    note_outcome(outcome)
    match outcome:
        case Refused():
            # the page shows every problem of the hand at once
            page["errors"] = _problem_map(list(outcome.every), index)
            note_problems(page["errors"])
            return render_template("hands/entry.html", **page), 422
        case Conflict():
            # what changed since this entry was loaded, next to what was typed (kept); saving
            # again puts it on this hand row (a correction once another phone recorded the
            # row): never a second copy of the hand
            page["conflict"] = outcome.error
            note_problems({"__all__": [_("Someone else saved this game meanwhile.")]})
            page["changes"] = queries.changes_since(
                get_session(), game, min(form.version.data or 0, game.version), lang())
            form.version.data = outcome.current_version
            form.version.raw_data = [str(outcome.current_version)]
            return render_template("hands/entry.html", **page), 409
        case Locked():
            # the values typed stay; what is missing is said next to the reason field
            refused_for_lock(form, outcome.error, page["errors"])
            note_problems(page["errors"])
            return render_template("hands/entry.html", **page), 409
        case Saved(unchanged=True):
            flash(_("Nothing changed: hand row %(n)s was already recorded like this.", n=index + 1))
        case Saved():
            flash(_("Hand %(n)s corrected.", n=index + 1) if editing
                  else _("Hand %(n)s saved.", n=ctx.next.number))
    return redirect(url_for("games.sheet", game_id=game.id) + f"#hand-{index + 1}")


def _draft(index: int, spec: Any, mode: str, form: Any, ready: setup_service.Setup,
           ruling: dict[str, Any] | None) -> draft.HandDraft:
    """The hand row being entered, from the setup and the validated entry form."""
    return draft.HandDraft.of_form(index, ready, spec, mode, form.entry_data(), ruling)


def _form_errors(form: Any, spec: Any, only: set[str] | None = None) -> dict[str, list[str]]:
    """The form's shape errors by the page's field keys (of the fields ``only``, if given)."""
    errors: dict[str, list[str]] = {}
    known = set(spec.counts) | set(spec.capture_counts) | {"kh", "last_two", "cards", "ruling"}
    for name, errs in form.errors.items():
        if only is not None and name not in only:
            continue
        key = name.rsplit("_", 1)[0] if name[-1].isdigit() else name
        key = "cards" if name.startswith("card_") else key
        key = "ruling" if key.startswith("ruling") else key
        key = key if key in known else "__all__"
        for err in errs:
            if err not in errors.get(key, []):
                errors.setdefault(key, []).append(str(err))
    return errors
