"""The sheet page kept for the next identical read (app/games/sheet/page_cache.py, issue 28): served
again without rendering while nothing it shows changed, rendered again as soon as anything
did, with each reader's own CSRF token. In the tests every kept page served is also
rendered again and compared (PAGE_CACHE_VERIFY), so any test that changes something the
sheet shows would fail on a key that missed it."""
from __future__ import annotations

import re
from typing import Any

import pytest
from flask import template_rendered

from tests.conftest import ensure_user
from tests.web.helpers import csrf_from, signal_log
from tests.web.test_accounts import complete_game, tc


def renders(app: Any) -> Any:
    """The templates rendered inside the block."""
    return signal_log(app, template_rendered, lambda _sender, template, **_extra: template.name)


def read(app: Any, client: Any, url: str, **kwargs: Any) -> tuple[str, bool]:
    """The page at `url` and whether it was rendered now (else served as kept). The kept
    page is not rendered again to be compared here (PAGE_CACHE_VERIFY): the renders
    counted are the app's own."""
    app.config["PAGE_CACHE_VERIFY"] = False
    with renders(app) as seen:
        r = client.get(url, **kwargs)
    assert r.status_code == 200, (url, r.status_code)
    return r.get_data(as_text=True), "games/sheet.html" in seen or "share/sheet.html" in seen


def without_token(html: str) -> str:
    return re.sub(r'(name="csrf_token"[^>]*value="|name="csrf-token" content=")[^"]+"', r"\1", html)


def test_a_sheet_read_again_is_the_kept_page_with_the_readers_own_token(csrf_app):
    gid = complete_game(csrf_app)
    sam = tc(csrf_app, user="sam", role="scorer")
    first, rendered = read(csrf_app, sam, f"/games/{gid}")
    assert rendered
    again, rendered = read(csrf_app, sam, f"/games/{gid}")
    assert not rendered                                   # served as kept
    assert without_token(again) == without_token(first)
    # another phone of the same account: its own session, its own token in the same page
    other = tc(csrf_app, user="sam", role="scorer")
    theirs, rendered = read(csrf_app, other, f"/games/{gid}")
    assert not rendered and csrf_from(theirs) != csrf_from(again)
    assert "\x00" not in theirs
    # each token works for its own session only: the form of the kept page deletes a hand
    version = re.search(r'name="version" value="(\d+)"', theirs).group(1)  # type: ignore[union-attr]
    r = sam.post(f"/games/{gid}/hands/last/delete",
                 data={"csrf_token": csrf_from(theirs), "version": version})
    assert r.status_code == 400                           # sam's session, the other's token
    r = other.post(f"/games/{gid}/hands/last/delete",
                   data={"csrf_token": csrf_from(theirs), "version": version})
    assert r.status_code in (302, 303)


def test_whatever_the_sheet_shows_changes_renders_it_again(csrf_app):
    from sqlalchemy import select

    from app.db import get_session
    from app.games import links
    from app.games.table import confirm
    from app.models import Game, User

    gid = complete_game(csrf_app)
    ensure_user(csrf_app, "eva", "scorer")              # a scorer, not of this game
    eva = tc(csrf_app, user="eva", role="scorer")
    url = f"/games/{gid}"

    def fresh_then_kept() -> str:
        page, rendered = read(csrf_app, eva, url)
        assert rendered
        kept, rendered = read(csrf_app, eva, url)
        assert not rendered
        return page

    page = fresh_then_kept()
    assert 'id="delete-last"' not in page and 'id="share-url"' not in page
    with csrf_app.app_context():                         # a seat confirms (PIN): the table
        s = get_session()
        confirm.confirm_by_pin(s, s.get(Game, gid), 0, "1111", None)
    page = fresh_then_kept()
    assert re.search(r'id="confirm-seat-0" data-current="1"', page)
    with csrf_app.app_context():                         # the game's share link
        token = links.share_link(get_session(), gid).token
    assert token in fresh_then_kept()
    with csrf_app.app_context():                         # eva takes the table over: her rights
        s = get_session()
        handover = links.handover_link(s, gid, None).token
        links.use_handover(s, handover, s.scalars(select(User).where(User.username == "eva")).one())
    assert 'id="delete-last"' in fresh_then_kept()
    r = eva.post(f"/games/{gid}/hands/last/delete",      # a new version: the row goes
                 data={"csrf_token": csrf_from(page), "version": _version(csrf_app, gid)})
    assert r.status_code in (302, 303)
    flashed, rendered = read(csrf_app, eva, url)         # the message: shown once, never kept
    assert rendered and 'class="flash' in flashed
    page = fresh_then_kept()
    assert 'class="flash' not in page
    assert eva.get(f"/lang/tr?next={url}").status_code == 302   # the language
    assert 'lang="tr"' in fresh_then_kept()
    refreshed, rendered = read(csrf_app, eva, url, headers={"X-Live-Refresh": "1"})
    assert rendered                                       # what live.js fetches: its own key
    sam = tc(csrf_app, user="sam", role="scorer")         # another user: their own page
    page, rendered = read(csrf_app, sam, url)
    assert rendered and ">sam<" in page


def _version(app: Any, gid: int) -> str:
    from app.db import get_session
    from app.models import Game

    with app.app_context():
        return str(get_session().get(Game, gid).version)


def test_the_share_links_sheet_is_kept_too(app):
    gid = complete_game(app)
    sam = tc(app, user="sam", role="scorer")
    assert sam.post(f"/games/{gid}/share").status_code == 303
    html = sam.get(f"/games/{gid}").get_data(as_text=True)
    token = re.search(r'id="share-url">[^<]*/s/([\w-]+)<', html).group(1)  # type: ignore[union-attr]
    anonymous = tc(app, user=None)
    assert read(app, anonymous, f"/s/{token}")[1]
    page, rendered = read(app, anonymous, f"/s/{token}")
    assert not rendered and 'id="sheet"' in page


def test_a_key_that_misses_an_input_fails_the_tests(app, monkeypatch):
    """The check behind every test: a kept page that is not what a render gives now."""
    from app.games.sheet import page_cache

    gid = complete_game(app)
    sam = tc(app, user="sam", role="scorer")
    monkeypatch.setattr(page_cache, "request_key", lambda: ())   # forgets the language
    assert app.config["PAGE_CACHE_VERIFY"]                # on in every test (TESTING)
    assert 'lang="en"' in sam.get(f"/games/{gid}").get_data(as_text=True)
    assert sam.get(f"/lang/tr?next=/games/{gid}").status_code == 302
    with pytest.raises(page_cache.StalePage, match="differs"):
        sam.get(f"/games/{gid}")
