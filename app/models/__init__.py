"""The persistent aggregates: games (with their seats), players, audit entries, the stored
results derived from each game's record, and seasons."""
from app.db import Base
from app.models.audit import AuditAction, AuditEntry
from app.models.export import ExportJob, ExportState
from app.models.game import Game, GameStatus, Seat
from app.models.player import Player
from app.models.result import PlayerTotal, SeatResult, StoredResult
from app.models.season import Season

__all__ = ["AuditAction", "AuditEntry", "Base", "ExportJob", "ExportState", "Game", "GameStatus",
           "Player", "PlayerTotal", "Seat", "SeatResult", "Season", "StoredResult"]
