"""Per-browser preferences: the page language and the scorer's name (asked once per session)."""
from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, redirect, render_template, request, session

from app.forms.prefs import ScorerForm

bp = Blueprint("prefs", __name__)


def safe_next(target: str | None, default: str = "/") -> str:
    """Only local paths: never redirect to another site."""
    if not target:
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return default
    return target


@bp.get("/lang/<code>")
def set_language(code: str) -> Any:
    if code not in current_app.config["LANGUAGES"]:
        abort(404)
    session["lang"] = code
    return redirect(safe_next(request.args.get("next")))


@bp.route("/scorer", methods=["GET", "POST"])
def scorer() -> Any:
    form = ScorerForm()
    next_url = safe_next(request.values.get("next"))
    if form.validate_on_submit():
        remember_scorer(form.name.data)
        return redirect(next_url)
    if request.method == "GET" and session.get("scorer"):
        form.name.data = session["scorer"]
    return render_template("prefs/scorer.html", form=form, next_url=next_url), (
        400 if form.errors else 200)


def current_scorer() -> str:
    return str(session.get("scorer") or "?")


def remember_scorer(name: str | None) -> str:
    """The scorer's name typed on a form (asked only while the session has none)."""
    name = "".join(ch for ch in (name or "") if ord(ch) >= 32 and ord(ch) != 127).strip()[:60]
    if name:
        session["scorer"] = name
    return current_scorer()
