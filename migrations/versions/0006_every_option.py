"""every_option: every stored game's record names every option of its profile

RULES.md §4 and RECORD.md now say that a game created by kingsheet stores every option of
its profile, so that a later change of a default never re-scores a stored game. Records
stored before this revision left some or all options to the defaults; this writes out
the values those games were scored with:

- ``subastas``: ``settlement: bid`` -- every stored subastas game was scored with the buyer
  paying the full bid; the new default (``tricks``, the seed's reading) would change the
  totals of any -N sale in which the owner took fewer than N tricks;
- every other profile: the defaults in force when this revision was written (frozen below,
  not read from the engine, so that a later change of a default cannot change what this
  revision writes).

An option the record already names is kept. Nothing else of the record changes; the
game's version is not raised, and the stored result's ``record_digest`` follows the new
record (the scores do not change: ``flask --app app games rebuild`` after it reports 0
changed). A sheet printed before this revision carries the old record fingerprint. Downgrading leaves the records as they are: naming the
values the engine would take anyway changes nothing under the old code.

Revision ID: every_option
Revises: accounts
Create Date: 2026-12-02 02:00:00
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

from alembic import op
import sqlalchemy as sa


revision = "every_option"
down_revision = "accounts"
branch_labels = None
depends_on = None

#: What each profile's stored games were scored with (RULES.md §4 as of this revision).
SCORED_WITH: dict[str, dict[str, str]] = {
    "ru32": {"keep_kh": "off"},
    "fiestas": {},
    "subastas": {"settlement": "bid"},
    "rifki": {"choice_limit": "3+2", "must_overtake": "no", "trump_lead_ban": "off",
              "hearts_lead_ban": "kupa-rifki", "rifki_void": "kh"},
}
CHUNK = 500

game = sa.table("game", sa.column("id", sa.Integer), sa.column("profile", sa.String),
                sa.column("record", sa.JSON))
game_result = sa.table("game_result", sa.column("game_id", sa.Integer),
                       sa.column("record_digest", sa.String))


def record_digest(record: dict[str, Any]) -> str:
    """app.rules.digest as of this revision: SHA-256 of the JSON, sorted keys, no spaces."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def with_every_option(record: dict[str, Any], profile: str) -> dict[str, Any] | None:
    """The record with every option named (``options`` right after ``profile``), or None
    when it names them all already (or its profile is unknown: the engine refuses it)."""
    scored = SCORED_WITH.get(profile)
    given = record.get("options")
    if scored is None or (given is not None and not isinstance(given, dict)):
        return None
    options = {**scored, **(given or {})}
    if given == options and "options" in record:
        return None
    out: dict[str, Any] = {}
    for key, value in record.items():
        if key == "options":
            continue
        out[key] = value
        if key == "profile":
            out["options"] = options
    if "options" not in out:
        out = {"options": options, **out}
    return out


def upgrade() -> None:
    bind = op.get_bind()
    last = 0
    while True:
        rows = bind.execute(sa.select(game.c.id, game.c.profile, game.c.record)
                            .where(game.c.id > last).order_by(game.c.id).limit(CHUNK)).all()
        if not rows:
            return
        for game_id, profile, record in rows:
            if isinstance(record, dict):
                new = with_every_option(record, profile)
                if new is not None:
                    bind.execute(game.update().where(game.c.id == game_id).values(record=new))
                    bind.execute(game_result.update().where(game_result.c.game_id == game_id)
                                 .values(record_digest=record_digest(new)))
        last = rows[-1][0]


def downgrade() -> None:
    pass
