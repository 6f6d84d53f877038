"""Errors raised by the services (besides the engine's RecordError)."""
from __future__ import annotations


class ConflictError(Exception):
    """The game changed since the form was loaded (optimistic locking)."""

    def __init__(self, message: str, current_version: int | None = None) -> None:
        super().__init__(message)
        self.current_version = current_version


class BadInput(Exception):
    """A person's input the services refuse that is not a record problem: an unreadable
    upload, a PIN, a password, a season name. (The engine's ``app.rules.errors.InputError``
    is a record it cannot read.) ``cause``: the engine's error it stands for, when there is
    one (the page translates that)."""

    def __init__(self, field: str, message: str, cause: Exception | None = None) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.cause = cause


class NothingChanged(Exception):
    """A save whose record is the stored one: nothing was written (no version, no audit)."""


class LockedError(Exception):
    """The table confirmed the sheet: only a director, giving a reason, may change it."""

    def __init__(self, message: str, game_id: int) -> None:
        super().__init__(message)
        self.game_id = game_id


class ForbiddenError(Exception):
    """The user may not do this (a scorer of another game, a player, …)."""
