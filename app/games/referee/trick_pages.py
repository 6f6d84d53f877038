"""Referee mode: enter a hand trick by trick (the hand's record page and its ruling are
app/games/referee/hand_pages.py).

The trick page keeps its whole state in the address (setup, deal, plays): each tap is a
link to the next state, typed cards and undo are links or GET forms, and only saving the
finished hand writes (POST, CSRF-checked). static/js/referee.js swaps the page in place
instead of reloading it; without JS every step is a plain page load.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup

from app.accounts.auth import actor, director_reason
from app.db import get_session
from app.errors import BadInput, NothingChanged
from app.games import queries
from app.games.entry import draft, entry
from app.games.entry import setup as setup_service
from app.games.entry.ahead import ahead_or_404, chosen_ahead
from app.games.hands import Conflict, Locked, Refused, Saved
from app.games.idempotent import note_outcome, note_problems, outbox_save
from app.games.referee import referee as svc
from app.games.referee import view as view_of
from app.games.referee.deal_step import as_url_args, deal_step, hidden_fields, state_url
from app.games.referee.forms import OUTCOMES, SaveTricksForm
from app.rules import RecordError
from app.rules.errors import InputError
from app.web.common import lang, load_game_or_404, new_hand_row, refused_for_lock, stored_row_or_404
from app.web.messages import problem_text, translate_error
from app.web.referee_words import violation_row

bp = Blueprint("referee", __name__)
bp.add_app_template_filter(view_of.weights_text, "weights_text")
bp.add_app_template_global(OUTCOMES, "ruling_outcomes")  # type: ignore[arg-type]

SETUP_KEYS = ("contract", "trump", "leader", "auction")


# --- trick-by-trick entry -------------------------------------------------------------------

@bp.route("/games/<int:game_id>/hands/tricks", methods=["GET", "POST"])
@outbox_save
def tricks(game_id: int) -> Any:
    game = load_game_or_404(game_id)
    ahead = request.args.get("ahead", type=int) if request.method == "GET" else None
    if ahead:      # a later hand's page, kept by the phone (offline.json): that hand's setup
        if request.args.get("row", type=int) != len(game.hands) + 1 + ahead:
            abort(409)                     # the game moved since offline.json named it
        return _tricks(game, len(game.hands), ahead=ahead)
    index, taken = new_hand_row(game)      # the cards entered stay on the row they were for
    return _tricks(game, index, taken=taken)


@bp.route("/games/<int:game_id>/hands/<int:n>/tricks", methods=["GET", "POST"])
@outbox_save
def correct_tricks(game_id: int, n: int) -> Any:
    game = load_game_or_404(game_id)
    return _tricks(game, stored_row_or_404(game, n))


def _tricks(game: Any, index: int, taken: bool = False, ahead: int = 0) -> Any:
    """Trick entry for hand `index`: a correction of a stored hand, a new hand, or (taken)
    a new hand whose row another phone recorded meanwhile (saving replaces theirs); with
    ``ahead``, the hand that many after the next one (app.games.entry.hand_pages._ahead_context).

    Load, set the hand up (the setup service), then the deal step or the play step."""
    editing = index < len(game.hands) and not taken
    try:
        ctx = entry.context(game.record, index)
        if ahead:
            ctx = ahead_or_404(ctx, ahead)[0]
            index = ctx.index
    except RecordError as e:
        flash(translate_error(e), "error")
        return redirect(url_for("games.sheet", game_id=game.id))
    if ctx.next is None and not editing:
        flash(_("The game is over: there is no hand to enter."))
        return redirect(url_for("games.sheet", game_id=game.id))
    setup = _tricks_setup(game, index, ctx) if editing else _new_tricks_setup(game, ctx)
    if not isinstance(setup, setup_service.Setup):
        return setup                      # a redirect: set the hand up first
    page = _tricks_page(game, index, ctx, editing, taken, setup)
    deal, deal_problem = _address_deal(ctx)
    plays, plays_problem = _address_plays()
    args = request.args
    if args.get("step") == "deal" or "dealt" in args or deal_problem:
        return deal_step(game, index, editing, setup, page, plays, deal, deal_problem)
    return _play_step(game, index, ctx, page, deal, plays, plays_problem)


def _tricks_page(game: Any, index: int, ctx: entry.Context, editing: bool, taken: bool,
                 setup: setup_service.Setup) -> dict[str, Any]:
    """What both steps of the trick page show."""
    profile = ctx.profile
    page: dict[str, Any] = {
        "game_id": game.id, "index": index, "row": index + 1, "editing": editing,
        "players": ctx.players, "profile": profile, "next": ctx.next, "setup": setup,
        "lang": lang(), "contract": profile.contracts[setup.contract], "version": game.version,
        "errors": {}, "typed": "", "taken": taken, "changes": None,
        # the counts form of this hand (a correction names its setup and mode: without them
        # the correction of a hand entered trick by trick opens the trick page again)
        "counts_url": (url_for("hands.edit", game_id=game.id, row=index + 1, mode="counts",
                               **as_url_args(setup.params)) if editing or taken
                       # a hand the schedule fixes: its entry page as the phone keeps it
                       else url_for("hands.new", game_id=game.id, row=index + 1,
                                    **({} if ctx.next.contract else as_url_args(setup.params)))),
    }
    note_problems(page["errors"])
    if taken:
        since = queries.version_before_change(get_session(), game.id, index) or 0
        page["changes"] = queries.changes_since(get_session(), game, since, lang())
        page["conflict"] = True
    return page


def _address_deal(ctx: entry.Context) -> tuple[list[list[str]] | None, str | None]:
    """The deal carried in the address (entered on its own step), and what is wrong with it."""
    try:
        deal = svc.deal_from_params(request.args)
    except InputError as e:
        return None, view_of.input_message(e)
    if deal is None:
        return None, None
    problem = view_of.check_deal(ctx.profile, deal, ctx.players)
    if problem is None:
        error = svc.deal_problem(ctx, deal)      # the engine's rules on a deal (rifki's 2♦)
        problem = translate_error(error) if error is not None else None
    return deal, problem


def _address_plays() -> tuple[list[str], str | None]:
    """The cards played so far, carried in the address, and what is wrong with them."""
    try:
        return svc.parse_card_list(request.args.get("plays")), None
    except InputError as e:
        return [], _("The cards in the address could not be read (%(msg)s); "
                     "start the hand again.", msg=view_of.input_message(e))


def _tricks_setup(game: Any, index: int, ctx: entry.Context) -> Any:
    """The stored hand's setup (a correction), or a redirect."""
    res = ctx.existing_result
    if res is None or not res.contract.played:
        flash(_("This hand has no tricks to enter."), "error")
        return redirect(url_for("hand_record.hand", game_id=game.id, n=index + 1))
    setup = setup_service.of_hand(ctx)
    if "plays" not in request.args and ctx.existing and "tricks" in ctx.existing:
        stored = [c for trick in res.tricks for c in trick]
        return redirect(state_url(game.id, index, True, setup, res.deal, stored))
    return setup


def _new_tricks_setup(game: Any, ctx: entry.Context) -> Any:
    """The setup in the address, asked of the setup service; else back to the setup steps."""
    args = request.args
    if ctx.index > len(game.hands) and ctx.next.chooser is not None:     # a chooser's hand ahead
        step = chosen_ahead(ctx, args.get("contract"), args.get("trump"))
    else:
        step = setup_service.resolve(ctx, args.get("contract"), args.get("trump"),
                                     args.get("leader"), args.get("auction"))
    found = step.setup
    if found is not None and found.leader is not None:
        return found
    for problem in step.problems:
        flash(translate_error(problem), "error")
    if found is not None:
        flash(_("A 433 is not played: there are no tricks to enter."), "error")
    elif not step.problems:
        flash(_("Finish setting up the hand first."), "error")
    flash(_("Set up the hand here, then choose “Trick by trick”."))
    params: dict[str, Any] = {k: args[k] for k in SETUP_KEYS if args.get(k)}
    return redirect(url_for("hands.new", game_id=game.id, **params))


def _play_step(game: Any, index: int, ctx: entry.Context, page: dict[str, Any],
               deal: list[list[str]] | None, plays: list[str], plays_problem: str | None) -> Any:
    """The trick grid: a typed card, the finished hand's score and its save."""
    view = view_of.tricks_view(ctx.profile, ctx.options, ctx.players, page["setup"], deal, plays)
    status = _plays_status(page, view, plays_problem)
    if "add" in request.args and request.method == "GET":
        added = _add_typed_card(game, index, ctx, page, deal, view)
        if added is not None:
            return added
        status = 422
    final = None
    form = SaveTricksForm(formdata=None, data={"version": game.version})
    if view["over"]:
        final, form, saved, over_status = _finish(game, index, ctx, page, deal, view)
        if saved is not None:
            return saved
        status = over_status or status
    elif request.method == "POST":
        SaveTricksForm().validate()
        page["errors"].setdefault("__all__", []).append(
            _("The hand is not over yet: enter its remaining cards first."))
        status = 422
    links, card_links = _play_links(game, index, page, deal, view)
    return render_template("referee/tricks.html", step="play", view=view, links=links,
                           card_links=card_links, final=final, form=form, deal=deal,
                           **page), status


def _plays_status(page: dict[str, Any], view: dict[str, Any], plays_problem: str | None) -> int:
    """200, or 422 with the problem of the cards in the address on the page."""
    if not (plays_problem or view["problem"]):
        return 200
    page["errors"]["plays"] = [plays_problem or ngettext(
        "Only the first %(num)s card in the address could be played: %(msg)s",
        "Only the first %(num)s cards in the address could be played: %(msg)s",
        view["n_valid"], msg=view["problem"])]
    return 422


def _play_links(game: Any, index: int, page: dict[str, Any], deal: list[list[str]] | None,
                view: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The play step's links (undo, restart, the deal) and each playable card's link."""
    editing, setup = page["editing"], page["setup"]
    plays_now = view["plays"]

    def url(cards: list[str], **extra: str) -> str:
        return state_url(game.id, index, editing, setup, deal, cards, **extra)

    links = {
        "undo_card": url(plays_now[:-1]) if plays_now else None,
        "undo_trick": url(plays_now[:len(plays_now) - (len(plays_now) % 4 or 4)])
        if plays_now else None,
        "restart": url([]),
        "deal": url(plays_now, step="deal"),
        "no_deal": state_url(game.id, index, editing, setup, None, plays_now),
        "self": url(plays_now),
        "form_action": request.path,
        "hidden": hidden_fields(editing, setup, deal, plays_now, index),
    }
    card_links = {cell["code"]: url(plays_now + [cell["code"]])
                  for suit in view["grid"] for cell in suit["cards"]
                  if cell["status"] in ("open", "legal", "illegal")}
    return links, card_links


def _add_typed_card(game: Any, index: int, ctx: entry.Context, page: dict[str, Any],
                    deal: list[list[str]] | None, view: dict[str, Any]) -> Any:
    """A card typed in the box: a redirect to the state with it played, or None (the
    problem is on the page)."""
    typed = request.args.get("add", "")[:20]
    try:
        card = svc.parse_card(typed)
    except InputError as e:
        page["errors"]["add"] = [view_of.input_message(e)]
        page["typed"] = typed
        return None
    probe = view_of.tricks_view(ctx.profile, ctx.options, ctx.players, page["setup"], deal,
                            view["plays"] + [card])
    if probe["problem"]:
        page["errors"]["add"] = [probe["problem"]]
        page["typed"] = typed
        return None
    return redirect(state_url(game.id, index, page["editing"], page["setup"], deal,
                               probe["plays"]), code=303)


def _finish(game: Any, index: int, ctx: entry.Context, page: dict[str, Any],
            deal: list[list[str]] | None,
            view: dict[str, Any]) -> tuple[dict[str, Any] | None, SaveTricksForm, Any, int | None]:
    """A finished hand: its score and, on POST, its save.

    Returns (final score, form, a redirect once saved or None, the page status or None)."""
    ruling = (ctx.existing or {}).get("ruling") if page["editing"] else None
    entered = draft.HandDraft.of_plays(index, page["setup"], view["plays"], deal, ruling)
    final, status = _final(game, entered, ctx.players, page["errors"])
    if request.method != "POST":
        return final, SaveTricksForm(formdata=None, data={"version": game.version}), None, status
    form = SaveTricksForm()
    if not form.validate():
        page["errors"].setdefault("__all__", []).extend(
            str(e) for errs in form.errors.values() for e in errs)
        return final, form, None, 400
    if final is None:
        return final, form, None, status
    saved, status = _save_played(game, entered, form, page)
    if saved is None:
        return final, form, None, status
    if saved is NothingChanged:
        flash(_("Nothing changed: hand row %(n)s was already recorded like this.", n=index + 1))
        return final, form, redirect(url_for("games.sheet", game_id=game.id)
                                     + f"#hand-{index + 1}"), None
    return final, form, _after_save(game, index, ctx, page, final), None


def _final(game: Any, entered: draft.HandDraft, players: list[str],
           errors: dict[str, list[str]]) -> tuple[dict[str, Any] | None, int | None]:
    """The finished hand's score as the sheet will show it, or its problem (in ``errors``)."""
    try:
        result = draft.score(game, entered)
    except RecordError as e:
        errors.setdefault("__all__", []).append(translate_error(e))
        return None, 422
    return {"points": list(result.points), "played_points": list(result.played_points),
            "violations": [violation_row(v, players) for v in result.violations],
            "ruling": result.ruling.kind}, None


def _save_played(game: Any, entered: draft.HandDraft, form: SaveTricksForm,
                 page: dict[str, Any]) -> tuple[Any, int | None]:
    """Saves the played hand: (the game, None) once saved, (NothingChanged, None) when it
    was already recorded so, else (None, the page status) with the problem on the page."""
    errors = page["errors"]
    try:
        outcome = draft.save(get_session(), game, entered, expected_version=form.version.data,
                             who=actor(), reason=director_reason(form.correction.data))
        note_outcome(outcome)
    except BadInput as e:         # a hand row that is not there (nothing about the hand)
        errors.setdefault("__all__", []).append(problem_text(e))
        return None, 400
    match outcome:
        case Refused():
            errors.setdefault("__all__", []).append(translate_error(outcome.first))
            return None, 422
        case Conflict():
            # the cards stay, what changed since this entry's version is shown, and saving
            # again puts them on this hand row (never a second copy)
            page["conflict"] = True
            page["changes"] = queries.changes_since(
                get_session(), game, min(form.version.data or 0, game.version), lang())
            form.version.data = game.version
            note_problems({"__all__": [_("Someone else saved this game meanwhile.")]})
            return None, 409
        case Locked():
            refused_for_lock(form, outcome.error, errors)
            return None, 409
        case Saved(unchanged=True):
            return NothingChanged, None
        case Saved():
            return outcome.game, None


def _after_save(game: Any, index: int, ctx: entry.Context, page: dict[str, Any],
                final: dict[str, Any]) -> Any:
    """Where a saved hand goes: the sheet, with a link to the hand record when rules were
    broken ("then=ruling" goes straight there)."""
    n = index + 1
    nxt = ctx.next
    flash(_("Hand row %(n)s corrected.", n=n) if page["editing"] or page["taken"] else
          _("Hand %(n)s saved.", n=nxt.number if nxt else n))
    if final["violations"]:
        # the message is the link to the hand record (issue 14.5)
        record_url = url_for("hand_record.hand", game_id=game.id, n=n)
        flash(Markup('<a class="flash-link" href="{}#violations">{}</a>').format(
            record_url, ngettext("%(num)s rule violation flagged: see the hand record.",
                                   "%(num)s rule violations flagged: see the hand record.",
                                   len(final["violations"]))), "error")
        if request.form.get("then") == "ruling":
            return redirect(record_url + "#ruling", code=303)
    return redirect(url_for("games.sheet", game_id=game.id) + f"#hand-{n}")


