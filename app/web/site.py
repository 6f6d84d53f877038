"""The site's own files: the favicon, the web app manifest (add to the home screen), the
service worker, and the addresses of static/ (each carries its file's version)."""
from __future__ import annotations

import hashlib
import json
import os
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, render_template, request, url_for
from flask_babel import gettext as _

from app.web.common import lang

bp = Blueprint("site", __name__)

THEME = "#1b1f24"  # the header's ink (static/css/app.css --ink)


#: How long a browser keeps a static file asked for by its version: a year (a new version
#: is a new address).
KEPT_FOR = 365 * 24 * 3600


@bp.app_url_defaults
def _static_version(endpoint: str, values: dict[str, Any]) -> None:
    """Every page names a static file with its content's version (``?v=`` and 10 hex of its
    SHA-256), so that the browser keeps it until it changes: without it the browser asked
    again for every script and stylesheet on every page (eight requests a page, each
    answered "not modified"). The service worker keeps files by their path alone
    (static/js/sw.js), so a phone offline is served whatever version it kept."""
    if endpoint == "static" and "v" not in values and "filename" in values:
        version = static_version(current_app.static_folder or "static", values["filename"])
        if version:
            values["v"] = version


@bp.after_app_request
def _keep_versioned(response: Response) -> Response:
    """A static file asked for by its current version may be kept for a year, unasked; any
    other address of static/ (the service worker's list, an old version) is checked on use."""
    if (request.endpoint == "static" and response.status_code in (200, 304)
            and request.args.get("v")
            and request.args["v"] == static_version(current_app.static_folder or "static",
                                                    (request.view_args or {}).get("filename", ""))):
        response.cache_control.no_cache = None
        response.cache_control.public = True
        response.cache_control.max_age = KEPT_FOR
        response.cache_control.immutable = True
    return response


def static_version(folder: str, filename: str) -> str:
    """10 hex of the SHA-256 of ``static/<filename>`` ("" when there is no such file),
    read again only when the file's size or time changes."""
    path = os.path.join(folder, filename)
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return ""
    return _file_version(path, st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=256)
def _file_version(path: str, mtime_ns: int, size: int) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:10]


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


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker (static/js/sw.js), served from the site's root so that its scope is
    every page: it keeps the pages a phone opened for when the network drops, and sends the
    hands waiting in the phone's outbox (static/js/outbox_store.js, offline.js)."""
    static = Path(current_app.static_folder or "static")
    response = Response((static / "js" / "sw.js").read_bytes(), mimetype="text/javascript")
    # a browser checks for a new worker on every navigation: never an old copy
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.get("/offline")
def offline() -> Any:
    """What the service worker shows for a page this phone never opened, while the network
    is down (kept when the worker is installed, in the language of that moment)."""
    return render_template("offline.html")
