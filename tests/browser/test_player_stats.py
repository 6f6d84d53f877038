"""At 375 px (issue 26) no statistics or standings table needs a sideways swipe: the
player's page (ratings, facts, per contract, auction, head-to-head, charts), the roster,
the ratings' leaderboard and a season's standings."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from app.models import Player
from tests.browser.audit import axe_findings
from tests.browser.conftest import shot
from tests.conftest import load_record

LONG = ["Maximiliano Fernández-Villaverde", "Bartolomé Ximénez", "Carla", "Dani"]

#: Every table's width against the box that holds it (a .sheet-wrap scrolls sideways on its
#: own, so the page's width alone would not show it).
TABLES_JS = """() => [...document.querySelectorAll('table')].map(t => {
  const box = t.closest('.sheet-wrap') || t.parentElement;
  return [t.id, t.scrollWidth, box.clientWidth, t.getBoundingClientRect().right];
})"""


#: Every standings row's figures at their widest.
WIDEST_JS = """() => document.querySelectorAll('table.standings tbody tr').forEach(tr => {
  const set = (sel, text) => { const c = tr.querySelector(sel); if (c) c.textContent = text; };
  set('td[data-rank]', '100'); set('td[data-games]', '999'); set('td[data-wins]', '999');
  set('td[data-points]', '−12.345'); set('td[data-average]', '−123,4');
})"""


def _games(app):
    from app.db import get_session
    from app.games.games import import_game
    from app.stats.seasons import save_season

    with app.app_context():
        session = get_session()
        for name, players in (("subastas", LONG), ("subastas", [LONG[3], LONG[0], "Eva", LONG[1]]),
                              ("rifki", LONG), ("ru32", [LONG[1], LONG[0], LONG[2], LONG[3]])):
            record = load_record(f"{name}_complete.json")
            record["players"] = players
            import_game(session, record, who="test")
        today = datetime.now(UTC).date()
        season = save_season(session, name="Temporada", starts_on=today - timedelta(days=1),
                             ends_on=today + timedelta(days=1))
        return int(session.scalar(select(Player.id).where(Player.name == LONG[0]))), season.id


def _fits(page, name):
    page.screenshot(path=shot(name), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    tables = page.evaluate(TABLES_JS)
    assert tables
    wide = [t for t in tables if t[1] > t[2] or t[3] > 375]
    assert wide == [], wide


def test_statistics_and_standings_fit_a_phone(page, live_app):
    player_id, season_id = _games(live_app)
    page.goto(f"/players/{player_id}")
    assert page.locator(".rating-line").count() == 3                # subastas, rifki, ru32
    assert page.locator("#contracts-subastas tr[data-contract]").count() >= 9
    assert page.locator("#h2h-subastas tr[data-opponent]").count() == 4
    assert page.locator("svg.chart").count() == 2                  # rating and points of subastas
    _fits(page, "player-stats-375.png")
    assert axe_findings(page) == []
    page.goto("/players")
    _fits(page, "roster-375.png")
    page.goto("/players/ratings?profile=subastas&min=1")
    # every player of this test's subastas games (the live server's other tests add more)
    board = " ".join(page.locator("#ratings tr[data-player]").all_inner_texts())
    assert all(name in board for name in [*LONG, "Eva"]), board
    _fits(page, "ratings-375.png")
    page.goto(f"/seasons/{season_id}")
    _fits(page, "season-375.png")
    # a club's season at its widest: three-figure ranks, five-figure totals, long averages
    # (the browser tests' other games on this server once made it 372 px for 365)
    page.evaluate(WIDEST_JS)
    _fits(page, "season-widest-375.png")
