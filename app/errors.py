"""Errors raised by the services (besides the engine's RecordError).

What they say to a person is a :class:`Text`: an English template, a msgid of the catalogs,
and its params. The services never translate; the web does (``app.web.messages.service_text``).
"""
from __future__ import annotations

from typing import Any


class Text:
    """A message not yet in anyone's language: ``Text("At most %(n)s characters.", n=40)``.
    ``str()`` is the English sentence. (``Text`` is an extraction keyword of the catalogs.)"""

    __slots__ = ("params", "template")

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        return self.template % self.params if self.params else self.template

    def __repr__(self) -> str:
        return f"Text({self.template!r}, **{self.params!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Text) and other.template == self.template
                and other.params == self.params)

    def __hash__(self) -> int:
        return hash(self.template)


def as_text(message: str | Text) -> Text:
    return message if isinstance(message, Text) else Text(message)


class ConflictError(Exception):
    """The game changed since the form was loaded (optimistic locking)."""

    def __init__(self, message: str, current_version: int | None = None) -> None:
        super().__init__(message)
        self.current_version = current_version


class BadInput(Exception):
    """A person's input the services refuse that is not a record problem: an unreadable
    upload, a PIN, a password, a season name. (The engine's ``app.rules.errors.InputError``
    is a record it cannot read.) ``cause``: the engine's error it stands for, when there is
    one (the page translates that). ``message`` is the English sentence of ``text``."""

    def __init__(self, field: str, message: str | Text, cause: Exception | None = None) -> None:
        self.text = as_text(message)
        self.message = str(self.text)
        super().__init__(f"{field}: {self.message}")
        self.field = field
        self.cause = cause


class NothingChanged(Exception):
    """A save whose record is the stored one: nothing was written (no version, no audit)."""


class LockedError(Exception):
    """The table confirmed the sheet: only a director, giving a reason, may change it."""

    def __init__(self, message: str | Text, game_id: int) -> None:
        self.text = as_text(message)
        super().__init__(str(self.text))
        self.game_id = game_id


class ForbiddenError(Exception):
    """The user may not do this (a scorer of another game, a player, …)."""

    def __init__(self, message: str | Text) -> None:
        self.text = as_text(message)
        super().__init__(str(self.text))


class SheetChanged(BadInput):
    """A confirmation of a version of the sheet that is not the current one: the player
    looked at another sheet than the one that stands (field ``version``)."""

    def __init__(self, current_version: int) -> None:
        super().__init__("version", Text("The sheet changed: look again."))
        self.current_version = current_version
