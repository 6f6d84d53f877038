"""Reading the ratings (issue 26): a player's rating per profile, the leaderboard of a profile,
the profile a player plays most, and a player's rating over their games (the chart)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import Game as GameRow
from app.models import Player, Rating, RatingStep
from app.rules import PROFILES
from app.stats.rating_model import ordinal, shown
from app.stats.ratings import CHART_POINTS, MIN_GAMES


@dataclass(frozen=True)
class RatingRow:
    player_id: int
    name: str
    profile: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    rank: int = 0

    @property
    def shown(self) -> int:
        return shown(self.ordinal)


def player_ratings(session: Session, player_id: int) -> list[RatingRow]:
    """A player's ratings, one per profile played (RULES.md order)."""
    rows = session.execute(select(Rating, Player.name).join(Player, Player.id == Rating.player_id)
                           .where(Rating.player_id == player_id)).all()
    by_profile = {r.profile: RatingRow(r.player_id, name, r.profile, r.mu, r.sigma, r.ordinal, r.games)
                  for r, name in rows}
    return [by_profile[p] for p in PROFILES if p in by_profile]


def most_played_profile(session: Session, profiles: list[str]) -> str:
    """The profile of ``profiles`` the club has played most (the first of them on a tie, and
    for a club with no game yet): where the ratings page opens."""
    counts: dict[str, int] = {profile: n for profile, n in session.execute(
        select(GameRow.profile, func.count()).group_by(GameRow.profile))}
    return max(profiles, key=lambda p: (counts.get(p, 0), -profiles.index(p)))


def leaderboard(session: Session, profile: str, min_games: int = MIN_GAMES, limit: int = 100
                ) -> list[RatingRow]:
    """The profile's players with at least ``min_games`` rated games, best conservative
    rating first (equal ones share a rank)."""
    rows = session.execute(
        select(Rating, Player.name).join(Player, Player.id == Rating.player_id)
        .where(Rating.profile == profile, Rating.games >= min_games)
        .order_by(Rating.ordinal.desc(), Rating.games.desc(), Player.id).limit(limit)).all()
    out: list[RatingRow] = []
    for k, (r, name) in enumerate(rows):
        rank = out[-1].rank if out and shown(out[-1].ordinal) == shown(r.ordinal) else k + 1
        out.append(RatingRow(r.player_id, name, profile, r.mu, r.sigma, r.ordinal, r.games, rank))
    return out


def history(session: Session, player_id: int, profile: str, points: int = CHART_POINTS
            ) -> list[dict[str, Any]]:
    """At most ``points`` steps of a player's rating in one profile, spread evenly over
    their games (the first and the latest always), for the chart: read by the step
    numbers, so it costs the same after 10 games or 10,000."""
    rs = RatingStep
    n = session.scalar(select(func.max(rs.games))
                       .where(rs.player_id == player_id, rs.profile == profile)) or 0
    if not n:
        return []
    shown_steps = min(points, n)
    wanted = sorted({1 + round(k * (n - 1) / max(shown_steps - 1, 1)) for k in range(shown_steps)})
    rows = session.execute(select(rs.games, rs.game_id, rs.played_at, rs.mu, rs.sigma, rs.points, rs.total,
                                  rs.wins)
                           .where(rs.player_id == player_id, rs.profile == profile, rs.games.in_(wanted))
                           .order_by(rs.games))
    return [{"games": games, "game_id": game_id, "played_at": at, "mu": mu, "sigma": sigma,
             "ordinal": ordinal(mu, sigma), "shown": shown(ordinal(mu, sigma)), "points": pts,
             "total": total, "wins": wins}
            for games, game_id, at, mu, sigma, pts, total, wins in rows]
