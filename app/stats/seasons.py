"""Seasons: a director names a range of days ("Liga de invierno 2026"); the standings of a
season are read by :mod:`app.stats.standings`."""
from __future__ import annotations

from datetime import date

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.errors import BadInput, Text
from app.models import Season
from app.rules.limits import invisible_character
from app.stats.projections import season_changed, season_removed

NAME_MAX = 80


def check_season(session: Session, name: str, starts_on: date | None, ends_on: date | None,
                 season_id: int | None = None) -> str:
    """The cleaned name, or BadInput naming the field."""
    name = " ".join((name or "").split())
    if not name:
        raise BadInput("name", Text("A season needs a name."))
    if len(name) > NAME_MAX or invisible_character(name) is not None:
        raise BadInput("name", Text("A name is plain text of at most %(n)s characters.", n=NAME_MAX))
    if starts_on is None:
        raise BadInput("starts_on", Text("The first day is missing."))
    if ends_on is None:
        raise BadInput("ends_on", Text("The last day is missing."))
    if ends_on < starts_on:
        raise BadInput("ends_on", Text("The last day comes before the first."))
    clash = session.scalar(select(Season.id).where(func.lower(Season.name) == name.lower()))
    if clash is not None and clash != season_id:
        raise BadInput("name", Text("Another season has this name."))
    return name


def save_season(session: Session, *, name: str, starts_on: date | None, ends_on: date | None,
                season: Season | None = None) -> Season:
    """Creates (season None) or changes a season."""
    clean = check_season(session, name, starts_on, ends_on, season.id if season else None)
    assert starts_on is not None and ends_on is not None
    if season is None:
        season = Season(name=clean, starts_on=starts_on, ends_on=ends_on)
        session.add(season)
    else:
        season.name, season.starts_on, season.ends_on = clean, starts_on, ends_on
    session.flush()
    season_changed(session, season)
    session.commit()
    return season


def delete_season(session: Session, season: Season) -> None:
    season_removed(session, season)
    session.delete(season)
    session.commit()
