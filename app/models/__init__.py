"""The persistent aggregates: games (with their seats), players, audit entries, the stored
results derived from each game's record, seasons, accounts, and calls to the director."""
from app.db import Base
from app.models.account import (
    Confirmation,
    ConfirmMethod,
    GameLink,
    GameScorer,
    LinkKind,
    LoginAttempt,
    Role,
    SeatPin,
    User,
)
from app.models.api import ApiToken, IdempotencyRecord
from app.models.call import DirectorCall
from app.models.event import Event, EventLogEntry, EventPlayer, EventRound, EventTable
from app.models.export import ExportJob, ExportState
from app.models.game import AuditAction, AuditEntry, Game, GameStatus, Player, Seat
from app.models.rating import HeadToHead, PlayerStat, Rating, RatingBacklog, RatingStep, SeatStat
from app.models.result import PlayerTotal, SeatResult, StoredResult
from app.models.season import Season

__all__ = ["ApiToken", "AuditAction", "AuditEntry", "Base", "ConfirmMethod", "Confirmation", "DirectorCall",
           "Event",
           "EventLogEntry", "EventPlayer", "EventRound", "EventTable", "ExportJob",
           "ExportState", "Game", "GameLink", "GameScorer", "GameStatus", "HeadToHead", "IdempotencyRecord",
           "LinkKind", "LoginAttempt", "Player", "PlayerStat", "PlayerTotal", "Rating", "RatingBacklog",
           "RatingStep", "Role", "Seat", "SeatPin", "SeatResult", "SeatStat", "Season", "StoredResult",
           "User"]
