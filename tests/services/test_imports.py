"""`flask --app app games import`: files, folders, stdin; refusals as PATH: field: message,
never a partial game; stored results equal the replay."""
from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select

from app.games.imports import import_paths
from app.models import AuditEntry, Game, Player, Seat, SeatResult, StoredResult
from tests.conftest import base_record, load_record
from tests.services.test_results import assert_stored_equal_replay

pytestmark = pytest.mark.every_database


def write(path, data):
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def counts(session):
    return [session.scalar(select(func.count()).select_from(m))
            for m in (Game, Seat, AuditEntry, StoredResult, SeatResult)]


def test_import_folder_and_files_with_refusals(app, runner, session, tmp_path):
    folder = tmp_path / "club"
    (folder / "2026").mkdir(parents=True)
    for name in ("ru32", "fiestas", "subastas", "rifki"):
        write(folder / "2026" / f"{name}.json", load_record(f"{name}_complete.json"))
    bad_hand = load_record("ru32_complete.json")
    bad_hand["hands"][0]["counts"]["tricks"] = [9, 9, 9, 9]
    write(folder / "bad_hand.json", bad_hand)
    write(folder / "not_json.json", "{nope")
    write(folder / "notes.txt", "ignored: not a .json file")
    long_name = base_record("ru32", players=["A" * 61, "B", "C", "D"])
    single = write(tmp_path / "single.json", long_name)
    in_progress = write(tmp_path / "progress.json", base_record("fiestas"))
    result = runner.invoke(args=["games", "import", str(folder), str(single), str(in_progress),
                                 str(tmp_path / "missing.json"), "--date", "2026-03-14"])
    assert result.exit_code == 1
    err = result.stderr
    assert f"{folder / 'bad_hand.json'}: hands[0].counts.tricks[0]: 9 is out" in err
    assert f"{folder / 'not_json.json'}: record: not valid JSON" in err
    assert f"{single}: players[0]: is too long: at most 60 characters, not 61" in err
    assert f"{tmp_path / 'missing.json'}: record: no such file" in err
    assert "notes.txt" not in err
    assert "imported: 5, refused: 4" in result.stdout
    assert counts(session) == [5, 20, 5, 5, 20]          # nothing of a refused file
    names = {n for name in ("ru32", "fiestas", "subastas", "rifki")
             for n in load_record(f"{name}_complete.json")["players"]} | set(base_record()["players"])
    assert set(session.scalars(select(Player.name))) == names
    assert_stored_equal_replay(session)
    days = {r.played_at.date().isoformat() for r in session.scalars(select(StoredResult))}
    assert days == {"2026-03-14"}


def test_import_from_stdin(app, runner, session):
    data = json.dumps(load_record("fiestas_complete.json"))
    result = runner.invoke(args=["games", "import", "-"], input=data)
    assert result.exit_code == 0, result.output
    assert "imported: 1, refused: 0" in result.stdout
    assert_stored_equal_replay(session)


def test_import_in_chunks_reuses_players_and_equals_replay(app, session, tmp_path):
    paths = []
    for k in range(7):
        record = load_record("ru32_complete.json")
        record["players"][0] = f"Guest {k % 3}"
        paths.append(str(write(tmp_path / f"g{k}.json", record)))
    summary = import_paths(session, paths, chunk_size=3)
    assert (summary.imported, summary.refused) == (7, [])
    assert session.scalar(select(func.count()).select_from(Player)) == 6
    assert assert_stored_equal_replay(session) == 7
    assert sorted(summary.game_ids) == sorted(session.scalars(select(Game.id)))


def test_parallel_import_gives_the_same_games_and_refusals(app, session, tmp_path):
    paths = []
    for k, name in enumerate(("ru32", "fiestas", "subastas", "rifki")):
        paths.append(str(write(tmp_path / f"{k}.json", load_record(f"{name}_complete.json"))))
    paths.insert(2, str(write(tmp_path / "bad.json", "[1, 2")))
    summary = import_paths(session, paths, workers=2, chunk_size=2)
    assert summary.imported == 4
    assert summary.refused == [f"{tmp_path / 'bad.json'}: record: not valid JSON (Expecting ',' delimiter "
                               "at line 1 column 6)"]
    assert assert_stored_equal_replay(session) == 4
    profiles = [session.get(Game, gid).profile for gid in summary.game_ids]
    assert profiles == ["ru32", "fiestas", "subastas", "rifki"]
