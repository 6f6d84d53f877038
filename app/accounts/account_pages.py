"""The logged-in user's own account: their API tokens, made (the token's text shown once,
in the answer to the form that made it), listed and revoked. Any role may have tokens; a
token acts with its user's role and nothing more. The guard lets only a logged-in session
in (``auth.SESSION_ONLY``: never a request made with a token)."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _

from app.accounts import tokens
from app.accounts.auth import user
from app.accounts.forms import NewTokenForm, RevokeTokenForm
from app.db import get_session
from app.errors import BadInput
from app.models import ApiToken, User
from app.web.messages import service_text

bp = Blueprint("account", __name__)


def _me() -> User:
    found = user()
    if found is None:          # the guard lets no anonymous request in
        abort(401)
    return found


def _page(form: NewTokenForm, made: ApiToken | None = None, secret: str | None = None) -> str:
    me = _me()
    return render_template("account/index.html", tokens=tokens.list_tokens(get_session(), me.id),
                           form=form, made=made, secret=secret)


@bp.get("/account")
def index() -> Any:
    return _page(NewTokenForm())


@bp.post("/account/tokens")
def new_token() -> Any:
    """Makes a token; the answer (never a redirect, never a flash) is the only place its
    text is ever shown, and no cache keeps it."""
    form = NewTokenForm()
    if form.validate_on_submit():
        try:
            made, secret = tokens.create_token(get_session(), _me(), form.label.data)
        except BadInput as e:
            form.label.errors = [*form.label.errors, service_text(e)]
        else:
            return _page(NewTokenForm(formdata=None), made, secret), 201, {"Cache-Control": "no-store"}
    return _page(form), 400


@bp.post("/account/tokens/<int:token_id>/revoke")
def revoke(token_id: int) -> Any:
    if not RevokeTokenForm().validate_on_submit():
        abort(400)
    if not tokens.revoke_token(get_session(), _me().id, token_id):
        abort(404)             # someone else's token, or none: nothing is said about it
    flash(_("Token revoked: the API refuses it from now on."))
    return redirect(url_for("account.index"), 303)
