"""Errors raised by the services (besides the engine's RecordError)."""
from __future__ import annotations


class ConflictError(Exception):
    """The game changed since the form was loaded (optimistic locking)."""

    def __init__(self, message: str, current_version: int | None = None) -> None:
        super().__init__(message)
        self.current_version = current_version


class InputError(Exception):
    """Input that is not a record problem: e.g. an unreadable upload."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class NothingChanged(Exception):
    """A save whose record is the stored one: nothing was written (no version, no audit)."""
