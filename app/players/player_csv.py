"""A player's statistics as CSV (issue 26): each profile's games, contracts, opponents, auction
and the rating chart's points, one row per figure."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from app.stats import leaderboard, ratings
from app.stats.stats import ProfileStats, player_profiles


def _timestamp(at: datetime) -> str:
    """ISO 8601 in UTC (SQLite gives stored times back without their offset)."""
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).isoformat()


def _csv_profile(name: str, p: ProfileStats, steps: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    rows = _csv_cells(p.profile, [*_csv_games(name, p), *_csv_contracts(p)])
    rows.extend(_csv_auction(name, p))
    rows.extend(_csv_cells(p.profile, _csv_opponents(p)))
    rows.extend(_csv_charts(p.profile, steps))
    return rows


_CsvCell = tuple[str, str, str, Any]        # (section, subject, measure, value)


def _csv_cells(profile: str, cells: Iterable[_CsvCell]) -> list[list[Any]]:
    """The CSV rows of the cells: section, profile, subject, measure, value."""
    return [[section, profile, subject, measure, value] for section, subject, measure, value in cells]


def _csv_games(name: str, p: ProfileStats) -> list[_CsvCell]:
    """The player's games in the profile and, once rated, the rating."""
    cells: list[_CsvCell] = [
        ("games", name, measure, value)
        for measure, value in (("games", p.games), ("wins", p.wins), ("points", p.points),
                               ("average", None if p.average is None else round(p.average, 2)),
                               ("kings_made", p.kings), ("wins_in_a_row", p.streak),
                               ("most_wins_in_a_row", p.best_streak))]
    if p.rating is not None:
        cells.extend(("rating", name, measure, value)
                     for measure, value in (("mu", p.rating.mu), ("sigma", p.rating.sigma),
                                            ("ordinal", p.rating.ordinal), ("shown", p.rating.shown),
                                            ("games", p.rating.games)))
    return cells


def _csv_contracts(p: ProfileStats) -> list[_CsvCell]:
    """The best and worst games, then each contract's hands, points, average and cards taken."""
    cells: list[_CsvCell] = []
    for label, mark in (("best_game", p.best), ("worst_game", p.worst)):
        if mark is not None:
            cells.append(("records", label, "game_id", mark.game_id))
            cells.append(("records", label, "total", mark.total))
    for c in p.contracts:
        for measure, value in (("hands", c.hands), ("points", c.points), ("average", round(c.average, 2)),
                               *((f"took_{e}", n) for e, n in c.took)):
            cells.append(("contract", c.contract, measure, value))
    return cells


def _csv_opponents(p: ProfileStats) -> list[_CsvCell]:
    return [("head_to_head", o.name, measure, getattr(o, measure))
            for o in p.opponents for measure in ("games", "ahead", "behind", "points")]


def _csv_auction(name: str, p: ProfileStats) -> list[list[Any]]:
    rows: list[list[Any]] = []
    for key, value in p.auction.items():
        rows.append(["auction", p.profile, name, key, value])
        if key == "bid_points":
            average = None if p.average_bid is None else round(p.average_bid, 2)
            rows.append(["auction", p.profile, name, "average_bid", average])
    return rows


def _csv_charts(profile: str, steps: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    """The points of the page's two charts: the subject is the player's game number in the
    profile (1, 2, …), as on the charts' axis."""
    rows: list[list[Any]] = []
    times = [_timestamp(s["played_at"]) for s in steps]
    for section, measures in (("rating_history", ("mu", "sigma", "ordinal", "shown")),
                              ("points_over_time", ("total", "points"))):
        for s, at in zip(steps, times, strict=True):
            rows.append([section, profile, s["games"], "game_id", s["game_id"]])
            rows.append([section, profile, s["games"], "played_at", at])
            rows.extend([section, profile, s["games"], m, s[m]] for m in measures)
    return rows


def csv_rows(name: str, profiles: Iterable[ProfileStats],
             history: Mapping[str, Sequence[Mapping[str, Any]]] | None = None) -> list[list[Any]]:
    """All of a player's statistics as rows of (section, profile, subject, measure, value);
    ``history`` (by profile, :func:`app.stats.ratings.history`) adds the rows behind
    the page's charts: ``rating_history`` and ``points_over_time``, one row per measure and
    game, the game numbered 1, 2, … in the subject."""
    rows: list[list[Any]] = [["section", "profile", "subject", "measure", "value"]]
    for p in profiles:
        rows.extend(_csv_profile(name, p, (history or {}).get(p.profile, ())))
    return rows


def player_csv(session: Session, player_id: int, name: str) -> list[list[Any]]:
    """The player's CSV: every statistic of the page, all opponents, and the games the
    charts show (every game up to ``ratings.CHART_POINTS``, then that many spread evenly,
    the first and the latest always), so it costs the same after 100 games or 100,000."""
    profiles = player_profiles(session, player_id, opponents_shown=None)
    return csv_rows(name, profiles, {p.profile: leaderboard.history(session, player_id, p.profile,
                                                                points=ratings.CHART_POINTS)
                                     for p in profiles})
