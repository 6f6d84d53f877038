"""One place where a game changes (issue 37): every write to a game ends in the projectors
of app/stats/projections.py, they are idempotent, and nothing else writes a derived table."""
from __future__ import annotations

import ast
import copy
import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text

from app.games import hands
from app.games.games import import_game
from app.games.imports import import_paths
from app.games.referee.referee import apply_ruling
from app.models import Game, PlayerTotal
from app.rules import load
from app.stats import projections
from app.stats.results import all_player_total_rows
from app.stats.seasons import delete_season, save_season
from app.stats.stats import sums_agree
from tests.conftest import load_record

pytestmark = pytest.mark.every_database

APP = Path(__file__).resolve().parents[2] / "app"

#: The derived tables, by the names app/ writes them under (models and Core tables).
DERIVED = {"StoredResult", "SeatResult", "SeatStat", "PlayerTotal", "PlayerStat", "HeadToHead",
           "RatingStep", "Rating", "GAME_RESULT", "SEAT_RESULT", "SEAT_STAT", "STEP_TABLE", "RATING_TABLE",
           "RATING_UPSERT", "rs", "model"}
#: The functions allowed to write them: the projectors and their parts.
WRITERS = {
    ("stats/results.py", "_write"), ("stats/results.py", "apply_deltas"),
    ("stats/stats.py", "apply"), ("stats/sums.py", "add_to_sums"),
    ("stats/ratings.py", "_write_ratings"), ("stats/sums.py", "replace_rows"),
    ("stats/ratings.py", "_write_steps"), ("stats/ratings.py", "_remove_strays"),
    ("stats/ratings.py", "rate_alone"),
    ("stats/projections.py", "season_changed"), ("stats/projections.py", "season_removed"),
    ("stats/projections.py", "rebuild"),
}
DERIVED_TABLE_NAMES = ("game_result", "seat_result", "seat_stat", "player_total", "player_stat",
                       "head_to_head", "rating_step", "rating")


def _writes(tree: ast.AST) -> set[str]:
    """The functions of a module that call insert/delete/update on a derived table, or
    add_to_sums or sums.replace_rows (rows written over rows), or execute SQL text naming
    one (outermost function's name)."""
    found: set[str] = set()
    for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        for node in ast.walk(fn):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            inside = list(ast.walk(node.args[0])) if node.args else []
            named = {n.id for n in inside if isinstance(n, ast.Name)} | {
                n.attr for n in inside if isinstance(n, ast.Attribute)}
            if name in {"add_to_sums", "replace_rows"} or (
                    name in {"insert", "delete", "update"} and named & DERIVED):
                found.add(fn.name)
            if name == "text" and node.args and isinstance(node.args[0], ast.Constant):
                sql = str(node.args[0].value).lower()
                if any(w in sql for w in ("insert", "delete", "update")) and any(
                        t in sql for t in DERIVED_TABLE_NAMES):
                    found.add(fn.name)
    return found


def test_no_module_but_the_projectors_writes_a_derived_table():
    writers = set()
    for path in APP.rglob("*.py"):
        rel = path.relative_to(APP).as_posix()
        for fn in _writes(ast.parse(path.read_text())):
            writers.add((rel, fn))
    # nested helpers are walked inside their outer function too: keep the outermost names
    assert writers <= WRITERS, sorted(writers - WRITERS)
    assert ("stats/results.py", "_write") in writers       # the check sees a real writer


def test_the_check_finds_a_write_outside_the_projectors():
    tree = ast.parse("def sneaky(session):\n    session.execute(delete(PlayerTotal))\n"
                     "def over(session, rows):\n    replace_rows(session, SEAT_RESULT, ['seat'], rows)\n")
    assert _writes(tree) == {"sneaky", "over"}


def derived(session: Any) -> dict[str, list[tuple[Any, ...]]]:
    """Every derived table's rows, with where each row lies (a row written again moves)."""
    session.expire_all()
    where = "rowid" if session.get_bind().dialect.name == "sqlite" else "ctid::text"
    out = {}
    for table in DERIVED_TABLE_NAMES:
        rows = session.execute(text(f"SELECT {where}, * FROM {table}")).all()
        out[table] = sorted(tuple(round(v, 9) if isinstance(v, float) else str(v) for v in r) for r in rows)
    return out


def seated(name: str, players: list[str]) -> dict[str, Any]:
    record = load_record(f"{name}_complete.json")
    record["players"] = players
    return record


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The game ids of each call of the projectors."""
    seen: list[list[int]] = []
    real = projections.games_changed

    def counted(session: Any, games: Any) -> Any:
        seen.append([f.game_id for f in games])
        return real(session, games)

    monkeypatch.setattr(projections, "games_changed", counted)
    return seen


def test_every_write_to_a_game_ends_in_the_projectors(session, calls, tmp_path: Path):
    full = seated("rifki", ["Ana", "Beto", "Carla", "Dani"])
    short = copy.deepcopy(full)
    short["hands"] = short["hands"][:-1]
    game = import_game(session, short)
    assert calls == [[game.id]]
    hands.record_hand(session, game, full["hands"][-1], expected_version=game.version)
    corrected = dict(full["hands"][0], counts={"tricks": [4, 3, 3, 3]})
    hands.replace_hand(session, game, 0, corrected, expected_version=game.version)
    total = load(game.record).hands[1].total
    apply_ruling(session, game, 1, {"kind": "adjusted", "points": [total, 0, 0, 0], "reason": "r"},
                 expected_version=game.version, who="Eva")
    hands.delete_last_hand(session, game, expected_version=game.version)
    assert calls[1:] == [[game.id]] * 4
    path = tmp_path / "g.json"
    path.write_text(json.dumps(seated("ru32", ["Eva", "Ana", "Fede", "Gala"])))
    summary = import_paths(session, [str(path)], workers=1)
    assert calls[-1] == summary.game_ids


def test_the_projectors_are_idempotent_and_the_rebuild_is_them(session):
    four = ["Ana", "Beto", "Carla", "Dani"]
    games = [import_game(session, seated(p, four[k:] + four[:k]))
             for k, p in enumerate(["ru32", "fiestas", "subastas", "rifki", "ru32"])]
    save_season(session, name="Invierno", starts_on=date(2000, 1, 1), ends_on=date(2100, 1, 1))
    before = derived(session)
    assert before["rating_step"] and before["player_stat"] and before["head_to_head"]
    for game in games:                      # a game changed again with nothing new: no row moves
        projections.game_changed(session, session.get(Game, game.id))
    session.commit()
    assert derived(session) == before
    summary = projections.rebuild(session)
    assert (summary.games, summary.changed, summary.rerated) == (5, 0, 0)
    after = derived(session)
    # the rebuild writes the sums from nothing (new rows, same values); the rest stays put
    for table in ("game_result", "seat_result", "seat_stat", "rating_step", "rating"):
        assert after[table] == before[table], table
    for table in ("player_total", "player_stat", "head_to_head"):
        assert sorted(r[1:] for r in after[table]) == sorted(r[1:] for r in before[table]), table


def _statements(session: Any, act: Any) -> list[str]:
    from sqlalchemy import event

    seen: list[str] = []

    def statement(_conn: Any, _cursor: Any, sql: str, *_rest: Any) -> None:
        seen.append(" ".join(sql.split()).lower())

    engine = session.get_bind()
    event.listen(engine, "before_cursor_execute", statement)
    try:
        act()
        session.flush()
    finally:
        event.remove(engine, "before_cursor_execute", statement)
    return seen


def test_a_saved_hand_reads_its_game_row_only_when_its_seats_agree(session):
    """The stored results' projector reads a game's seat rows and counters first, and its
    game row only when those agree with the facts: a hand that moves the totals (every
    save of a hand that scores) reads one statement fewer; a change that moves nothing
    reads the game row, finds it equal and writes nothing."""
    full = seated("ru32", ["Ana", "Beto", "Carla", "Dani"])
    short = copy.deepcopy(full)
    short["hands"] = short["hands"][:3]
    game = import_game(session, short)
    session.commit()
    saved = _statements(session, lambda: hands.record_hand(session, game, full["hands"][3],
                                                           expected_version=game.version))
    assert not [q for q in saved if q.startswith("select") and "from game_result" in q], saved
    # the rows written over the old ones by their keys: no delete, one statement a table
    assert not [q for q in saved if q.startswith("delete")], saved
    for table in ("game_result", "seat_result", "seat_stat"):
        upserts = [q for q in saved if q.startswith(f"insert into {table} ") and "on conflict" in q]
        assert len(upserts) == 1, table
    # the old seat rows and their counters are read together, in one statement
    reads = [q for q in saved if q.startswith("select") and ("from seat_result" in q
                                                             or "from seat_stat" in q)]
    assert len(reads) == 1 and "join seat_stat" in reads[0], reads
    # an unfinished game's hand moves no player total: the seasons are not read for it
    assert not [q for q in saved if "from season" in q], saved
    again = _statements(session, lambda: projections.game_changed(session, session.get(Game, game.id)))
    assert len([q for q in again if q.startswith("select") and "from game_result" in q]) == 1, again
    assert not [q for q in again if q.startswith(("insert", "update", "delete"))], again


def test_a_season_change_projects_its_totals_and_its_removal_drops_them(session):
    import_game(session, seated("ru32", ["Ana", "Beto", "Carla", "Dani"]))
    import_game(session, seated("fiestas", ["Eva", "Beto", "Ana", "Fede"]))
    season = save_season(session, name="Todo", starts_on=date(2000, 1, 1), ends_on=date(2100, 1, 1))
    totals = {(r.season_id, r.player_id, r.profile): r.games for r in session.scalars(select(PlayerTotal))}
    assert {k: r["games"] for r in all_player_total_rows(session)
            for k in [(r["season_id"], r["player_id"], r["profile"])]} == totals
    assert {k[0] for k in totals} == {0, season.id}
    save_season(session, name="Nada", starts_on=date(1990, 1, 1), ends_on=date(1990, 1, 2), season=season)
    assert not session.scalars(select(PlayerTotal).where(PlayerTotal.season_id == season.id)).all()
    save_season(session, name="Todo", starts_on=date(2000, 1, 1), ends_on=date(2100, 1, 1), season=season)
    delete_season(session, season)
    assert {r.season_id for r in session.scalars(select(PlayerTotal))} == {0}
    assert sums_agree(session)


def test_hand_by_hand_the_totals_of_every_season_are_the_seat_rows_sums(session):
    """A game saved hand by hand under a season that holds today: after each save the kept
    player totals (all time and the season's) are what the seat rows sum to; the seasons
    are read on the saves that move a total (a King made, the game's end) and only then."""
    save_season(session, name="Hoy", starts_on=date(2000, 1, 1), ends_on=date(2100, 1, 1))
    full = seated("fiestas", ["Ana", "Beto", "Carla", "Dani"])
    game = import_game(session, {**full, "hands": full["hands"][:1]})
    session.commit()
    read_seasons = []
    for hand in full["hands"][1:]:
        before = {(r.season_id, r.player_id, r.profile): r.kings_made + r.complete_games
                  for r in session.scalars(select(PlayerTotal))}
        saved = _statements(session, lambda h=hand: hands.record_hand(session, game, h,
                                                                       expected_version=game.version))
        session.commit()
        session.expire_all()        # the totals as stored (the upserts bypass the identity map)
        kept = {(r.season_id, r.player_id, r.profile): r for r in session.scalars(select(PlayerTotal))}
        assert {k: [getattr(r, c) for c in ("games", "complete_games", "wins", "points", "kings_made")]
                for k, r in kept.items()} == {
            (r["season_id"], r["player_id"], r["profile"]): [r[c] for c in ("games", "complete_games", "wins",
                                                                            "points", "kings_made")]
            for r in all_player_total_rows(session)}
        moved = before != {k: r.kings_made + r.complete_games for k, r in kept.items()}
        read_seasons.append(any("from season" in q for q in saved))
        assert read_seasons[-1] == moved, (len(read_seasons), saved)
    assert read_seasons[-1] and not all(read_seasons)
