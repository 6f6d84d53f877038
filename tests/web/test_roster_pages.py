"""The roster at club size (issue 23.8): /players a page at a time, by name, with a search;
the new-game form's names bounded and found by typing (/players/names)."""
from __future__ import annotations

import random
import re
from datetime import UTC, datetime

import pytest
from sqlalchemy import insert

from app.collation import by_name, folded_name
from app.models import Player
from app.stats import standings

pytestmark = pytest.mark.every_database

ROSTER = 5000
SMALL = 100_000   # bytes: a page a phone loads without thinking about it


def _add_players(app, names):
    from app.db import get_session

    now = datetime.now(UTC)
    with app.app_context():
        session = get_session()
        session.execute(insert(Player), [{"name": n, "folded_name": folded_name(n), "created_at": now}
                                         for n in names])
        session.commit()


def _big_roster(app):
    rng = random.Random(23)
    first = ["Ana", "Óscar", "Ñoño", "nuria", "Pablo", "Zoë", "Ésteban", "Ömer", "Şule", "Юрий",
             "ёлка", "Beto"]
    names = [f"{rng.choice(first)} {k:05d}" for k in range(ROSTER)]
    _add_players(app, names + ["Wilhelmina Quigley"])
    return names


def _roster_names(html):
    return re.findall(r'<a href="/players/\d+">([^<]+)</a></th>', html)


def test_players_page_stays_small_and_pages_join_up_in_by_name_order(app, client, make_game):
    names = _big_roster(app)
    make_game()
    seen, url, pages = [], "/players", 0
    while url:
        r = client.get(url)
        assert r.status_code == 200
        assert len(r.data) < SMALL
        html = r.get_data(as_text=True)
        page = _roster_names(html)
        assert 0 < len(page) <= standings.ROSTER_PAGE_SIZE
        seen += page
        pages += 1
        found = re.search(r'href="([^"]+)" rel="next"', html)
        url = found.group(1).replace("&amp;", "&") if found else None
        if pages > 1:
            assert 'rel="first"' in html
    from html import unescape
    with app.app_context():
        from app.db import get_session
        everyone = [p.name for p in get_session().query(Player)]
    assert [unescape(n) for n in seen] == by_name(everyone, str)    # today's order, exactly
    assert len(seen) == len(names) + 5 and pages == -(-len(seen) // standings.ROSTER_PAGE_SIZE)


def test_search_finds_a_player_by_part_of_the_name_ignoring_case_and_accents(app, client):
    _big_roster(app)
    for q in ("quig", "QUIGLEY", "helmina q"):
        html = client.get("/players", query_string={"q": q}).get_data(as_text=True)
        assert _roster_names(html) == ["Wilhelmina Quigley"], q
        assert f'value="{q}"' in html
    accents = _roster_names(client.get("/players", query_string={"q": "oscar 0"}).get_data(as_text=True))
    assert accents and all(n.startswith("Óscar 0") for n in accents)
    # "%" and "_" are letters here, not wildcards
    assert _roster_names(client.get("/players?q=%25").get_data(as_text=True)) == []
    html = client.get("/players?q=nobody-at-all").get_data(as_text=True)
    assert "name contains «nobody-at-all»." in html and 'id="no-match"' in html


def test_a_search_pages_too(app, client):
    _big_roster(app)
    first = client.get("/players?q=ana").get_data(as_text=True)
    found = re.search(r'href="([^"]+)" rel="next"', first)
    assert found and "q=ana" in found.group(1)
    second = client.get(found.group(1).replace("&amp;", "&")).get_data(as_text=True)
    both = _roster_names(first) + _roster_names(second)
    assert len(set(both)) == len(both) and all(n.lower().startswith("ana") for n in both)


def test_the_season_leaderboard_still_shows(app, client, make_game):
    from datetime import date

    from app.db import get_session
    from app.stats.seasons import save_season

    make_game()
    with app.app_context():
        season = save_season(get_session(), name="Otoño", starts_on=date(2000, 1, 1),
                             ends_on=date(2100, 1, 1))
        season_id = season.id
    html = client.get(f"/players?season={season_id}").get_data(as_text=True)
    assert "Otoño" in html and "No finished game in this season yet." in html
    assert 'id="roster-search"' not in html and 'rel="next"' not in html


def test_new_game_page_stays_small_and_offers_recent_players(app, client, make_game):
    _big_roster(app)
    make_game()                                    # Ana, Beto, Carla, Dani played last
    r = client.get("/games/new")
    assert r.status_code == 200 and len(r.data) < SMALL
    html = r.get_data(as_text=True)
    datalist = html.split('<datalist id="roster"')[1].split("</datalist>")[0]
    offered = re.findall(r'<option value="([^"]+)">', datalist)
    assert 4 <= len(offered) <= 50 and "Carla" in offered
    assert "js/name_suggestions.js" in html and 'data-names-url="/players/names"' in html


def test_the_game_list_filter_is_bounded_too(app, client, make_game):
    _big_roster(app)
    make_game()
    r = client.get("/")
    assert r.status_code == 200 and len(r.data) < SMALL


def test_names_endpoint_finds_up_to_20_names_prefix_first(app, client):
    _big_roster(app)
    _add_players(app, ["Kanan", "Anabel"])
    r = client.get("/players/names?q=ana")
    assert r.status_code == 200 and r.is_json
    names = r.get_json()["names"]
    assert len(names) == standings.NAME_SUGGESTIONS
    assert all("ana" in folded_name(n) for n in names)
    assert client.get("/players/names?q=quigl").get_json() == {"names": ["Wilhelmina Quigley"]}
    assert client.get("/players/names?q=").get_json() == {"names": []}
    small = client.get("/players/names?q=kan").get_json()["names"]
    assert small == ["Kanan"]


def test_names_endpoint_is_for_signed_in_users(app):
    _add_players(app, ["Ana"])
    r = app.test_client(user=None).get("/players/names?q=an")
    assert r.status_code in (302, 401, 403)
    assert b"Ana" not in r.data
