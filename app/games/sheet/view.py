"""The sheet page of a game (its own address and its share link): the table, chart and
notes rendered once per record content and kept (a cachetools LRU cache)."""
from __future__ import annotations

import threading
from collections.abc import Hashable
from typing import Any

from cachetools import LRUCache
from flask import render_template
from markupsafe import Markup

from app.games import queries
from app.games.sheet.page_cache import cached_page
from app.web.chart import legend, progression_svg
from app.web.common import lang
from app.web.words import _

_FRAGMENTS_KEPT = 64
_FRAGMENTS: LRUCache[tuple[Any, ...], Markup] = LRUCache(maxsize=_FRAGMENTS_KEPT)
_FRAGMENTS_LOCK = threading.Lock()   # LRUCache is not thread-safe; a read also reorders it


def _sheet_body(view: dict[str, Any], language: str) -> Markup:
    """The sheet's table, chart and notes, rendered once per record content, game and
    language (a pure function of them) and kept for the next reads of the same sheet."""
    key = (view["id"], view.get("digest"), language, view.get("base_url"))
    with _FRAGMENTS_LOCK:
        body = _FRAGMENTS.get(key)
    if body is not None:
        return body
    chart = None
    if view["hands"]:
        chart = progression_svg(view["players"], [r["running_totals"] for r in view["hands"]],
                                _("Running totals, hand by hand"))
    body = Markup(render_template("games/_sheet_body.html", g=view, chart=chart,
                                  legend=legend(view["players"])))
    if view.get("digest"):
        with _FRAGMENTS_LOCK:
            _FRAGMENTS[key] = body
    return body


def render_sheet(game: Any, template: str = "games/sheet.html", base_url: str | None = None,
                 *, state: Hashable = None, **context: Any) -> str:
    """The sheet page of `game`; with `base_url` (a share link) its hand links start there
    and it offers no correction. `state` names everything of `context` the page shows
    (the table's confirmations, the share link, the user's rights): the page is then kept
    for the next identical read (app/games/sheet/page_cache.py) under the game's version and it."""
    def render() -> str:
        language = lang()
        view = queries.sheet_view(game, language)
        if base_url is not None:
            view.update(base_url=base_url, shared=True)
        body = _sheet_body(view, language) if not view["error"] else Markup("")
        return render_template(template, g=view, body=body, wakelock=True, **context)

    key = None if state is None else ("sheet", template, game.id, game.version, game.updated_at,
                                      base_url, state)
    return cached_page(key, render)
