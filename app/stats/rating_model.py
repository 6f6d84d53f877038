"""The rating model (issue 26): openskill's Plackett-Luce with its defaults, the number shown
for a rating, and one game's step for its four players."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()          # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
Z = 3.0                         # the conservative number is mu - Z sigma
SHOWN_BASE = 1000
SHOWN_SCALE = 25


def ordinal(mu: float, sigma: float) -> float:
    """μ - 3σ, as openskill's ``PlackettLuceRating.ordinal()``."""
    return mu - Z * sigma


def shown(ordinal_value: float) -> int:
    """The number a page shows for a conservative rating: 1000 + 25 × (μ - 3σ)."""
    return round(SHOWN_BASE + SHOWN_SCALE * ordinal_value)


def places(totals: Sequence[int]) -> list[int]:
    """Each seat's place by final total: 1 + the seats with a higher total (ties share)."""
    return [1 + sum(1 for t in totals if t > mine) for mine in totals]


@dataclass(slots=True)
class State:
    """A player's running values in one profile after their latest rated game."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    points: int = 0
    wins: int = 0
    streak: int = 0
    best_streak: int = 0


@dataclass(frozen=True, slots=True)
class SeatLine:
    seat: int
    player_id: int
    total: int
    won: bool


def rate(states: Sequence[State], totals: Sequence[int]) -> list[tuple[float, float]]:
    """openskill's new (μ, σ) of the four seats of one finished game."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in states]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places(totals)])
    return [(team[0].mu, team[0].sigma) for team in rated]


def advance(states: dict[int, State], profile: str, game_id: int, played_at: datetime,
            seats: Sequence[SeatLine]) -> list[dict[str, Any]]:
    """Rates one finished game: updates ``states`` and returns the four step rows."""
    before = [states.get(s.player_id) or State() for s in seats]
    totals = [s.total for s in seats]
    rated = rate(before, totals)
    rows = []
    for line, old, (mu, sigma), place in zip(seats, before, rated, places(totals), strict=True):
        streak = old.streak + 1 if line.won else 0
        new = State(mu, sigma, old.games + 1, old.points + line.total, old.wins + int(line.won), streak,
                    max(old.best_streak, streak))
        states[line.player_id] = new
        rows.append({"player_id": line.player_id, "profile": profile, "games": new.games, "game_id": game_id,
                     "played_at": played_at, "seat": line.seat, "total": line.total, "place": place,
                     "won": line.won, "mu": mu, "sigma": sigma, "points": new.points, "wins": new.wins,
                     "streak": new.streak, "best_streak": new.best_streak})
    return rows
