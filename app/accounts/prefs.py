"""Per-browser preferences: the page language. (Who changes a game is the logged-in user:
see app/accounts/auth.py.)"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, redirect, request, session

from app.web.common import safe_next

bp = Blueprint("prefs", __name__)


@bp.get("/lang/<code>")
def set_language(code: str) -> Any:
    if code not in current_app.config["LANGUAGES"]:
        abort(404)
    session["lang"] = code
    return redirect(safe_next(request.args.get("next")))
