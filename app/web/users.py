"""The club's accounts, for directors: the list, and a new account (the same rules as
``flask --app app user create``)."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from app.db import get_session
from app.forms.auth import NewUserForm
from app.services import accounts
from app.services.errors import BadInput

bp = Blueprint("users", __name__)


@bp.route("/users", methods=["GET", "POST"])
def index() -> Any:
    form = NewUserForm()
    session = get_session()
    if form.validate_on_submit():
        try:
            user = accounts.create_user(session, form.username.data, form.password.data, form.role.data,
                                        player=(form.player.data or "").strip() or None)
        except BadInput as e:
            field = getattr(form, e.field, form.username)
            field.errors = [*field.errors, e.message]
        else:
            flash(_("Account %(name)s created.", name=user.username))
            return redirect(url_for("users.index"), 303)
    status = 400 if request.method == "POST" else 200
    return render_template("users/index.html", users=accounts.list_users(session), form=form), status
