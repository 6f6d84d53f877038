"""Search as you type at 375 px (issue 23.8): typing in the roster's search box filters
it; typing a seat's name on the new-game form offers the roster names containing it."""
from __future__ import annotations

from datetime import UTC, datetime

from playwright.sync_api import expect
from sqlalchemy import insert, select

from app.collation import folded_name
from app.models import Player


def _add_players(app, names):
    from app.db import get_session

    with app.app_context():
        session = get_session()
        have = set(session.scalars(select(Player.name).where(Player.name.in_(names))))
        rows = [{"name": n, "folded_name": folded_name(n), "created_at": datetime.now(UTC)}
                for n in names if n not in have]
        if rows:
            session.execute(insert(Player), rows)
        session.commit()


def _no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def test_typing_in_the_roster_search_filters_it(page, live_app):
    _add_players(live_app, [f"Rostra {k:04d}" for k in range(300)] + ["Zacarías Quintanilla"])
    page.goto("/players")
    assert page.locator("#next-page").count() == 1          # more than a page
    _no_sideways_scroll(page)
    page.locator("#roster-q").press_sequentially("quintan", delay=40)   # no Enter, no button
    page.wait_for_url("**/players?q=quintan")
    rows = page.locator("table a[href^='/players/']")
    assert rows.count() == 1 and rows.first.inner_text() == "Zacarías Quintanilla"
    assert page.locator("#roster-q").input_value() == "quintan"
    _no_sideways_scroll(page)


def test_typing_a_seat_name_offers_matching_roster_names(page, live_app):
    _add_players(live_app, ["Bartolomé Ximénez", "Bartolina Ximena", "Ruperto Otro"])
    page.goto("/games/new")
    _no_sideways_scroll(page)
    page.locator("#player_0").press_sequentially("ximen", delay=40)
    # the list first offers the latest players (other tests add some): wait for the search's
    expect(page.locator("#roster option")).to_have_count(2)
    offered = page.eval_on_selector_all("#roster option", "os => os.map(o => o.value)")
    assert set(offered) == {"Bartolomé Ximénez", "Bartolina Ximena"}
    _no_sideways_scroll(page)
