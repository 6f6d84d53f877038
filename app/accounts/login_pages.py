"""Logging in and out, and the first director of an empty club (the pages of
app/accounts/auth.py's sessions: ``/login``, ``/logout``, ``/setup``)."""
from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_login import logout_user

from app.accounts import accounts, throttle
from app.accounts.auth import by_token, has_users, new_csrf_token, start_session, user
from app.accounts.forms import FirstDirectorForm, LoginForm, LogoutForm
from app.db import get_session
from app.errors import BadInput
from app.web.common import safe_next
from app.web.errors import error_response
from app.web.messages import service_text

bp = Blueprint("auth", __name__)


def too_many(e: throttle.Throttled) -> Any:
    """429 with Retry-After, in the page's language."""
    response = make_response(error_response(429, "too-many", _(
        "Too many attempts from this address: wait a minute and try again.")))
    response.headers["Retry-After"] = str(e.retry_after)
    return response


@bp.route("/login", methods=["GET", "POST"])
def login() -> Any:
    if not has_users():
        return redirect(url_for("auth.setup"))
    form = LoginForm()
    next_url = safe_next(request.values.get("next"))
    error = None
    if form.validate_on_submit():
        try:
            attempt = throttle.login_attempt(get_session(), form.username.data,
                                             request.remote_addr or "?")
        except throttle.Throttled as e:
            return too_many(e)
        found = accounts.authenticate(get_session(), form.username.data, form.password.data)
        if found is not None:
            throttle.login_succeeded(get_session(), attempt)
            start_session(found)
            return redirect(next_url, 303)
        error = _("Wrong user name or password.")
    status = 401 if request.method == "POST" else 200
    return render_template("auth/login.html", form=form, next_url=next_url, error=error), status


@bp.post("/logout")
def logout() -> Any:
    if LogoutForm().validate_on_submit():
        u = user()
        if u is not None and not by_token():
            accounts.log_out(get_session(), u)   # every copy of the cookie is logged out too
        logout_user()
        new_csrf_token()
        flash(_("You are logged out."))
    return redirect(url_for("auth.login"), 303)


@bp.route("/setup", methods=["GET", "POST"])
def setup() -> Any:
    """The first visit of an empty club: create the first director (only while no user
    exists), who is then logged in."""
    if has_users():
        return redirect(url_for("auth.login"))
    form = FirstDirectorForm()
    if form.validate_on_submit():
        try:
            director = accounts.create_first_director(get_session(), form.username.data, form.password.data)
        except BadInput as e:
            form[e.field].errors = [*form[e.field].errors, service_text(e)]
            if e.text == accounts.FIRST_DIRECTOR_EXISTS:   # another first visit won the race
                return render_template("auth/setup.html", form=form), 409
        else:
            current_app.extensions["kingsheet_has_users"] = True
            start_session(director)
            flash(_("Welcome, %(name)s: you are the club's director.", name=director.username))
            return redirect(url_for("games.index"), 303)
    return render_template("auth/setup.html", form=form), 400 if request.method == "POST" else 200
