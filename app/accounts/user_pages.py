"""The club's accounts, for directors: the list, and a new account (the same rules as
``flask --app app user create``)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from app.accounts import accounts, throttle, tokens
from app.accounts.auth import start_session
from app.accounts.auth import user as current
from app.accounts.forms import EditUserForm, NewUserForm, RevokeTokenForm
from app.db import get_session
from app.errors import BadInput
from app.web.common import found_or_404
from app.web.messages import service_text

bp = Blueprint("users", __name__)


def _saved(form: Any, save: Callable[[], Any], fallback: Any) -> bool:
    """Whether the validated form was saved by `save`; a refusal is shown next to its field."""
    if not form.validate_on_submit():
        return False
    try:
        save()
    except BadInput as e:
        field = getattr(form, e.field, fallback)
        field.errors = [*field.errors, service_text(e)]
        return False
    return True


@bp.route("/users", methods=["GET", "POST"])
def index() -> Any:
    form = NewUserForm()
    session = get_session()
    if _saved(form, lambda: accounts.create_user(session, form.username.data, form.password.data,
                                                 form.role.data,
                                                 player=(form.player.data or "").strip() or None),
              form.username):
        flash(_("Account %(name)s created.", name=form.username.data.strip()))
        return redirect(url_for("users.index"), 303)
    status = 400 if request.method == "POST" else 200
    return render_template("users/index.html", users=accounts.list_users(session), form=form,
                           failed=throttle.failed_logins(session)), status


@bp.route("/users/<int:user_id>", methods=["GET", "POST"])
def edit(user_id: int) -> Any:
    session = get_session()
    user = found_or_404(accounts.get_user(session, user_id))
    form = EditUserForm(data={"role": user.role.value})
    if _saved(form, lambda: accounts.change_user(session, user.id, form.role.data,
                                                 form.password.data or None), form.role):
        me = current()
        if me is not None and me.id == user.id:
            start_session(user)   # the change ended the user's other sessions, not this one
        flash(_("Account %(name)s changed.", name=user.username))
        return redirect(url_for("users.index"), 303)
    status = 400 if request.method == "POST" else 200
    return render_template("users/edit.html", user=user, form=form, revoke=RevokeTokenForm(),
                           live_tokens=tokens.live_tokens(session, user.id)), status


@bp.post("/users/<int:user_id>/tokens/revoke")
def revoke_tokens(user_id: int) -> Any:
    """A director revokes every API token of an account (a lost laptop, a leaked token)."""
    session = get_session()
    user = found_or_404(accounts.get_user(session, user_id))
    if RevokeTokenForm().validate_on_submit():
        n = tokens.revoke_all(session, user.id)
        session.commit()
        flash(_("API tokens of %(name)s revoked: %(n)s. The API refuses them from now on.",
                n=n, name=user.username))
    return redirect(url_for("users.edit", user_id=user.id), 303)
