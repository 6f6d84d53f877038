"""Per-browser preferences: the page language. (Who changes a game is the logged-in user:
see app/web/auth.py.)"""
from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, redirect, request, session

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
