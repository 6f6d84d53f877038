"""Games: the list, a new game, the sheet, import and export, the audit log."""
from __future__ import annotations

import io
import json
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from app.accounts.auth import actor, known_game_access, user
from app.db import get_session
from app.errors import BadInput, ConflictError, NothingChanged
from app.games import game_list, queries
from app.games import games as games_service
from app.games.forms import FirstSeatForm, ImportForm, NewGameForm, option_field_name
from app.games.sheet import changelog
from app.games.sheet.view import render_sheet
from app.games.table import confirm
from app.rules import PROFILES, RecordError
from app.security import Response
from app.web.common import SafeCsvWriter, lang, load_game_or_404, remember_table_stamp
from app.web.diagram import table_svg
from app.web.list_forms import GameFilterForm
from app.web.messages import problem_text
from app.web.words import OPTION_LABELS

bp = Blueprint("games", __name__)


def _user_id() -> int | None:
    u = user()
    return u.id if u is not None else None


def list_filter(form: GameFilterForm) -> tuple[game_list.GameFilter, dict[str, Any]]:
    """The filters of a validated form (a field with an error is left out) and their
    address parameters (for the next page's link)."""
    def ok(name: str) -> Any:
        field = form[name]
        return None if field.errors else (field.data or None)

    f = game_list.GameFilter(player_id=ok("player"), profile=ok("profile"), status=ok("status"),
                           date_from=ok("date_from"), date_to=ok("date_to"))
    params = {k: str(v) for k, v in (("player", f.player_id), ("profile", f.profile), ("status", f.status),
                                     ("date_from", f.date_from), ("date_to", f.date_to)) if v}
    return f, params


def filter_form(session: Any) -> tuple[GameFilterForm, game_list.GameFilter, dict[str, Any]]:
    form = GameFilterForm(formdata=request.args)
    form.set_choices(queries.player_choices(session, keep=request.args.get("player", type=int)))
    form.validate()
    f, params = list_filter(form)
    return form, f, params


@bp.get("/")
def index() -> Any:
    session = get_session()
    language = lang()
    form, f, params = filter_form(session)
    page = game_list.list_games(session, f, request.args.get("after"))
    next_url = url_for("games.index", **params, after=page.next_cursor) if page.next_cursor else None
    status = 400 if any(field.errors for field in form) else 200
    return render_template("games/index.html", games=page.games, profiles=PROFILES, lang=language,
                           import_form=ImportForm(), filters=form, filtered=bool(params),
                           next_url=next_url, first_url=url_for("games.index", **params)
                           if request.args.get("after") else None), status


@bp.route("/games/new", methods=["GET", "POST"])
def new() -> Any:
    form = NewGameForm()
    alike: dict[int, list[str]] = {}
    if form.validate_on_submit():
        # a new name like a roster name is a question, not a refusal: the same button
        # again (the names unchanged) starts the game
        alike = _unchecked_look_alikes(form.players())
        if not alike:
            started = _start(form)
            if started is not None:
                return started
    status = 200 if alike or request.method == "GET" else 400
    options = []
    for profile in PROFILES.values():
        for spec in profile.options:
            label, values = OPTION_LABELS.get(spec.name, (spec.name, {}))
            options.append({"profile": profile.id, "field": form[option_field_name(spec.name)],
                            "label": label, "labels": values, "default": spec.values[0]})
    names = form.players()
    label = _("Seats around the table and the direction of play")
    return render_template("games/new.html", form=form, profiles=PROFILES, lang=lang(),
                           options=options, names=queries.player_names(get_session()),
                           alike=alike, names_checked=_names_key(names) if alike else "",
                           diagram_cw=table_svg(names, True, label),
                           diagram_ccw=table_svg(names, False, label)), status


def _start(form: Any) -> Any:
    """Starts the game of the form: the sheet, or None with the refusal on the form."""
    profile = form.profile.data
    first = None if form.first_seat.data == "draw" else int(form.first_seat.data)
    try:
        game = games_service.start_game(
            get_session(), profile=profile, players=form.players(), first_seat=first,
            options=form.options_for(profile), who=actor(), scorer_id=_user_id(), pins=form.pins())
    except (RecordError, BadInput) as e:
        _seat_error(form, e)
        return None
    if first is None:
        seat_key = PROFILES[profile].seat_key
        who = game.record["players"][game.record[seat_key]]
        flash(_("Drawn by lot: %(name)s holds the 2♦ and chooses first.", name=who)
              if seat_key == "first_chooser" else _("Drawn by lot: %(name)s deals first.", name=who))
    return redirect(url_for("games.sheet", game_id=game.id))


def _names_key(names: list[str]) -> str:
    return "\n".join(names)


def _unchecked_look_alikes(names: list[str]) -> dict[int, list[str]]:
    """The seats whose new names look like roster names, unless the scorer was shown
    these very names and pressed the button again (``names_checked``)."""
    if request.form.get("names_checked") == _names_key(names):
        return {}
    return queries.look_alike_players(get_session(), names)


def _seat_error(form: Any, e: RecordError | BadInput) -> None:
    """An engine or service refusal under the seat it names (players[k]), else on top."""
    field = getattr(e, "field", None) or ""
    seat = field[len("players["):-1] if field.startswith("players[") and field.endswith("]") else ""
    if seat in ("0", "1", "2", "3"):
        getattr(form, f"player_{seat}").errors = [problem_text(e)]
    else:
        form.form_errors.append(problem_text(e))


@bp.get("/games/<int:game_id>")
def sheet(game_id: int) -> str:
    """The sheet: besides the user (the guard) and the game, ONE statement reads the table's
    confirmations, the live stamp, the share link and the user's rights (sheet_state)."""
    game = load_game_or_404(game_id)
    u = user()
    state = confirm.sheet_state(get_session(), game, u.id if u is not None else None)
    remember_table_stamp(game.id, state.confirmations)
    share = SharedLink(state.share_token) if state.share_token is not None else None
    access = known_game_access(game.id, state.scorer)
    # a seat's own player or the game's scorer calls the director (games/table/calls.may_call)
    may_call = access.can_score or (u is not None and any(s.user_id == u.id for s in state.table.seats))
    return render_sheet(game, table=state.table, share=share, access=access, place=state.event,
                        may_call=may_call, has_calls=state.calls > 0,
                        state=(state.table.key(), state.confirmations, state.share_token, access,
                               state.event, may_call))


@bp.post("/games/<int:game_id>/first-seat")
def first_seat(game_id: int) -> Any:
    """The table's first dealer (rifki: the 2♦ holder) before hand 1 (the sheet's panel)."""
    game = load_game_or_404(game_id)
    form = FirstSeatForm()
    if not form.validate():
        abort(400)
    try:
        games_service.set_first_seat(get_session(), game, form.seat.data,
                                     expected_version=form.version.data, who=actor())
    except ConflictError:
        flash(_("Someone else changed this game meanwhile: nothing was changed. "
                "Check the sheet and try again."), "conflict")
    except NothingChanged:
        pass
    except BadInput as e:
        flash(problem_text(e), "error")
    return redirect(url_for("games.sheet", game_id=game_id), 303)


@dataclass(frozen=True)
class SharedLink:
    """A live share link as the sheet shows it (its token)."""

    token: str


@bp.get("/games/<int:game_id>/audit")
def audit(game_id: int) -> str:
    game = load_game_or_404(game_id)
    language = lang()
    view = queries.sheet_view(game, language)
    owners = [h["owner"] for h in view["hands"]]
    entries = [{"entry": e, "lines": changelog.entry_lines(
                    e.action.value, e.before, e.after, view["players"], language,
                    owners[e.hand_index] if e.hand_index is not None
                    and e.hand_index < len(owners) else None)}
               for e in queries.audit_log(get_session(), game_id)]
    return render_template("games/audit.html", game=view, entries=entries,
                           confirmations=confirm.confirmation_log(get_session(), game_id))


@bp.get("/games/<int:game_id>/record.json")
def record_json(game_id: int) -> Response:
    game = load_game_or_404(game_id)
    body = json.dumps(game.record, ensure_ascii=False, indent=2) + "\n"
    response = Response(body, mimetype="application/json")
    if request.args.get("download"):
        response.headers["Content-Disposition"] = f'attachment; filename="kingsheet-{game_id}.json"'
    return response


@bp.get("/games/<int:game_id>/report.json")
def report_json(game_id: int) -> Response:
    game = load_game_or_404(game_id)
    body = json.dumps(queries.report(game), ensure_ascii=False, indent=2) + "\n"
    return Response(body, mimetype="application/json")


@bp.get("/games/<int:game_id>/sheet.csv")
def sheet_csv(game_id: int) -> Response:
    game = load_game_or_404(game_id)
    view = queries.sheet_view(game, lang())
    if view["error"]:
        raise view["error"]          # the record's own error: the error page translates it
    out = io.StringIO()
    w = SafeCsvWriter(out)
    players = view["players"]
    w.writerow(["row", "hand", "contract", "trump", "dealer", "owner", "chooser", "declarer", "bid",
                *[f"points {p}" for p in players], *[f"payment {p}" for p in players],
                "total", "expected_total", "check", *[f"running {p}" for p in players], "ruling"])
    for r in view["hands"]:
        w.writerow(_csv_hand_row(r, players))
    w.writerow(_csv_totals_row(view))
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="kingsheet-{game_id}.csv"'
    return response


def _csv_hand_row(r: dict[str, Any], players: list[Any]) -> list[Any]:
    """One row of the sheet's CSV: the hand, its points and payments, its check and ruling."""
    dealer, owner, chooser, declarer = (str(players[s]) if s is not None else ""
                                        for s in (r["dealer"], r["owner"], r["chooser"], r["declarer"]))
    return [r["row"], r["number"], r["contract"], r["trump"] or "", dealer,
            owner, chooser, declarer, r["bid"] or "",
            *r["points"], *r["payments"], r["total"], r["expected_total"],
            "ok" if r["check_ok"] else r["diff"], *r["running_totals"],
            (r["ruling"] or {}).get("kind", "as-played") if r["counted"] else "replay"]


def _csv_totals_row(view: dict[str, Any]) -> list[Any]:
    """The sheet's CSV last row: the totals and the zero-sum check."""
    return ["", "", "totals", "", "", "", "", "", "", *view["totals"], *([""] * 4), view["sum"],
            view["expected_sum"], "ok" if view["zero_sum_ok"] else view["sum"] - view["expected_sum"],
            *([""] * 4), ""]


@bp.route("/games/import", methods=["GET", "POST"])
def import_record() -> Any:
    form = ImportForm()
    error = None
    if form.validate_on_submit():
        try:
            data = games_service.read_record_file(form.record.data.read())
            game = games_service.import_game(get_session(), data, who=actor(), scorer_id=_user_id())
        except (RecordError, BadInput) as e:
            error = e
        else:
            flash(_("Game imported."))
            return redirect(url_for("games.sheet", game_id=game.id))
    status = 400 if request.method == "POST" else 200
    message = None
    if error is not None:
        status = 422 if isinstance(error, RecordError) else 400
        message = problem_text(error)
    return render_template("games/import.html", form=form, error=error,
                           error_message=message), status
