"""Services: starting, importing, recording, correcting, deleting; locking and the audit log."""
from __future__ import annotations

import random

import pytest
from sqlalchemy import func, select

from app.errors import ConflictError
from app.games import game_list, hands, queries
from app.games.games import import_game, start_game
from app.models import AuditAction, AuditEntry, Game, GameStatus, Player
from app.rules import RecordError, score_record
from app.stats import standings
from tests.conftest import PLAYERS, base_record, load_record

pytestmark = pytest.mark.every_database

NO_TRICKS = {"contract": "no-tricks", "counts": {"tricks": [1, 5, 3, 4]}}


def test_start_game_draws_first_dealer_and_records_it(session):
    game = start_game(session, profile="fiestas", players=PLAYERS, first_seat=None,
                      rng=random.Random(3), who="Eva")
    assert game.record["first_dealer"] in range(4)
    assert game.record["hands"] == []
    assert [s.player.name for s in game.seats] == PLAYERS
    assert game.audit[0].who == "Eva" and game.audit[0].action == AuditAction.CREATE


def test_start_rifki_records_the_2d_holder(session):
    game = start_game(session, profile="rifki", players=PLAYERS, first_seat=2,
                      options={"choice_limit": "free"})
    assert game.record["first_chooser"] == 2
    # every option named (RULES.md §4): the one chosen, the others at their defaults
    assert game.record["options"] == {"choice_limit": "free", "must_overtake": "no",
                                      "trump_lead_ban": "off", "hearts_lead_ban": "kupa-rifki",
                                      "rifki_void": "kh"}


def test_start_game_refuses_bad_options(session):
    with pytest.raises(RecordError) as e:
        start_game(session, profile="rifki", players=PLAYERS, first_seat=0, options={"choice_limit": "x"})
    assert e.value.field == "options.choice_limit"
    assert session.scalar(select(func.count()).select_from(Game)) == 0


def test_players_are_shared_between_games(session):
    start_game(session, profile="ru32", players=PLAYERS, first_seat=0)
    start_game(session, profile="fiestas", players=["Ana", "Beto", "Carla", "Eva"], first_seat=1)
    assert session.scalar(select(func.count()).select_from(Player)) == 5


@pytest.mark.parametrize("name", ["ru32", "fiestas", "subastas", "rifki"])
def test_import_keeps_the_record_and_scores_by_replay(session, name):
    data = load_record(f"{name}_complete.json")
    game = import_game(session, data)
    assert game.status == GameStatus.COMPLETE
    assert queries.report(game) == score_record(data)


def test_record_hand_appends_and_logs(session):
    game = start_game(session, profile="fiestas", players=PLAYERS, first_seat=0)
    hands.record_hand(session, game, NO_TRICKS, expected_version=game.version, who="Eva")
    assert game.record["hands"] == [NO_TRICKS]
    entry = session.scalars(select(AuditEntry).where(AuditEntry.action == AuditAction.ADD_HAND)).one()
    assert entry.after == NO_TRICKS and entry.before is None and entry.who == "Eva"


def test_rejected_hand_changes_nothing(session):
    game = start_game(session, profile="fiestas", players=PLAYERS, first_seat=0)
    version = game.version
    with pytest.raises(RecordError) as e:
        hands.record_hand(session, game, {"counts": {"tricks": [1, 5, 3, 3]}}, expected_version=version)
    assert e.value.field == "hands[0].counts.tricks"
    session.rollback()
    session.expire_all()
    again = session.get(Game, game.id)
    assert again.record["hands"] == [] and again.version == version
    assert session.scalar(select(func.count()).select_from(AuditEntry)) == 1


def test_stale_version_is_a_conflict(session):
    game = start_game(session, profile="fiestas", players=PLAYERS, first_seat=0)
    old = game.version
    hands.record_hand(session, game, NO_TRICKS, expected_version=old)
    with pytest.raises(ConflictError) as e:
        hands.record_hand(session, game, {"counts": {"hearts": [1, 5, 3, 4]}}, expected_version=old)
    assert e.value.current_version == game.version
    assert len(game.record["hands"]) == 1


def test_concurrent_writers_second_loses_nothing_and_is_told(app, make_game):
    """Two sessions load the same version; the second commit hits the version check."""
    from app.db import get_db

    gid = make_game("fiestas")
    db = get_db(app)
    with db.sessionmaker() as s1, db.sessionmaker() as s2:
        g1, g2 = s1.get(Game, gid), s2.get(Game, gid)
        hands.record_hand(s1, g1, NO_TRICKS, expected_version=1)
        with pytest.raises(ConflictError):
            hands.record_hand(s2, g2, {"counts": {"tricks": [4, 3, 3, 3]}}, expected_version=1)
    with db.sessionmaker() as s3:
        assert s3.get(Game, gid).record["hands"] == [NO_TRICKS]


def test_replace_hand_keeps_before_and_after(session):
    game = start_game(session, profile="fiestas", players=PLAYERS, first_seat=0)
    hands.record_hand(session, game, NO_TRICKS, expected_version=game.version)
    fixed = {"contract": "no-tricks", "counts": {"tricks": [2, 4, 3, 4]}}
    hands.replace_hand(session, game, 0, fixed, expected_version=game.version, who="Fede")
    entry = session.scalars(select(AuditEntry).where(AuditEntry.action == AuditAction.EDIT_HAND)).one()
    assert entry.before == NO_TRICKS and entry.after == fixed and entry.hand_index == 0


def test_correction_that_breaks_a_later_hand_is_refused(session):
    data = load_record("rifki_complete.json")
    game = import_game(session, data)
    before = list(game.record["hands"])
    koz_rows = [i for i, h in enumerate(before) if h["contract"] == "koz"]
    penalty = {"contract": "el-almaz", "counts": {"tricks": [3, 4, 2, 4]}}
    with pytest.raises(RecordError):
        # turning a koz into another el-almaz breaks a limit somewhere
        for i in koz_rows:
            hands.replace_hand(session, game, i, penalty, expected_version=game.version)
    session.rollback()
    session.expire_all()
    assert session.get(Game, game.id).record["hands"][: koz_rows[0] + 1] == before[: koz_rows[0] + 1]


def test_delete_last_hand(session):
    game = start_game(session, profile="fiestas", players=PLAYERS, first_seat=0)
    hands.record_hand(session, game, NO_TRICKS, expected_version=game.version)
    hands.delete_last_hand(session, game, expected_version=game.version, who="Eva")
    assert game.record["hands"] == []
    entry = session.scalars(select(AuditEntry).where(AuditEntry.action == AuditAction.DELETE_HAND)).one()
    assert entry.before == NO_TRICKS and entry.after is None


def test_roster_counts_games_and_shared_wins(session):
    data = load_record("fiestas_complete.json")
    import_game(session, data)
    import_game(session, data)
    winners = score_record(data)["winners"]
    rows = {r.name: r for r in standings.roster(session)}
    for seat, name in enumerate(data["players"]):
        assert rows[name].games == 2
        assert rows[name].wins == (2 if seat in winners else 0)


def test_shared_win_counts_for_each_winner(session):
    data = load_record("ru32_complete.json")
    report = score_record(data)
    game = import_game(session, data)
    assert queries.summarize(session, game.id).winners == report["winners"]


def test_list_games_in_progress_first(session):
    done = import_game(session, load_record("ru32_complete.json"))
    open_game = start_game(session, profile="fiestas", players=PLAYERS, first_seat=0)
    listed = [s.id for s in game_list.list_games(session).games]
    assert listed.index(open_game.id) < listed.index(done.id)


def test_seat_pins_are_hashed_before_the_new_game_writes_anything(session, monkeypatch):
    """Issue 27.9: four scrypt hashes under SQLite's one write lock made a second game
    started at the same moment wait (bench/web.py: p95 689 ms); they come before the
    transaction's first write, so nothing waits on them."""
    from sqlalchemy import event

    from app.accounts.accounts import check_secret
    from app.games.records import create_game
    from app.games.table import confirm
    from app.models import SeatPin

    steps: list[str] = []
    real = confirm.hash_secret
    monkeypatch.setattr(confirm, "hash_secret", lambda *a: steps.append("hash") or real(*a))

    def statement(_conn, _cursor, sql, *_rest):
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            steps.append("write")

    engine = session.get_bind()
    event.listen(engine, "before_cursor_execute", statement)
    try:
        game = create_game(session, base_record("ru32"), who="test", action=AuditAction.CREATE,
                           pins=["1234", None, "5678", "9012"])
    finally:
        event.remove(engine, "before_cursor_execute", statement)
    assert steps.count("hash") == 3 and "write" in steps
    assert steps.index("write") > max(i for i, s in enumerate(steps) if s == "hash"), steps
    pins = session.query(SeatPin).filter_by(game_id=game.id).order_by(SeatPin.seat).all()
    assert [p.seat for p in pins] == [0, 2, 3]
    assert check_secret(pins[1].pin_hash, "5678") and not check_secret(pins[1].pin_hash, "1234")
