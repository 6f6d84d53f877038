"""The persistent aggregates: games (with their seats), players, audit entries."""
from app.db import Base
from app.models.audit import AuditAction, AuditEntry
from app.models.game import Game, GameStatus, Seat
from app.models.player import Player

__all__ = ["AuditAction", "AuditEntry", "Base", "Game", "GameStatus", "Player", "Seat"]
