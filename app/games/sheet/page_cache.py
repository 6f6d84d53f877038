"""Whole pages kept for the next identical read (the sheet page, issue 28).

A kept page is served only under a key that names everything it was rendered from: the
page's own data (for the sheet: the game's version, its table's confirmations, its share
link, the user's rights; ``render_sheet``) and what every page reads from the request
(:func:`request_key`: the language, the user as the header shows them, the address the
language switch returns to, the host the share link is written with, the live-refresh
headers). The session's CSRF token is not part of the key: a page is kept with a
placeholder where its token was, and each answer writes its own request's token there.

A page waiting to show a message (a flash) is never kept nor served from here: showing it
takes the message out of the session.

``PAGE_CACHE_VERIFY`` (on in the tests): every page served from the cache is rendered again
and compared with the kept one. A key that misses an input the page depends on then fails
the first test that changes that input (:class:`StalePage`), instead of showing a player an
old sheet.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any

from cachetools import LRUCache
from flask import current_app, g, request
from flask import session as cookie_session
from flask_wtf.csrf import generate_csrf

from app.accounts.auth import user
from app.web.words import current_lang

#: Where a kept page's CSRF token was (no page contains this text otherwise).
TOKEN_PLACEHOLDER = "\x00csrf-token\x00"


class StalePage(RuntimeError):
    """A kept page differs from the page rendered now for the same key (PAGE_CACHE_VERIFY)."""


class _Pages:
    """An LRU of rendered pages bounded by their total size in characters (thread-safe)."""

    def __init__(self, max_chars: int) -> None:
        self.lock = threading.Lock()
        self.pages: LRUCache[Hashable, str] = LRUCache(maxsize=max_chars, getsizeof=len)


def _pages() -> _Pages | None:
    app = current_app
    found = app.extensions.get("kingsheet_pages")
    if found is None:
        size = int(app.config.get("PAGE_CACHE_KB", 16 * 1024)) * 1024
        if size <= 0:
            return None
        found = app.extensions.setdefault("kingsheet_pages", _Pages(size))
    return found  # type: ignore[no-any-return]


def request_key() -> tuple[Hashable, ...] | None:
    """What a page reads from the request besides its own data; None when the page must
    be rendered now (a message waits in the session)."""
    if cookie_session.get("_flashes"):
        return None
    u = user()
    who = None if u is None else (u.id, u.username, u.role.value, u.player_id,
                                  u.may_start_games, u.is_director)
    return (current_lang(), who, request.full_path, request.host_url,
            bool(request.headers.get("X-Live-Refresh")),
            bool(request.headers.get("X-Kingsheet-Page")))


def _with_placeholder(page: str) -> str:
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    token = g.get(field)
    return page.replace(token, TOKEN_PLACEHOLDER) if token else page


def cached_page(key: tuple[Hashable, ...] | None, render: Callable[[], str]) -> str:
    """The page `render` makes, kept under `key` plus the request's part (None: not kept)."""
    pages = _pages()
    common = request_key() if key is not None else None
    if pages is None or key is None or common is None:
        return render()
    full = (key, common)
    with pages.lock:
        kept = pages.pages.get(full)
    if kept is not None:
        if current_app.config.get("PAGE_CACHE_VERIFY"):
            _verify(kept, _with_placeholder(render()), full)
        return kept.replace(TOKEN_PLACEHOLDER, generate_csrf())
    page = render()
    with pages.lock:
        pages.pages[full] = _with_placeholder(page)
    return page


def _verify(kept: str, fresh: str, key: Any) -> None:
    if kept == fresh:
        return
    at = next((i for i, (a, b) in enumerate(zip(kept, fresh, strict=False)) if a != b),
              min(len(kept), len(fresh)))
    raise StalePage(f"a kept page differs from a new render at character {at} (key {key!r}):\n"
                    f"kept: {kept[max(0, at - 120):at + 120]!r}\n"
                    f"now:  {fresh[max(0, at - 120):at + 120]!r}")


def forget_pages() -> None:
    """Drops every kept page of this app (the tests; a template changed on disk)."""
    pages = _pages()
    if pages is not None:
        with pages.lock:
            pages.pages.clear()
