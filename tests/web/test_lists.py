"""The game list: keyset pagination (no OFFSET), in progress first and newest first,
filters by player, profile, status and days; the players' statistics."""
from __future__ import annotations

import re
from datetime import UTC, date, datetime

import pytest
from sqlalchemy import event, select

from app.db import get_db
from app.games import game_list, hands
from app.games.games import import_game, start_game
from app.games.imports import check_one, write_chunk
from app.models import Player, StoredResult
from app.stats import standings
from tests.conftest import PLAYERS, base_record, load_record

pytestmark = pytest.mark.every_database

COMPLETE = [load_record(f"{n}_complete.json") for n in ("ru32", "fiestas", "subastas", "rifki")]


def add_games(session, n: int, day: date | None = None, offset: int = 0) -> list[int]:
    """n games (every third in progress), played on ``day`` (default: now)."""
    ids = []
    players: dict[str, int] = {}
    for k in range(offset, offset + n):
        record = base_record("fiestas") if k % 3 == 0 else COMPLETE[k % 4]
        record = dict(record, players=[PLAYERS[0], PLAYERS[1], PLAYERS[2], f"Guest {k % 5}"])
        when = datetime(day.year, day.month, day.day, 12, tzinfo=UTC) if day else None
        ids += write_chunk(session, [check_one(record)], who="t", played_at=when, players=players)
    return ids


def walk(session, f=None, limit=4, between_pages=None) -> list[int]:
    seen, cursor = [], None
    while True:
        page = game_list.list_games(session, f, cursor, limit=limit)
        seen += [g.id for g in page.games]
        if page.next_cursor is None:
            return seen
        cursor = page.next_cursor
        if between_pages:
            between_pages()


def expected_order(session, ids=None) -> list[int]:
    rows = session.scalars(select(StoredResult)).all()
    rows = [r for r in rows if ids is None or r.game_id in ids]
    rows.sort(key=lambda r: (r.complete, -r.played_at.replace(tzinfo=None).timestamp(), -r.game_id))
    return [r.game_id for r in rows]


def test_pages_in_progress_first_then_newest_first(session):
    add_games(session, 7, date(2026, 1, 5))
    add_games(session, 7, date(2026, 2, 5), offset=7)
    add_games(session, 5, offset=14)     # today, same second: ties broken by id
    order = walk(session)
    assert order == expected_order(session)
    assert len(order) == 19 == len(set(order))
    page = game_list.list_games(session, limit=100)
    complete = [g.complete for g in page.games]
    assert complete == sorted(complete)   # every in-progress game before every finished one


def test_pagination_never_repeats_or_skips_while_games_are_added(session):
    before = add_games(session, 10, date(2026, 1, 5)) + add_games(session, 6, offset=10)
    added: list[int] = []

    def meanwhile():
        added.extend(add_games(session, 2, offset=100 + len(added)))
        game = import_game(session, COMPLETE[1])
        added.append(game.id)

    seen = walk(session, limit=3, between_pages=meanwhile)
    assert len(seen) == len(set(seen)), "a game was listed twice"
    assert set(before) <= set(seen), "a game was skipped"
    assert added, "games were added while paging"


def test_no_offset_in_any_list_query(app, session):
    add_games(session, 9)
    statements: list[str] = []
    engine = get_db(app).engine

    def record(_conn, _cursor, statement, parameters, *_args):
        statements.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", record)
    try:
        pid = session.scalar(select(Player.id).where(Player.name == PLAYERS[0]))
        walk(session, limit=2)
        walk(session, game_list.GameFilter(player_id=pid), limit=2)
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert statements
    # SQLite's dialect always writes "LIMIT ? OFFSET ?": the offset must then be 0
    assert not [s for s, params in statements if "OFFSET" in s.upper() and list(params)[-1] != 0]


@pytest.mark.parametrize("case", ["player", "profile", "status", "days", "all"])
def test_filters_list_exactly_the_matching_games(session, case):
    add_games(session, 8, date(2026, 1, 5))
    add_games(session, 8, date(2026, 2, 5), offset=8)
    add_games(session, 4, offset=16)
    guest = session.scalar(select(Player.id).where(Player.name == "Guest 1"))
    rows = session.scalars(select(StoredResult)).all()
    f = {"player": game_list.GameFilter(player_id=guest),
         "profile": game_list.GameFilter(profile="ru32"),
         "status": game_list.GameFilter(status="in_progress"),
         "days": game_list.GameFilter(date_from=date(2026, 1, 1), date_to=date(2026, 2, 5)),
         "all": game_list.GameFilter(player_id=guest, profile="rifki", status="complete",
                                   date_from=date(2026, 2, 5), date_to=date(2026, 2, 5))}[case]

    def keep(r):
        day = r.played_at.date()
        return ((f.player_id is None or "Guest 1" in r.players)
                and (f.profile is None or r.profile == f.profile)
                and (f.status is None or r.complete == (f.status == "complete"))
                and (f.date_from is None or day >= f.date_from)
                and (f.date_to is None or day <= f.date_to))

    wanted = expected_order(session, {r.game_id for r in rows if keep(r)})
    assert wanted
    assert walk(session, f, limit=3) == wanted


def test_list_page_filters_and_next_link(client, app, monkeypatch):
    monkeypatch.setattr(game_list, "PAGE_SIZE", 3)
    from app.db import get_session

    with app.app_context():
        add_games(get_session(), 7)
    html = client.get("/").get_data(as_text=True)
    listed = re.findall(r'data-game="(\d+)"', html)
    assert len(listed) == 3
    nxt = re.search(r'href="([^"]+)" rel="next"', html).group(1).replace("&amp;", "&")
    more = re.findall(r'data-game="(\d+)"', client.get(nxt).get_data(as_text=True))
    assert len(more) == 3 and not set(more) & set(listed)
    html = client.get("/?status=in_progress").get_data(as_text=True)
    assert "finished</span>" not in html and "in progress</span>" in html


@pytest.mark.parametrize("query, field", [("date_from=2026-13-01", "From"), ("player=abc", "Player"),
                                          ("status=lost", "Status"), ("profile=poker", "Game"),
                                          ("player=99999", "Player")])
def test_bad_filters_name_the_field_never_500(client, make_game, query, field):
    make_game(record=COMPLETE[0])
    r = client.get(f"/?{query}")
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert re.search(rf'role="alert">{field}: ', html)
    assert 'data-game="' in html                       # the list is still there
    assert client.get("/?after=garbage~x~y").status_code == 200


def test_player_statistics_per_profile(client, session):
    tie = load_record("fiestas_complete.json")
    from tests.services.test_results import tie_on_top

    import_game(session, COMPLETE[1])
    import_game(session, tie_on_top(tie))
    import_game(session, COMPLETE[3])                        # rifki: Ana makes a King
    game = start_game(session, profile="ru32", players=PLAYERS, first_seat=0)
    hands.record_hand(session, game, {"contract": "no-tricks", "counts": {"tricks": [1, 5, 1, 1]}},
                      expected_version=game.version)
    names = COMPLETE[1]["players"]
    assert names == COMPLETE[3]["players"] == PLAYERS
    by_name = {r.name: r for r in standings.roster(session)}
    # fiestas: [20, -80, 90, -30] then, tied, Carla and Ana share it; rifki: Ana wins
    tied = standings.player_stats(session, by_name["Ana"].player_id)
    fiestas = dict(tied.by_profile)["fiestas"]
    assert (fiestas.games, fiestas.complete_games, fiestas.wins, fiestas.shared_wins) == (2, 2, 1, 1)
    assert fiestas.points == 20 + 90 and fiestas.average == 55
    rifki = dict(tied.by_profile)["rifki"]
    assert (rifki.wins, rifki.points, rifki.kings_made) == (1, 500, 1)
    ru32 = dict(tied.by_profile)["ru32"]
    assert (ru32.games, ru32.complete_games, ru32.points, ru32.average) == (1, 0, 0, None)
    assert (tied.overall.games, tied.overall.wins, tied.overall.kings_made) == (4, 2, 1)
    assert by_name["Ana"].wins == 2 and by_name["Carla"].wins == 2 and by_name["Beto"].wins == 0
    page = client.get(f"/players/{by_name['Ana'].player_id}").get_data(as_text=True)
    # the player's page (issue 26): each game type's facts over its finished games
    assert re.search(r'id="facts-fiestas".*?data-fact="games">.*?data-value="2".*?data-fact="wins">'
                     r'.*?data-value="1".*?data-fact="points">.*?data-value="110".*?'
                     r'data-fact="average">.*?data-value="55.0"', page, re.S)
    assert page.count('data-game="') == 4 and "won" in page
    roster = client.get("/players").get_data(as_text=True)
    # games played are finished games (issue 26): the ru32 game in progress is not one
    assert re.search(r'>Carla</a></th>\s*<td data-games="3">3</td><td data-wins="2">', roster)


def test_export_finds_games_from_the_stored_results(session):
    from app.printing.docs import find_games

    january = add_games(session, 3, date(2026, 1, 5))
    february = add_games(session, 3, date(2026, 2, 5), offset=3)
    today = add_games(session, 2, offset=6)
    assert find_games(session) == january + february + today
    assert find_games(session, date_from=date(2026, 1, 5), date_to=date(2026, 2, 4)) == january
    guest = session.scalar(select(Player.id).where(Player.name == "Guest 4"))
    assert find_games(session, player_id=guest, date_to=date(2026, 12, 31)) == [february[1]]


def test_an_event_table_is_named_by_its_table_and_round_in_the_lists(app, client):
    """Issue 38: the games list and a player's page say "Table 2 · Round 1 · <event>" for a
    game that is an event's table, "#id · game" for any other."""
    from tests.web.test_events import create, event_of

    event_id = int(create(client).headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        event = event_of(app, event_id)
        tables = [(t.number, t.game_id) for t in event.drawn[-1].tables]
        # a player who sits at a table in round 1 (the first entered may be drawn to sit out)
        name, first = event.name, event.drawn[-1].tables[0].game.seats[0].player_id
    page = client.get("/").get_data(as_text=True)
    for number, game_id in tables:
        item = page.split(f'data-game="{game_id}"')[1].split("</li>")[0]
        assert f"Table {number} · Round 1 · {name}" in item, item
    assert "· Round 1 · " in client.get(f"/players/{first}").get_data(as_text=True)
