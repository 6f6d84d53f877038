"""The site's own files: the favicon and the web app manifest (add to the home screen)."""
from __future__ import annotations

import json

from flask import Blueprint, Response, current_app, send_from_directory, url_for
from flask_babel import gettext as _

from app.web.games import lang

bp = Blueprint("site", __name__)

THEME = "#1b1f24"  # the header's ink (static/css/app.css --ink)


@bp.get("/favicon.ico")
def favicon() -> Response:
    static = current_app.static_folder or "static"
    return send_from_directory(static, "icons/favicon.ico", mimetype="image/vnd.microsoft.icon",
                               max_age=7 * 24 * 3600)


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
