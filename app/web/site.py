"""The site's own files: the favicon and the web app manifest (add to the home screen)."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, current_app, url_for
from flask_babel import gettext as _

from app.web.common import lang

bp = Blueprint("site", __name__)

THEME = "#1b1f24"  # the header's ink (static/css/app.css --ink)


@bp.get("/favicon.ico")
def favicon() -> Response:
    # Served from memory (a few hundred bytes): every page asks for it, and a file handle that a
    # browser's aborted or conditional request leaves for the garbage collector is worth avoiding.
    response = Response(_icon_bytes(current_app.static_folder or "static"),
                        mimetype="image/vnd.microsoft.icon")
    response.cache_control.public = True
    response.cache_control.max_age = 7 * 24 * 3600
    return response


@cache
def _icon_bytes(static: str) -> bytes:
    return (Path(static) / "icons" / "favicon.ico").read_bytes()


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    def icon(name: str, size: int, purpose: str = "any") -> dict[str, str]:
        return {"src": url_for("static", filename=f"icons/{name}"), "sizes": f"{size}x{size}",
                "type": "image/png", "purpose": purpose}

    body = {
        "name": "kingsheet", "short_name": "kingsheet", "lang": lang(),
        "description": _("Score sheet and referee for King: ru32, fiestas, subastas and Rıfkı."),
        "start_url": url_for("games.index"), "scope": "/", "display": "standalone",
        "orientation": "any", "background_color": "#f5f3ee", "theme_color": THEME,
        "icons": [icon("icon-192.png", 192), icon("icon-512.png", 512),
                  icon("maskable-512.png", 512, "maskable")],
    }
    response = Response(json.dumps(body, ensure_ascii=False, indent=1),
                        mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response
